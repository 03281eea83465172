package dev.sluice.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.testkit.Leaks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetworkBoundaryTest {
    private static final InputSpec INPUT = InputSpec.of(DataSize.TINY, 0.25);
    private static final Duration WAIT = Duration.ofSeconds(10);

    static Stream<Arguments> modesCodecsPartitions() {
        List<Arguments> all = new ArrayList<>();
        for (BoundaryMode mode : BoundaryMode.values()) {
            for (ShuffleCodec codec : ShuffleCodec.values()) {
                for (int partitions : new int[] {1, 7, 200}) {
                    all.add(Arguments.of(mode, codec, partitions));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, {1}, {2} partitions")
    @MethodSource("modesCodecsPartitions")
    void everyRowArrivesInItsPartitionInOrderAndReadsBackAsTheFileVerifierReadsIt(BoundaryMode mode, ShuffleCodec codec,
                                                                                  int partitions) throws Exception {
        BoundaryShape shape = new BoundaryShape(partitions, 1000, 64);
        try (BufferAllocator allocator = new RootAllocator()) {
            try (BoundaryInput input = BoundaryInput.prepare(INPUT, shape, mode, allocator)) {
                long inputMemory = allocator.getAllocatedMemory();
                try (NetworkBoundary boundary = NetworkBoundary.open(input, mode, shape, codec, NetworkTransport.best(),
                        allocator)) {
                    for (int mapOutput = 0; mapOutput < 2; mapOutput++) {
                        NetworkBoundary.Sent sent = boundary.send();
                        try (ReceivedMapOutput received = boundary.receive(WAIT)) {
                            VerificationResult verified = boundary.verify(received);
                            assertTrue(verified.ok(), verified.toString());
                            assertEquals(input.rows, verified.rowsRead());
                            assertEquals(input.rows, received.rows());
                            assertEquals(sent.messages, received.frames());
                            assertEquals(sent.wireBytes, received.wireBytes());
                            assertEquals(sent.batches, received.batches());
                            for (int p = 0; p < partitions; p++) {
                                long rows = input.expected.rows(p);
                                long expectedBatches = mode == BoundaryMode.COALESCE
                                        ? (rows + shape.targetRows - 1) / shape.targetRows
                                        : countSlices(input, p);
                                assertEquals(expectedBatches, received.batches(p), "batches of partition " + p);
                            }
                        }
                        if (mode == BoundaryMode.COALESCE) {
                            assertTrue(sent.coalescedBytes > 0, "the coalescer copied nothing");
                        } else {
                            assertEquals(0, sent.coalescedBytes, mode + " copied into coalesced batches");
                        }
                        assertTrue(sent.serializedBytes > 0 && sent.serializedBytes < sent.wireBytes);
                        assertEquals(inputMemory, allocator.getAllocatedMemory(), "sending left Arrow memory behind");
                    }
                }
            }
            Leaks.assertNone(allocator, 0, mode + " " + codec);
        }
    }

    private static long countSlices(BoundaryInput input, int partition) {
        long n = 0;
        for (int i = 0; i < input.slices.size(); i++) {
            n += input.slices.partitionOf(i) == partition ? 1 : 0;
        }
        return n;
    }

    @Test
    void nativeInputHasTheSameRowsInBatchesOfTargetRowsTimesPartitions() {
        BoundaryShape shape = new BoundaryShape(7, 1000, 300);
        try (BufferAllocator allocator = new RootAllocator();
             BoundaryInput small = BoundaryInput.prepare(INPUT, shape, BoundaryMode.PER_SLICE, allocator);
             BoundaryInput big = BoundaryInput.prepare(INPUT, shape, BoundaryMode.NATIVE, allocator)) {
            assertEquals(1000, small.batchRows);
            assertEquals(2100, big.batchRows);
            assertEquals(small.fingerprint, big.fingerprint);
            assertEquals(small.rows, big.rows);
            assertEquals((small.rows + 2099) / 2100, big.batches);
            for (int p = 0; p < 7; p++) {
                assertEquals(small.expected.digest(p), big.expected.digest(p));
            }
        }
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("lineitemModesCodecs")
    void lineitemRowsCrossInTheSeedsShapesAndReadBackVerified(BoundaryMode mode, ShuffleCodec codec) throws Exception {
        // The seed's shape in small: 4 receivers, input batches coalesced to twice their size.
        BoundaryShape shape = new BoundaryShape(4, 512, 1024);
        try (BufferAllocator allocator = new RootAllocator()) {
            try (BoundaryInput input = BoundaryInput.prepare(BoundaryWorkload.LINEITEM, INPUT, shape, mode, allocator);
                 NetworkBoundary boundary = NetworkBoundary.open(input, mode, shape, codec, NetworkTransport.best(),
                         allocator)) {
                assertEquals(15, input.schema.getFields().size());
                assertEquals(Math.round(INPUT.size.bytes() * INPUT.scale / LineitemRows.MEAN_BYTES_PER_ROW),
                        input.rows);
                NetworkBoundary.Sent sent = boundary.send();
                try (ReceivedMapOutput received = boundary.receive(WAIT)) {
                    VerificationResult verified = boundary.verify(received);
                    assertTrue(verified.ok(), verified.toString());
                    assertEquals(input.rows, verified.rowsRead());
                    assertEquals(sent.batches, received.batches());
                    if (mode != BoundaryMode.PER_SLICE) {
                        for (int p = 0; p < 4; p++) {
                            assertEquals((input.expected.rows(p) + 1023) / 1024, received.batches(p),
                                    "partition " + p + " in batches of about the target");
                        }
                    }
                }
            }
            Leaks.assertNone(allocator, 0, "lineitem " + mode + " " + codec);
        }
    }

    static Stream<Arguments> lineitemModesCodecs() {
        return Stream.of(BoundaryMode.COALESCE, BoundaryMode.NATIVE).flatMap(m -> Stream.of(ShuffleCodec.values())
                .map(c -> Arguments.of(m, c)));
    }

    @Test
    void lineitemRowsAreTheSameForEveryModeAndSeedAndLookLikeTpchs() {
        BoundaryShape shape = new BoundaryShape(4, 500, 1000);
        try (BufferAllocator allocator = new RootAllocator();
             BoundaryInput a = BoundaryInput.prepare(BoundaryWorkload.LINEITEM, INPUT, shape, BoundaryMode.COALESCE,
                     allocator);
             BoundaryInput b = BoundaryInput.prepare(BoundaryWorkload.LINEITEM, INPUT, shape, BoundaryMode.NATIVE,
                     allocator)) {
            assertEquals(a.fingerprint, b.fingerprint);
            for (int p = 0; p < 4; p++) {
                assertEquals(a.expected.digest(p), b.expected.digest(p));
                assertTrue(a.expected.rows(p) > a.rows / 8, "hash of l_orderkey spreads rows: " + a.expected.rows(p));
            }
            org.apache.arrow.vector.VectorSchemaRoot first = a.slices.rowsOf(0);
            long quantity = ((org.apache.arrow.vector.BigIntVector) first.getVector("l_quantity")).get(0);
            assertTrue(quantity >= 100 && quantity <= 5000 && quantity % 100 == 0, "quantity in hundredths: " + quantity);
            String mode = first.getVector("l_shipmode").getObject(0).toString();
            assertTrue(java.util.List.of("REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB").contains(mode), mode);
        }
    }
}
