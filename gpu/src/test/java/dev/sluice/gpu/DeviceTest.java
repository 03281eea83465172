package dev.sluice.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.rapids.cudf.ColumnVector;
import ai.rapids.cudf.HashType;
import ai.rapids.cudf.HostColumnVector;
import ai.rapids.cudf.PartitionedTable;
import ai.rapids.cudf.PinnedMemoryPool;
import ai.rapids.cudf.Table;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.core.partition.SparkMurmur3;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.testkit.Leaks;
import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device side, on a GPU: skipped elsewhere, saying why ({@link Device#unavailable}). The upload keeps every row,
 * the device puts every row in Spark's partition (200 of them too), the copy to host is pinned where asked, and every
 * strategy's output of a GPU map task verifies.
 */
class DeviceTest {
    static final long PINNED_POOL = 1L << 30;

    @BeforeAll
    static void makePinnedPool() {
        // Said once here, since Surefire's summary counts skipped tests without their reason.
        Device.unavailable().ifPresent(reason -> System.err.println("DeviceTest: every test skipped: " + reason));
        if (Device.unavailable().isEmpty() && !PinnedMemoryPool.isInitialized()) {
            PinnedMemoryPool.initialize(PINNED_POOL);
        }
    }

    /** Each test is skipped, with the reason, where there is no GPU (CI, the 2-core development machine). */
    @BeforeEach
    void onAGpuOnly() {
        Device.unavailable().ifPresent(reason -> Assumptions.abort(reason));
    }

    @AfterAll
    static void releasePinnedPool() {
        if (Device.unavailable().isEmpty()) {
            PinnedMemoryPool.shutdown();
        }
    }

    @Test
    void bothUploadRoutesPutEveryRowOfTheArrowInputOnTheDevice() {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 3)) {
            for (UploadRoute route : UploadRoute.values()) {
                try (DeviceInput device = DeviceInput.upload(input.batches(), route)) {
                    for (int b = 0; b < device.batches(); b++) {
                        VectorSchemaRoot batch = input.batches().get(b);
                        HostColumnVector[] back = device.copyToHost(b);
                        try {
                            CudfColumnsTest.assertSameRows(batch, back, allocator, route.label() + ", batch " + b);
                        } finally {
                            CudfColumns.closeAll(back);
                        }
                    }
                }
            }
        }
    }

    @Test
    void everyRowGetsSparksPartitionOnTheDeviceAlsoAt200Partitions() {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1);
             DeviceInput device = DeviceInput.upload(input.batches(), UploadRoute.FROM_ARROW);
             HostColumnVector keys = device.keys(0).copyToHost()) {
            for (int n : new int[] {7, 200, 256}) {
                try (ColumnVector ids = DeviceWords.partitionIds(device.keys(0), n);
                     HostColumnVector idsOnHost = ids.copyToHost()) {
                    for (int r = 0; r < keys.getRowCount(); r++) {
                        assertEquals(SparkMurmur3.partitionOf(keys.getLong(r), n), idsOnHost.getInt(r),
                                n + " partitions, key " + keys.getLong(r));
                    }
                }
            }
        }
    }

    @Test
    void cudfsOwnMurmur3PartitioningIsNotSparksAt200Partitions() {
        int n = 200;
        long elsewhere = 0;
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 1);
             DeviceInput device = DeviceInput.upload(input.batches(), UploadRoute.FROM_ARROW);
             Table table = new Table(device.keys(0));
             PartitionedTable parts = table.onColumns(0).hashPartition(HashType.MURMUR3, n);
             HostColumnVector grouped = parts.getColumn(0).copyToHost()) {
            int[] start = parts.getPartitions();
            for (int p = 0; p < n; p++) {
                long end = p + 1 < start.length ? start[p + 1] : grouped.getRowCount();
                for (long r = start[p]; r < end; r++) {
                    elsewhere += SparkMurmur3.partitionOf(grouped.getLong(r), n) == p ? 0 : 1;
                }
            }
        }
        assertTrue(elsewhere > 0, "cuDF's MURMUR3 put every row in Spark's partition: the formula is not needed");
    }

    @Test
    void partitionedBatchesReachTheHostPinnedOrPageableWithEveryRowInItsPartition() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 2);
             DeviceInput device = DeviceInput.upload(input.batches(), UploadRoute.PINNED_COPY)) {
            int n = 200;
            for (GpuPartitioning partitioning : GpuPartitioning.values()) {
                for (boolean pinned : new boolean[] {true, false}) {
                    // Each serializer once: kudo with pinned copies, JCudfSerialization with pageable ones.
                    GpuFormat format = (pinned ? GpuSerializer.KUDO : GpuSerializer.JCUDF)
                            .format(ShuffleCodec.LZ4_BLOCK, input.schema());
                    String what = partitioning.label() + (pinned ? ", pinned" : ", pageable") + ", "
                            + format.serializer().label();
                    HostMemory memory = HostMemory.of(pinned);
                    DeviceTimes times = new DeviceTimes();
                    int start = partitioning.startPartition(5, n);
                    RowMultisets expected = RowMultisets.expected(input.batches(), partitioning, n, start);
                    byte[][] streams = new byte[n][];
                    ByteArrayOutputStream[] outs = new ByteArrayOutputStream[n];
                    for (int b = 0; b < device.batches(); b++) {
                        try (HostPartitions parts = device.partitionToHost(b, partitioning, n, start, memory, times)) {
                            for (ShuffleRecord record : parts.records(format)) {
                                int p = record.partitionId();
                                outs[p] = outs[p] == null ? new ByteArrayOutputStream() : outs[p];
                                record.payload().writeTo(Channels.newChannel(outs[p]), ArrowHostAllocator.of(allocator));
                            }
                        }
                    }
                    for (int p = 0; p < n; p++) {
                        streams[p] = outs[p] == null ? null : outs[p].toByteArray();
                    }
                    VerificationResult result = GpuVerifier.verify(new GpuPayloadTest.InMemory(streams), expected,
                            format, input.schema(), allocator);
                    assertTrue(result.ok(), what + ": " + result);
                    assertEquals(input.rows(), result.rowsRead(), what);
                    assertEquals(2, times.batches());
                    assertTrue(times.copyBytes() > 0 && times.copyNanos() > 0, what + ": " + times);
                    HostMemory.Usage usage = memory.usage();
                    assertEquals(pinned ? usage.buffers : 0, usage.pinnedBuffers, what + ": " + usage);
                    assertEquals(0, memory.openBuffers(), what + ": host buffers left open");
                    System.out.println("device to host, " + what + ": " + times + "; " + usage);
                }
            }
        }
    }

    @Test
    void everyStrategysOutputOfAGpuMapTaskVerifies(@TempDir Path dir) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 3);
             DeviceInput device = DeviceInput.upload(input.batches(), UploadRoute.FROM_ARROW)) {
            long held = allocator.getAllocatedMemory();
            int n = 200;
            for (String strategy : List.of("per-batch", "buffered", "async")) {
                for (GpuPartitioning partitioning : GpuPartitioning.values()) {
                    for (GpuSerializer serializer : GpuSerializer.values()) {
                        GpuFormat format = serializer.format(ShuffleCodec.LZ4_BLOCK, input.schema());
                        String what = strategy + ", " + partitioning.label() + ", " + serializer.label();
                        HostMemory memory = HostMemory.pinned();
                        CountedStorage storage = new CountedStorage();
                        int start = partitioning.startPartition(9, n);
                        RowMultisets expected = RowMultisets.expected(input.batches(), partitioning, n, start);
                        WriterConfig config = WriterConfig.builder().partitions(n).threads(4)
                                .outputDir(dir).build();
                        DeviceTimes times = new DeviceTimes();
                        try (ShuffleExecutor executor = StrategySpec.parse("strategy", strategy)
                                .createExecutor(config, storage, allocator)) {
                            GpuMapTask.Result result = GpuMapTask.run(executor,
                                    new MapTask(0, 9, format), device.batches(),
                                    b -> device.partitionToHost(b, partitioning, n, start, memory, times));
                            try (var output = result.output; PartitionReader reader = output.openReader(storage)) {
                                VerificationResult verified = GpuVerifier.verify(reader, expected, format,
                                        input.schema(), allocator);
                                assertTrue(verified.ok(), what + ": " + verified);
                                output.delete(storage);
                            }
                        }
                        assertEquals(0, storage.filesLeft(), what);
                        assertEquals(0, memory.openBuffers(), what + ": host buffers left open");
                    }
                }
            }
            Leaks.assertNone(allocator, held, "GPU map tasks");
        }
    }
}
