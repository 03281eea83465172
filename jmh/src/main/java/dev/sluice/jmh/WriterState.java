package dev.sluice.jmh;

import dev.sluice.core.memory.DoesNotFitException;
import dev.sluice.core.memory.MemoryPlan;
import dev.sluice.core.run.WaveMemory;
import dev.sluice.core.run.WaveStorage;
import dev.sluice.core.run.Workload;
import dev.sluice.core.write.StrategySpec;
import dev.sluice.core.write.WriterConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The strategy and the executor settings every strategy shares. Its trial setup checks them, and refuses a
 * configuration whose memory cannot fit this machine, before any input is made.
 */
@State(Scope.Benchmark)
public class WriterState {
    /** A strategy spec: {@code NAME} or {@code NAME:key=value:...}. */
    @Param({"per-batch", "buffered", "async"})
    public String strategy;

    @Param({"16"})
    public int threads;

    /**
     * The executor's host memory limit: {@code none} (upstream's default), a byte size, or {@code machine}, this
     * machine's memory, read here in the fork ({@link MemoryLimit}).
     */
    @Param({"none"})
    public String memoryLimit;

    /** fsync of data, index and checksum files at commit. */
    @Param({"false"})
    public boolean sync;

    private StrategySpec spec;
    private WriterConfig.Builder config;
    private WriterConfig built;

    @Setup(Level.Trial)
    public void check(WorkloadState workloadState) throws IOException {
        Workload workload = workloadState.workload();
        spec = StrategySpec.parse("strategy", strategy);
        config = WriterConfig.builder().partitions(workload.partitions).threads(threads)
                .memoryLimit(MemoryLimit.parse("memoryLimit", memoryLimit))
                .codec(workload.codec).fsync(sync);
        WriterConfig probe = config(Path.of(System.getProperty("java.io.tmpdir")));
        if (MemoryLimit.MACHINE.equals(memoryLimit)) {
            System.out.printf(Locale.ROOT, "sluice: memoryLimit=%s: %d bytes, this machine's memory%n", memoryLimit,
                    probe.memoryLimit);
        }
        spec.check("strategy", probe);
        for (String warning : spec.warnings(probe)) {
            System.err.println("sluice: warning: " + strategy + ": " + warning);
        }
        MemoryPlan plan = WaveMemory.plan(spec, probe, workload);
        String refusal = plan.refusal(MemoryPlan.availableMemory(), Runtime.getRuntime().maxMemory());
        if (refusal == null) {
            // The trial's files go under -Dsluice.dir or the temp directory (ExecutorState.trialDirectory).
            refusal = WaveStorage.plan(spec, probe, workload).refusal(TrialDirectory.base());
        }
        if (refusal != null) {
            throw new DoesNotFitException(String.format(Locale.ROOT, "%s at %s x %.3f with %d tasks %s", strategy,
                    workload.size.label(), workload.scale, workload.tasks, refusal));
        }
    }

    public StrategySpec spec() {
        return spec;
    }

    /** The writer configuration with its output under {@code dir}. */
    public WriterConfig config(Path dir) {
        built = config.outputDir(dir).build();
        return built;
    }

    /** The configuration the executor was started with. */
    public WriterConfig config() {
        return built;
    }
}
