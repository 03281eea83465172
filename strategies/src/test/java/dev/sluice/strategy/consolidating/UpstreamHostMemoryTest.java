package dev.sluice.strategy.consolidating;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InputBatch;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.strategy.support.MemoryBudget;
import dev.sluice.testkit.Leaks;
import dev.sluice.testkit.MapTaskRun;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memoryBound=threshold} counts what spark-rapids' {@code HostAlloc} counts (HostAlloc.scala @ e465ec3851): the
 * input batches' host copies as well as the partials; an allocation under the threshold that does not fit spills
 * other finished partials and retries before a partial goes to file. And spilled partials are read back through
 * 64 KiB reads, as upstream's {@code BufferedInputStream}.
 */
class UpstreamHostMemoryTest {
    /** The codec of every record here. */
    private static final ShuffleCodec CODEC = ShuffleCodec.LZ4_BLOCK;

    @TempDir
    Path dir;

    private WriterConfig config(int partitions, long memoryLimit) {
        return WriterConfig.builder().partitions(partitions).threads(2)
                .memoryLimit(memoryLimit).outputDir(dir).build();
    }

    private static VerificationResult verify(MapTaskRun run, MapOutput output, CountedStorage storage,
                                             BufferAllocator allocator) throws Exception {
        try (PartitionReader reader = output.openReader(storage)) {
            return Verifier.verify(reader, run.expected, run.input.schema, ShuffleCodec.LZ4_BLOCK, allocator);
        }
    }

    @Test
    void theInputBatchesHostCopyCountsTowardTheThresholdSoAPartialStartsInAFile() throws Exception {
        // One batch of about 20 MB of host memory under a 36 MiB limit: past half of it before any partial exists.
        // Its partial (about 18 MB compressed) fits one 20 MiB buffer, which the limit has room for.
        InputSpec spec = InputSpec.of(DataSize.TINY, 5).withBatches(1);
        long limit = 36 * Bytes.MiB;
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.ROUNDROBIN, 50, allocator)) {
            long host = run.records(ShuffleCodec.LZ4_BLOCK).get(0).inputBatch().hostBytes();
            assertTrue(host > limit / 2 && host < limit, "input batch of " + host + " bytes");
            for (String bound : new String[] {"threshold", "partials-only"}) {
                CountedStorage storage = new CountedStorage();
                StrategySpec strategy = StrategySpec.parse("strategy",
                        "buffered:initialPartial=20m:memoryBound=" + bound);
                try (MapOutput output = run.write(strategy, config(50, limit), CODEC, storage, allocator)) {
                    IoSnapshot io = storage.counters().snapshot();
                    if (bound.equals("threshold")) {
                        assertEquals(output.totalBytes(), io.spilledBytes,
                                "the input's host copy put use past the threshold: the partial is a file from the "
                                        + "start, renamed into the data file");
                    } else {
                        assertEquals(0, io.spilledBytes, "partials alone stay under the threshold");
                    }
                    assertEquals(1.0, io.amplification(), 0.0);
                    assertTrue(verify(run, output, storage, allocator).ok());
                }
                assertEquals(0, storage.filesLeft());
            }
            Leaks.assertNone(allocator, run.heldBytes(), "threshold with input copies");
        }
    }

    @Test
    @Timeout(120)
    void anAllocationThatDoesNotFitSpillsOtherFinishedPartialsLosesNothingAndKeepsTheLimit() throws Exception {
        // Eight batches of about 2 MB, each partial 4 MiB (it never grows): finished partials pile up until the next
        // one does not fit 24 MiB. The threshold (1.0) never sends one to file first.
        InputSpec spec = InputSpec.of(DataSize.TINY, 4).withBatches(8);
        long limit = 24 * Bytes.MiB;
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.ROUNDROBIN, 50, allocator)) {
            CountedStorage storage = new CountedStorage();
            StrategySpec strategy = StrategySpec.parse("strategy",
                    "buffered:initialPartial=4m:memoryThreshold=1:maxBytesInFlight=1m");
            try (ShuffleExecutor executor = strategy.createExecutor(config(50, limit), storage, allocator)) {
                ExecutorMemory host = ((ConsolidatingExecutor) executor).host();
                try (MapOutput output = run.write(executor, ShuffleCodec.LZ4_BLOCK)) {
                    IoSnapshot io = storage.counters().snapshot();
                    assertTrue(host.finishedSpills() > 0, "no finished partial was spilled to make room");
                    assertTrue(io.spilledBytes > 0);
                    assertTrue(host.budget().peak() <= limit, "host use peaked at " + host.budget().peak()
                            + " bytes, over the limit of " + limit);
                    assertTrue(verify(run, output, storage, allocator).ok());
                }
                assertEquals(0, host.budget().used(), "input copies and partials all given back");
            }
            assertEquals(0, storage.filesLeft());
            Leaks.assertNone(allocator, run.heldBytes(), "spilling finished partials");
        }
    }

    @Test
    void spilledPartialsAreMergedThrough64KiBReads() throws Exception {
        // Every partial continues as a file past 64 KiB; five batches are merged partition by partition.
        InputSpec spec = InputSpec.of(DataSize.TINY, 5).withBatches(5);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.ROUNDROBIN, 4, allocator)) {
            CountedStorage storage = new CountedStorage();
            StrategySpec strategy = StrategySpec.parse("strategy", "buffered:initialPartial=64k:maxPartial=64k");
            try (MapOutput output = run.write(strategy, config(4, WriterConfig.UNLIMITED), CODEC, storage, allocator)) {
                IoSnapshot io = storage.counters().snapshot();
                assertTrue(io.bytesRead > 0.95 * output.totalBytes(), io.bytesRead + " bytes read back");
                double callsPerMiB = io.readCalls / (io.bytesRead / (double) Bytes.MiB);
                // 16 calls of 64 KiB per MiB, plus at most one refill per segment (20 here).
                assertTrue(callsPerMiB >= 16 && callsPerMiB < 17.5, callsPerMiB + " read calls per MiB ("
                        + io.readCalls + " calls, " + io.bytesRead + " bytes)");
                assertTrue(verify(run, output, storage, allocator).ok());
            }
            Leaks.assertNone(allocator, run.heldBytes(), "spilled merge");
        }
    }

    @Test
    void aBatchsHostCopyIsChargedOnceAndGivenBackAfterItsLastRecordOnceTheBatchEnded() {
        MemoryBudget host = new MemoryBudget(Long.MAX_VALUE);
        InputCopies copies = new InputCopies(host);
        InputBatch first = new InputBatch(1000);
        InputBatch second = new InputBatch(300);
        copies.charge(copies.arrived(first));
        assertEquals(0, copies.arrived(first), "charged once");
        assertEquals(1000, host.used());
        copies.serialized(first);
        copies.serialized(first);
        assertEquals(1000, host.used(), "the batch may still get records");
        copies.charge(copies.arrived(second));
        assertEquals(300, host.used(), "the first batch ended with every record serialized");
        copies.end();
        assertEquals(300, host.used(), "one record of the second batch is still being serialized");
        copies.serialized(second);
        assertEquals(0, host.used());
        copies.charge(copies.arrived(new InputBatch(50)));
        copies.releaseAll();
        assertEquals(0, host.used());
        copies.serialized(second);
        assertEquals(0, host.used(), "a record serialized after everything was given back changes nothing");
    }
}
