package dev.sluice.strategy.sort;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.run.MapTaskResult;
import dev.sluice.core.run.MapTaskRunner;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.strategy.Strategies;
import dev.sluice.testkit.MapTaskRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What sort does to storage with and without spills, against bypass's bytes for the same records. */
class SortSpillTest {
    private static final int PARTITIONS = 50;
    private static final ShuffleCodec CODEC = ShuffleCodec.LZ4_FRAME;

    @TempDir
    Path dir;

    @Test
    void aTaskThatNeverSpillsRenamesItsOnlyFileIntoPlaceAndWritesEachByteOnce() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 1), Partitioning.HASH, PARTITIONS, allocator)) {
            CountedStorage storage = new CountedStorage();
            Written sort = write(run, "sort", WriterConfig.UNLIMITED, storage, allocator, dir.resolve("sort"));
            IoSnapshot io = sort.io;
            assertEquals(0, io.spilledBytes, "no spill without a memory limit");
            assertEquals(0, io.spillFiles);
            assertEquals(3, io.filesCreated, "the sorted file, the index and the checksum file");
            assertEquals(0, io.filesDeleted);
            assertEquals(3, io.renames, "the sorted file, the index and the checksum file into place");
            assertEquals(0, io.transferCalls);
            assertEquals(0, io.bytesRead, "nothing is copied");
            assertEquals(sort.data.length + (PARTITIONS + 1) * Long.BYTES + PARTITIONS * Long.BYTES, io.bytesWritten,
                    "every byte written once: data, index, checksums");
            assertTrue(io.writeCalls >= run.expected.nonEmptyPartitions() + 2,
                    io.writeCalls + " write calls: a segment is flushed at its partition's end");
            Written bypass = write(run, "bypass", WriterConfig.UNLIMITED, new CountedStorage(), allocator,
                    dir.resolve("bypass"));
            assertArrayEquals(bypass.data, sort.data, "sort's data file is bypass's");
            assertArrayEquals(bypass.checksums, sort.checksums, "and so are its checksums");
            assertEquals(0, storage.filesLeft());
        }
    }

    @Test
    void underAMemoryLimitTheTaskSpillsAndTheMergedSegmentsAreBypassBytes() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 1), Partitioning.HASH, PARTITIONS, allocator)) {
            Written bypass = write(run, "bypass", WriterConfig.UNLIMITED, new CountedStorage(), allocator,
                    dir.resolve("bypass"));
            long limit = bypass.data.length / 4;
            for (String merge : List.of("transfer", "stream")) {
                CountedStorage storage = new CountedStorage();
                Written sort = write(run, "sort:pageSize=64k:mergeCopy=" + merge, limit, storage, allocator,
                        dir.resolve("sort-" + merge));
                IoSnapshot io = sort.io;
                long spills = io.spillFiles;
                assertTrue(spills >= 4, merge + ": " + spills + " spill files under a limit of a quarter of the output");
                assertEquals(spills + 3, io.filesCreated, merge + ": the spill files, the data, index and checksum");
                assertEquals(spills, io.filesDeleted, merge + ": every spill file deleted after the merge");
                assertEquals(sort.data.length, io.spilledBytes, merge + ": every byte spilled, then merged");
                assertEquals(sort.data.length, io.bytesRead, merge + ": every spilled byte read once by the merge");
                if (merge.equals("transfer")) {
                    assertTrue(io.transferCalls >= run.expected.nonEmptyPartitions(), io.transferCalls
                            + " kernel copies: one per segment");
                } else {
                    assertEquals(0, io.transferCalls);
                    assertTrue(io.largestMemoryWrite <= 64 * Bytes.KiB, merge + ": a write of " + io.largestMemoryWrite);
                }
                assertTrue(sort.peak <= limit + 64 * Bytes.KiB + 2 * Bytes.MiB + 32 * Bytes.KiB,
                        merge + ": peak " + sort.peak + " bytes: the pages within the limit, and the buffers");
                assertArrayEquals(bypass.data, sort.data, merge + ": the merged data file is bypass's");
                assertArrayEquals(bypass.checksums, sort.checksums, merge + ": and so are its checksums");
                assertEquals(0, storage.filesLeft(), merge);
            }
        }
    }

    @Test
    void theRadixSortKeepsEachPartitionsRecordsInTheOrderTheyCame() {
        int[] partitions = {70000, 3, 256, 3, 0, 70000, 255, 3, 16777215, 0, 256};
        PointerArray pointers = new PointerArray(2 * partitions.length);
        for (int i = 0; i < partitions.length; i++) {
            pointers.insert(PackedPointer.pack(partitions[i], i % 7, i));
        }
        int start = pointers.sortByPartition();
        List<String> sorted = new ArrayList<>();
        for (int i = start; i < start + partitions.length; i++) {
            long p = pointers.get(i);
            sorted.add(PackedPointer.partition(p) + "@" + PackedPointer.offset(p));
        }
        assertEquals(List.of("0@4", "0@9", "3@1", "3@3", "3@7", "255@6", "256@2", "256@10", "70000@0", "70000@5",
                "16777215@8"), sorted);
    }

    @Test
    void theDefaultPageIsSparksForTheMemoryLimit() {
        assertEquals(64 * Bytes.MiB, SortSettings.defaultPageSize(config(WriterConfig.UNLIMITED)));
        assertEquals(64 * Bytes.MiB, SortSettings.defaultPageSize(config(4 * Bytes.GiB)));
        assertEquals(16 * Bytes.MiB, SortSettings.defaultPageSize(config(256 * Bytes.MiB)));
        assertEquals(16 * Bytes.MiB, SortSettings.defaultPageSize(config(200 * Bytes.MiB)));
        assertEquals(Bytes.MiB, SortSettings.defaultPageSize(config(10 * Bytes.MiB)));
    }

    @Test
    void moreThanTwoToTheTwentyFourPartitionsAreRefusedWithTheLimitNamed() {
        WriterConfig config = WriterConfig.builder().partitions(PackedPointer.MAX_PARTITIONS + 1).outputDir(dir)
                .build();
        String problem = Strategies.spec("sort").problem(config);
        assertTrue(problem != null && problem.contains("16777216") && problem.contains("16777217"), problem);
        assertEquals(null, Strategies.spec("sort").problem(WriterConfig.builder()
                .partitions(PackedPointer.MAX_PARTITIONS).outputDir(dir).build()));
    }

    private WriterConfig config(long limit) {
        return WriterConfig.builder().partitions(PARTITIONS).memoryLimit(limit).outputDir(dir).build();
    }

    private static Written write(MapTaskRun run, String strategy, long limit, CountedStorage storage,
                                 BufferAllocator allocator, Path out) throws Exception {
        WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(2).memoryLimit(limit)
                .outputDir(out).build();
        try (ShuffleExecutor executor = Strategies.spec(strategy).createExecutor(config, storage, allocator)) {
            MapTaskResult task = MapTaskRunner.run(executor, run.input, CODEC);
            try (MapOutput output = task.output) {
                Written written = new Written(Files.readAllBytes(output.files().get(0)),
                        Files.readAllBytes(output.files().get(2)), storage.counters().snapshot(),
                        task.peakBufferedBytes);
                output.delete(storage);
                return written;
            }
        }
    }

    private record Written(byte[] data, byte[] checksums, IoSnapshot io, long peak) {}
}
