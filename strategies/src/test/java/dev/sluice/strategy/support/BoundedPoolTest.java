package dev.sluice.strategy.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class BoundedPoolTest {
    @Test
    @Timeout(10)
    void anOrderedPoolRunsWaitingTasksSmallestRankFirstAndEqualRanksInSubmissionOrder() throws Exception {
        List<String> ran = new ArrayList<>();
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(6);
        try (BoundedPool pool = BoundedPool.ordered("test-ordered", 1, 16)) {
            // The one thread is held, so that every later task waits in the queue and only the order decides.
            pool.submit(() -> {
                busy.countDown();
                await(release);
            }, 0, 0);
            assertTrue(busy.await(5, TimeUnit.SECONDS));
            String[][] tasks = {{"map1 p0", "1", "0"}, {"map0 p2", "0", "2"}, {"map0 p0 first", "0", "0"},
                {"map0 p0 second", "0", "0"}, {"map0 p1", "0", "1"}, {"map1 p0 again", "1", "0"}};
            for (String[] task : tasks) {
                pool.submit(() -> {
                    synchronized (ran) {
                        ran.add(task[0]);
                    }
                    done.countDown();
                }, Long.parseLong(task[1]), Long.parseLong(task[2]));
            }
            release.countDown();
            assertTrue(done.await(5, TimeUnit.SECONDS));
        }
        assertEquals(List.of("map0 p0 first", "map0 p0 second", "map0 p1", "map0 p2", "map1 p0", "map1 p0 again"), ran);
    }

    @Test
    @Timeout(10)
    void aPoolRefusesTheOtherKindOfSubmissionNamingIt() {
        try (BoundedPool fifo = new BoundedPool("test-fifo", 1, 1);
             BoundedPool ordered = BoundedPool.ordered("test-ordered", 1, 1)) {
            IllegalStateException byRank = assertThrows(IllegalStateException.class,
                    () -> fifo.submit(() -> { }, 0, 0));
            assertTrue(byRank.getMessage().contains("test-fifo"), byRank.getMessage());
            IllegalStateException inOrder = assertThrows(IllegalStateException.class, () -> ordered.submit(() -> { }));
            assertTrue(inOrder.getMessage().contains("submit(task, major, minor)"), inOrder.getMessage());
            assertThrows(IllegalStateException.class, () -> ordered.execute(() -> { }));
        }
    }

    @Test
    @Timeout(10)
    void anOrderedPoolWaitsForRoomInItsBacklog() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (BoundedPool pool = BoundedPool.ordered("test-backlog", 1, 1)) {
            pool.submit(() -> await(release), 0, 0);
            pool.submit(() -> { }, 0, 1);
            Thread submitter = new Thread(() -> {
                try {
                    pool.submit(() -> { }, 0, 2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            submitter.start();
            submitter.join(200);
            assertTrue(submitter.isAlive(), "a third task waits while one runs and one waits");
            release.countDown();
            submitter.join(5_000);
            assertTrue(!submitter.isAlive(), "it is admitted once the first finished");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
