package dev.sluice.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.hash;
import static org.apache.spark.sql.functions.spark_partition_id;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.Checksum;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.network.shuffle.checksum.ShuffleChecksumHelper;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark's shuffle checksums ({@code spark.shuffle.checksum.enabled}, on by default, at
 * {@code spark.shuffle.checksum.algorithm}) and encryption ({@code spark.io.encryption.enabled}): every strategy's
 * map output gets the checksum file Spark's own writers write, named after Spark's algorithm, its values those Spark's
 * {@code ShuffleChecksumHelper} computes over each partition's bytes of the data file (encrypted ones where
 * encryption is on); with checksums off, none. Encrypted, no partition holds a plain lz4 block. No shuffle falls
 * back, and the rows are stock's (Spark's reader decrypted every block).
 */
class SparkChecksumsTest {
    private static final List<String> STRATEGIES = List.of("per-batch", "buffered", "async", "sort");

    @ParameterizedTest
    @ValueSource(strings = {"CRC32C", "ADLER32", "off", "CRC32 encrypted"})
    void everyStrategysMapOutputHasSparksChecksumFileOfSparksAlgorithm(String settings) throws IOException {
        String algorithm = settings.split(" ")[0];
        boolean encrypted = settings.endsWith(" encrypted");
        Map<String, String> conf = new HashMap<>(Map.of(SluiceSparkConf.BATCH_BYTES, "128k", SluiceSparkConf.THREADS,
                "2", "spark.sql.shuffle.partitions", "4", "spark.cleaner.referenceTracking", "false"));
        if (encrypted) {
            conf.put(SluiceSparkConf.ENCRYPTION, "true");
        }
        if (algorithm.equals("off")) {
            conf.put(SluiceSparkConf.CHECKSUM_ENABLED, "false");
        } else if (!algorithm.equals("ADLER32")) {
            conf.put(SluiceSparkConf.CHECKSUM_ALGORITHM, algorithm.toLowerCase(java.util.Locale.ROOT));
        }
        try (LocalSpark local = LocalSpark.start("checksums", "local[2]", conf)) {
            SparkSession spark = local.spark;
            List<Row> stock = job(spark, "stock");
            Set<Path> before = dataFiles(local.localDir());
            SluiceShuffleManager manager = (SluiceShuffleManager) SparkEnv.get().shuffleManager();
            for (String strategy : STRATEGIES) {
                long batches = manager.batchesCut();
                assertEquals(stock, job(spark, strategy), settings + ", " + strategy);
                assertTrue(manager.batchesCut() > batches, strategy + " cut no batch");
                Set<Path> written = dataFiles(local.localDir());
                written.removeAll(before);
                before.addAll(written);
                // The repartition's 2 map outputs, and those of the aggregation's shuffle (as many as AQE makes).
                assertTrue(written.size() >= 2, strategy + ": " + written.size() + " map outputs");
                for (Path data : written) {
                    checkChecksums(local.localDir(), data, algorithm, strategy);
                    assertEquals(!encrypted, anyPlainLz4Block(local.localDir(), data), strategy + ", "
                            + data.getFileName() + ": a partition beginning with an lz4 block");
                }
            }
            assertEquals(List.of(), manager.fallbacks(), settings);
        }
    }

    /**
     * The spec a strategy runs with follows Spark's checksum settings where the spec leaves them, keeps a spec's own
     * {@code checksum}, and refuses an algorithm other than Spark's, with the key; Spark's own setting is checked too.
     */
    @Test
    void aStrategyTakesSparksChecksumsUnlessItsSpecSaysOtherwiseAndAnotherAlgorithmIsRefused() {
        SparkConf crc = new SparkConf(false).set(SluiceSparkConf.CHECKSUM_ALGORITHM, "crc32c");
        SluiceSparkConf settings = SluiceSparkConf.from(crc);
        assertEquals(ChecksumAlgorithm.CRC32C, settings.checksums);
        assertChecksums("true", "crc32c", settings.spec("k", "buffered"));
        assertEquals("buffered", settings.spec("k", "buffered").text(), "the spec as written");
        assertChecksums("false", "adler32", settings.spec("k", "per-batch:checksum=false"));
        assertChecksums("true", "crc32c", settings.spec("k", "sort:checksumAlgorithm=crc32c"));
        assertChecksums("true", "crc32c", settings.spec("k", "consolidated-best"));
        InvalidParameterException other = assertThrows(InvalidParameterException.class,
                () -> settings.spec("k", "per-batch:checksumAlgorithm=crc32"));
        assertEquals("k", other.parameter());
        assertTrue(other.getMessage().contains("Spark's spark.shuffle.checksum.algorithm is CRC32C"),
                other.getMessage());
        assertEquals(ChecksumAlgorithm.ADLER32, SluiceSparkConf.from(new SparkConf(false)).checksums, "Spark's default");
        SluiceSparkConf off = SluiceSparkConf.from(new SparkConf(false).set(SluiceSparkConf.CHECKSUM_ENABLED, "false"));
        assertEquals(null, off.checksums);
        assertChecksums("false", "adler32", off.spec("k", "per-batch"));
        assertChecksums("false", "crc32", off.spec("k", "async:checksumAlgorithm=crc32"));
        InvalidParameterException unknown = assertThrows(InvalidParameterException.class,
                () -> SluiceSparkConf.from(new SparkConf(false).set(SluiceSparkConf.CHECKSUM_ALGORITHM, "MD5")));
        assertEquals(SluiceSparkConf.CHECKSUM_ALGORITHM, unknown.parameter());
    }

