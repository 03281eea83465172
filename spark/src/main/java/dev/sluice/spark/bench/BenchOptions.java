package dev.sluice.spark.bench;

import dev.sluice.core.cli.Options;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.spark.SluiceSparkConf;
import dev.sluice.spi.InvalidParameterException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;

/** spark-bench's command line, checked whole before Spark starts. */
final class BenchOptions {
    /** The one preset: the seed's five sizes, each at its batches per task. */
    static final String SEED_PRESET = "seed";
    static final List<String> DEFAULT_WRITERS = List.of("stock", "per-batch", "buffered", "async",
            "consolidated-best");
    static final List<String> SEED_PRESET_WRITERS = List.of("stock", "per-batch", "buffered", "async");

    /** The Spark versions scripts/spark-bench has a class path for, oldest first; the newest is the default. */
    static final List<String> SPARK_LINES = List.of("4.1.1", "4.2.0");

    /** Where the options' help starts in {@link #HELP}, as the environment's does. */
    private static final int HELP_COLUMN = 22;

    /** The help: what a run does and prints, then the options as {@link #declared} declares and parses them. */
    static final String HELP = String.join("\n",
            "Usage: scripts/spark-bench [options]",
            "",
            "The seed job (spark.range(...).repartition(200).write.parquet(...)) in real Spark, once per writer and",
            "round, the writers taking turns (each round starts one writer later), every writer's parquet checked",
            "against the source rows (count and an order-insensitive checksum). Before every run all shuffles are",
            "removed, dirty pages synced and System.gc() called (outside the figures; the driver's JVM only, which in",
            "local mode runs the executor too). stdout: one JSON line per writer and round, then one summary line",
            "{\"summary\":...}; stderr: progress and the summary in words.",
            "",
            "Figures of a run: queryMillis, the measured write's SQL execution (its start and end events on Spark's",
            "listener bus), with driverMillis, the driver's clock around the write, beside it; mapperStageMillis and",
            "sumTaskMillis (the stage that wrote the shuffle, submission to completion, and its tasks' durations",
            "summed), reducerStageMillis; mapperGcMillis and reducerGcMillis (the tasks' jvmGCTime summed per stage:",
            "concurrent tasks each count the JVM's collections, so with 2 slots a collection can count twice);",
            "peakHeapBytes (heap used, sampled every 10 ms and read before every collection) and peakOffHeapBytes",
            "(Sluice's Arrow memory: partials, merge buffers), both null where the executors are other JVMs.",
            "",
            "Summary, per size: each writer's mapper stage, query and sum of tasks, mean +- sd; each writer against",
            "per-batch and against stock pair by pair (round i over the baseline's round i): the improvement",
            "1 - geometric mean of the ratios, with the 99% interval exp(mean +- t(n-1, 0.995) sd / sqrt(n)) of the",
            "ratios' logarithms (the harness's PairedRatio); no interval with one round.",
            "",
            declared().describe(HELP_COLUMN),
            "Environment:",
            "  SLUICE_JAVA_OPTS    JVM options of the driver (in local mode also the executor; default: -Xmx6g:",
            "                      a map task's serialized rows stay on the heap until its strategy commits)",
            "  JAVA_HOME           the JDK to run (default: java on PATH)",
            "");

