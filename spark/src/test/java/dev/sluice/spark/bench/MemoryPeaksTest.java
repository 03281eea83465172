package dev.sluice.spark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A run's memory peaks in this JVM: no Spark. */
class MemoryPeaksTest {
    /** Direct memory as an allocator reports it: held now, and its lifetime peak. */
    private static final class FakeOffHeap implements MemoryPeaks.OffHeap {
        final AtomicLong allocated = new AtomicLong();
        final AtomicLong peak = new AtomicLong();

        void set(long bytes) {
            allocated.set(bytes);
            peak.accumulateAndGet(bytes, Math::max);
        }

        @Override
        public long allocated() {
            return allocated.get();
        }

        @Override
        public long peak() {
            return peak.get();
        }
    }

    @Test
    void aLifetimePeakThatRoseDuringTheRunIsTheRunsPeakExactly() throws InterruptedException {
        FakeOffHeap offHeap = new FakeOffHeap();
        offHeap.set(100);
        offHeap.set(0);
        MemoryPeaks peaks = new MemoryPeaks(offHeap);
        // Held for less than a sample's interval: only the allocator's peak can see it.
        offHeap.set(5_000);
        offHeap.set(0);
        assertEquals(5_000L, peaks.stop().offHeapBytes());
    }

    @Test
    void underAnEarlierPeakTheRunsPeakIsTheHighestSample() throws InterruptedException {
        FakeOffHeap offHeap = new FakeOffHeap();
        offHeap.set(10_000);
        offHeap.set(0);
        MemoryPeaks peaks = new MemoryPeaks(offHeap);
        offHeap.set(300);
        Thread.sleep(5 * MemoryPeaks.INTERVAL_MILLIS);
        offHeap.set(0);
        assertEquals(300L, peaks.stop().offHeapBytes());
    }

    @Test
    void theHeapPeakSeesMemoryHeldDuringTheRunAndOffHeapIsNullWhereNotReadable() throws InterruptedException {
        MemoryPeaks peaks = new MemoryPeaks(null);
        byte[] held = new byte[64 << 20];
        held[held.length - 1] = 1;
        Thread.sleep(5 * MemoryPeaks.INTERVAL_MILLIS);
        MemoryPeaks.Peaks result = peaks.stop();
        assertTrue(result.heapBytes() >= held.length, result.toString());
        assertNull(result.offHeapBytes());
    }
}
