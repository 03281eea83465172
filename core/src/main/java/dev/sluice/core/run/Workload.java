package dev.sluice.core.run;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.input.SchemaSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.TaskShape;
import java.util.Locale;

/**
 * What a wave writes, in the words every front end uses: the command line ({@code --name}), the benchmarks
 * ({@code -p name=}) and the scripts read their parameter names and defaults from here. Validated as a whole: a bad
 * value is refused naming the parameter, the value and what is allowed.
 */
public final class Workload {
    public static final String DEFAULT_SIZE = "small";
    public static final String DEFAULT_SCALE = "1";
    public static final String DEFAULT_TASKS = "1";
    public static final String DEFAULT_PARTITIONS = "200";
    /**
     * The batch shape: the seed's number of batches per task for the size (1 to 5, "GpuScan Batches/Task") unless
     * exactly one of {@code batches}, {@code batchBytes}, {@code rowsPerBatch} says otherwise.
     */
    public static final String SEED_BATCHES = "seed";
    public static final String DEFAULT_BATCHES = SEED_BATCHES;
    public static final String DEFAULT_BATCH_BYTES = "none";
    public static final String DEFAULT_ROWS_PER_BATCH = "none";
    public static final String DEFAULT_PARTITIONING = "roundrobin";
    public static final String DEFAULT_KEYS = "uniform";
    /** Spark's {@code spark.io.compression.codec=lz4}. */
    public static final String DEFAULT_CODEC = "lz4-block";
    public static final String DEFAULT_SEED = "42";

    public final DataSize size;
    public final double scale;
    /** How the scale was chosen, for the record (e.g. the seed-equivalent's reasoning). */
    public final String scaleReason;
    public final int tasks;
    public final int partitions;
    public final Partitioning partitioning;
    public final ShuffleCodec codec;
    /** What makes each batch before it is written: none (the default: inputs made outside the wave), gpu or cpu. */
    public final Producer producer;
    private final InputSpec spec;

    private Workload(DataSize size, double scale, String scaleReason, int tasks, int partitions,
                     Partitioning partitioning, ShuffleCodec codec, Producer producer, InputSpec spec) {
        this.size = size;
        this.scale = scale;
        this.scaleReason = scaleReason;
        this.tasks = tasks;
        this.partitions = partitions;
        this.partitioning = partitioning;
        this.codec = codec;
        this.producer = producer;
        this.spec = spec;
    }

    /** This workload with its batches made by {@code p} (parsed with {@link Producer#parse}). */
    public Workload withProducer(Producer p) {
        return new Workload(size, scale, scaleReason, tasks, partitions, partitioning, codec, p, spec);
    }

    /**
     * What a run measures its task rate on ({@link TaskRateCalibration}): the same workload at the seed's Small, where
     * the seed's disk held nothing back, with the seed's one batch per task (more where one batch of Small at this
     * scale would exceed a batch's rows).
     */
    public Workload atSmall() {
        InputSpec small = new InputSpec(DataSize.SMALL, scale, spec.rowsPerBatch, spec.keys, spec.seed, spec.schema);
        int batches = DataSize.SMALL.seedBatches();
        while (scale > small.largestScale(batches)) {
            batches++;
        }
        return new Workload(DataSize.SMALL, scale, scaleReason, tasks, partitions, partitioning, codec, producer,
                small.withBatches(batches));
    }

    /**
     * A benchmark plan's workload: {@code size} at {@code scale}, {@code tasks} at once, {@code codec}, every other
     * parameter its default (what a configuration of {@code scripts/bench.sh} runs); parsed and checked as {@link
     * #parse} does, its errors naming {@code --} options.
     */
    public static Workload planned(String size, String scale, String tasks, String codec) {
        return planned(size, scale, tasks, DEFAULT_PARTITIONS, codec);
    }

    /** The same at {@code partitions} partitions (a point of the partition axis). */
    public static Workload planned(String size, String scale, String tasks, String partitions, String codec) {
        return parse("--", size, scale, tasks, partitions, DEFAULT_BATCHES, DEFAULT_BATCH_BYTES,
                DEFAULT_ROWS_PER_BATCH, DEFAULT_PARTITIONING, DEFAULT_KEYS, codec, DEFAULT_SEED,
                dev.sluice.core.input.SchemaSpec.DEFAULT);
    }