    /**
     * spark-bench's options, declared once: {@link #parse} reads them and {@link #HELP} describes them, defaults
     * included. The writers and the local directory have none here (theirs follow the preset and the work
     * directory), and --spark-home changes the master's: their help says so.
     */
    private static Options declared() {
        return new Options()
                .optional("writers", "LIST", null, String.join("\n",
                        "comma-separated: stock (Spark's own writers: up to",
                        "spark.shuffle.sort.bypassMergeThreshold, 200 partitions, as the seed job's, with",
                        "no map-side combine, BypassMergeSortShuffleWriter; above it UnsafeShuffleWriter,",
                        "which Sluice's sort models) or any Sluice strategy spec or preset (default:",
                        String.join(",", DEFAULT_WRITERS) + "; with --preset seed:",
                        String.join(",", SEED_PRESET_WRITERS) + "). async:skipMerge=true is refused:",
                        "its map outputs stay in memory, where Spark's block resolver cannot serve them"))
                .optional("size", "NAME", "small", String.join("\n",
                        "the seed's shuffle bytes per map task: small 402 MB, medium 803 MB, large 1.18 GB,",
                        "xlarge 1.57 GB, xxlarge 1.95 GB"))
                .optional("preset", SEED_PRESET, null, String.join("\n",
                        "the seed's five sizes, small to xxlarge, one after the other in this JVM (one Spark",
                        "application per size: the batch size is the manager's setting), each cut into the",
                        "seed's batches per task (small 1, medium 2, large 3, xlarge 4, xxlarge 5:",
                        "spark.sluice.batchBytes = a task's serialized bytes / its batches, rounded up;",
                        "where a batch is a few MB, the serializers' buffers, 8 KiB a partition and",
                        "counted when flushed, can make one fewer: the JSON's sluice.batches counts them);",
                        "not with --size or --batch-bytes"))
                .optional("size-by", "BASIS", RowSizing.OUTPUT, String.join("\n",
                        "what a task's rows are counted as against the seed's bytes:",
                        "output (the seed's shuffle bytes are what its map tasks wrote,",
                        "after the codec: first, per-batch writes the small shape sized",
                        "by rows once, on native storage in the local directory, and",
                        "a row counts for its share of that map output) or rows (the",
                        "rows as the shuffle serializes them, 44 bytes, before the",
                        "codec; the runs before this option: their tasks wrote 0.63 to",
                        "0.64 of the seed's bytes)"))
                .optional("scale", "X", "0.1", "multiplies the size")
                .optional("tasks", "N", "2", "map tasks")
                .optional("partitions", "N", "200", "repartition(N); the seed's is 200")
                .optional("warmup", "N", "1", "warm-up rounds, not in the summary")
                .optional("iterations", "N", "5", "measured rounds")
                .optional("spark", "VERSION", null, String.join("\n",
                        "the Spark to run: " + String.join(" or ", SPARK_LINES) + ", the lines Sluice's manager",
                        "is built and tested on (default: " + SPARK_LINES.get(SPARK_LINES.size() - 1) + ", the newest);",
                        "scripts/spark-bench runs the class path the build wrote for",
                        "that line (module spark for 4.1.1, spark-4.2 for 4.2.0); the",
                        "JSON lines name the Spark that ran (spark)"))
                .optional("master", "URL", "local[2]", "Spark master; local-cluster[...] needs --spark-home")
                .optional("spark-home", "DIR", null, String.join("\n",
                        "a Spark distribution of --spark's version: runs",
                        "local-cluster[1,TASKS,4096] (executors in their own JVM,",
                        "launched from DIR; TASKS is --tasks) unless --master says",
                        "otherwise"))
                .optional("local-dir", "DIR", null, "where Spark's local directory (spark.local.dir) goes (default: "
                        + "WORK/local)")
                .optional("device", "SPEC", DeviceSpec.NATIVE, String.join("\n",
                        "the local directory's storage: native (as given), an emulated",
                        "device (emulated:write=RATE:dirty=SIZE) or a profile (docs/balance.md; root).",
                        "A balance (seed-ssd: the seed node's disk per slot over its map task's rate;",
                        "per-slot:write=..:dirty=..:produce=RATE) sets the disk relative to Spark's own",
                        "map task rate here: first measured on native storage in the local directory",
                        "(per-batch at small, this run's scale and tasks, 1 warm-up + 3 runs, the",
                        "median of shuffle bytes per task over the mapper stage), then cached per",
                        "machine, build and configuration (SLUICE_TASK_RATE_CACHE, default",
                        "~/.cache/sluice/task-rates.properties; off keeps nothing)"))
                .optional("work", "DIR", "spark/target/spark-bench", "where the parquet output and the local "
                        + "directory go")
                .optional("batch-bytes", "SIZE", SluiceSparkConf.DEFAULT_BATCH_BYTES, "spark.sluice.batchBytes")
                .optional("threads", "N", "16", "spark.sluice.threads; 16 are the seed's writer threads")
                .optional("memory-limit", "L", "none", "spark.sluice.memoryLimit: none, a size, or "
                        + DEFAULT_MEMORY_LIMIT + " (not set: the manager's default, half of the executor's memory "
                        + "overhead)")
                .repeatable("conf", "KEY=VALUE", "any Spark setting, repeatable")
                .flag("allow-fallback", String.join("\n",
                        "let a Sluice writer's run go on when its shuffle went to",
                        "Spark's own writer (Sluice's manager decides per shuffle;",
                        "the JSON lines list the reasons as fallbacks); without it such",
                        "a run fails with the reason. Read where the executor runs in",
                        "the driver's JVM (local mode); other masters do not check"));
    }

