package dev.sluice.gpu;

import ai.rapids.cudf.HostColumnVector;
import ai.rapids.cudf.HostMemoryBuffer;
import ai.rapids.cudf.JCudfSerialization;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads every partition of a GPU map output back as a reducer of spark-rapids does (the codec's stream, then
 * JCudfSerialization tables until the stream ends, unpacked into host columns) and compares each partition's rows,
 * as a multiset, with what the input says it must hold.
 */
public final class JCudfVerifier {
    private JCudfVerifier() {}

    public static VerificationResult verify(PartitionReader output, RowMultisets expected, Schema schema,
                                            ShuffleCodec codec, BufferAllocator allocator) throws IOException {
        if (output.numPartitions() != expected.numPartitions()) {
            return new VerificationResult(0, 0, "the output has " + output.numPartitions()
                    + " partitions, the reference " + expected.numPartitions());
        }
        RowMultisets read = new RowMultisets(expected.numPartitions());
        long rowsRead = 0;
        for (int p = 0; p < output.numPartitions(); p++) {
            long tables;
            try (ReadableByteChannel channel = output.open(p)) {
                tables = readPartition(channel, p, read, schema, codec, allocator);
            } catch (IllegalStateException | IllegalArgumentException | EOFException e) {
                // Not JCudf bytes, or a table cut short: a wrong output, not a failure to read one.
                return new VerificationResult(p, rowsRead, "partition " + p + ": unreadable (" + e + ")");
            }
            rowsRead += read.rows(p);
            if (!read.sameRows(p, expected)) {
                return new VerificationResult(p + 1, rowsRead, "partition " + p + ": expected "
                        + expected.describe(p) + ", read " + read.describe(p) + " in " + tables + " tables");
            }
        }
        return new VerificationResult(output.numPartitions(), rowsRead, null);
    }

    /** Adds the rows of partition {@code p}'s stream to {@code into}; returns how many tables it held. */
    private static long readPartition(ReadableByteChannel channel, int p, RowMultisets into, Schema schema,
                                      ShuffleCodec codec, BufferAllocator allocator) throws IOException {
        InputStream plain = codec.unframe(new BufferedInputStream(Channels.newInputStream(channel), 64 * 1024));
        DataInputStream in = new DataInputStream(plain);
        long tables = 0;
        while (true) {
            JCudfSerialization.SerializedTableHeader header = new JCudfSerialization.SerializedTableHeader(in);
            if (!header.wasInitialized()) {
                return tables;
            }
            tables++;
            try (HostMemoryBuffer buffer = HostMemoryBuffer.allocate(Math.max(1, header.getDataLen()), false)) {
                JCudfSerialization.readTableIntoBuffer(in, header, buffer);
                if (!header.wasDataRead()) {
                    throw new IllegalStateException("table " + tables + " ended early");
                }
                HostColumnVector[] columns = JCudfSerialization.unpackHostColumnVectors(header, buffer);
                try (VectorSchemaRoot rows = CudfColumns.toArrow(columns, schema, allocator)) {
                    into.add(rows, p);
                } finally {
                    CudfColumns.closeAll(columns);
                }
            }
        }
    }
}
