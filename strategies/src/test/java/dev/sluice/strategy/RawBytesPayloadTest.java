package dev.sluice.strategy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.core.serde.BytesFormat;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.testkit.Leaks;
import dev.sluice.testkit.ShuffleWriterContract;
import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strategies never touch Arrow: records of bytes serialized elsewhere (a raw-bytes payload) reach every strategy at
 * its defaults and come out as each partition's header, records' framed bytes in input order, and end marker.
 */
class RawBytesPayloadTest {
    static List<String> strategies() {
        List<String> all = new ArrayList<>();
        Strategies.defaults().forEach(s -> all.add(s.text()));
        return all;
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void everyStrategyWritesRawBytesPayloadsAsTheirFramedBytes(String strategy, @TempDir Path dir) throws Exception {
        int partitions = 5;
        for (ShuffleCodec codec : ShuffleCodec.values()) {
            BytesFormat format = new BytesFormat(codec, "HEAD".getBytes(StandardCharsets.US_ASCII),
                    "END".getBytes(StandardCharsets.US_ASCII));
            SplittableRandom random = new SplittableRandom(codec.ordinal());
            List<ShuffleRecord> records = new ArrayList<>();
            ByteArrayOutputStream[] expected = new ByteArrayOutputStream[partitions];
            try (BufferAllocator allocator = new RootAllocator()) {
                for (int batch = 0; batch < 4; batch++) {
                    for (int p = 0; p < partitions; p += 1 + (batch % 2)) {
                        byte[] bytes = new byte[1 + random.nextInt(100_000)];
                        for (int i = 0; i < bytes.length; i++) {
                            bytes[i] = (byte) (random.nextInt(16) + 'a');
                        }
                        ShuffleRecord record = new ShuffleRecord(p, format.payload(bytes, 1));
                        records.add(record);
                        if (expected[p] == null) {
                            expected[p] = new ByteArrayOutputStream();
                            expected[p].write(format.streamHeader());
                        }
                        record.payload().writeTo(Channels.newChannel(expected[p]), ArrowHostAllocator.of(allocator));
                    }
                }
                WriterConfig config = WriterConfig.builder().partitions(partitions).threads(2)
                        .outputDir(dir.resolve(codec.label())).build();
                CountedStorage storage = new CountedStorage();
                try (ShuffleExecutor executor = Strategies.spec(strategy).createExecutor(config, storage, allocator)) {
                    MapOutput output;
                    try (ShuffleWriter writer = executor.createMapOutputWriter(new MapTask(0, 1, format))) {
                        for (ShuffleRecord record : records) {
                            writer.write(record);
                        }
                        output = writer.commit();
                    }
                    try (output; PartitionReader reader = output.openReader(storage)) {
                        for (int p = 0; p < partitions; p++) {
                            byte[] want = new byte[0];
                            if (expected[p] != null) {
                                expected[p].write(format.endOfStream());
                                want = expected[p].toByteArray();
                            }
                            assertArrayEquals(want, ShuffleWriterContract.bytes(reader.open(p)), strategy + ", " + codec.label()
                                    + ", partition " + p);
                        }
                        output.delete(storage);
                    }
                }
                Leaks.assertNone(allocator, 0, strategy + ", " + codec.label());
            }
        }
    }
}
