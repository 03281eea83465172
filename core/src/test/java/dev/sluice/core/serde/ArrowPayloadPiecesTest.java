package dev.sluice.core.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.spi.Payload;
import dev.sluice.spi.memory.HostAllocator;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A record's bytes as pieces where they lie: the same bytes as written, only where nothing must be made. */
class ArrowPayloadPiecesTest {
    private static VectorSchemaRoot root(BufferAllocator allocator, int rows) {
        IntVector ids = new IntVector("id", allocator);
        VarCharVector names = new VarCharVector("name", allocator);
        ids.allocateNew(rows);
        names.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            ids.set(i, i * 7);
            if (i % 5 == 3) {
                names.setNull(i);
            } else {
                names.setSafe(i, ("name-" + i).getBytes(StandardCharsets.UTF_8));
            }
        }
        VectorSchemaRoot root = VectorSchemaRoot.of(ids, names);
        root.setRowCount(rows);
        return root;
    }

    private static byte[] written(Payload payload, HostAllocator scratch) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        payload.writeTo(Channels.newChannel(bytes), scratch);
        return bytes.toByteArray();
    }

    @Test
    void anUncompressedRecordsPiecesAreItsWrittenBytesWithItsBuffersWhereTheyLie() throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            try (VectorSchemaRoot root = root(allocator, 1_003);
                 VectorSchemaRoot slice = root.slice(17, 900)) {
                ArrowIpcFormat format = new ArrowIpcFormat(root.getSchema(), ShuffleCodec.NONE);
                Payload payload = format.payload(slice);
                HostAllocator scratch = ArrowHostAllocator.of(allocator);
                byte[] expected = written(payload, scratch);
                Optional<Payload.Pieces> pieces = payload.pieces(scratch);
                assertTrue(pieces.isPresent());
                try (Payload.Pieces p = pieces.get()) {
                    assertEquals(expected.length, p.bytes());
                    ByteArrayOutputStream gathered = new ByteArrayOutputStream();
                    List<ByteBuffer> buffers = p.buffers();
                    for (ByteBuffer b : buffers) {
                        byte[] piece = new byte[b.remaining()];
                        b.duplicate().get(piece);
                        gathered.write(piece);
                    }
                    assertArrayEquals(expected, gathered.toByteArray());
                    assertTrue(buffers.stream().filter(ByteBuffer::isDirect).count() >= 3,
                            "the vectors' buffers are views, not copies: " + buffers);
                }
            }
            assertEquals(0, allocator.getAllocatedMemory(), "the pieces released the buffers they held");
        }
    }

    @ParameterizedTest
    @EnumSource(value = ShuffleCodec.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void aRecordWhoseBytesMustBeMadeHasNoPieces(ShuffleCodec codec) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             VectorSchemaRoot root = root(allocator, 100)) {
            Payload payload = new ArrowIpcFormat(root.getSchema(), codec).payload(root);
            assertEquals(Optional.empty(), payload.pieces(ArrowHostAllocator.of(allocator)));
        }
    }
}
