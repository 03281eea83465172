package dev.sluice.strategy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.testkit.MapTaskRun;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.Checksum;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spark's checksum file: per-batch writes it by default (Spark 3.2+), the consolidating strategies only with
 * {@code checksum=true} (upstream commits them with empty checksums). Its values are a checksum of each partition's
 * bytes in the data file, of Spark's default algorithm (Adler32) or the one {@code checksumAlgorithm} names (CRC32,
 * CRC32C), computed here independently from the data and index files alone.
 */
class ChecksumFileTest {
    /** More partitions than zipf's 128 keys: some stay empty. */
    private static final int PARTITIONS = 151;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, {1} rows per batch: checksum file {2}")
    @CsvSource({
        "per-batch, 2048, ADLER32",
        "per-batch:mergeCopy=stream, 2048, ADLER32",
        "per-batch:checksum=false, 2048, none",
        "per-batch:checksumAlgorithm=crc32, 2048, CRC32",
        "per-batch:checksum=false:checksumAlgorithm=crc32c, 2048, none",
        "bypass:checksumAlgorithm=crc32c, 2048, CRC32C",
        "sort:checksumAlgorithm=crc32, 2048, CRC32",
        "sort:pageSize=64k:checksumAlgorithm=crc32c, 2048, CRC32C",
        "buffered, 2048, none",
        "buffered:checksumAlgorithm=crc32c, 2048, none",
        "buffered:checksum=true, 2048, ADLER32",
        "buffered:checksum=true, 1000000, ADLER32",
        "buffered:checksum=true:merge=gather, 2048, ADLER32",
        "buffered:checksum=true:initialPartial=64k:maxPartial=64k, 1000000, ADLER32",
        "buffered:checksum=true:checksumAlgorithm=crc32c, 1000000, CRC32C",
        "buffered:checksum=true:checksumAlgorithm=crc32:merge=gather, 2048, CRC32",
        "async:checksum=true, 2048, ADLER32",
        "async:checksum=true:checksumAlgorithm=crc32c, 2048, CRC32C",
    })
    void checksumsAreThoseOfEachPartitionsBytesByTheAlgorithmNamed(String strategy, int rowsPerBatch, String algorithm)
            throws Exception {
        boolean expected = !algorithm.equals("none");
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(rowsPerBatch).withKeys(KeyDistribution.ZIPF);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.HASH, PARTITIONS, allocator)) {
            ShuffleCodec codec = ShuffleCodec.LZ4_BLOCK;
            WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(3)
                    .outputDir(dir).build();
            CountedStorage storage = new CountedStorage();
            try (MapOutput output = run.write(Strategies.spec(strategy), config, codec, storage, allocator)) {
                MapOutputFiles files = new MapOutputFiles(dir, MapTaskRun.SHUFFLE_ID, MapTaskRun.MAP_ID);
                for (ChecksumAlgorithm any : ChecksumAlgorithm.values()) {
                    boolean named = any.name().equals(algorithm);
                    assertEquals(named, Files.exists(files.checksumFile(any)), strategy + ": " + any);
                    assertEquals(named, output.files().contains(files.checksumFile(any)), output.files().toString());
                }
                assertEquals(0, storage.filesLeft());
                if (!expected) {
                    return;
                }
                ChecksumAlgorithm named = ChecksumAlgorithm.valueOf(algorithm);
                Path checksumFile = files.checksumFile(named);
                assertEquals("shuffle_0_7_0.checksum." + algorithm, checksumFile.getFileName().toString());
                byte[] data = Files.readAllBytes(files.dataFile());
                ByteBuffer index = ByteBuffer.wrap(Files.readAllBytes(files.indexFile())).order(ByteOrder.BIG_ENDIAN);
                ByteBuffer sums = ByteBuffer.wrap(Files.readAllBytes(checksumFile)).order(ByteOrder.BIG_ENDIAN);
                assertEquals(PARTITIONS * Long.BYTES, sums.remaining(), "numPartitions big-endian longs");
                long[] expectedSums = new long[PARTITIONS];
                long[] actual = new long[PARTITIONS];
                long start = index.getLong();
                boolean someEmpty = false;
                for (int p = 0; p < PARTITIONS; p++) {
                    long end = index.getLong();
                    Checksum sum = named.newChecksum();
                    sum.update(data, (int) start, (int) (end - start));
                    expectedSums[p] = sum.getValue();
                    actual[p] = sums.getLong();
                    someEmpty |= end == start;
                    start = end;
                }
                assertArrayEquals(expectedSums, actual);
                assertTrue(someEmpty, "zipf keys leave some partitions empty, whose checksum is the algorithm's initial "
                        + "value");
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"per-batch", "buffered:checksum=true"})
    void aFailureWritingTheChecksumFileLeavesNothing(String strategy) throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.1).withRowsPerBatch(2048);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.HASH, PARTITIONS, allocator)) {
            ShuffleCodec codec = ShuffleCodec.LZ4_FRAME;
            WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(2)
                    .outputDir(dir).build();
            // Renames: index, data, checksum. The third fails.
            CountedStorage storage = new CountedStorage(dev.sluice.spi.storage.IoFaults.failingRename(3));
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                    () -> run.write(Strategies.spec(strategy), config, codec, storage, allocator));
            assertTrue(String.valueOf(e.getCause() == null ? e : e.getCause()).contains("rename #3")
                    || e.toString().contains("rename #3"), e.toString());
            try (var left = Files.list(dir)) {
                assertFalse(left.findAny().isPresent(), "files left after a failed checksum commit");
            }
        }
    }
}