    // Set by parse, from the declared options' values or defaults.
    boolean help;
    List<String> writers = DEFAULT_WRITERS;
    String size;
    /** {@code --size-by}: {@link RowSizing#OUTPUT} or {@link RowSizing#ROWS}. */
    String sizeBy;
    String preset;
    double scale;
    int tasks;
    int partitions;
    int warmups;
    int iterations;
    String master;
    Path sparkHome;
    Path localDir;
    DeviceSpec device;
    Path work;
    String batchBytes;
    int threads;
    String memoryLimit;
    /** The {@code --memory-limit} that leaves {@code spark.sluice.memoryLimit} unset. */
    static final String DEFAULT_MEMORY_LIMIT = "default";
    Map<String, String> conf = new LinkedHashMap<>();
    boolean allowFallback;

    /** The shapes to run, in order, each row counted as {@code sizing} says: the preset's sizes, or the one given. */
    List<Shape> shapes(RowSizing sizing) {
        if (SEED_PRESET.equals(preset)) {
            List<Shape> shapes = new ArrayList<>();
            for (String name : Shape.SEED_TASK_BYTES.keySet()) {
                shapes.add(Shape.seed(name, scale, tasks, sizing));
            }
            return shapes;
        }
        return List.of(Shape.of(size, scale, tasks, batchBytes, sizing));
    }

    /** Whether the executors run in this JVM, where Sluice's counters and memory can be read. */
    boolean localMode() {
        return master.startsWith("local[") || master.equals("local");
    }

