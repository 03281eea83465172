package dev.sluice.jmh.gpu;

import static dev.sluice.jmh.profile.Figures.result;

import dev.sluice.core.run.Metric;
import dev.sluice.gpu.DeviceTimes;
import dev.sluice.gpu.HostMemory;
import dev.sluice.jmh.profile.Figures;
import dev.sluice.spi.storage.IoSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.results.Result;

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
        out.add(result(Metric.TASK_MILLIS, taskNanos / 1e6));
        if (cpuNanos >= 0) {
            out.add(result(Metric.TASK_CPU_MILLIS, cpuNanos / 1e6));
        }
        out.add(result(Metric.TASK_INPUT_BYTES, inputBytes));
        out.add(result(Metric.TASK_ROWS, rows));
        out.add(result(Metric.TASK_DATA_BYTES, dataBytes));
        if (serializedBytes >= 0) {
            out.add(result(Metric.TASK_SERIALIZED_BYTES, serializedBytes));
        }
        out.add(result(Metric.TASK_IO_BYTES_WRITTEN, io.bytesWritten));
        out.add(result(Metric.TASK_IO_WRITE_CALLS, io.writeCalls));
        out.add(result(Metric.TASK_IO_COMMITTED_BYTES, io.committedBytes));
        if (gpu) {
            out.add(result(Metric.GPU_BATCHES, times.batches()));
            out.add(result(Metric.GPU_PARTITION_MILLIS, times.partitionNanos() / 1e6));
            out.add(result(Metric.GPU_COPY_MILLIS, times.copyNanos() / 1e6));
            out.add(result(Metric.GPU_COPY_BYTES, times.copyBytes()));
            out.add(result(Metric.GPU_COPY_GBPS, times.copyGigabytesPerSecond()));
            out.add(result(Metric.GPU_HOST_BUFFERS, host.buffers));
            out.add(result(Metric.GPU_PINNED_BUFFERS, host.pinnedBuffers));
            out.add(result(Metric.GPU_PINNED_BYTES, host.pinnedBytes));
        }
        return out;
    }

}
