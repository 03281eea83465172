package dev.sluice.strategy.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

class HostBufferPoolTest {
    private static final long MiB = 1 << 20;

    private static void setLong(HostBuffer buffer, long value) {
        buffer.setBytes(0, ByteBuffer.allocate(8).putLong(0, value));
    }

    private static long getLong(HostBuffer buffer) {
        ByteBuffer b = ByteBuffer.allocate(8);
        buffer.getBytes(0, b);
        return b.getLong(0);
    }

    @Test
    void aBufferGivenBackIsTheNextOneTakenOfItsSizeAndIsNotZeroed() {
        try (HostAllocator allocator = ArrowHostAllocator.of(new RootAllocator());
             HostBufferPool pool = new HostBufferPool(allocator, Long.MAX_VALUE, () -> 0)) {
            HostBuffer first = pool.take(MiB);
            setLong(first, 0x5eed);
            pool.give(first);
            HostBuffer again = pool.take(MiB);
            assertTrue(again == first, "the buffer given back is the next one taken of its size");
            assertEquals(0x5eed, getLong(again), "reused as it was, not zeroed");
            HostBuffer other = pool.take(2 * MiB);
            assertTrue(other != first);
            assertEquals(1, pool.reused());
            assertEquals(MiB + 2 * MiB, pool.freshBytes());
            pool.give(again);
            pool.give(other);
        }
    }

    @Test
    void aFreshBufferTakenFaultedInHasEveryPageTouchedAndAReusedOneIsNotTouchedAgain() {
        try (HostAllocator allocator = ArrowHostAllocator.of(new RootAllocator());
             HostBufferPool pool = new HostBufferPool(allocator, Long.MAX_VALUE, () -> 0)) {
            HostBuffer fresh = pool.takeFaultedIn(MiB);
            assertEquals(MiB, pool.faultedInBytes(), "a fresh buffer is touched whole");
            for (long at = 0; at < MiB; at += 4096) {
                assertEquals(0, fresh.nioBuffer(at, 1).get(0), "page at " + at + " touched");
            }
            setLong(fresh, 0x5eed);
            pool.give(fresh);
            HostBuffer again = pool.takeFaultedIn(MiB);
            assertTrue(again == fresh, "the idle buffer is taken again");
            assertEquals(0x5eed, getLong(again), "a reused buffer is not touched again");
            assertEquals(MiB, pool.faultedInBytes());
            HostBuffer plain = pool.take(MiB);
            assertEquals(MiB, pool.faultedInBytes(), "take leaves a fresh buffer as the allocator gave it");
            pool.give(again);
            pool.give(plain);
        }
    }

    @Test
    void concurrentTakersNeverHoldTheSameMemory() throws Exception {
        try (HostAllocator allocator = ArrowHostAllocator.of(new RootAllocator());
             HostBufferPool pool = new HostBufferPool(allocator, Long.MAX_VALUE, () -> 0)) {
            Set<HostBuffer> held = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
            ExecutorService threads = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> runs = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int seed = t;
                    runs.add(threads.submit(() -> {
                        for (int i = 0; i < 2000; i++) {
                            HostBuffer buffer = pool.take((1 + (seed + i) % 3) * 64 * 1024);
                            if (!held.add(buffer)) {
                                throw new AssertionError("buffer " + buffer + " handed to two owners");
                            }
                            setLong(buffer, seed);
                            Thread.yield();
                            if (getLong(buffer) != seed) {
                                throw new AssertionError("another owner wrote into buffer " + buffer);
                            }
                            held.remove(buffer);
                            pool.give(buffer);
                        }
                        return null;
                    }));
                }
                for (Future<?> run : runs) {
                    run.get(60, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
            }
            assertTrue(pool.reused() > pool.taken() / 2, "reused " + pool.reused() + " of " + pool.taken());
        }
    }

    @Test
    void closeFreesIdleBuffersAndOnesGivenBackLater() {
        try (HostAllocator allocator = ArrowHostAllocator.of(new RootAllocator())) {
            HostBufferPool pool = new HostBufferPool(allocator, Long.MAX_VALUE, () -> 0);
            HostBuffer idle = pool.take(MiB);
            HostBuffer out = pool.take(MiB);
            pool.give(idle);
            pool.close();
            assertEquals(MiB, allocator.allocatedBytes(), "only the buffer still out");
            pool.give(out);
            assertEquals(0, allocator.allocatedBytes());
            assertThrows(IllegalStateException.class, () -> pool.take(MiB));
        }
    }

    @Test
    void idleBuffersAreFreedSoThatUseAndIdleFitTheLimit() {
        AtomicLong inUse = new AtomicLong();
        try (HostAllocator allocator = ArrowHostAllocator.of(new RootAllocator());
             HostBufferPool pool = new HostBufferPool(allocator, 8 * MiB, inUse::get)) {
            // Four 2 MiB buffers taken and given back: 8 MiB idle, nothing in use.
            List<HostBuffer> buffers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                buffers.add(pool.take(2 * MiB));
            }
            buffers.forEach(pool::give);
            assertEquals(8 * MiB, pool.idleBytes());
            // A writer charges 4 MiB and needs a size the pool does not hold: idle shrinks to what fits beside it.
            inUse.set(4 * MiB);
            HostBuffer big = pool.take(4 * MiB);
            assertEquals(4 * MiB, pool.idleBytes());
            assertTrue(allocator.allocatedBytes() <= 8 * MiB, allocator.allocatedBytes() + " bytes allocated");
            pool.give(big);
            // A size it holds is served from idle, without a fresh allocation.
            long fresh = pool.freshBytes();
            inUse.set(2 * MiB);
            pool.give(pool.take(2 * MiB));
            assertEquals(fresh, pool.freshBytes());
        }
    }
}