    private static void assertChecksums(String checksum, String algorithm, dev.sluice.core.strategy.StrategySpec spec) {
        assertEquals(checksum, spec.describeOptions().get("checksum"), spec.text());
        assertEquals(algorithm, spec.describeOptions().get("checksumAlgorithm"), spec.text());
    }

    /** The data file's checksum file is the algorithm's alone, and holds Spark's checksum of each partition. */
    private static void checkChecksums(Path localDir, Path data, String algorithm, String strategy)
            throws IOException {
        String stem = data.getFileName().toString().replaceFirst("\\.data$", "");
        List<Path> checksumFiles;
        // Each file of a map output lies in the sub-directory its own name hashes to (DiskBlockManager.getFile).
        try (Stream<Path> files = Files.walk(localDir)) {
            checksumFiles = files.filter(f -> f.getFileName().toString().startsWith(stem + ".checksum."))
                    .sorted().collect(Collectors.toList());
        }
        String what = strategy + ", " + data.getFileName();
        if (algorithm.equals("off")) {
            assertEquals(List.of(), checksumFiles, what);
            return;
        }
        assertEquals(List.of(stem + ".checksum." + algorithm), checksumFiles.stream()
                .map(f -> f.getFileName().toString()).collect(Collectors.toList()), what);
        byte[] bytes = Files.readAllBytes(data);
        ByteBuffer index = ByteBuffer.wrap(Files.readAllBytes(find(localDir, stem + ".index")));
        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(checksumFiles.get(0)));
        int partitions = index.remaining() / Long.BYTES - 1;
        Checksum[] spark = ShuffleChecksumHelper.createPartitionChecksums(partitions, algorithm);
        long[] expected = new long[partitions];
        long[] written = new long[partitions];
        long start = index.getLong();
        for (int p = 0; p < partitions; p++) {
            long end = index.getLong();
            spark[p].update(bytes, (int) start, (int) (end - start));
            expected[p] = spark[p].getValue();
            written[p] = file.getLong();
            start = end;
        }
        assertArrayEquals(expected, written, what);
    }

    /** Whether a non-empty partition of the data file begins as a plain lz4 block does ({@code LZ4Block}). */
    private static boolean anyPlainLz4Block(Path localDir, Path data) throws IOException {
        String stem = data.getFileName().toString().replaceFirst("\\.data$", "");
        byte[] bytes = Files.readAllBytes(data);
        ByteBuffer index = ByteBuffer.wrap(Files.readAllBytes(find(localDir, stem + ".index")));
        byte[] magic = "LZ4Block".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        long start = index.getLong();
        boolean any = false;
        while (index.hasRemaining()) {
            long end = index.getLong();
            any |= end - start >= magic.length && java.util.Arrays.equals(bytes, (int) start, (int) start
                    + magic.length, magic, 0, magic.length);
            start = end;
        }
        return any;
    }

    private static Path find(Path localDir, String name) throws IOException {
        try (Stream<Path> files = Files.walk(localDir)) {
            return files.filter(f -> f.getFileName().toString().equals(name)).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + name));
        }
    }

    private static Set<Path> dataFiles(Path localDir) throws IOException {
        try (Stream<Path> files = Files.walk(localDir)) {
            return files.filter(f -> f.getFileName().toString().matches("shuffle_\\d+_\\d+_0\\.data"))
                    .collect(Collectors.toCollection(java.util.HashSet::new));
        }
    }

    private static List<Row> job(SparkSession spark, String strategy) {
        spark.conf().set(SluiceSparkConf.STRATEGY, strategy);
        try {
            return new ArrayList<>(spark.range(0, 100_000, 1, 2)
                    .selectExpr("id", "concat('row-', cast(id * 7 as string)) as s")
                    .repartition(16)
                    .withColumn("p", spark_partition_id())
                    .groupBy("p").agg(count("*"), sum("id"), sum(hash(col("s")))).orderBy("p").collectAsList());
        } finally {
            spark.conf().unset(SluiceSparkConf.STRATEGY);
        }
    }
}
