package dev.sluice.spark.bench;

import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.RunDevice;
import dev.sluice.spark.SluiceShuffleManager;
import dev.sluice.spark.SluiceSparkConf;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.storage.IoSnapshot;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The seed job in real Spark, once per writer: {@code spark.range(...)} of four 8-byte columns, {@code repartition(200)},
 * {@code write.parquet(...)}, with the map tasks' shuffle bytes sized like the seed's, under Spark's own manager
 * ({@code stock}) and any Sluice strategy, in one application (the strategy is a session setting per query, so every
 * writer runs in the same JVMs), rounds rotating which writer goes first. Prints one JSON line per writer and
 * iteration on stdout; progress and a summary on stderr.
 */
public final class SparkBench {
    /** The seed report's shuffle bytes per mapper task, by configuration (its table in section 2.3). */
    static final Map<String, Long> SEED_TASK_BYTES = new LinkedHashMap<>();

    static {
        SEED_TASK_BYTES.put("small", 402_000_000L);
        SEED_TASK_BYTES.put("medium", 803_000_000L);
        SEED_TASK_BYTES.put("large", 1_180_000_000L);
        SEED_TASK_BYTES.put("xlarge", 1_570_000_000L);
        SEED_TASK_BYTES.put("xxlarge", 1_950_000_000L);
    }

    /**
     * Bytes of one row as the shuffle serializes it: {@code UnsafeRowSerializer} writes a 4-byte size, then the row:
     * an 8-byte null bitset and four 8-byte fields.
     */
    static final int ROW_BYTES = 4 + 8 + 4 * 8;

    private final Options options;
    private final PrintStream results;
    private final PrintStream log;

    SparkBench(Options options, PrintStream results, PrintStream log) {
        this.options = options;
        this.results = results;
        this.log = log;
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (InvalidParameterException e) {
            System.err.println("spark-bench: " + e.getMessage());
            System.err.println("(spark-bench --help lists the options)");
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.print(Options.HELP);
            return;
        }
        try {
            new SparkBench(options, System.out, System.err).run();
        } catch (Exception e) {
            System.err.println("spark-bench: failed: " + e);
            e.printStackTrace(System.err);
            System.exit(1);
        }
    }

    void run() throws IOException, InterruptedException {
        Path work = options.work;
        Files.createDirectories(work);
        long rowsPerTask = Math.max(1, (long) (SEED_TASK_BYTES.get(options.size) * options.scale / ROW_BYTES));
        // On the local directory at once: a query's map outputs and the per-batch strategies' scratch copies of them
        // (every shuffle is removed before the next writer runs).
        long plannedBytes = 3 * rowsPerTask * ROW_BYTES * options.tasks;
        String refusal = RunDevice.refusal(options.device, plannedBytes);
        if (refusal != null) {
            throw new InvalidParameterException("--device", options.device.text(), refusal);
        }
        Path localBase = options.localDir != null ? options.localDir : work.resolve("local");
        Files.createDirectories(localBase);
        try (RunDevice device = RunDevice.open(options.device, localBase, options.tasks, options.scale, plannedBytes,
                log, true)) {
            run(rowsPerTask, device.directory(), device.describe());
        }
    }

