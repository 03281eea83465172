package dev.sluice.core.verify;

import dev.sluice.core.input.RowDigest;
import dev.sluice.core.serde.PartitionStreams;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.PartitionReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads every partition of a map output back, as a reduce task would (Arrow's stream reader, the codec undone), and
 * compares rows and digests with the {@link Expected}. Stops at the first partition that differs and names it.
 */
public final class Verifier {
    private static final int READ_BUFFER = 64 * 1024;

    private Verifier() {}

    public static VerificationResult verify(PartitionReader output, Expected expected, Schema schema,
                                            ShuffleCodec codec, BufferAllocator allocator) throws IOException {
        if (output.numPartitions() != expected.numPartitions()) {
            return new VerificationResult(0, 0, "output has " + output.numPartitions()
                    + " partitions, expected " + expected.numPartitions());
        }
        long rowsRead = 0;
        for (int p = 0; p < expected.numPartitions(); p++) {
            long expectedRows = expected.rows(p);
            long length = output.length(p);
            if (length == 0 || expectedRows == 0) {
                if (length != 0 || expectedRows != 0) {
                    return new VerificationResult(p, rowsRead, "partition " + p + ": expected " + expectedRows
                            + " rows, found " + length + " bytes");
                }
                continue;
            }
            long[] readBack = new long[2];
            String problem = readPartition(output, p, schema, codec, allocator, readBack);
            if (problem == null && (readBack[0] != expectedRows || readBack[1] != expected.digest(p))) {
                problem = String.format("expected %d rows (digest %016x), read %d rows (digest %016x)",
                        expectedRows, expected.digest(p), readBack[0], readBack[1]);
            }
            if (problem != null) {
                return new VerificationResult(p, rowsRead, "partition " + p + " (" + length + " bytes): " + problem);
            }
            rowsRead += readBack[0];
        }
        return new VerificationResult(expected.numPartitions(), rowsRead, null);
    }

    /** Reads partition {@code p}; fills {@code result} with rows and digest; returns a problem or null. */
    private static String readPartition(PartitionReader output, int p, Schema schema, ShuffleCodec codec,
                                        BufferAllocator allocator, long[] result) throws IOException {
        long rows = 0;
        long digest = 0;
        long[] rowHashes = new long[0];
        InputStream stream = codec.unframe(new BufferedInputStream(Channels.newInputStream(output.open(p)), READ_BUFFER));
        try (ArrowStreamReader reader = PartitionStreams.reader(stream, allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            if (!root.getSchema().equals(schema)) {
                return "schema " + root.getSchema() + " differs from the input's " + schema;
            }
            while (reader.loadNextBatch()) {
                int n = root.getRowCount();
                if (rowHashes.length < n) {
                    rowHashes = new long[n];
                }
                RowDigest.rowHashes(root, rowHashes);
                for (int i = 0; i < n; i++) {
                    digest = RowDigest.fold(digest, rowHashes[i]);
                }
                rows += n;
            }
            if (stream.read() != -1) {
                return "bytes follow the end-of-stream marker";
            }
        } catch (IOException | RuntimeException e) {
            return "unreadable: " + e;
        }
        result[0] = rows;
        result[1] = digest;
        return null;
    }
}
