package dev.sluice.core.write.perbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.MapTaskRun;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.core.write.WriterConfig;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerBatchRoundTripTest {
    @TempDir
    Path dir;

    @Test
    void smoke() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 0.25).withKeys(KeyDistribution.UNIFORM),
                     Partitioning.HASH, 7, allocator)) {
            CountedStorage storage = new CountedStorage();
            WriterConfig config = WriterConfig.builder().partitions(7).threads(3).codec(ShuffleCodec.LZ4_FRAME).outputDir(dir).build();
            MapOutput output = run.write(new PerBatchWriterFactory(), config, storage, allocator);
            try (PartitionReader reader = output.openReader(storage)) {
                VerificationResult result = Verifier.verify(reader, run.reference, run.input.schema(), config.codec, allocator);
                assertTrue(result.ok(), result.toString());
                assertEquals(run.input.rows(), result.rowsRead());
            }
            System.out.println(storage.counters().snapshot().amplification());
        }
    }
}
