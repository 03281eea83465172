package dev.sluice.spi;

import dev.sluice.spi.memory.TaskMemory;
import java.nio.file.Path;

/** Identity of the map task a writer serves, and the stream format its partitions are written in. */
@WriterGiven
public final class MapTask {
    public final int shuffleId;
    public final long mapId;
    /** What opens and closes each partition's stream; the records' payloads bring their own bytes. */
    public final StreamFormat format;

    /**
     * Where this task's files go, or null for the writer configuration's {@code outputDir}. Spark's manager sets it
     * to a directory in the local dir where Spark will put the task's data file, so that handing the file over is a
     * rename on every disk layout (Spark hashes a map's files across its local dirs, {@code DiskBlockManager.getFile}).
     */
    public final Path outputDir;

    /**
     * The task's memory as its host manages it: a writer charges what it holds for the task here and gives it back
     * when asked ({@link TaskMemory#UNBOUNDED} unless the host manages memory, as Spark does).
     */
    public final TaskMemory memory;

    public MapTask(int shuffleId, long mapId, StreamFormat format) {
        this(shuffleId, mapId, format, null);
    }

    public MapTask(int shuffleId, long mapId, StreamFormat format, Path outputDir) {
        this(shuffleId, mapId, format, outputDir, TaskMemory.UNBOUNDED);
    }

    public MapTask(int shuffleId, long mapId, StreamFormat format, Path outputDir, TaskMemory memory) {
        if (memory == null) {
            throw new IllegalArgumentException("memory must not be null: TaskMemory.UNBOUNDED where the host manages none");
        }
        this.shuffleId = shuffleId;
        this.mapId = mapId;
        this.format = format;
        this.outputDir = outputDir;
        this.memory = memory;
    }

    /** The directory this task's files go to: its own, else {@code config}'s output directory. */
    public Path directory(WriterConfig config) {
        return outputDir != null ? outputDir : config.outputDir;
    }
}
