package dev.sluice.core.run;

import java.util.Optional;

/**
 * The JMH parameters of Sluice's benchmarks, by the names of their {@code @Param} fields: what the runner sets and
 * the report reads back from a JMH result's {@code params}. The benchmarks module's tests check that every
 * {@code @Param} field of a benchmark is one of these and that each of these is one, so that a renamed field fails a
 * test, not a run or a report.
 */
public enum BenchmarkParam {
    /** WorkloadState and the network boundary: the data size, its scale, the map tasks at once, the codec. */
    SIZE("size"),
    SCALE("scale"),
    TASKS("tasks"),
    CODEC("codec"),
    /** WorkloadState: how batches are made ({@code Producer}), the partitions and the input's shape. */
    PRODUCER("producer"),
    PARTITIONS("partitions"),
    PARTITIONING("partitioning"),
    ROWS_PER_BATCH("rowsPerBatch"),
    BATCHES("batches"),
    BATCH_BYTES("batchBytes"),
    KEYS("keys"),
    SEED("seed"),
    /** StorageState: the device the files go to; InputState: what warm-up waves write. */
    DEVICE("device"),
    WARM_UP("warmUp"),
    /** WriterSettings and RawWriteBenchmark: whether every commit forces its files to the device. */
    SYNC("sync"),
    /** WriterSettings: the writer's threads, its I/O counting and each strategy's memory limit. */
    THREADS("threads"),
    COUNTING("counting"),
    MEMORY_LIMIT("memoryLimit"),
    /** WriterState: one strategy's spec. */
    STRATEGY("strategy"),
    /** PairedState: a paired trial's strategies, the baseline first. */
    STRATEGIES("strategies"),
    /** RawWriteBenchmark: the bytes of each sequential write, where they come from, and the paced write's rate. */
    FILE_BYTES("fileBytes"),
    SOURCE_BYTES("sourceBytes"),
    PACE("pace"),
    /** NoiseFloorBenchmark: the constant job's rounds. */
    ROUNDS("rounds"),
    /** The network boundary: its workload, link, transport, mode (or paired modes) and batch coalescing. */
    WORKLOAD("workload"),
    LINK("link"),
    TRANSPORT("transport"),
    MODE("mode"),
    MODES("modes"),
    INPUT_ROWS("inputRows"),
    TARGET_ROWS("targetRows"),
    /** The GPU map task: the host format, serializer, pinned memory and its pool, and the upload. */
    FORMAT("format"),
    SERIALIZER("serializer"),
    PINNED("pinned"),
    PINNED_POOL("pinnedPool"),
    UPLOAD("upload");

    private final String key;

    BenchmarkParam(String key) {
        this.key = key;
    }

    /** The {@code @Param} field's name: the key in JMH's options ({@code -p key=value}) and in a result's params. */
    public String key() {
        return key;
    }

    /** The parameter whose field is named {@code key}; empty if none. */
    public static Optional<BenchmarkParam> of(String key) {
        for (BenchmarkParam p : values()) {
            if (p.key.equals(key)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return key;
    }
}
