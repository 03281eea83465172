package dev.sluice.core.run;

/**
 * The secondary results the benchmarks write and the report tools read, each with its key in a JMH result, its unit
 * and how JMH aggregates it over iterations: one vocabulary for both sides, so that a key renamed here is renamed for
 * writer and reader at once. Two constants share a key where two benchmark families write it in different units (the
 * kernel's counters per task for a wave, for the whole process at the network boundary).
 */
public enum Metric {
    // A wave (ShuffleWriteBenchmark, PairedWaveBenchmark, RawWriteBenchmark): the seed report's tables.
    WAVE_TASKS("wave.tasks", "tasks"),
    WAVE_INPUT_BYTES_PER_TASK("wave.inputBytesPerTask", "B"),
    WAVE_BATCHES_PER_TASK("wave.batchesPerTask", "batches"),
    WAVE_DATA_BYTES_PER_TASK("wave.dataBytesPerTask", "B"),
    WAVE_SUM_TASK_MILLIS("wave.sumTaskMillis", "ms"),
    WAVE_SLOWEST_TASK_MILLIS("wave.slowestTaskMillis", "ms"),
    /** The reduce side's read after a wave (or a boundary iteration), timed on its own. */
    QUERY_READ_MILLIS("query.readMillis", "ms"),
    QUERY_TOTAL_MILLIS("query.totalMillis", "ms"),
    // The counted I/O per task.
    IO_WRITE_CALLS("io.writeCalls", "calls/task"),
    IO_BYTES_WRITTEN("io.bytesWritten", "B/task"),
    IO_COMMITTED_BYTES("io.committedBytes", "B/task"),
    IO_AMPLIFICATION("io.amplification", "ratio"),
    /** The share of the bytes written at commit, once the map output was made (WaveResult's atCommitShare). */
    IO_AT_COMMIT_SHARE("io.atCommitShare", "ratio"),
    IO_WRITE_CALLS_PER_MIB("io.writeCallsPerMiB", "calls/MiB"),
    IO_MEAN_WRITE_CALL_BYTES("io.meanWriteCallBytes", "B"),
    IO_FILES_CREATED("io.filesCreated", "files/task"),
    /** The most files open at once in the wave's process through the storage (all its tasks), the most of any wave. */
    IO_PEAK_OPEN_FILES("io.peakOpenFiles", "files", Aggregation.MAX),
    IO_BYTES_READ("io.bytesRead", "B/task"),
    IO_FSYNCS("io.fsyncs", "calls/task"),
    IO_SPILLED_BYTES("io.spilledBytes", "B/task"),
    IO_SPILL_FILES("io.spillFiles", "files/task"),
    /** The most any iteration buffered, not their mean. */
    IO_PEAK_BUFFERED_BYTES("io.peakBufferedBytes", "B", Aggregation.MAX),
    // The kernel's counters (/proc/self/io) over a wave, per task and per MiB committed.
    PROC_SYSCW("proc.syscw", "calls/task"),
    PROC_SYSCW_PER_MIB("proc.syscwPerMiB", "calls/MiB"),
    PROC_WCHAR("proc.wchar", "B/task"),
    PROC_WCHAR_PER_MIB("proc.wcharPerMiB", "B/MiB"),
    PROC_WRITE_BYTES("proc.write_bytes", "B/task"),
    PROC_WRITE_BYTES_PER_MIB("proc.write_bytesPerMiB", "B/MiB"),
    PROC_CANCELLED_WRITE_BYTES("proc.cancelled_write_bytes", "B/task"),
    PROC_CANCELLED_WRITE_BYTES_PER_MIB("proc.cancelled_write_bytesPerMiB", "B/MiB"),
    /** Written as 0 where /proc/self/io could not be read, in place of the proc.* figures. */
    PROC_AVAILABLE("proc.available", "bool"),
    DIRTY_PEAK_BYTES("dirty.peakBytes", "B"),
    CPU_USER_MILLIS("cpu.userMillis", "ms"),
    CPU_SYSTEM_MILLIS("cpu.systemMillis", "ms"),
    /**
     * The CPU everything but the measuring process took on the machine over the wave (WaveResult's othersCpuMillis):
     * where an emulated device's own work on the tasks' cores shows, which a real disk does without them.
     */
    CPU_OTHERS_MILLIS("cpu.othersMillis", "ms"),
    CPU_MINOR_FAULTS("cpu.minorFaults", "faults"),
    CPU_MAJOR_FAULTS("cpu.majorFaults", "faults"),
    /** The JIT compilers' time during the wave, summed over their threads (the JVM's CompilationMXBean). */
    JIT_COMPILATION_MILLIS("jit.compilationMillis", "ms"),
    // An emulated device's limits.
    DEVICE_WRITE_MBPS("device.writeMBps", "MB/s"),
    DEVICE_DIRTY_MB("device.dirtyMB", "MB"),
    DEVICE_IOPS("device.iops", "ops/s"),
    DEVICE_RAW_WRITE_MBPS("device.rawWriteMBps", "MB/s"),
    DEVICE_TASK_RATE_MBPS("device.taskRateMBps", "MB/s"),
    /** A raw or paced write on an emulated device: what a fluid disk of the device's rate and cache takes for it. */
    DEVICE_FLUID_MILLIS("device.fluidMillis", "ms"),
    /** A paired wave's strategy, as its index in the trial's {@code strategies}, and its round. */
    PAIR_STRATEGY("pair.strategy", "index"),
    PAIR_ROUND("pair.round", "round"),
    // The gate before a wave: the page cache's dirty data back near idle.
    GATE_DIRTY_BYTES_BEFORE("gate.dirtyBytesBefore", "B"),
    GATE_DIRTY_BYTES_AT_START("gate.dirtyBytesAtStart", "B"),
    GATE_WAIT_MILLIS("gate.waitMillis", "ms"),
    /** How many iterations the gate let through before the page cache settled: counted, not averaged. */
    GATE_UNSETTLED("gate.unsettled", "iterations", Aggregation.SUM),
    // The network boundary (NetworkBoundaryBenchmark, PairedBoundaryBenchmark).
    NET_INPUT_BYTES("net.inputBytes", "B"),
    NET_MESSAGES("net.messages", "messages"),
    NET_WIRE_BYTES("net.wireBytes", "B"),
    NET_MEAN_MESSAGE_BYTES("net.meanMessageBytes", "B"),
    NET_BYTES_COPIED("net.bytesCopied", "B"),
    NET_COALESCED_BYTES("net.coalescedBytes", "B"),
    NET_SERIALIZED_BYTES("net.serializedBytes", "B"),
    NET_BATCHES_RECEIVED("net.batchesReceived", "batches"),
    NET_MEAN_BATCH_ROWS("net.meanBatchRows", "rows"),
    NET_SEND_MILLIS("net.sendMillis", "ms"),
    NET_LINK_WAIT_MILLIS("net.linkWaitMillis", "ms"),
    NET_ROWS_VERIFIED("net.rowsVerified", "rows"),
    /** The kernel's counters over a boundary iteration: the whole process, not per task. */
    NET_PROC_SYSCW("proc.syscw", "calls"),
    NET_PROC_SYSCW_PER_MIB("proc.syscwPerMiB", "calls/MiB"),
    NET_PROC_SYSCR("proc.syscr", "calls"),
    NET_PROC_WCHAR("proc.wchar", "B"),
    /** A paired boundary iteration's mode, as its index in the trial's modes. */
    PAIR_MODE("pair.mode", "index"),
    // The emulated link.
    LINK_RATE_MBIT("link.rateMbit", "Mbit/s"),
    LINK_MEASURED_MBIT("link.measuredMbit", "Mbit/s"),
    LINK_NETNS("link.netns", "bool"),
    LINK_TBF("link.tbf", "bool"),
    // One map task on the GPU path (GpuMapTaskBenchmark): the task, its I/O for the whole task, the device's share.
    TASK_MILLIS("task.millis", "ms"),
    TASK_CPU_MILLIS("task.cpuMillis", "ms"),
    TASK_INPUT_BYTES("task.inputBytes", "B"),
    TASK_ROWS("task.rows", "rows"),
    TASK_DATA_BYTES("task.dataBytes", "B"),
    TASK_SERIALIZED_BYTES("task.serializedBytes", "B"),
    TASK_IO_BYTES_WRITTEN("io.bytesWritten", "B"),
    TASK_IO_WRITE_CALLS("io.writeCalls", "calls"),
    TASK_IO_COMMITTED_BYTES("io.committedBytes", "B"),
    GPU_BATCHES("gpu.batches", "batches"),
    GPU_PARTITION_MILLIS("gpu.partitionMillis", "ms"),
    GPU_COPY_MILLIS("gpu.copyMillis", "ms"),
    GPU_COPY_BYTES("gpu.copyBytes", "B"),
    GPU_COPY_GBPS("gpu.copyGBps", "GB/s"),
    GPU_HOST_BUFFERS("gpu.hostBuffers", "buffers"),
    GPU_PINNED_BUFFERS("gpu.pinnedBuffers", "buffers"),
    GPU_PINNED_BYTES("gpu.pinnedBytes", "B");

    /** How JMH combines an iteration's values into the result's (its AggregationPolicy of the same name). */
    public enum Aggregation { AVG, MAX, SUM }

    private final String key;
    private final String unit;
    private final Aggregation aggregation;

    Metric(String key, String unit) {
        this(key, unit, Aggregation.AVG);
    }

    Metric(String key, String unit, Aggregation aggregation) {
        this.key = key;
        this.unit = unit;
        this.aggregation = aggregation;
    }

    /** The secondary result's name in a JMH result. */
    public String key() {
        return key;
    }

    public String unit() {
        return unit;
    }

    public Aggregation aggregation() {
        return aggregation;
    }

    /** How the result named {@code key} is aggregated: as its metric is, or averaged for a key of no metric. */
    public static Aggregation aggregationOf(String key) {
        for (Metric m : values()) {
            if (m.key.equals(key)) {
                return m.aggregation;
            }
        }
        return Aggregation.AVG;
    }
}
