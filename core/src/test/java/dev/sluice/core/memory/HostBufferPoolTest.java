package dev.sluice.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

class HostBufferPoolTest {
    private static final long MiB = 1 << 20;

    @Test
    void aBufferGivenBackIsTheNextOneTakenOfItsSizeAndIsNotZeroed() {
        try (BufferAllocator allocator = new RootAllocator();
             HostBufferPool pool = new HostBufferPool(allocator, Long.MAX_VALUE, () -> 0)) {
            ArrowBuf first = pool.take(MiB);
            first.setLong(0, 0x5eed);
            long address = first.memoryAddress();
            pool.give(first);
            ArrowBuf again = pool.take(MiB);
            assertEquals(address, again.memoryAddress());
            assertEquals(0x5eed, again.getLong(0), "reused as it was, not zeroed");
            ArrowBuf other = pool.take(2 * MiB);
            assertTrue(other.memoryAddress() != address);
            assertEquals(1, pool.reused());
            assertEquals(MiB + 2 * MiB, pool.freshBytes());
            pool.give(again);
            pool.give(other);
        }
    }

    @Test
    void concurrentTakersNeverHoldTheSameMemory() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             HostBufferPool pool = new HostBufferPool(allocator, Long.MAX_VALUE, () -> 0)) {
            Set<Long> held = ConcurrentHashMap.newKeySet();
            ExecutorService threads = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> runs = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int seed = t;
                    runs.add(threads.submit(() -> {
                        for (int i = 0; i < 2000; i++) {
                            ArrowBuf buffer = pool.take((1 + (seed + i) % 3) * 64 * 1024);
                            long start = buffer.memoryAddress();
                            if (!held.add(start)) {
                                throw new AssertionError("buffer at " + start + " handed to two owners");
                            }
                            buffer.setLong(0, seed);
                            Thread.yield();
                            if (buffer.getLong(0) != seed) {
                                throw new AssertionError("another owner wrote into buffer at " + start);
                            }
                            held.remove(start);
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
        try (BufferAllocator allocator = new RootAllocator()) {
            HostBufferPool pool = new HostBufferPool(allocator, Long.MAX_VALUE, () -> 0);
            ArrowBuf idle = pool.take(MiB);
            ArrowBuf out = pool.take(MiB);
            pool.give(idle);
            pool.close();
            assertEquals(MiB, allocator.getAllocatedMemory(), "only the buffer still out");
            pool.give(out);
            assertEquals(0, allocator.getAllocatedMemory());
            assertThrows(IllegalStateException.class, () -> pool.take(MiB));
        }
    }

    @Test
    void idleBuffersAreFreedSoThatUseAndIdleFitTheLimit() {
        AtomicLong inUse = new AtomicLong();
        try (BufferAllocator allocator = new RootAllocator();
             HostBufferPool pool = new HostBufferPool(allocator, 8 * MiB, inUse::get)) {
            // Four 2 MiB buffers taken and given back: 8 MiB idle, nothing in use.
            List<ArrowBuf> buffers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                buffers.add(pool.take(2 * MiB));
            }
            buffers.forEach(pool::give);
            assertEquals(8 * MiB, pool.idleBytes());
            // A writer charges 4 MiB and needs a size the pool does not hold: idle shrinks to what fits beside it.
            inUse.set(4 * MiB);
            ArrowBuf big = pool.take(4 * MiB);
            assertEquals(4 * MiB, pool.idleBytes());
            assertTrue(allocator.getAllocatedMemory() <= 8 * MiB, allocator.getAllocatedMemory() + " bytes allocated");
            pool.give(big);
            // A size it holds is served from idle, without a fresh allocation.
            long fresh = pool.freshBytes();
            inUse.set(2 * MiB);
            pool.give(pool.take(2 * MiB));
            assertEquals(fresh, pool.freshBytes());
        }
    }
}
