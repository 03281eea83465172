package dev.sluice.jmh.gpu;

import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.gpu.GpuFormat;
import dev.sluice.gpu.GpuSerializer;
import dev.sluice.gpu.HostMemory;
import dev.sluice.gpu.HostPartitions;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.StreamFormat;
import org.apache.arrow.util.AutoCloseables;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The record format of {@code GpuMapTaskBenchmark.hostMapTask} and the partitioned input it writes, made before each
 * iteration, outside its time: for {@code kudo} and {@code jcudf}, each batch partitioned on the host as the device
 * would ({@link HostPartitions#onHost}, pageable host columns grouped by partition); for {@code arrow-ipc}, the CPU
 * path's partitioned input ({@link PartitionedInput}, zero-copy slices for round robin). So the three write the same
 * rows, laid out by partition, and differ only in how a record is serialized. kudo and jcudf need the spark-rapids-jni
 * jar on the class path, and say so where it is not.
 */
@State(Scope.Benchmark)
public class HostFormatState {
    static final String ARROW_IPC = "arrow-ipc";

    /** kudo, jcudf ({@link GpuSerializer}) or arrow-ipc (the CPU path's Arrow IPC stream). */
    @Param({"kudo", "jcudf", ARROW_IPC})
    public String format;

    /** Null for Arrow IPC. */
    private GpuFormat gpuFormat;
    private ArrowIpcFormat arrowFormat;
    /** This iteration's host partitions, one per batch; each handed out once ({@link #take}), then its taker's. */
    private HostPartitions[] hostPartitions;
    private PartitionedInput partitioned;

    @Setup(Level.Trial)
    public void choose(GpuTaskState task) {
        if (ARROW_IPC.equals(format)) {
            arrowFormat = new ArrowIpcFormat(task.input().schema(), task.codec());
            return;
        }
        GpuSerializer serializer;
        try {
            serializer = GpuSerializer.parse(BenchmarkParam.FORMAT.key(), format);
        } catch (InvalidParameterException e) {
            throw new InvalidParameterException(BenchmarkParam.FORMAT.key(), format, "kudo, jcudf or " + ARROW_IPC);
        }
        GpuSerializer.requireClassPath("GpuMapTaskBenchmark.hostMapTask with format=" + format);
        gpuFormat = serializer.format(task.codec(), task.input().schema());
    }

    @Setup(Level.Iteration)
    public void partition(GpuTaskState task) {
        if (gpuFormat == null) {
            partitioned = PartitionedInput.partition(task.input(),
                    task.cpuPartitioning().create(task.partitions(), GpuTaskState.MAP_ID), task.allocator());
            return;
        }
        HostMemory memory = HostMemory.pageable();
        hostPartitions = new HostPartitions[task.input().batches().size()];
        try {
            for (int b = 0; b < hostPartitions.length; b++) {
                hostPartitions[b] = HostPartitions.onHost(task.input().batches().get(b), task.gpuPartitioning(),
                        task.partitions(), task.startPartition(), memory, task.allocator());
            }
        } catch (RuntimeException | Error e) {
            release();
            throw e;
        }
    }

    /** The format of the map task's partition streams. */
    StreamFormat streamFormat() {
        return gpuFormat != null ? gpuFormat : arrowFormat;
    }

    /** The GPU format, or null for Arrow IPC. */
    GpuFormat gpuFormat() {
        return gpuFormat;
    }

    ArrowIpcFormat arrowFormat() {
        return arrowFormat;
    }

    /** Batch {@code b}'s host partitions, which the caller closes from now on. */
    HostPartitions take(int b) {
        HostPartitions taken = hostPartitions[b];
        if (taken == null) {
            throw new IllegalStateException("batch " + b + "'s host partitions were taken already");
        }
        hostPartitions[b] = null;
        return taken;
    }

    /** The CPU path's partitioned input of this iteration (Arrow IPC). */
    PartitionedInput partitioned() {
        return partitioned;
    }

    /** Closes what this iteration made and no one took. */
    @TearDown(Level.Iteration)
    public void release() {
        try {
            if (hostPartitions != null) {
                AutoCloseables.close(hostPartitions);
            }
        } catch (Exception e) {
            throw new IllegalStateException("closing the host partitions failed", e);
        } finally {
            hostPartitions = null;
            if (partitioned != null) {
                partitioned.close();
                partitioned = null;
            }
        }
    }
}