    /**
     * Parses and checks the workload parameters; {@code prefix} is how their names are written in errors ({@code --}
     * on the command line, nothing in JMH).
     */
    public static Workload parse(String prefix, String size, String scale, String tasks, String partitions,
                                 String batches, String batchBytes, String rowsPerBatch, String partitioning,
                                 String keys, String codec, String seed, String columns) {
        DataSize dataSize = DataSize.parse(prefix + "size", size);
        int taskCount = integer(prefix + "tasks", tasks, 1, 4096);
        double factor;
        String reason;
        if (SeedScale.NAME.equals(scale)) {
            long memory = SeedScale.memoryTotal();
            factor = SeedScale.of(taskCount, memory);
            reason = SeedScale.explain(taskCount, memory);
        } else {
            try {
                factor = Double.parseDouble(scale.trim());
            } catch (NumberFormatException e) {
                throw new InvalidParameterException(prefix + "scale", scale, "a number > 0, or " + SeedScale.NAME);
            }
            reason = "given";
        }
        int partitionCount = integer(prefix + "partitions", partitions, 1, Integer.MAX_VALUE);
        long seedValue;
        try {
            seedValue = Long.parseLong(seed.trim());
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(prefix + "seed", seed, "an integer");
        }
        boolean byCount = !SEED_BATCHES.equals(batches);
        boolean byBytes = !DEFAULT_BATCH_BYTES.equals(batchBytes);
        boolean byRows = !DEFAULT_ROWS_PER_BATCH.equals(rowsPerBatch);
        if ((byCount ? 1 : 0) + (byBytes ? 1 : 0) + (byRows ? 1 : 0) > 1) {
            throw new InvalidParameterException(prefix + (byRows ? "rows-per-batch" : "batch-bytes"),
                    byRows ? rowsPerBatch : batchBytes, "one batch shape at a time: " + prefix + "batches, "
                    + prefix + "batch-bytes or " + prefix + "rows-per-batch");
        }
        InputSpec spec = new InputSpec(dataSize, factor, byRows ? integer(prefix + "rows-per-batch", rowsPerBatch, 1,
                Integer.MAX_VALUE) : InputSpec.DEFAULT_ROWS_PER_BATCH, KeyDistribution.parse(prefix + "keys", keys),
                seedValue, SchemaSpec.parse(prefix + "columns", columns));
        if (byCount) {
            spec = spec.withBatches(integer(prefix + "batches", batches, 1, 1 << 20));
        } else if (!byBytes && !byRows) {
            int seedBatches = dataSize.seedBatches();
            double most = spec.largestScale(seedBatches);
            if (factor > most) {
                // The scale, not the batches the user never gave, makes the seed's batches too large.
                throw new InvalidParameterException(prefix + "scale", scale, String.format(Locale.ROOT,
                        "a factor of at most %.4g, so that each of the seed's %d batch%s of %s holds at most %d rows "
                                + "(or give --batches N)", most, seedBatches, seedBatches == 1 ? "" : "es",
                        dataSize.label(), InputSpec.MAX_ROWS_PER_BATCH));
            }
            spec = spec.withBatches(seedBatches);
        } else if (byBytes) {
            long bytes;
            try {
                bytes = Bytes.parse(batchBytes);
            } catch (NumberFormatException e) {
                throw new InvalidParameterException(prefix + "batch-bytes", batchBytes, "a byte size, or none");
            }
            spec = spec.withBatchBytes(bytes);
        }
        return new Workload(dataSize, factor, reason, taskCount, partitionCount,
                Partitioning.parse(prefix + "partitioning", partitioning), ShuffleCodec.parse(prefix + "codec", codec),
                Producer.NONE, spec);
    }

    private static int integer(String parameter, String text, int min, int max) {
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(parameter, text, "an integer");
        }
        if (value < min || value > max) {
            throw new InvalidParameterException(parameter, text, max == Integer.MAX_VALUE ? "an integer >= " + min
                    : "an integer from " + min + " to " + max);
        }
        return value;
    }

    /** The input of task 0; task t's is the same with seed + t. */
    public InputSpec inputSpec() {
        return spec;
    }

    /** Bytes of input per task. */
    public long taskBytes() {
        return spec.targetBytes();
    }

    /** Input batches per task, where the workload fixes it; else estimated from the rows per batch. */
    public int batchesPerTask() {
        return spec.estimatedBatches();
    }

    /** What a strategy's plans are given of the workload's map tasks: their count, input and batches. */
    public TaskShape taskShape() {
        return new TaskShape(tasks, taskBytes(), batchesPerTask());
    }
}
