package dev.sluice.jmh.state;

import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.device.RunDevice;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.TaskRateCalibration;
import dev.sluice.core.run.Workload;
import java.io.IOException;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Where a trial's files go: {@code -p device=native} (default), a fresh directory under {@code -Dsluice.dir} or the
 * temp directory; or an emulated device ({@code emulated:write=RATE:dirty=SIZE}, or a profile such as
 * {@code seed-ssd} scaled to the trial's tasks and scale) made in that directory for the trial and torn down after it,
 * its figures and measured raw write reported as {@code device.*} secondary results.
 */
@State(Scope.Benchmark)
public class StorageState {
    /** native, emulated:write=RATE:dirty=SIZE[:iops=N][:read=RATE][:size=SIZE], or a device profile. */
    @Param({"native"})
    public String device;

    private RunDevice storage;

    @Setup(Level.Trial)
    public void open(WorkloadState workloadState, WriterSettings settings) throws Exception {
        Workload workload = workloadState.workload();
        DeviceSpec spec = DeviceSpec.parse(BenchmarkParam.DEVICE.key(), device);
        RunDevice.Planned planned = RunDevice.plan(BenchmarkParam.DEVICE.key(), spec, workload.tasks, workload.scale,
                RunDevice.plannedBytes(workload.taskShape()));
        // A balance sets the device relative to this harness's own task rate, measured on native storage (or cached).
        storage = planned.open(base(), () -> TaskRateCalibration.find(workload, settings.config(workload, "none"),
                base(), TaskRateCache.standard(), System.out), System.out, false);
    }

    /** Where files go without a device, and where a device's image goes: -Dsluice.dir or the temp directory. */
    public static Path base() {
        return TrialDirectory.base();
    }

    /** A fresh directory for one trial's files on the trial's storage ({@link TrialDirectory}). */
    public Path newTrialDirectory(String prefix) throws IOException {
        return TrialDirectory.create(storage.directory(), prefix);
    }

    /** The emulated device, or null for native storage. */
    public EmulatedDevice emulated() {
        return storage == null ? null : storage.emulated();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        if (storage != null) {
            storage.close();
            storage = null;
        }
    }
}