    /**
     * The command line {@code args}, checked whole (every writer's spec and every shape's settings as the manager
     * will check them) before Spark starts; {@code help} set, and nothing else read, where it asks for the help.
     */
    static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
        Options given = declared();
        if (!given.parse(List.of(args))) {
            o.help = true;
            return o;
        }
        if (given.given("writers")) {
            String value = given.string("writers");
            o.writers = Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
            if (o.writers.isEmpty()) {
                throw new InvalidParameterException("--writers", value, "one or more writers, comma-separated");
            }
        }
        o.size = given.string("size");
        if (!Shape.SEED_TASK_BYTES.containsKey(o.size)) {
            throw new InvalidParameterException("--size", o.size, "one of " + Shape.SEED_TASK_BYTES.keySet());
        }
        o.sizeBy = RowSizing.basis(given.string("size-by"));
        o.preset = given.string("preset");
        if (o.preset != null && !o.preset.equals(SEED_PRESET)) {
            throw new InvalidParameterException("--preset", o.preset, SEED_PRESET + " (the seed's five sizes, small "
                    + "to xxlarge, each at the seed's batches per task)");
        }
        o.scale = given.positive("scale");
        o.tasks = given.integer("tasks", 1);
        o.partitions = given.integer("partitions", 1);
        o.warmups = given.integer("warmup", 0);
        o.iterations = given.integer("iterations", 1);
        String running = org.apache.spark.package$.MODULE$.SPARK_VERSION();
        String spark = given.given("spark") ? given.string("spark") : running;
        if (given.given("spark") && !SPARK_LINES.contains(spark)) {
            throw new InvalidParameterException("--spark", spark, "one of " + SPARK_LINES);
        }
        if (!spark.equals(running)) {
            throw new InvalidParameterException("--spark", spark, "the Spark on this class path, " + running
                    + " (scripts/spark-bench chooses the class path from --spark; run through it, or build the "
                    + "module of that line)");
        }
        o.master = given.string("master");
        o.allowFallback = given.flag("allow-fallback");
        if (given.given("spark-home")) {
            o.sparkHome = Path.of(given.string("spark-home"));
            if (!Files.isDirectory(o.sparkHome.resolve("jars"))) {
                throw new InvalidParameterException("--spark-home", given.string("spark-home"), "a Spark "
                        + "distribution: a directory with a jars/ directory");
            }
        }
        o.localDir = given.given("local-dir") ? Path.of(given.string("local-dir")) : null;
        o.device = DeviceSpec.parse("--device", given.string("device"));
        o.work = Path.of(given.string("work"));
        o.batchBytes = given.string("batch-bytes");
        o.threads = given.integer("threads", 1);
        o.memoryLimit = given.string("memory-limit");
        for (String setting : given.values("conf")) {
            int eq = setting.indexOf('=');
            if (eq <= 0) {
                throw new InvalidParameterException("--conf", setting, "KEY=VALUE");
            }
            o.conf.put(setting.substring(0, eq), setting.substring(eq + 1));
        }
        if (o.preset != null) {
            if (given.given("size")) {
                throw new InvalidParameterException("--preset", o.preset, "--preset or --size, not both (--size "
                        + o.size + " was given too; the preset runs every size: " + Shape.SEED_TASK_BYTES.keySet()
                        + ")");
            }
            if (given.given("batch-bytes")) {
                throw new InvalidParameterException("--preset", o.preset, "--preset or --batch-bytes, not both "
                        + "(--batch-bytes " + o.batchBytes + " was given too; the preset sets each size's batch "
                        + "bytes from the seed's batches per task)");
            }
            if (!given.given("writers")) {
                o.writers = SEED_PRESET_WRITERS;
            }
        }
        if (o.sparkHome != null && !given.given("master")) {
            o.master = "local-cluster[1," + o.tasks + ",4096]";
        }
        if (o.master.startsWith("local-cluster") && o.sparkHome == null) {
            throw new InvalidParameterException("--master", o.master, "local-cluster only with --spark-home "
                    + "(Spark launches its executors from a distribution)");
        }
        // Sized by output, the rows are known once measured: their serialized bytes are then larger (a row counts
        // for less than its 44 bytes), and the run checks its shapes again (SparkBench.run).
        o.check(o.shapes(RowSizing.SERIALIZED));
        return o;
    }

    /** Every shape's Sluice settings and every writer's spec, as the manager will check them. */
    void check(List<Shape> shapes) {
        SluiceSparkConf settings = null;
        for (Shape shape : shapes) {
            SparkConf check = new SparkConf(false).set(SluiceSparkConf.BATCH_BYTES, shape.batchBytes())
                    .set(SluiceSparkConf.THREADS, String.valueOf(threads));
            if (!memoryLimit.equals(DEFAULT_MEMORY_LIMIT)) {
                check.set(SluiceSparkConf.MEMORY_LIMIT, memoryLimit);
            }
            conf.forEach(check::set);
            try {
                settings = SluiceSparkConf.from(check);
            } catch (InvalidParameterException e) {
                if (preset != null && e.parameter().equals(SluiceSparkConf.BATCH_BYTES)) {
                    throw new InvalidParameterException("--scale", scale, "a scale at which every size of --preset "
                            + preset + " has batches " + SluiceSparkConf.BATCH_BYTES + " allows: " + shape.size()
                            + " would cut " + shape.batchesPerTask() + " batches of " + shape.batchBytes()
                            + " bytes, and " + e.getMessage());
                }
                throw e;
            }
        }
        for (String writer : writers) {
            if (!writer.equals(SluiceSparkConf.STOCK)) {
                settings.spec("--writers", writer);
            }
        }
    }
}
