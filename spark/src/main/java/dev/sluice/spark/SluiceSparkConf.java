package dev.sluice.spark;

import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.MemoryScope;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.option.StrategyOption;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkConf;

/**
 * The manager's settings, from {@code spark.sluice.*}, checked when the manager starts: a value that is not allowed
 * stops the SparkContext with the key, the value and what is allowed, before any shuffle runs.
 *
 * <p>{@code spark.sluice.strategy} may also be set per job as a local property
 * ({@code sc.setLocalProperty("spark.sluice.strategy", ...)}), which is how one application compares writers; the
 * value {@value #STOCK} there means Spark's own writers.
 */
public final class SluiceSparkConf {
    public static final String PREFIX = "spark.sluice.";
    public static final String STRATEGY = PREFIX + "strategy";
    public static final String BATCH_BYTES = PREFIX + "batchBytes";
    public static final String THREADS = PREFIX + "threads";
    public static final String MEMORY_LIMIT = PREFIX + "memoryLimit";
    /**
     * The most partitions a shuffle may have and go through a strategy. A map task holds a serialization stream and
     * its buffers per partition (and per-batch a file per partition), the design Spark bounds its own
     * {@code BypassMergeSortShuffleWriter} by with {@code spark.shuffle.sort.bypassMergeThreshold}, its default here.
     */
    public static final String MAX_PARTITIONS = PREFIX + "maxPartitions";
    /**
     * Whether what a strategy holds for a map task (the consolidating strategies' partials) is memory of the task in
     * Spark's memory manager ({@link StrategyMemory}), which Spark may ask to spill; {@code false} leaves the partials
     * to {@link #MEMORY_LIMIT} alone, outside Spark's pools (as spark-rapids' host memory is).
     */
    public static final String TASK_MEMORY = PREFIX + "taskMemory";
    /** A strategy value meaning Spark's own writers ({@code SortShuffleManager}'s). */
    public static final String STOCK = "stock";
    /**
     * Rows cut into a batch, by their serialized bytes: the seed's {@code spark.rapids.sql.batchSizeBytes} is 1 GiB of
     * GPU columns; 64 MiB keeps a few batches per map task at the sizes this machine runs, and two concurrent tasks'
     * partials (which the consolidating strategies size from the batch) within a 2 GiB direct memory.
     */
    public static final String DEFAULT_BATCH_BYTES = "64m";
    static final String CHECKSUM_ENABLED = "spark.shuffle.checksum.enabled";
    static final String ENCRYPTION = "spark.io.encryption.enabled";
    static final String CHECKSUM_ALGORITHM = "spark.shuffle.checksum.algorithm";
    /** The strategies' options that say whether and how they write a checksum file. */
    private static final String CHECKSUM_OPTION = "checksum";
    private static final String CHECKSUM_ALGORITHM_OPTION = "checksumAlgorithm";

    public final String strategy;
    public final long batchBytes;
    public final int threads;
    public final long memoryLimit;
    public final int maxPartitions;
    /** {@link #TASK_MEMORY}: the strategies' partials are memory of the task in Spark's memory manager. */
    public final boolean taskMemory;
    /**
     * Spark's shuffle checksums: {@code spark.shuffle.checksum.algorithm} where {@code spark.shuffle.checksum.enabled}
     * (both Spark's defaults: on, ADLER32), else null.
     */
    public final ChecksumAlgorithm checksums;
    /**
     * {@code spark.io.encryption.enabled}: the manager encrypts each partition once the strategy committed it
     * ({@link PartitionEncryption}) and takes Spark's checksums over the encrypted bytes itself.
     */
    public final boolean encryption;

    private SluiceSparkConf(String strategy, long batchBytes, int threads, long memoryLimit, int maxPartitions,
                            boolean taskMemory, ChecksumAlgorithm checksums, boolean encryption) {
        this.strategy = strategy;
        this.batchBytes = batchBytes;
        this.threads = threads;
        this.memoryLimit = memoryLimit;
        this.maxPartitions = maxPartitions;
        this.taskMemory = taskMemory;
        this.checksums = checksums;
        this.encryption = encryption;
    }

