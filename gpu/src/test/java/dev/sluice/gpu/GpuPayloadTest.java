package dev.sluice.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.rapids.cudf.HostColumnVector;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.ShuffleCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * A record of the GPU path is JCudfSerialization's table of a slice of the batch's host columns, compressed by the
 * codec: it reads back as exactly that slice's rows, within the size the payload promised.
 */
class JCudfPayloadTest {
    @Test
    void eachPartitionsRecordReadsBackAsItsRowsWithinItsBoundInEveryCodec() throws Exception {
        int partitions = 13;
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            VectorSchemaRoot batch = input.batches().get(0);
            HostMemory memory = HostMemory.pageable();
            int[] partitionOf = new int[batch.getRowCount()];
            GpuPartitioning.HASH.assign(batch, partitions, 0, partitionOf);
            RowMultisets expected = new RowMultisets(partitions);
            expected.add(batch, partitionOf);
            for (ShuffleCodec codec : JCudfFormat.CODECS) {
                try (HostPartitions parts = HostPartitions.onHost(batch, GpuPartitioning.HASH, partitions, 0, memory,
                        allocator)) {
                    List<ShuffleRecord> records = parts.records(new JCudfFormat(codec));
                    byte[][] streams = new byte[partitions][];
                    long rows = 0;
                    for (ShuffleRecord record : records) {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        long written = record.payload().writeTo(Channels.newChannel(out), allocator);
                        assertEquals(out.size(), written, codec.label());
                        assertTrue(written <= record.payload().serializedBound(),
                                codec.label() + ": " + written + " > bound " + record.payload().serializedBound());
                        // Writing twice gives the same bytes.
                        ByteArrayOutputStream again = new ByteArrayOutputStream();
                        record.payload().writeTo(Channels.newChannel(again), allocator);
                        assertEquals(ByteBuffer.wrap(out.toByteArray()), ByteBuffer.wrap(again.toByteArray()));
                        streams[record.partitionId()] = out.toByteArray();
                        rows += record.rows();
                    }
                    assertEquals(batch.getRowCount(), rows);
                    assertEquals(expected.totalRows(), rows);
                    var result = JCudfVerifier.verify(new InMemory(streams), expected, batch.getSchema(), codec,
                            allocator);
                    assertTrue(result.ok(), codec.label() + ": " + result);
                    assertEquals(batch.getRowCount(), result.rowsRead());
                }
            }
            assertEquals(0, memory.openBuffers(), "host buffers left open");
        }
    }

    @Test
    void aRowInAnotherPartitionFailsVerification() throws Exception {
        int partitions = 5;
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            VectorSchemaRoot batch = input.batches().get(0);
            // What round robin starting at partition 1 would put where, checked against hash's output.
            RowMultisets expected = RowMultisets.expected(input.batches(), GpuPartitioning.ROUNDROBIN, partitions, 1);
            try (HostPartitions parts = HostPartitions.onHost(batch, GpuPartitioning.HASH, partitions, 0,
                    HostMemory.pageable(), allocator)) {
                byte[][] streams = new byte[partitions][];
                for (ShuffleRecord record : parts.records(new JCudfFormat(ShuffleCodec.LZ4_BLOCK))) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    record.payload().writeTo(Channels.newChannel(out), allocator);
                    streams[record.partitionId()] = out.toByteArray();
                }
                var result = JCudfVerifier.verify(new InMemory(streams), expected, batch.getSchema(),
                        ShuffleCodec.LZ4_BLOCK, allocator);
                assertTrue(!result.ok() && result.toString().startsWith("partition 0: expected"), result.toString());
            }
        }
    }

    @Test
    void aPartitionCutShortFailsVerificationInsteadOfThrowing() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            VectorSchemaRoot batch = input.batches().get(0);
            RowMultisets expected = RowMultisets.expected(input.batches(), GpuPartitioning.HASH, 1, 0);
            try (HostPartitions parts = HostPartitions.onHost(batch, GpuPartitioning.HASH, 1, 0, HostMemory.pageable(),
                    allocator)) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                parts.records(new JCudfFormat(ShuffleCodec.NONE)).get(0).payload().writeTo(Channels.newChannel(out),
                        allocator);
                byte[] cut = java.util.Arrays.copyOf(out.toByteArray(), out.size() - 10);
                var result = JCudfVerifier.verify(new InMemory(new byte[][] {cut}), expected, batch.getSchema(),
                        ShuffleCodec.NONE, allocator);
                assertTrue(!result.ok() && result.toString().startsWith("partition 0: unreadable"), result.toString());
            }
        }
    }

    @Test
    void hostColumnSlicesSerializeTheRowsOfTheirRange() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            VectorSchemaRoot batch = input.batches().get(0);
            HostColumnVector[] host = CudfColumns.toHost(batch, HostMemory.pageable());
            try {
                int from = 3;
                int rows = 101;
                JCudfPayload payload = new JCudfPayload(host, from, rows, ShuffleCodec.NONE);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                payload.writeTo(Channels.newChannel(out), allocator);
                assertEquals(payload.inputBytes(), out.size(), "uncompressed, the bytes are the serialized size");
                RowMultisets expected = new RowMultisets(1);
                try (VectorSchemaRoot slice = batch.slice(from, rows)) {
                    expected.add(slice, 0);
                }
                var result = JCudfVerifier.verify(new InMemory(new byte[][] {out.toByteArray()}), expected,
                        batch.getSchema(), ShuffleCodec.NONE, allocator);
                assertTrue(result.ok(), result.toString());
            } finally {
                CudfColumns.closeAll(host);
            }
        }
    }

    /** Partition streams held in arrays. */
    static final class InMemory implements PartitionReader {
        private final byte[][] streams;

        InMemory(byte[][] streams) {
            this.streams = streams;
        }

        @Override
        public int numPartitions() {
            return streams.length;
        }

        @Override
        public long length(int partition) {
            return streams[partition] == null ? 0 : streams[partition].length;
        }

        @Override
        public ReadableByteChannel open(int partition) {
            byte[] bytes = streams[partition] == null ? new byte[0] : streams[partition];
            return Channels.newChannel(new java.io.ByteArrayInputStream(bytes));
        }

        @Override
        public void close() throws IOException {}
    }
}
