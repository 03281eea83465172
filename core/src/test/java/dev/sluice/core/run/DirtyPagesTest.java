package dev.sluice.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The gate between iterations, on a fake /proc/meminfo whose dirty data a fake flush drains over time. */
class DirtyPagesTest {
    @TempDir
    Path dir;

    private Path meminfo;

    private void write(long dirtyKiB, long writebackKiB) throws java.io.IOException {
        Path temp = dir.resolve("meminfo.tmp");
        Files.writeString(temp, "MemTotal:       24682416 kB\nMemFree:         1000000 kB\nDirty:          "
                + dirtyKiB + " kB\nWriteback:      " + writebackKiB + " kB\nAnonPages:       100 kB\n");
        Files.move(temp, meminfo, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    @Timeout(30)
    void theGateFlushesAndWaitsUntilDirtyAndWritebackAreBackNearIdle() throws Exception {
        meminfo = dir.resolve("meminfo");
        write(2_000_000, 500_000);
        AtomicInteger flushes = new AtomicInteger();
        // The flush starts writeback; the device drains it in the background, 100 ms later.
        DirtyPages pages = new DirtyPages(meminfo, () -> {
            flushes.incrementAndGet();
            write(1_000, 2_400_000);
            Thread drain = new Thread(() -> {
                try {
                    Thread.sleep(100);
                    write(1_000, 0);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            drain.start();
        });
        assertTrue(pages.available());
        assertEquals((2_000_000L + 500_000L) * 1024, pages.dirtyAndWriteback());
        DirtyPages.Settled settled = pages.settle(0, 16 * 1024 * 1024, TimeUnit.SECONDS.toNanos(10));
        assertEquals(1, flushes.get());
        assertTrue(settled.settled);
        assertEquals((2_000_000L + 500_000L) * 1024, settled.before);
        assertEquals(1_000L * 1024, settled.after);
        assertTrue(settled.waitedNanos >= TimeUnit.MILLISECONDS.toNanos(90), "waited " + settled.waitedNanos + " ns");
    }

    @Test
    @Timeout(30)
    void aGateThatCannotSettleGivesUpAfterItsBoundAndSaysSo() throws Exception {
        meminfo = dir.resolve("meminfo");
        write(3_000_000, 0);
        DirtyPages pages = new DirtyPages(meminfo, () -> {});
        long start = System.nanoTime();
        DirtyPages.Settled settled = pages.settle(0, 1024, TimeUnit.MILLISECONDS.toNanos(200));
        assertFalse(settled.settled);
        assertEquals(3_000_000L * 1024, settled.after);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void withoutMeminfoTheGateSaysItCannotRead() {
        DirtyPages pages = new DirtyPages(dir.resolve("missing"), () -> {});
        assertFalse(pages.available());
        assertEquals(-1, pages.dirtyAndWriteback());
    }

    @Test
    @Timeout(30)
    void theSamplerKeepsThePeakOfDirty() throws Exception {
        meminfo = dir.resolve("meminfo");
        write(100, 0);
        DirtyPages pages = new DirtyPages(meminfo, () -> {});
        try (DirtyPages.Sampler sampler = pages.sample()) {
            Thread.sleep(60);
            write(900_000, 0);
            Thread.sleep(100);
            write(200, 0);
            Thread.sleep(60);
            sampler.close();
            assertEquals(900_000L * 1024, sampler.peak());
        }
    }
}