    /**
     * Reads and checks every {@code spark.sluice.*} key of {@code conf}. Spark settings no strategy can serve (codecs
     * whose streams Spark does not concatenate) are not refused here: {@link Eligibility} sends those shuffles to
     * Spark's writers, each with its reason.
     *
     * @throws InvalidParameterException naming the key, its value and what is allowed
     */
    public static SluiceSparkConf from(SparkConf conf) {
        for (scala.Tuple2<String, String> entry : conf.getAllWithPrefix(PREFIX)) {
            String key = PREFIX + entry._1();
            if (!key.equals(STRATEGY) && !key.equals(BATCH_BYTES) && !key.equals(THREADS)
                    && !key.equals(MEMORY_LIMIT) && !key.equals(MAX_PARTITIONS) && !key.equals(TASK_MEMORY)) {
                throw new InvalidParameterException(key, entry._2(), "one of the keys " + STRATEGY + ", "
                        + BATCH_BYTES + ", " + THREADS + ", " + MEMORY_LIMIT + ", " + MAX_PARTITIONS + ", "
                        + TASK_MEMORY + " (this key is unknown)");
            }
        }
        String strategy = conf.get(STRATEGY, "per-batch").trim();
        long batchBytes = size(BATCH_BYTES, conf.get(BATCH_BYTES, DEFAULT_BATCH_BYTES));
        if (batchBytes < 1 || batchBytes > Integer.MAX_VALUE - 8) {
            throw new InvalidParameterException(BATCH_BYTES, conf.get(BATCH_BYTES), "a size from 1 byte to 2 GiB "
                    + "(a batch's rows of one partition live in one Java array)");
        }
        int threads = positive(THREADS, conf.get(THREADS, String.valueOf(WriterConfig.Builder.DEFAULT_THREADS)));
        int maxPartitions = positive(MAX_PARTITIONS, conf.get(MAX_PARTITIONS,
                String.valueOf(conf.getInt("spark.shuffle.sort.bypassMergeThreshold", 200))));
        long memoryLimit = conf.contains(MEMORY_LIMIT)
                ? WriterConfig.parseMemoryLimit(MEMORY_LIMIT, conf.get(MEMORY_LIMIT).trim())
                : defaultMemoryLimit(conf);
        if (memoryLimit < 1) {
            throw new InvalidParameterException(MEMORY_LIMIT, conf.get(MEMORY_LIMIT), "none, or a size >= 1 byte");
        }
        String taskMemory = conf.get(TASK_MEMORY, "true").trim();
        if (!taskMemory.equals("true") && !taskMemory.equals("false")) {
            throw new InvalidParameterException(TASK_MEMORY, conf.get(TASK_MEMORY), "true or false");
        }
        SluiceSparkConf settings = new SluiceSparkConf(strategy, batchBytes, threads, memoryLimit, maxPartitions,
                Boolean.parseBoolean(taskMemory), checksums(conf), conf.getBoolean(ENCRYPTION, false));
        if (!strategy.equals(STOCK)) {
            settings.spec(STRATEGY, strategy);
        }
        return settings;
    }

    /**
     * The executor JVM's limit when {@value #MEMORY_LIMIT} is not set: half of the memory Spark asks the cluster
     * manager for beyond the heap, {@code spark.executor.memoryOverhead}, else Spark's own default for it
     * ({@code max(384 MiB, spark.executor.memoryOverheadFactor (0.10) x spark.executor.memory)},
     * {@code ResourceProfile.calculateOverHeadMemory}). That overhead is what a container allows outside the heap, where
     * Sluice's partials live (outside {@code -Xmx}); the other half is left to what Spark itself puts there (Netty's
     * buffers, thread stacks, metaspace). Spark's off-heap pool ({@code spark.memory.offHeap.size}) is requested on top
     * of the overhead: with {@link #TASK_MEMORY} the partials are also counted in Spark's execution memory (that pool
     * where {@code spark.memory.offHeap.enabled}, else the heap's), which grants them, but they are allocated by
     * Sluice's allocator, in the overhead, either way.
     */
    static long defaultMemoryLimit(SparkConf conf) {
        long mib = 1024L * 1024;
        long overhead;
        if (conf.contains("spark.executor.memoryOverhead")) {
            overhead = conf.getSizeAsMb("spark.executor.memoryOverhead") * mib;
        } else {
            long heap = conf.getSizeAsMb("spark.executor.memory", "1g") * mib;
            double factor = conf.getDouble("spark.executor.memoryOverheadFactor", 0.10);
            overhead = Math.max(384 * mib, (long) (factor * heap));
        }
        return Math.max(1, overhead / 2);
    }

    /** Spark's shuffle checksum algorithm where its checksums are on, else null. */
    private static ChecksumAlgorithm checksums(SparkConf conf) {
        if (!conf.getBoolean(CHECKSUM_ENABLED, true)) {
            return null;
        }
        String algorithm = conf.get(CHECKSUM_ALGORITHM, ChecksumAlgorithm.ADLER32.name());
        try {
            return ChecksumAlgorithm.ofSpark(algorithm);
        } catch (IllegalArgumentException e) {
            throw new InvalidParameterException(CHECKSUM_ALGORITHM, algorithm, "ADLER32, CRC32 or CRC32C (Spark's)");
        }
    }

