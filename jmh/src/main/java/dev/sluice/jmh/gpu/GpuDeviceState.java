package dev.sluice.jmh.gpu;

import ai.rapids.cudf.Cuda;
import ai.rapids.cudf.PinnedMemoryPool;
import ai.rapids.cudf.Rmm;
import ai.rapids.cudf.RmmAllocationMode;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.gpu.Device;
import dev.sluice.gpu.DeviceInput;
import dev.sluice.gpu.GpuFormat;
import dev.sluice.gpu.GpuSerializer;
import dev.sluice.gpu.HostMemory;
import dev.sluice.gpu.UploadRoute;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import java.util.Locale;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The device side of the GPU experiment: RMM's asynchronous allocator (spark-rapids' default pool,
 * {@code spark.rapids.memory.gpu.pool=ASYNC}) sized as spark-rapids sizes it, the pinned pool of {@code pinnedPool} bytes (the seed ran 8g; Spark's
 * default is 0), the task's batches uploaded by {@code upload}, outside any measurement, and the {@code serializer}
 * of the records. Refuses to start, saying why, on a machine without a usable GPU.
 */
@State(Scope.Benchmark)
public class GpuDeviceState {
    /** Host copies in pinned memory (true) or pageable memory (false). */
    @Param({"true", "false"})
    public boolean pinned;

    /** Size of cuDF's pinned pool, e.g. {@code 8g}; used when {@code pinned}. */
    @Param({"8g"})
    public String pinnedPool;

    /** from-arrow or pinned-copy ({@link UploadRoute}). */
    @Param({"from-arrow"})
    public String upload;

    /**
     * kudo (spark-rapids' default, {@code spark.rapids.shuffle.kudo.serializer.enabled=true}) or jcudf
     * (JCudfSerialization, the legacy one) ({@link GpuSerializer}).
     */
    @Param({"kudo"})
    public String serializer;

    private DeviceInput device;
    private HostMemory memory;
    private GpuFormat format;

    @Setup(Level.Trial)
    public void open(GpuTaskState task) {
        long pool;
        try {
            pool = Bytes.parse(pinnedPool);
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(BenchmarkParam.PINNED_POOL.key(), pinnedPool, "a byte size (examples: 0, 512m, 8g)");
        }
        UploadRoute route = UploadRoute.parse(BenchmarkParam.UPLOAD.key(), upload);
        GpuSerializer gpuSerializer = GpuSerializer.parse(BenchmarkParam.SERIALIZER.key(), serializer);
        Device.require("GpuMapTaskBenchmark.gpuMapTask");
        format = gpuSerializer.format(task.codec(), task.input().schema());
        if (!Rmm.isInitialized()) {
            Rmm.initialize(RmmAllocationMode.CUDA_ASYNC, null, asyncPoolSize(Cuda.memGetInfo().free));
        }
        if (pinned && pool > 0 && !PinnedMemoryPool.isInitialized()) {
            PinnedMemoryPool.initialize(pool);
        }
        memory = HostMemory.of(pinned);
        long start = System.nanoTime();
        device = DeviceInput.upload(task.input().batches(), route);
        System.out.printf(Locale.ROOT, "%nsluice device: %d batches uploaded (%s) in %.1f s; host copies %s, pinned "
                + "pool %s%n", device.batches(), route.label(), (System.nanoTime() - start) / 1e9, memory, pinnedPool);
    }

    /**
     * The pool spark-rapids gives RMM by default ({@code GpuDeviceManager.computeRmmPoolSize}): the device's free
     * memory less {@code spark.rapids.memory.gpu.reserve} (640 MiB) times {@code spark.rapids.memory.gpu.allocFraction}
     * (1.0), aligned down to 512 bytes. cudf-java wraps the asynchronous allocator in a limiting adaptor of exactly this
     * size, so a pool of 0 refuses every allocation.
     */
    static long asyncPoolSize(long freeBytes) {
        long reserve = 640L << 20;
        if (freeBytes <= reserve) {
            throw new IllegalStateException("the GPU has " + freeBytes + " bytes free, no more than spark-rapids' reserve"
                    + " of " + reserve + ": nothing is left for RMM's pool");
        }
        return (freeBytes - reserve) & ~511L;
    }

    DeviceInput device() {
        return device;
    }

    HostMemory memory() {
        return memory;
    }

    /** The records' format: the serializer's, in the task's codec. */
    GpuFormat format() {
        return format;
    }

    @TearDown(Level.Trial)
    public void close() {
        try {
            if (device != null) {
                device.close();
            }
        } finally {
            if (PinnedMemoryPool.isInitialized()) {
                PinnedMemoryPool.shutdown();
            }
        }
    }
}
