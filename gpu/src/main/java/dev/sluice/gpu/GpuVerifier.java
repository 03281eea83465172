package dev.sluice.gpu;

import dev.sluice.core.verify.VerificationResult;
import dev.sluice.spi.PartitionReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads every partition of a GPU map output back as a reducer of spark-rapids does (the codec's stream, then the
 * format's tables until the stream ends, into host columns: {@link GpuFormat#readTables}) and compares each
 * partition's rows, as a multiset, with what the input says it must hold.
 */
public final class GpuVerifier {
    private GpuVerifier() {}

    public static VerificationResult verify(PartitionReader output, RowMultisets expected, GpuFormat format,
                                            Schema schema, BufferAllocator allocator) throws IOException {
        if (output.numPartitions() != expected.numPartitions()) {
            return new VerificationResult(0, 0, "the output has " + output.numPartitions()
                    + " partitions, the input's " + expected.numPartitions());
        }
        RowMultisets read = new RowMultisets(expected.numPartitions());
        long rowsRead = 0;
        for (int p = 0; p < output.numPartitions(); p++) {
            long tables;
            try (ReadableByteChannel channel = output.open(p)) {
                InputStream plain = format.codec().unframe(
                        new BufferedInputStream(Channels.newInputStream(channel), 64 * 1024));
                tables = format.readTables(plain, p, read, schema, allocator);
            } catch (IllegalStateException | IllegalArgumentException | IOException e) {
                // Not this format's bytes, a table cut short, or a codec's stream cut short (zstd-jni's
                // ZstdIOException "Truncated source"): a wrong output, as the CPU path's Verifier reports it.
                return new VerificationResult(p, rowsRead, "partition " + p + ": unreadable as "
                        + format.serializer().description() + " (" + e + ")");
            }
            rowsRead += read.rows(p);
            if (!read.sameRows(p, expected)) {
                return new VerificationResult(p + 1, rowsRead, "partition " + p + ": expected "
                        + expected.describe(p) + ", read " + read.describe(p) + " in " + tables + " "
                        + format.serializer().label() + " tables");
            }
        }
        return new VerificationResult(output.numPartitions(), rowsRead, null);
    }
}