    /**
     * {@code text} parsed as a strategy spec (presets included) and refused where its map output could not be served
     * by Spark's block resolver, or where it keeps everything in memory ({@code ideal}). A strategy that can write a
     * checksum file writes Spark's: with Spark's checksums on, {@code checksum=true} and Spark's algorithm, unless the
     * spec says {@code checksum} itself; with them off, {@code checksum=false}. A {@code checksumAlgorithm} other than
     * Spark's is refused where the strategy writes checksums (the file Spark names would hold another algorithm's
     * values). So the consolidating strategies,
     * which write none by default (spark-rapids' multithreaded writer commits empty checksums), write them in Spark
     * as Spark's own writers do, and per-batch follows Spark's algorithm. With encryption on, the strategies write none
     * ({@code checksum=false} unless the spec says it): the manager takes them over the encrypted partitions.
     *
     * @param key where the text came from, for errors
     */
    public StrategySpec spec(String key, String text) {
        StrategySpec spec = withSparksChecksums(key, text, StrategySpec.parse(key, text));
        if (spec.name().equals("ideal")) {
            throw new InvalidParameterException(key, text, "a strategy that bounds its memory: ideal, the reference, "
                    + "holds every record of its map tasks in memory until commit, which in an executor is the whole "
                    + "map output outside Spark's memory manager and outside -Xmx");
        }
        String inMemory = spec.describeOptions().get("skipMerge");
        if ("true".equals(inMemory)) {
            throw new InvalidParameterException(key, text, "a strategy whose map output is a file: with skipMerge=true, "
                    + "async keeps map outputs in memory (its catalog), which Spark's block resolver cannot serve to "
                    + "reducers; drop skipMerge or set it false");
        }
        return spec;
    }

    /**
     * A writer configuration of these settings for shuffles of {@code partitions} partitions, in {@code dir}, its
     * memory limit shared in {@code scope} (one per executor JVM).
     */
    public WriterConfig writerConfig(int partitions, java.nio.file.Path dir, MemoryScope scope) {
        return WriterConfig.builder().partitions(partitions).threads(threads).memoryLimit(memoryLimit).outputDir(dir)
                .memoryScope(scope).build();
    }

    private static int positive(String key, String text) {
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(key, text, "an integer >= 1");
        }
        if (value < 1) {
            throw new InvalidParameterException(key, text, "an integer >= 1");
        }
        return value;
    }

    private StrategySpec withSparksChecksums(String key, String text, StrategySpec spec) {
        StrategyOption<?> enabled = spec.factory().options().find(CHECKSUM_OPTION);
        StrategyOption<?> algorithm = spec.factory().options().find(CHECKSUM_ALGORITHM_OPTION);
        if (enabled == null || algorithm == null) {
            return spec; // a strategy that writes no checksum file: Spark then writes none for its map outputs
        }
        OptionValues given = spec.options();
        List<String> more = new ArrayList<>();
        // Encrypted, Spark's checksums are of the encrypted bytes, which PartitionEncryption writes and checksums.
        ChecksumAlgorithm strategys = encryption ? null : checksums;
        boolean on = given.given(enabled) ? Boolean.TRUE.equals(given.get(enabled)) : strategys != null;
        if (!given.given(enabled)) {
            more.add(CHECKSUM_OPTION + "=" + on);
        }
        if (on && strategys != null) {
            if (!given.given(algorithm)) {
                more.add(CHECKSUM_ALGORITHM_OPTION + "=" + checksums.label());
            } else if (given.get(algorithm) != checksums) {
                throw new InvalidParameterException(key, text, CHECKSUM_ALGORITHM_OPTION + "=" + checksums.label()
                        + " or none: Spark's " + CHECKSUM_ALGORITHM + " is " + checksums + ", which names the "
                        + "checksum file Spark writes");
            }
        }
        return more.isEmpty() ? spec : spec.withOptions(key, more);
    }

    private static long size(String key, String text) {
        try {
            return Bytes.parse(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(key, text, "a byte size (examples: 4096, 32k, 64m, 1g)");
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "strategy=%s batchBytes=%d threads=%d memoryLimit=%s maxPartitions=%d "
                + "taskMemory=%s", strategy, batchBytes, threads,
                memoryLimit == WriterConfig.UNLIMITED ? "none" : String.valueOf(memoryLimit), maxPartitions, taskMemory);
    }
}
