package dev.sluice.testkit;

import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.PartitionReader;
import java.io.InputStream;
import java.nio.channels.Channels;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** Reads partitions with Arrow Java's own reader and codecs, nothing of Sluice's but the codec's unframing. */
public final class ArrowReaders {
    private ArrowReaders() {}

    /** Rows of partition {@code p} as Arrow's {@code ArrowStreamReader} reads them; checks the schema. */
    public static long rows(PartitionReader output, int p, ShuffleCodec codec, Schema schema, BufferAllocator allocator)
            throws Exception {
        if (output.length(p) == 0) {
            return 0;
        }
        InputStream bytes = codec.unframe(Channels.newInputStream(output.open(p)));
        long rows = 0;
        try (ArrowStreamReader reader = new ArrowStreamReader(bytes, allocator, CommonsCompressionFactory.INSTANCE)) {
            if (!reader.getVectorSchemaRoot().getSchema().equals(schema)) {
                throw new AssertionError("partition " + p + " has schema " + reader.getVectorSchemaRoot().getSchema());
            }
            while (reader.loadNextBatch()) {
                rows += reader.getVectorSchemaRoot().getRowCount();
            }
        }
        return rows;
    }
}
