package dev.sluice.core.write;

import org.apache.arrow.vector.types.pojo.Schema;

/** Identity and input schema of the map task a writer serves. */
public final class MapTask {
    public final int shuffleId;
    public final long mapId;
    public final Schema schema;

    public MapTask(int shuffleId, long mapId, Schema schema) {
        this.shuffleId = shuffleId;
        this.mapId = mapId;
        this.schema = schema;
    }
}
