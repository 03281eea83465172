package dev.sluice.jmh.gpu;

import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.gpu.DeviceTimes;
import dev.sluice.gpu.GpuFormat;
import dev.sluice.gpu.GpuVerifier;
import dev.sluice.gpu.HostMemory;
import dev.sluice.jmh.profile.Figures;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.storage.IoSnapshot;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One measured map task of the GPU experiment, on any path: after the measured time, its map output is read back
 * and verified (kudo or JCudfSerialization records as each partition's multiset of rows, Arrow IPC records row by row
 * in order; a mismatch fails the iteration instead of scoring), the figures are printed, and the output is deleted so
 * that the next iteration starts from the same state.
 */
@State(Scope.Benchmark)
public class GpuIteration {
    private MapOutput output;
    /** The GPU path's format, or null for Arrow IPC. */
    private GpuFormat format;
    private boolean onDevice;
    private long nanos;
    private long cpuStart;
    private long cpuNanos;
    private long serializedBytes;
    private DeviceTimes times;
    private HostMemory.Usage hostBefore;
    private HostMemory memory;
    private IoSnapshot ioBefore;

    @Setup(Level.Iteration)
    public void begin(GpuTaskState task) {
        output = null;
        times = new DeviceTimes();
        ioBefore = task.storage().counters().snapshot();
    }

    /** The measured part starts: from here to {@link #measured}, the JVM's CPU time is the task's. */
    void started() {
        cpuStart = processCpuNanos();
    }

    /**
     * CPU time of every thread of this JVM so far (writer threads, the task's, the JIT's and GC's), which another
     * process on the machine slows less than it slows the wall-clock time.
     */
    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
                ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : -1;
    }

    /** The device side's times of this iteration, to be filled by the GPU path. */
    DeviceTimes deviceTimes(HostMemory hostMemory) {
        memory = hostMemory;
        hostBefore = hostMemory.usage();
        return times;
    }

    /**
     * What the measured method wrote: {@code written} in {@code gpuFormat} (null: Arrow IPC), partitioned on the
     * device ({@code device}) or on the host, in {@code taskNanos}; {@code serialized} is the records' bytes before
     * compression where the format says (-1 where not).
     */
    MapOutput measured(MapOutput written, GpuFormat gpuFormat, boolean device, long taskNanos, long serialized) {
        long cpu = processCpuNanos();
        cpuNanos = cpu < 0 || cpuStart < 0 ? -1 : cpu - cpuStart;
        output = written;
        format = gpuFormat;
        onDevice = device;
        nanos = taskNanos;
        serializedBytes = serialized;
        return written;
    }

    @TearDown(Level.Iteration)
    public void verify(GpuTaskState task) throws Exception {
        if (output == null) {
            return;
        }
        String path = (onDevice ? "gpu" : format != null ? "host" : "cpu") + " ("
                + (format != null ? format.serializer().label() : "arrow-ipc") + ")";
        try (MapOutput written = output; PartitionReader reader = written.openReader(task.storage())) {
            VerificationResult verified = format != null
                    ? GpuVerifier.verify(reader, task.gpuExpected(), format, task.input().schema(), task.allocator())
                    : Verifier.verify(reader, task.cpuExpected(), task.input().schema(), task.codec(),
                            task.allocator());
            if (!verified.ok()) {
                throw new IllegalStateException(path + " map task with " + task.strategy()
                        + ": the map output differs from the input: " + verified);
            }
            IoSnapshot io = task.storage().counters().snapshot().since(ioBefore);
            HostMemory.Usage host = onDevice ? memory.usage().since(hostBefore) : null;
            Figures.publish(new GpuFigures(onDevice, nanos, cpuNanos, task.input().bytes(), task.input().rows(),
                    written.totalBytes(), serializedBytes, onDevice ? times : null, host, io));
            if (onDevice) {
                System.out.printf(Locale.ROOT, "%nsluice %s: task %.1f ms; %s; host %s; %d data bytes; %s%n", path,
                        nanos / 1e6, times, host, written.totalBytes(), verified);
            } else {
                System.out.printf(Locale.ROOT, "%nsluice %s: task %.1f ms (CPU %.1f ms); %d data bytes; %s%n", path,
                        nanos / 1e6, cpuNanos / 1e6, written.totalBytes(), verified);
            }
            written.delete(task.storage());
        } finally {
            output = null;
        }
    }
}