    private void run(long rowsPerTask, Path localDir, Map<String, Object> deviceFigures)
            throws IOException, InterruptedException {
        long rows = rowsPerTask * options.tasks;
        log.printf(Locale.ROOT, "spark-bench: %s x %.3f: %d map tasks x %d rows (%s serialized each, %d bytes a row), "
                + "repartition(%d), master %s, writers %s, %d warm-up + %d measured iterations; lz4-java: %s%n",
                options.size, options.scale, options.tasks, rowsPerTask, mib(rowsPerTask * ROW_BYTES), ROW_BYTES,
                options.partitions, options.master, options.writers, options.warmups, options.iterations, lz4Jar());
        SparkSession.Builder builder = SparkSession.builder().appName("sluice-spark-bench").master(options.master)
                .config("spark.shuffle.manager", SluiceShuffleManager.class.getName())
                .config("spark.local.dir", localDir.toString())
                .config("spark.ui.enabled", "false")
                // Queries other than the measured one (the checks) run on Spark's own writers.
                .config(SluiceSparkConf.STRATEGY, SluiceSparkConf.STOCK)
                .config(SluiceSparkConf.BATCH_BYTES, options.batchBytes)
                .config(SluiceSparkConf.THREADS, String.valueOf(options.threads))
                .config(SluiceSparkConf.MEMORY_LIMIT, options.memoryLimit);
        if (options.sparkHome != null) {
            // Executors in their own JVMs load the manager from Sluice's jars, lz4-java first (scripts/spark-bench
            // passes the class path).
            String jars = System.getProperty("sluice.executorClassPath", "");
            if (jars.isEmpty()) {
                throw new IllegalStateException("-Dsluice.executorClassPath is missing: run through scripts/spark-bench");
            }
            builder.config("spark.executor.extraClassPath", jars)
                    .config("spark.executor.extraJavaOptions", System.getProperty("sluice.executorJavaOptions", ""));
        }
        options.conf.forEach(builder::config);
        SparkSession spark = builder.getOrCreate();
        try {
            StageFigures figures = new StageFigures();
            spark.sparkContext().addSparkListener(figures);
            Dataset<Row> source = spark.range(0, rows, 1, options.tasks)
                    .selectExpr("id", "xxhash64(id) as a", "rand(7) as r", "id % 1000 as k");
            Row expected = fingerprint(source);
            log.printf(Locale.ROOT, "spark-bench: reference from the source rows: %d rows, checksum %s%n",
                    expected.getLong(0), expected.get(1));
            Map<String, List<double[]>> measured = new LinkedHashMap<>();
            int total = options.warmups + options.iterations;
            for (int i = 0; i < total; i++) {
                boolean warmup = i < options.warmups;
                for (int w = 0; w < options.writers.size(); w++) {
                    String writer = options.writers.get((w + i) % options.writers.size());
                    Map<String, Object> line = once(spark, source, figures, writer, i, warmup, expected);
                    line.put("device", deviceFigures);
                    results.println(Json.line(line));
                    results.flush();
                    if (!warmup) {
                        measured.computeIfAbsent(writer, k -> new ArrayList<>()).add(new double[] {
                                ((Number) line.get("queryMillis")).doubleValue(),
                                ((Number) line.get("mapperStageMillis")).doubleValue(),
                                ((Number) line.get("sumTaskMillis")).doubleValue()});
                    }
                    if (!Boolean.TRUE.equals(line.get("verified"))) {
                        throw new IllegalStateException(writer + " wrote parquet that differs from the source rows: "
                                + line);
                    }
                }
            }
            summary(measured);
        } finally {
            spark.stop();
        }
    }

    private Map<String, Object> once(SparkSession spark, Dataset<Row> source, StageFigures figures, String writer,
                                     int iteration, boolean warmup, Row expected)
            throws IOException, InterruptedException {
        Path out = options.work.resolve("parquet");
        deleteTree(out);
        sync();
        spark.conf().set(SluiceSparkConf.STRATEGY, writer);
        drain(spark);
        figures.reset();
        IoSnapshot before = counters();
        long start = System.nanoTime();
        source.repartition(options.partitions).write().parquet(out.toString());
        long queryMillis = (System.nanoTime() - start) / 1_000_000;
        drain(spark);
        IoSnapshot after = counters();
        StageFigures.Stage mapper = figures.mapper();
        spark.conf().unset(SluiceSparkConf.STRATEGY);
        Row written = fingerprint(spark.read().parquet(out.toString()));
        boolean verified = written.getLong(0) == expected.getLong(0) && written.get(1).equals(expected.get(1));
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("writer", writer);
        line.put("iteration", iteration);
        line.put("warmup", warmup);
        line.put("queryMillis", queryMillis);
        line.put("mapperStageMillis", mapper.stageMillis);
        line.put("sumTaskMillis", mapper.taskMillis);
        line.put("shuffleBytes", mapper.shuffleBytes);
        line.put("shuffleRecords", mapper.shuffleRecords);
        line.put("shuffleWriteTimeMillis", mapper.shuffleWriteNanos / 1_000_000);
        line.put("rows", written.getLong(0));
        line.put("verified", verified);
        line.put("size", options.size);
        line.put("scale", options.scale);
        line.put("tasks", options.tasks);
        line.put("master", options.master);
        line.put("lz4Java", lz4Jar());
        if (before != null && after != null) {
            IoSnapshot io = after.since(before);
            Map<String, Object> sluice = new LinkedHashMap<>();
            sluice.put("bytesWritten", io.bytesWritten);
            sluice.put("writeCalls", io.writeCalls);
            sluice.put("bytesRead", io.bytesRead);
            sluice.put("filesCreated", io.filesCreated);
            sluice.put("renames", io.renames);
            sluice.put("committedBytes", io.committedBytes);
            line.put("sluice", sluice);
        } else {
            line.put("sluice", null);
        }
        log.printf(Locale.ROOT, "spark-bench: %-9s %-22s query %6d ms, mapper stage %6d ms, tasks %7d ms, "
                + "shuffle %s, %s%n", warmup ? "warm-up" : "iter " + (iteration - options.warmups), writer,
                queryMillis, mapper.stageMillis, mapper.taskMillis, mib(mapper.shuffleBytes),
                verified ? "verified" : "NOT VERIFIED");
        cleanShuffles(spark, figures);
        return line;
    }

