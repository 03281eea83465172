package dev.sluice.strategy.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ByteQuotaTest {
    @Test
    @Timeout(10)
    void aRecordLargerThanTheQuotaPassesAlone() throws Exception {
        ByteQuota quota = new ByteQuota(100);
        assertEquals(100, quota.acquire(1_000_000));
        quota.release(100);
        assertEquals(0, quota.used());
    }

    @Test
    @Timeout(10)
    void failureWakesAWaitingTaskThreadWithTheCause() throws Exception {
        ByteQuota quota = new ByteQuota(10);
        quota.acquire(10);
        CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return quota.acquire(5);
            } catch (IOException | InterruptedException e) {
                throw new RuntimeException(e);
            }
        });
        Thread.sleep(50);
        assertTrue(!waiter.isDone(), "should wait for quota");
        IllegalStateException cause = new IllegalStateException("compression failed");
        quota.fail(cause);
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> waiter.get(5, TimeUnit.SECONDS));
        IOException io = assertInstanceOf(IOException.class, e.getCause().getCause());
        assertSame(cause, io.getCause());
    }

    @Test
    @Timeout(10)
    void aWaitIsInterruptible() throws Exception {
        ByteQuota quota = new ByteQuota(10);
        quota.acquire(10);
        // How the waiter's wait ended, read on this thread: an assertion thrown on the waiter would be lost.
        AtomicReference<String> ended = new AtomicReference<>("still waiting");
        Thread waiter = new Thread(() -> {
            try {
                quota.acquire(5);
                ended.set("acquired 5 bytes of a full quota");
            } catch (InterruptedException expected) {
                ended.set("interrupted");
            } catch (IOException | RuntimeException e) {
                ended.set("failed: " + e);
            }
        });
        waiter.start();
        Thread.sleep(50);
        waiter.interrupt();
        waiter.join(5000);
        assertFalse(waiter.isAlive(), "the waiter still waits after its interrupt");
        assertEquals("interrupted", ended.get());
        assertEquals(10, quota.used());
    }

    @Test
    @Timeout(10)
    void aWaitGivesUpAfterItsTimeoutNamingWhatIsHeld() throws Exception {
        ByteQuota quota = new ByteQuota(10, TimeUnit.MILLISECONDS.toNanos(200));
        quota.acquire(10);
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> quota.acquire(5));
        assertTrue(e.getMessage().contains("10 of 10 bytes"), e.getMessage());
        assertEquals(10, quota.used());
    }
}
