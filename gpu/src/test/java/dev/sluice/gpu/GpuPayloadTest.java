package dev.sluice.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.rapids.cudf.HostColumnVector;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A record of the GPU path is one serialized table (kudo's or JCudfSerialization's) of a slice of the batch's host
 * columns, compressed by the codec: it reads back as exactly that slice's rows, within the size the payload promised;
 * bytes that are wrong or cut short are a mismatch, not an exception.
 */
class GpuPayloadTest {
    @ParameterizedTest
    @EnumSource(GpuSerializer.class)
    void eachPartitionsRecordReadsBackAsItsRowsWithinItsBoundInEveryCodec(GpuSerializer serializer) throws Exception {
        int partitions = 13;
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            VectorSchemaRoot batch = input.batches().get(0);
            HostMemory memory = HostMemory.pageable();
            int[] partitionOf = new int[batch.getRowCount()];
            GpuPartitioning.HASH.assign(batch, partitions, 0, partitionOf);
            RowMultisets expected = new RowMultisets(partitions);
            expected.add(batch, partitionOf);
            for (ShuffleCodec codec : GpuFormat.CODECS) {
                String what = serializer.label() + ", " + codec.label();
                GpuFormat format = serializer.format(codec, batch.getSchema());
                try (HostPartitions parts = HostPartitions.onHost(batch, GpuPartitioning.HASH, partitions, 0, memory,
                        allocator)) {
                    List<ShuffleRecord> records = parts.records(format);
                    byte[][] streams = new byte[partitions][];
                    long rows = 0;
                    for (ShuffleRecord record : records) {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        long written = record.payload().writeTo(Channels.newChannel(out), ArrowHostAllocator.of(allocator));
                        assertEquals(out.size(), written, what);
                        assertTrue(written <= record.payload().serializedBound(),
                                what + ": " + written + " > bound " + record.payload().serializedBound());
                        if (codec == ShuffleCodec.NONE) {
                            assertEquals(record.payload().inputBytes(), written,
                                    what + ": uncompressed, the bytes are the serialized size");
                        }
                        // Writing twice gives the same bytes.
                        ByteArrayOutputStream again = new ByteArrayOutputStream();
                        record.payload().writeTo(Channels.newChannel(again), ArrowHostAllocator.of(allocator));
                        assertEquals(ByteBuffer.wrap(out.toByteArray()), ByteBuffer.wrap(again.toByteArray()), what);
                        streams[record.partitionId()] = out.toByteArray();
                        rows += record.rows();
                    }
                    assertEquals(batch.getRowCount(), rows);
                    assertEquals(expected.totalRows(), rows);
                    VerificationResult result = GpuVerifier.verify(new InMemory(streams), expected, format,
                            batch.getSchema(), allocator);
                    assertTrue(result.ok(), what + ": " + result);
                    assertEquals(batch.getRowCount(), result.rowsRead());
                }
            }
            assertEquals(0, memory.openBuffers(), "host buffers left open");
        }
    }

    @ParameterizedTest
    @EnumSource(GpuSerializer.class)
    void aRowInAnotherPartitionFailsVerification(GpuSerializer serializer) throws Exception {
        int partitions = 5;
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            VectorSchemaRoot batch = input.batches().get(0);
            GpuFormat format = serializer.format(ShuffleCodec.LZ4_BLOCK, batch.getSchema());
            // What round robin starting at partition 1 would put where, checked against hash's output.
            RowMultisets expected = RowMultisets.expected(input.batches(), GpuPartitioning.ROUNDROBIN, partitions, 1);
            HostMemory memory = HostMemory.pageable();
            try (HostPartitions parts = HostPartitions.onHost(batch, GpuPartitioning.HASH, partitions, 0, memory,
                    allocator)) {
                byte[][] streams = new byte[partitions][];
                for (ShuffleRecord record : parts.records(format)) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    record.payload().writeTo(Channels.newChannel(out), ArrowHostAllocator.of(allocator));
                    streams[record.partitionId()] = out.toByteArray();
                }
                VerificationResult result = GpuVerifier.verify(new InMemory(streams), expected, format,
                        batch.getSchema(), allocator);
                assertTrue(!result.ok() && result.toString().startsWith("partition 0: expected"), result.toString());
            }
            assertEquals(0, memory.openBuffers(), "host buffers left open");
        }
    }

    @ParameterizedTest
    @EnumSource(GpuSerializer.class)
    void aPartitionCutShortFailsVerificationInsteadOfThrowing(GpuSerializer serializer) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            VectorSchemaRoot batch = input.batches().get(0);
            long held = allocator.getAllocatedMemory();
            RowMultisets expected = RowMultisets.expected(input.batches(), GpuPartitioning.HASH, 1, 0);
            for (ShuffleCodec codec : GpuFormat.CODECS) {
                GpuFormat format = serializer.format(codec, batch.getSchema());
                try (HostPartitions parts = HostPartitions.onHost(batch, GpuPartitioning.HASH, 1, 0,
                        HostMemory.pageable(), allocator)) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    parts.records(format).get(0).payload().writeTo(Channels.newChannel(out), ArrowHostAllocator.of(allocator));
                    byte[] whole = out.toByteArray();
                    // Cut in the middle, in the first header, and (plain) near the end of the body or with a second
                    // table's header begun but not finished. (lz4-block's reader takes a stream cut in its end mark
                    // as ended, as Spark's does, so only plain streams are cut that close to the end.)
                    byte[][] cuts = {Arrays.copyOf(whole, whole.length / 2), Arrays.copyOf(whole, 10),
                            codec == ShuffleCodec.NONE ? Arrays.copyOf(whole, whole.length - 10) : null,
                            codec == ShuffleCodec.NONE ? Arrays.copyOf(whole, whole.length + 6) : null};
                    if (codec == ShuffleCodec.NONE) {
                        System.arraycopy(whole, 0, cuts[3], whole.length, 6);
                    }
                    for (byte[] cut : cuts) {
                        if (cut == null) {
                            continue;
                        }
                        String what = serializer.label() + ", " + codec.label() + ", " + cut.length + " of "
                                + whole.length + " bytes";
                        VerificationResult result = GpuVerifier.verify(new InMemory(new byte[][] {cut}), expected,
                                format, batch.getSchema(), allocator);
                        // Unreadable, or (a header cut inside lz4-block's first block) read as no rows at all.
                        assertTrue(!result.ok() && result.toString().startsWith("partition 0: "), what + ": " + result);
                    }
                }
            }
            assertEquals(held, allocator.getAllocatedMemory(), "Arrow memory left after failed reads");
        }
    }

    @ParameterizedTest
    @EnumSource(GpuSerializer.class)
    void hostColumnSlicesSerializeTheRowsOfTheirRange(GpuSerializer serializer) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            VectorSchemaRoot batch = input.batches().get(0);
            GpuFormat format = serializer.format(ShuffleCodec.NONE, batch.getSchema());
            HostColumnVector[] host = CudfColumns.toHost(batch, HostMemory.pageable());
            try {
                // Offsets that are not, and are, on a byte of the validity bitmap; kudo copies the bitmap from the
                // byte holding the first row and rebases nothing, so the reader's merge must shift it.
                for (int from : new int[] {0, 3, 8, 13, batch.getRowCount() - 1}) {
                    int rows = Math.min(101, batch.getRowCount() - from);
                    var payload = format.payload(host, from, rows);
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    payload.writeTo(Channels.newChannel(out), ArrowHostAllocator.of(allocator));
                    assertEquals(payload.inputBytes(), out.size(), "uncompressed, the bytes are the serialized size");
                    RowMultisets expected = new RowMultisets(1);
                    try (VectorSchemaRoot slice = batch.slice(from, rows)) {
                        expected.add(slice, 0);
                    }
                    VerificationResult result = GpuVerifier.verify(new InMemory(new byte[][] {out.toByteArray()}),
                            expected, format, batch.getSchema(), allocator);
                    assertTrue(result.ok(), serializer.label() + ", rows " + from + "+" + rows + ": " + result);
                    assertEquals(rows, result.rowsRead());
                }
            } finally {
                CudfColumns.closeAll(host);
            }
        }
    }

    @Test
    void kudoWritesKudoTablesAndJCudfWritesJCudfTablesOfTheSameRows() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            VectorSchemaRoot batch = input.batches().get(0);
            HostColumnVector[] host = CudfColumns.toHost(batch, HostMemory.pageable());
            try {
                byte[][] bytes = new byte[2][];
                for (GpuSerializer serializer : GpuSerializer.values()) {
                    var payload = serializer.format(ShuffleCodec.NONE, batch.getSchema()).payload(host, 5, 300);
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    payload.writeTo(Channels.newChannel(out), ArrowHostAllocator.of(allocator));
                    bytes[serializer.ordinal()] = out.toByteArray();
                }
                // kudo's magic is "KUD0"; JCudfSerialization's is "CUDF".
                assertEquals("KUD0", new String(bytes[GpuSerializer.KUDO.ordinal()], 0, 4, StandardCharsets.US_ASCII));
                assertEquals("CUDF", new String(bytes[GpuSerializer.JCUDF.ordinal()], 0, 4, StandardCharsets.US_ASCII));
            } finally {
                CudfColumns.closeAll(host);
            }
        }
    }

    @Test
    void aSerializerIsChosenByNameAndAnyOtherNameIsRefusedSayingWhatIsAllowed() {
        assertEquals(GpuSerializer.KUDO, GpuSerializer.parse("serializer", "kudo"));
        assertEquals(GpuSerializer.JCUDF, GpuSerializer.parse("serializer", "jcudf"));
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> GpuSerializer.parse("serializer", "arrow"));
        assertTrue(e.getMessage().contains("serializer") && e.getMessage().contains("'arrow'")
                && e.getMessage().contains("kudo") && e.getMessage().contains("jcudf"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(GpuSerializer.class)
    void lz4FrameIsRefusedNamingTheCodec(GpuSerializer serializer) {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1)) {
            InvalidParameterException e = assertThrows(InvalidParameterException.class,
                    () -> serializer.format(ShuffleCodec.LZ4_FRAME, input.schema()));
            assertTrue(e.getMessage().contains("codec") && e.getMessage().contains("lz4-frame")
                    && e.getMessage().contains("none, lz4-block or zstd"), e.getMessage());
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