    /**
     * Removes every shuffle of the query just run, in every executor, before the next writer starts: each iteration
     * starts with the same local directories.
     */
    private static void cleanShuffles(SparkSession spark, StageFigures figures) {
        drain(spark);
        scala.Option<org.apache.spark.ContextCleaner> cleaner = spark.sparkContext().cleaner();
        for (int id : figures.takeShuffles()) {
            if (cleaner.isDefined()) {
                cleaner.get().doCleanupShuffle(id, true);
            }
        }
    }

    /** Waits until Spark's listener bus has delivered every event so far (two minutes at most). */
    private static void drain(SparkSession spark) {
        try {
            spark.sparkContext().listenerBus().waitUntilEmpty(120_000);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Spark's listener bus did not empty within 2 minutes", e);
        }
    }

    /** Sluice's counters of this JVM's manager: exact per query in local mode (one JVM, one query at a time). */
    private IoSnapshot counters() {
        if (!options.master.startsWith("local[") && !options.master.equals("local")) {
            return null; // the executors' managers live in other JVMs
        }
        return ((SluiceShuffleManager) SparkEnv.get().shuffleManager()).counters();
    }

    /** Row count and an order-insensitive checksum: the sum of every row's xxhash64, as an exact decimal. */
    static Row fingerprint(Dataset<Row> rows) {
        return rows.selectExpr("count(*)", "sum(cast(xxhash64(id, a, r, k) as decimal(38, 0)))").first();
    }

