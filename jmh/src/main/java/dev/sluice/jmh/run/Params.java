package dev.sluice.jmh.run;

/**
 * The names of the {@code @Param} fields the runner sets, in one place (ParamsTest checks that each names a
 * {@code @Param} of the benchmarks' classes, so that a renamed field fails a test, not a run).
 */
public final class Params {
    /** WorkloadState: the data size, its scale, the map tasks at once, the codec and the batch producer. */
    public static final String SIZE = "size";
    public static final String SCALE = "scale";
    public static final String TASKS = "tasks";
    public static final String CODEC = "codec";
    public static final String PRODUCER = "producer";
    /** StorageState: the device the files go to, and what warm-up waves write. */
    public static final String DEVICE = "device";
    public static final String WARM_UP = "warmUp";
    /** WriterSettings and RawWriteBenchmark: whether every commit forces its files to the device. */
    public static final String SYNC = "sync";
    /** WriterState: one strategy's spec; WriterSettings: its (or, paired, each strategy's) memory limit. */
    public static final String STRATEGY = "strategy";
    public static final String MEMORY_LIMIT = "memoryLimit";
    /** PairedState: a paired trial's strategies, the baseline first. */
    public static final String STRATEGIES = "strategies";
    /** RawWriteBenchmark: the bytes of each sequential write. */
    public static final String FILE_BYTES = "fileBytes";
    /** RawWriteBenchmark: how fast each thread may write (the paced write's bytes per second). */
    public static final String PACE = "pace";

    private Params() {}
}
