package dev.sluice.jmh.state;

import dev.sluice.core.input.SchemaSpec;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Producer;
import dev.sluice.core.run.Workload;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a wave writes: the input of each map task and how many run at once. The parameter names and defaults are
 * {@link Workload}'s, the same as the command line's. The same parameters give the same bytes in every fork.
 */
@State(Scope.Benchmark)
public class WorkloadState {
    @Param({Workload.DEFAULT_SIZE})
    public String size;

    /** A factor, or {@code seed-equivalent}. */
    @Param({Workload.DEFAULT_SCALE})
    public String scale;

    /** Map tasks written at once on one executor: one operation is one wave of them. */
    @Param({Workload.DEFAULT_TASKS})
    public String tasks;

    @Param({Workload.DEFAULT_PARTITIONS})
    public String partitions;

    /** {@code seed}: the seed report's batches per task for the size (1 to 5); or a count. */
    @Param({Workload.DEFAULT_BATCHES})
    public String batches;

    @Param({Workload.DEFAULT_BATCH_BYTES})
    public String batchBytes;

    @Param({Workload.DEFAULT_ROWS_PER_BATCH})
    public String rowsPerBatch;

    @Param({Workload.DEFAULT_PARTITIONING})
    public String partitioning;

    @Param({Workload.DEFAULT_KEYS})
    public String keys;

    @Param({Workload.DEFAULT_CODEC})
    public String codec;

    @Param({Workload.DEFAULT_SEED})
    public String seed;

    /**
     * What makes each batch on the task's thread before it is written: {@code none} (inputs made before the wave),
     * {@code gpu:RATE} (the thread waits, as on a GPU scan) or {@code cpu:RATE} (it works); RATE input bytes per second.
     */
    @Param({Producer.NONE_NAME})
    public String producer;

    private Workload workload;

    @Setup(Level.Trial)
    public void parse() {
        workload = Workload.parse("", size, scale, tasks, partitions, batches, batchBytes, rowsPerBatch,
                partitioning, keys, codec, seed, SchemaSpec.DEFAULT).withProducer(Producer.parse(BenchmarkParam.PRODUCER.key(), producer));
        if (!workload.producer.isNone()) {
            System.out.println("sluice workload: producer " + workload.producer.describe());
        }
        if (!"given".equals(workload.scaleReason)) {
            System.out.println("sluice workload: " + workload.scaleReason);
        }
    }

    public Workload workload() {
        return workload;
    }
}
