package dev.sluice.jmh.gpu;

import org.openjdk.jmh.results.Result;
import java.util.List;
import java.util.ArrayList;
import dev.sluice.jmh.profile.Figures;
import static dev.sluice.jmh.profile.Figures.avg;
import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.gpu.DeviceTimes;
import dev.sluice.gpu.HostMemory;

/**
 * What one iteration of the GPU experiment measured besides its time, handed from {@link GpuIteration} to
 * {@link ShuffleIoProfiler} as {@link BoundaryFigures} hands the network boundary's. {@code times} and {@code host} are
 * null off the device.
 */
final class GpuFigures implements Figures {
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

    GpuFigures(boolean gpu, long taskNanos, long cpuNanos, long inputBytes, long rows, long dataBytes,
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



    @Override
    public List<Result> results() {
        List<Result> out = new ArrayList<>();
        out.add(avg("task.millis", taskNanos / 1e6, "ms"));
        if (cpuNanos >= 0) {
            out.add(avg("task.cpuMillis", cpuNanos / 1e6, "ms"));
        }
        out.add(avg("task.inputBytes", inputBytes, "B"));
        out.add(avg("task.rows", rows, "rows"));
        out.add(avg("task.dataBytes", dataBytes, "B"));
        if (serializedBytes >= 0) {
            out.add(avg("task.serializedBytes", serializedBytes, "B"));
        }
        out.add(avg("io.bytesWritten", io.bytesWritten, "B"));
        out.add(avg("io.writeCalls", io.writeCalls, "calls"));
        out.add(avg("io.committedBytes", io.committedBytes, "B"));
        if (gpu) {
            out.add(avg("gpu.batches", times.batches(), "batches"));
            out.add(avg("gpu.partitionMillis", times.partitionNanos() / 1e6, "ms"));
            out.add(avg("gpu.copyMillis", times.copyNanos() / 1e6, "ms"));
            out.add(avg("gpu.copyBytes", times.copyBytes(), "B"));
            out.add(avg("gpu.copyGBps", times.copyGigabytesPerSecond(), "GB/s"));
            out.add(avg("gpu.hostBuffers", host.buffers, "buffers"));
            out.add(avg("gpu.pinnedBuffers", host.pinnedBuffers, "buffers"));
            out.add(avg("gpu.pinnedBytes", host.pinnedBytes, "B"));
        }
        return out;
    }

}
