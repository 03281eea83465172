package dev.sluice.spark.bench;

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
            "  --writers LIST      comma-separated: stock (Spark's own writers; the seed job's 200 partitions,",
            "                      no map-side combine, are within spark.shuffle.sort.bypassMergeThreshold, 200:",
            "                      BypassMergeSortShuffleWriter) or any Sluice strategy spec or preset (default:",
            "                      " + String.join(",", DEFAULT_WRITERS) + "; with --preset seed:",
            "                      " + String.join(",", SEED_PRESET_WRITERS) + "). async:skipMerge=true is refused:",
            "                      its map outputs stay in memory, where Spark's block resolver cannot serve them",
            "  --size NAME         the seed's shuffle bytes per map task: small 402 MB, medium 803 MB, large 1.18 GB,",
            "                      xlarge 1.57 GB, xxlarge 1.95 GB (default: small)",
            "  --preset seed       the seed's five sizes, small to xxlarge, one after the other in this JVM (one Spark",
            "                      application per size: the batch size is the manager's setting), each cut into the",
            "                      seed's batches per task (small 1, medium 2, large 3, xlarge 4, xxlarge 5:",
            "                      spark.sluice.batchBytes = a task's serialized bytes / its batches, rounded up;",
            "                      where a batch is a few MB, the serializers' buffers, 8 KiB a partition and",
            "                      counted when flushed, can make one fewer: the JSON's sluice.batches counts them);",
            "                      not with --size or --batch-bytes",
            "  --scale X           multiplies the size (default: 0.1)",
            "  --tasks N           map tasks (default: 2)",
            "  --partitions N      repartition(N) (default: 200, the seed's)",
            "  --warmup N          warm-up rounds, not in the summary (default: 1)",
            "  --iterations N      measured rounds (default: 5)",
            "  --master URL        Spark master (default: local[2]); local-cluster[...] needs --spark-home",
            "  --spark-home DIR    a Spark 4.1.1 distribution: runs local-cluster[1,2,4096] (executors in their own",
            "                      JVM, launched from DIR) unless --master says otherwise",
            "  --local-dir DIR     where Spark's local directory (spark.local.dir) goes (default: WORK/local)",
            "  --device SPEC       the local directory's storage: native (as given, the default), an emulated",
            "                      device (emulated:write=RATE:dirty=SIZE) or a profile (docs/balance.md; root).",
            "                      A balance (seed-ssd: the seed node's disk per slot over its map task's rate;",
            "                      per-slot:write=..:dirty=..:produce=RATE) sets the disk relative to Spark's own",
            "                      map task rate here: first measured on native storage in the local directory",
            "                      (per-batch at small, this run's scale and tasks, 1 warm-up + 3 runs, the",
            "                      median of shuffle bytes per task over the mapper stage), then cached per",
            "                      machine, build and configuration (SLUICE_TASK_RATE_CACHE, default",
            "                      ~/.cache/sluice/task-rates.properties; off keeps nothing)",
            "  --work DIR          where the parquet output and the local directory go (default: spark/target/",
            "                      spark-bench)",
            "  --batch-bytes SIZE  spark.sluice.batchBytes (default: " + SluiceSparkConf.DEFAULT_BATCH_BYTES + ")",
            "  --threads N         spark.sluice.threads (default: 16, the seed's writer threads)",
            "  --memory-limit L    spark.sluice.memoryLimit: none or a size (default: none)",
            "  --conf KEY=VALUE    any Spark setting, repeatable",
            "  --help              this text",
            "",
            "Environment:",
            "  SLUICE_JAVA_OPTS    JVM options of the driver (in local mode also the executor; default: -Xmx6g:",
            "                      a map task's serialized rows stay on the heap until its strategy commits)",
            "  JAVA_HOME           the JDK to run (default: java on PATH)",
            "");

    boolean help;
    List<String> writers = DEFAULT_WRITERS;
    String size = "small";
    String preset;
    double scale = 0.1;
    int tasks = 2;
    int partitions = 200;
    int warmups = 1;
    int iterations = 5;
    String master = "local[2]";
    Path sparkHome;
    Path localDir;
    DeviceSpec device = DeviceSpec.parse("--device", "native");
    Path work = Path.of("spark", "target", "spark-bench");
    String batchBytes = SluiceSparkConf.DEFAULT_BATCH_BYTES;
    int threads = 16;
    String memoryLimit = "none";
    Map<String, String> conf = new LinkedHashMap<>();

    /** The shapes to run, in order: the preset's sizes, or the one size given. */
    List<Shape> shapes() {
        if (SEED_PRESET.equals(preset)) {
            List<Shape> shapes = new ArrayList<>();
            for (String name : Shape.SEED_TASK_BYTES.keySet()) {
                shapes.add(Shape.seed(name, scale, tasks));
            }
            return shapes;
        }
        return List.of(Shape.of(size, scale, tasks, batchBytes));
    }

    /** Whether the executors run in this JVM, where Sluice's counters and memory can be read. */
    boolean localMode() {
        return master.startsWith("local[") || master.equals("local");
    }

    static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
        boolean masterGiven = false;
        boolean sizeGiven = false;
        boolean writersGiven = false;
        boolean batchBytesGiven = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                o.help = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new InvalidParameterException(flag, null, "a value after it, or an option of --help");
            }
            String value = args[++i];
            switch (flag) {
                case "--writers":
                    o.writers = Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                            .toList();
                    if (o.writers.isEmpty()) {
                        throw new InvalidParameterException(flag, value, "one or more writers, comma-separated");
                    }
                    writersGiven = true;
                    break;
                case "--size":
                    if (!Shape.SEED_TASK_BYTES.containsKey(value)) {
                        throw new InvalidParameterException(flag, value, "one of "
                                + Shape.SEED_TASK_BYTES.keySet());
                    }
                    o.size = value;
                    sizeGiven = true;
                    break;
                case "--preset":
                    if (!value.equals(SEED_PRESET)) {
                        throw new InvalidParameterException(flag, value, SEED_PRESET + " (the seed's five sizes, "
                                + "small to xxlarge, each at the seed's batches per task)");
                    }
                    o.preset = value;
                    break;
                case "--scale":
                    o.scale = positiveDouble(flag, value);
                    break;
                case "--tasks":
                    o.tasks = positiveInt(flag, value);
                    break;
                case "--partitions":
                    o.partitions = positiveInt(flag, value);
                    break;
                case "--warmup":
                    o.warmups = nonNegativeInt(flag, value);
                    break;
                case "--iterations":
                    o.iterations = positiveInt(flag, value);
                    break;
                case "--master":
                    o.master = value;
                    masterGiven = true;
                    break;
                case "--spark-home":
                    o.sparkHome = Path.of(value);
                    if (!Files.isDirectory(o.sparkHome.resolve("jars"))) {
                        throw new InvalidParameterException(flag, value, "a Spark distribution: a directory with "
                                + "a jars/ directory");
                    }
                    break;
                case "--local-dir":
                    o.localDir = Path.of(value);
                    break;
                case "--device":
                    o.device = DeviceSpec.parse(flag, value);
                    break;
                case "--work":
                    o.work = Path.of(value);
                    break;
                case "--batch-bytes":
                    o.batchBytes = value;
                    batchBytesGiven = true;
                    break;
                case "--threads":
                    o.threads = positiveInt(flag, value);
                    break;
                case "--memory-limit":
                    o.memoryLimit = value;
                    break;
                case "--conf":
                    int eq = value.indexOf('=');
                    if (eq <= 0) {
                        throw new InvalidParameterException(flag, value, "KEY=VALUE");
                    }
                    o.conf.put(value.substring(0, eq), value.substring(eq + 1));
                    break;
                default:
                    throw new InvalidParameterException(flag, value, "an option of --help (this one is unknown)");
            }
        }
        if (o.preset != null) {
            if (sizeGiven) {
                throw new InvalidParameterException("--preset", o.preset, "--preset or --size, not both (--size "
                        + o.size + " was given too; the preset runs every size: " + Shape.SEED_TASK_BYTES.keySet()
                        + ")");
            }
            if (batchBytesGiven) {
                throw new InvalidParameterException("--preset", o.preset, "--preset or --batch-bytes, not both "
                        + "(--batch-bytes " + o.batchBytes + " was given too; the preset sets each size's batch "
                        + "bytes from the seed's batches per task)");
            }
            if (!writersGiven) {
                o.writers = SEED_PRESET_WRITERS;
            }
        }
        if (o.sparkHome != null && !masterGiven) {
            o.master = "local-cluster[1," + o.tasks + ",4096]";
        }
        if (o.master.startsWith("local-cluster") && o.sparkHome == null) {
            throw new InvalidParameterException("--master", o.master, "local-cluster only with --spark-home "
                    + "(Spark launches its executors from a distribution)");
        }
        o.check();
        return o;
    }

    /** Every shape's Sluice settings and every writer's spec, as the manager will check them. */
    private void check() {
        SluiceSparkConf settings = null;
        for (Shape shape : shapes()) {
            SparkConf check = new SparkConf(false)
                    .set(SluiceSparkConf.BATCH_BYTES, shape.batchBytes()).set(SluiceSparkConf.MEMORY_LIMIT, memoryLimit)
                    .set(SluiceSparkConf.THREADS, String.valueOf(threads));
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

    private static int positiveInt(String flag, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new InvalidParameterException(flag, value, "an integer >= 1");
    }

    private static int nonNegativeInt(String flag, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new InvalidParameterException(flag, value, "an integer >= 0");
    }

    private static double positiveDouble(String flag, String value) {
        try {
            double x = Double.parseDouble(value);
            if (x > 0 && Double.isFinite(x)) {
                return x;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new InvalidParameterException(flag, value, "a number > 0");
    }
}
