package dev.sluice.jmh.gpu;

import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.gpu.DeviceInput;
import dev.sluice.gpu.DeviceTimes;
import dev.sluice.gpu.GpuMapTask;
import dev.sluice.jmh.RunSettings;
import dev.sluice.jmh.profile.WaveWindow;
import dev.sluice.jmh.state.GateState;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The seed's map task as the RAPIDS Accelerator runs it, against the CPU path on the same rows. {@code gpuMapTask}:
 * each batch (already on the device) partitioned there, copied to host once into pinned or pageable memory, each
 * partition's slice serialized with {@code serializer} (kudo, spark-rapids' default, or JCudfSerialization) and
 * compressed by the strategy, committed as one map output. {@code cpuMapTask}: the same Arrow input partitioned on the
 * CPU (Spark's exchange) and written as Arrow IPC through the same strategy. Both are timed from the partitioning of
 * the first batch to the commit. {@code hostMapTask}: the record formats side by side on the host, without a GPU:
 * the rows already partitioned before the iteration ({@link HostFormatState}), each record serialized as
 * {@code format} (kudo, jcudf or arrow-ipc), timed from the writer's creation to the commit. Every output is verified
 * every iteration; {@link WaveProfiler} profiles each method's timed part and nothing else. {@code gpuMapTask} needs
 * a GPU, and it and {@code hostMapTask}'s kudo and jcudf need the spark-rapids-jni jar on the class path
 * (docs/gpu.md); {@code gpuMapTask} prints the device's partition and copy times, the copy's GB/s and how many host
 * buffers were really pinned.
 */
public class GpuMapTaskBenchmark extends RunSettings {
    @Benchmark
    public MapOutput gpuMapTask(GpuTaskState task, GpuDeviceState deviceState, GateState gate, GpuIteration iteration)
            throws Exception {
        DeviceInput device = deviceState.device();
        DeviceTimes times = iteration.deviceTimes(deviceState.memory());
        GpuMapTask.Result result;
        WaveWindow.opened();
        iteration.started();
        try {
            result = GpuMapTask.run(task.executor(), new MapTask(0, GpuTaskState.MAP_ID, deviceState.format()),
                    device.batches(), b -> device.partitionToHost(b, task.gpuPartitioning(), task.partitions(),
                            task.startPartition(), deviceState.memory(), times));
        } finally {
            WaveWindow.closed();
        }
        return iteration.measured(result.output, deviceState.format(), true, result.nanos, result.serializedBytes);
    }

    @Benchmark
    public MapOutput cpuMapTask(GpuTaskState task, GateState gate, GpuIteration iteration) throws Exception {
        WaveWindow.opened();
        iteration.started();
        long start = System.nanoTime();
        ArrowIpcFormat format = new ArrowIpcFormat(task.input().schema(), task.codec());
        MapOutput output;
        try (PartitionedInput records = PartitionedInput.partition(task.input(),
                task.cpuPartitioning().create(task.partitions(), GpuTaskState.MAP_ID), task.allocator())) {
            output = write(task, format, records);
        } finally {
            WaveWindow.closed();
        }
        return iteration.measured(output, null, false, System.nanoTime() - start, -1);
    }

    @Benchmark
    public MapOutput hostMapTask(GpuTaskState task, HostFormatState host, GateState gate, GpuIteration iteration)
            throws Exception {
        WaveWindow.opened();
        iteration.started();
        try {
            if (host.gpuFormat() != null) {
                GpuMapTask.Result result = GpuMapTask.run(task.executor(), new MapTask(0, GpuTaskState.MAP_ID,
                        host.gpuFormat()), task.input().batches().size(), host::take);
                return iteration.measured(result.output, host.gpuFormat(), false, result.nanos,
                        result.serializedBytes);
            }
            long start = System.nanoTime();
            MapOutput output = write(task, host.arrowFormat(), host.partitioned());
            return iteration.measured(output, null, false, System.nanoTime() - start, -1);
        } finally {
            WaveWindow.closed();
        }
    }

    /** Every record of {@code input} in {@code format} through the task's strategy, committed. */
    private static MapOutput write(GpuTaskState task, ArrowIpcFormat format, PartitionedInput input) throws Exception {
        try (ShuffleWriter writer = task.executor().createMapOutputWriter(new MapTask(0, GpuTaskState.MAP_ID,
                format))) {
            for (ShuffleRecord record : input.records(format)) {
                writer.write(record);
            }
            return writer.commit();
        }
    }
}
