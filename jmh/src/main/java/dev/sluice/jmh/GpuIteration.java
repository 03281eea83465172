package dev.sluice.jmh;

import dev.sluice.core.io.IoSnapshot;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.gpu.DeviceTimes;
import dev.sluice.gpu.HostMemory;
import dev.sluice.gpu.JCudfVerifier;
import java.util.Locale;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One measured map task of the GPU experiment, on either path: after the measured time, its map output is read back
 * and verified (a GPU output as each partition's multiset of rows, a CPU output row by row in order; a mismatch fails
 * the iteration instead of scoring), the figures are printed, and the output is deleted so that the next iteration
 * starts from the same state.
 */
@State(Scope.Benchmark)
public class GpuIteration {
    private MapOutput output;
    private boolean gpu;
    private long nanos;
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

    /** The device side's times of this iteration, to be filled by the GPU path. */
    DeviceTimes deviceTimes(HostMemory hostMemory) {
        memory = hostMemory;
        hostBefore = hostMemory.usage();
        return times;
    }

    MapOutput measured(MapOutput written, boolean onGpu, long taskNanos) {
        output = written;
        gpu = onGpu;
        nanos = taskNanos;
        return written;
    }

    @TearDown(Level.Iteration)
    public void verify(GpuTaskState task) throws Exception {
        if (output == null) {
            return;
        }
        try (MapOutput written = output; PartitionReader reader = written.openReader(task.storage())) {
            VerificationResult verified = gpu
                    ? JCudfVerifier.verify(reader, task.gpuExpected(), task.input().schema(), task.codec(),
                            task.allocator())
                    : Verifier.verify(reader, task.cpuExpected(), task.input().schema(), task.codec(), task.allocator());
            if (!verified.ok()) {
                throw new IllegalStateException((gpu ? "GPU" : "CPU") + " map task with " + task.strategy
                        + ": the map output differs from the input: " + verified);
            }
            IoSnapshot io = task.storage().counters().snapshot().since(ioBefore);
            HostMemory.Usage host = gpu ? memory.usage().since(hostBefore) : null;
            GpuRecord.publish(new GpuRecord(gpu, nanos, task.input().bytes(), task.input().rows(), gpu ? times : null,
                    host, io));
            if (gpu) {
                System.out.printf(Locale.ROOT, "%nsluice gpu: task %.1f ms; %s; host %s; %s%n", nanos / 1e6, times,
                        host, verified);
            } else {
                System.out.printf(Locale.ROOT, "%nsluice cpu: task %.1f ms; %s%n", nanos / 1e6, verified);
            }
            written.delete(task.storage());
        } finally {
            output = null;
        }
    }
}