    private void summary(Map<String, List<double[]>> measured) {
        log.println("spark-bench: measured iterations, mean ± standard deviation (n):");
        String[] names = {"query", "mapper stage", "sum of tasks"};
        Double stock = measured.containsKey("stock") ? Stats.mean(field(measured.get("stock"), 1)) : null;
        for (Map.Entry<String, List<double[]>> e : measured.entrySet()) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-22s", e.getKey()));
            for (int f = 0; f < names.length; f++) {
                double[] ms = field(e.getValue(), f);
                row.append(String.format(Locale.ROOT, "  %s %.0f ± %.0f ms", names[f], Stats.mean(ms), Stats.sd(ms)));
            }
            if (stock != null) {
                row.append(String.format(Locale.ROOT, "  (mapper stage %.2fx stock's)",
                        Stats.mean(field(e.getValue(), 1)) / stock));
            }
            row.append(" (n=").append(e.getValue().size()).append(')');
            log.println(row);
        }
    }

    /** Figure {@code index} (query, mapper stage, sum of tasks) of every measured iteration. */
    private static double[] field(List<double[]> values, int index) {
        return values.stream().mapToDouble(v -> v[index]).toArray();
    }

    /** The jar {@code net.jpountz.lz4} classes come from, as group:artifact:version where the path says it. */
    static String lz4Jar() {
        java.security.CodeSource source = net.jpountz.lz4.LZ4Factory.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return "unknown";
        }
        String path = source.getLocation().getPath();
        if (path.contains("/at/yawk/lz4/")) {
            return "at.yawk.lz4:lz4-java:" + Path.of(path).getParent().getFileName();
        }
        if (path.contains("/org/lz4/")) {
            return "org.lz4:lz4-java:" + Path.of(path).getParent().getFileName();
        }
        return Path.of(path).getFileName().toString();
    }

    private static void sync() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sync").inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IOException("sync failed with exit status " + p.exitValue());
        }
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) Bytes.MiB);
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toArray(Path[]::new)) {
                Files.delete(p);
            }
        }
    }

    /** The command line, checked whole before Spark starts. */
    static final class Options {
        static final String HELP = String.join("\n",
                "Usage: scripts/spark-bench [options]",
                "",
                "The seed job (spark.range(...).repartition(200).write.parquet(...)) in real Spark, once per writer and",
                "iteration, every writer's parquet checked against the source rows (count and an order-insensitive",
                "checksum). One JSON line per writer and iteration on stdout; progress and a summary on stderr.",
                "",
                "  --writers LIST      comma-separated: stock (Spark's SortShuffleManager writers) or any Sluice",
                "                      strategy spec or preset (default: stock,per-batch,buffered,async,consolidated-best)",
                "  --size NAME         the seed's shuffle bytes per map task: small 402 MB, medium 803 MB, large 1.18 GB,",
                "                      xlarge 1.57 GB, xxlarge 1.95 GB (default: small)",
                "  --scale X           multiplies the size (default: 0.1)",
                "  --tasks N           map tasks (default: 2)",
                "  --partitions N      repartition(N) (default: 200, the seed's)",
                "  --warmup N          warm-up iterations per writer (default: 1)",
                "  --iterations N      measured iterations per writer (default: 3, the seed's)",
                "  --master URL        Spark master (default: local[2]); local-cluster[...] needs --spark-home",
                "  --spark-home DIR    a Spark 4.1.1 distribution: runs local-cluster[1,2,4096] (executors in their own",
                "                      JVM, launched from DIR) unless --master says otherwise",
                "  --local-dir DIR     where Spark's local directory (spark.local.dir) goes (default: WORK/local)",
                "  --device SPEC       the local directory's storage: native (as given, the default), an emulated",
                "                      device (emulated:write=RATE:dirty=SIZE) or a profile, e.g. seed-ssd: the",
                "                      seed node's disk and page cache per task slot (docs/balance.md; root)",
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
        List<String> writers = List.of("stock", "per-batch", "buffered", "async", "consolidated-best");
        String size = "small";
        double scale = 0.1;
        int tasks = 2;
        int partitions = 200;
        int warmups = 1;
        int iterations = 3;
        String master = "local[2]";
        Path sparkHome;
        Path localDir;
        DeviceSpec device = DeviceSpec.parse("--device", "native");
        Path work = Path.of("spark", "target", "spark-bench");
        String batchBytes = SluiceSparkConf.DEFAULT_BATCH_BYTES;
        int threads = 16;
        String memoryLimit = "none";
        Map<String, String> conf = new LinkedHashMap<>();

        static Options parse(String[] args) {
            Options o = new Options();
            boolean masterGiven = false;
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
                        break;
                    case "--size":
                        if (!SEED_TASK_BYTES.containsKey(value)) {
                            throw new InvalidParameterException(flag, value, "one of " + SEED_TASK_BYTES.keySet());
                        }
                        o.size = value;
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
            if (o.sparkHome != null && !masterGiven) {
                o.master = "local-cluster[1," + o.tasks + ",4096]";
            }
            if (o.master.startsWith("local-cluster") && o.sparkHome == null) {
                throw new InvalidParameterException("--master", o.master, "local-cluster only with --spark-home "
                        + "(Spark launches its executors from a distribution)");
            }
            // Every writer's spec, and the Sluice settings, checked before Spark starts.
            org.apache.spark.SparkConf check = new org.apache.spark.SparkConf(false)
                    .set(SluiceSparkConf.BATCH_BYTES, o.batchBytes).set(SluiceSparkConf.MEMORY_LIMIT, o.memoryLimit)
                    .set(SluiceSparkConf.THREADS, String.valueOf(o.threads));
            o.conf.forEach(check::set);
            SluiceSparkConf settings = SluiceSparkConf.from(check);
            for (String writer : o.writers) {
                if (!writer.equals(SluiceSparkConf.STOCK)) {
                    settings.spec("--writers", writer);
                }
            }
            return o;
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

    /** Mean and standard deviation. */
    static final class Stats {
        static double mean(double[] xs) {
            return Arrays.stream(xs).average().orElse(Double.NaN);
        }

        static double sd(double[] xs) {
            if (xs.length < 2) {
                return Double.NaN;
            }
            double m = mean(xs);
            return Math.sqrt(Arrays.stream(xs).map(x -> (x - m) * (x - m)).sum() / (xs.length - 1));
        }
    }

    /** One flat JSON object per line; values are numbers, booleans, strings, null or one nested map. */
    static final class Json {
        static String line(Map<String, Object> fields) {
            StringBuilder out = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<String, Object> e : fields.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                out.append(quote(e.getKey())).append(':');
                value(out, e.getValue());
            }
            return out.append('}').toString();
        }

        @SuppressWarnings("unchecked")
        private static void value(StringBuilder out, Object v) {
            if (v == null) {
                out.append("null");
            } else if (v instanceof Number || v instanceof Boolean || v instanceof BigDecimal) {
                out.append(v);
            } else if (v instanceof Map) {
                out.append(line((Map<String, Object>) v));
            } else {
                out.append(quote(v.toString()));
            }
        }

        private static String quote(String s) {
            StringBuilder q = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') {
                    q.append('\\').append(c);
                } else if (c < 0x20) {
                    q.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                } else {
                    q.append(c);
                }
            }
            return q.append('"').toString();
        }
    }
}
