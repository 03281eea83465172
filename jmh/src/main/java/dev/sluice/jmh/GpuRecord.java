package dev.sluice.jmh;

import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.gpu.DeviceTimes;
import dev.sluice.gpu.HostMemory;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What one iteration of the GPU experiment measured besides its time, handed from {@link GpuIteration} to
 * {@link ShuffleIoProfiler} as {@link NetworkRecord} hands the network boundary's. {@code times} and {@code host} are
 * null off the device.
 */
final class GpuRecord {
    private static final AtomicReference<GpuRecord> LAST = new AtomicReference<>();

    final boolean gpu;
    final long taskNanos;
    /** CPU time of the JVM's threads over the measured part; -1 where the JVM does not say. */
    final long cpuNanos;
    final long inputBytes;
    final long rows;
    /** Bytes of the map output's partitions (the data file): the records serialized, then compressed. */
    final long dataBytes;
    /** The records' serialized bytes before compression, summed; -1 where the format does not say (Arrow IPC). */
    final long serializedBytes;
    final DeviceTimes times;
    final HostMemory.Usage host;
    /** What the strategy did to storage during the task. */
    final IoSnapshot io;

    GpuRecord(boolean gpu, long taskNanos, long cpuNanos, long inputBytes, long rows, long dataBytes,
              long serializedBytes, DeviceTimes times, HostMemory.Usage host, IoSnapshot io) {
        this.gpu = gpu;
        this.taskNanos = taskNanos;
        this.cpuNanos = cpuNanos;
        this.inputBytes = inputBytes;
        this.rows = rows;
        this.dataBytes = dataBytes;
        this.serializedBytes = serializedBytes;
        this.times = times;
        this.host = host;
        this.io = io;
    }

    static void publish(GpuRecord record) {
        LAST.set(record);
    }

    /** The last iteration's record, once; null if none was published since. */
    static GpuRecord take() {
        return LAST.getAndSet(null);
    }
}
