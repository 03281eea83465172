package dev.sluice.spark.bench;

import dev.sluice.spark.SluiceShuffleManager;
import dev.sluice.spark.SluiceSparkConf;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.shuffle.ShuffleManager;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The seed job as an application to {@code spark-submit} (scripts/spark-cluster-check submits it with docs/spark.md's
 * lines): {@code spark.range(0, rows, 1, tasks)} with the seed's four columns, {@code repartition(partitions)},
 * {@code write.parquet(out)}, under whatever writer the application's {@code spark.sluice.strategy} names. The
 * output is read back and compared with the source rows (row count and the sum of every row's xxhash64); then every
 * executor's Sluice manager is asked what it did (batches cut, shuffles sent to Spark's writers and why). The measured
 * write's own map tasks report in Sluice's accumulators ({@code sluiceTasks}: map outputs a strategy wrote, map tasks
 * that went to Spark's writer). One JSON line on stdout; exit status 1 when the output differs from the source.
 *
 * <p>Arguments: {@code ROWS TASKS PARTITIONS OUT}.
 */
public final class SeedSubmit {
    private SeedSubmit() {}

    public static void main(String[] args) throws java.util.concurrent.TimeoutException {
        if (args.length != 4) {
            System.err.println("usage: SeedSubmit ROWS TASKS PARTITIONS OUT (got " + args.length + " arguments)");
            System.exit(2);
        }
        long rows = Long.parseLong(args[0]);
        int tasks = Integer.parseInt(args[1]);
        int partitions = Integer.parseInt(args[2]);
        String out = args[3];
        SparkSession spark = SparkSession.builder().appName("sluice-seed-submit").getOrCreate();
        boolean verified;
        try {
            String writer = spark.sparkContext().getConf().get(SluiceSparkConf.STRATEGY, "(none)");
            String manager = spark.sparkContext().getConf().get("spark.shuffle.manager", "sort");
            Dataset<Row> source = spark.range(0, rows, 1, tasks)
                    .selectExpr("id", "xxhash64(id) as a", "rand(7) as r", "id % 1000 as k");
            Row expected = SeedJob.fingerprint(source);
            StageFigures stages = new StageFigures();
            spark.sparkContext().listenerBus().waitUntilEmpty(120_000);
            spark.sparkContext().addSparkListener(stages);
            // What spark-cluster-check waits for before it kills an executor mid-write.
            System.err.println("seed-submit: the measured write starts");
            long start = System.nanoTime();
            source.repartition(partitions).write().parquet(out);
            long writeMillis = (System.nanoTime() - start) / 1_000_000;
            spark.sparkContext().listenerBus().waitUntilEmpty(120_000);
            spark.sparkContext().removeSparkListener(stages);
            StageFigures.Stage mapper = stages.mapper();
            Row written = SeedJob.fingerprint(spark.read().parquet(out));
            verified = written.getLong(0) == expected.getLong(0) && written.get(1).equals(expected.get(1));
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("writer", writer);
            line.put("manager", manager);
            line.put("rows", rows);
            line.put("tasks", tasks);
            line.put("partitions", partitions);
            line.put("driverLz4Java", lz4Jar());
            line.put("writeMillis", writeMillis);
            line.put("readBack", written.getLong(0));
            line.put("checksum", String.valueOf(written.get(1)));
            line.put("expected", String.valueOf(expected.get(1)));
            line.put("verified", verified);
            line.put("spark", org.apache.spark.package$.MODULE$.SPARK_VERSION());
            // The measured write's mapper stage: its tasks, and what they reported in Sluice's accumulators.
            line.put("mapTasks", mapper.tasks);
            line.put("mapTasksUnsuccessful", mapper.unsuccessful);
            line.put("mapTasksSpeculative", mapper.speculative);
            line.put("sluiceTasks", mapper.sluiceTasks());
            line.put("mapperSpilledBytes", mapper.spilledBytes);
            line.put("mapperPeakExecutionBytes", mapper.peakExecutionBytes);
            line.put("executors", askExecutors(spark));
            System.out.println(Json.line(line));
        } finally {
            spark.stop();
        }
        if (!verified) {
            System.exit(1);
        }
    }

    /** The jar this JVM loaded lz4-java's classes from (Spark's org.lz4 1.8.0 or at.yawk's 1.10.4). */
    static String lz4Jar() {
        java.security.CodeSource source = net.jpountz.lz4.LZ4Factory.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return "unknown";
        }
        String path = source.getLocation().getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /**
     * Each executor's Sluice manager, by executor id: batches its map tasks cut and its fallbacks. Many small tasks,
     * so that every executor runs at least one (two executors, 2 cores: 64 tasks reach both in practice; the result
     * names the executors it heard from).
     */
    private static Map<String, Object> askExecutors(SparkSession spark) {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            slots.add(i);
        }
        // The executors answer in maps (serializable, and the same in every answer of an executor); the driver writes
        // them, one JSON writer for the line.
        List<Tuple2<String, LinkedHashMap<String, Object>>> answers = sc.parallelize(slots, slots.size()).mapToPair(i -> {
            SparkEnv env = SparkEnv.get();
            ShuffleManager manager = env.shuffleManager();
            LinkedHashMap<String, Object> answer = new LinkedHashMap<>();
            if (manager instanceof SluiceShuffleManager) {
                SluiceShuffleManager sluice = (SluiceShuffleManager) manager;
                answer.put("batchesCut", sluice.batchesCut());
                answer.put("bytesWritten", sluice.counters().bytesWritten);
                answer.put("lz4Java", lz4Jar());
                answer.put("fallbacks", new ArrayList<>(sluice.fallbacks()));
            } else {
                answer.put("manager", manager.getClass().getName());
                answer.put("lz4Java", lz4Jar());
            }
            return new Tuple2<>(env.executorId(), answer);
        }).collect();
        Map<String, Object> byExecutor = new TreeMap<>();
        for (Tuple2<String, LinkedHashMap<String, Object>> answer : answers) {
            byExecutor.put(answer._1(), answer._2());
        }
        return byExecutor;
    }
}
