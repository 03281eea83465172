package dev.sluice.spi;


/** Identity of the map task a writer serves, and the stream format its partitions are written in. */
public final class MapTask {
    public final int shuffleId;
    public final long mapId;
    /** What opens and closes each partition's stream; the records' payloads bring their own bytes. */
    public final StreamFormat format;

    public MapTask(int shuffleId, long mapId, StreamFormat format) {
        this.shuffleId = shuffleId;
        this.mapId = mapId;
        this.format = format;
    }
}
