package dev.sluice.spi.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.spi.PartitionReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkMapOutputTest {
    @TempDir
    Path dir;

    @Test
    void commitWritesSparksLayoutAndTheReaderServesEachPartition() throws Exception {
        CountedStorage storage = new CountedStorage();
        MapOutputFiles files = new MapOutputFiles(dir, 3, 9);
        String[] partitions = {"alpha", "", "gamma!", "", "e"};
        long[] lengths = new long[partitions.length];
        SparkMapOutput output;
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            for (int p = 0; p < partitions.length; p++) {
                lengths[p] = commit.data().write(ByteBuffer.wrap(partitions[p].getBytes(StandardCharsets.UTF_8)));
            }
            output = commit.commit(lengths, true);
        }
        assertEquals(dir.resolve("shuffle_3_9_0.data"), files.dataFile());
        ByteBuffer index = ByteBuffer.wrap(Files.readAllBytes(files.indexFile())).order(ByteOrder.BIG_ENDIAN);
        long[] offsets = new long[index.remaining() / 8];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = index.getLong();
        }
        assertArrayEquals(new long[] {0, 5, 5, 11, 11, 12}, offsets);
        try (PartitionReader reader = SparkMapOutput.open(storage, files)) {
            for (int p = 0; p < partitions.length; p++) {
                assertEquals(partitions[p], read(reader.open(p), reader.length(p)));
            }
        }
        assertEquals(2, storage.counters().snapshot().fsyncs);
        output.delete(storage);
        assertEquals(0, Files.list(dir).count());
    }

    @Test
    void aReaderRefusesADataFileThatDisagreesWithItsIndex() throws Exception {
        CountedStorage storage = new CountedStorage();
        MapOutputFiles files = new MapOutputFiles(dir, 0, 0);
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            commit.data().write(ByteBuffer.wrap(new byte[10]));
            commit.commit(new long[] {4, 6}, false);
        }
        Files.write(files.dataFile(), new byte[9]);
        IOException e = assertThrows(IOException.class, () -> SparkMapOutput.open(storage, files));
        assertEquals(true, e.getMessage().contains("index says 10"), e.getMessage());
    }

    @Test
    void aCommitWhoseLengthsDisagreeWithTheDataLeavesNothing() throws Exception {
        CountedStorage storage = new CountedStorage();
        MapOutputFiles files = new MapOutputFiles(dir, 0, 0);
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            commit.data().write(ByteBuffer.wrap(new byte[10]));
            assertThrows(IOException.class, () -> commit.commit(new long[] {4, 7}, false));
        }
        assertEquals(0, Files.list(dir).count());
    }

    private static String read(ReadableByteChannel channel, long length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) length);
        while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
            // keep reading
        }
        return new String(buffer.array(), StandardCharsets.UTF_8);
    }
}
