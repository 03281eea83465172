package dev.sluice.spark.bench;

import dev.sluice.spark.SluiceShuffleManager;
import dev.sluice.spark.SluiceSparkConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * executor's Sluice manager is asked what it did (batches cut, shuffles sent to Spark's writers and why). One JSON
 * line on stdout; exit status 1 when the output differs from the source.
 *
 * <p>Arguments: {@code ROWS TASKS PARTITIONS OUT}.
 */
public final class SeedSubmit {
    private SeedSubmit() {}

    public static void main(String[] args) {
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
            long start = System.nanoTime();
            source.repartition(partitions).write().parquet(out);
            long writeMillis = (System.nanoTime() - start) / 1_000_000;
            Row written = SeedJob.fingerprint(spark.read().parquet(out));
            verified = written.getLong(0) == expected.getLong(0) && written.get(1).equals(expected.get(1));
            Map<String, String> executors = askExecutors(spark);
            System.out.println(String.format(Locale.ROOT, "{\"writer\":%s,\"manager\":%s,\"rows\":%d,\"tasks\":%d,"
                            + "\"partitions\":%d,\"driverLz4Java\":%s,\"writeMillis\":%d,\"readBack\":%d,\"checksum\":%s,\"expected\":%s,"
                            + "\"verified\":%b,\"executors\":{%s}}", Json.quote(writer), Json.quote(manager), rows,
                    tasks, partitions, Json.quote(lz4Jar()), writeMillis, written.getLong(0),
                    Json.quote(String.valueOf(written.get(1))), Json.quote(String.valueOf(expected.get(1))), verified,
                    String.join(",", executors.values())));
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
    private static Map<String, String> askExecutors(SparkSession spark) {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            slots.add(i);
        }
        List<Tuple2<String, String>> answers = sc.parallelize(slots, slots.size()).mapToPair(i -> {
            SparkEnv env = SparkEnv.get();
            ShuffleManager manager = env.shuffleManager();
            String json;
            if (manager instanceof SluiceShuffleManager) {
                SluiceShuffleManager sluice = (SluiceShuffleManager) manager;
                List<String> fallbacks = new ArrayList<>();
                for (String f : sluice.fallbacks()) {
                    fallbacks.add(Json.quote(f));
                }
                json = String.format(Locale.ROOT, "{\"batchesCut\":%d,\"bytesWritten\":%d,\"lz4Java\":%s,"
                                + "\"fallbacks\":[%s]}", sluice.batchesCut(), sluice.counters().bytesWritten,
                        Json.quote(lz4Jar()), String.join(",", fallbacks));
            } else {
                json = "{\"manager\":" + Json.quote(manager.getClass().getName()) + ",\"lz4Java\":"
                        + Json.quote(lz4Jar()) + "}";
            }
            return new Tuple2<>(env.executorId(), json);
        }).collect();
        Map<String, String> byExecutor = new TreeMap<>();
        for (Tuple2<String, String> answer : answers) {
            byExecutor.put(answer._1(), Json.quote(answer._1()) + ":" + answer._2());
        }
        return byExecutor;
    }
}
