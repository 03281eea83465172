package dev.sluice.strategy.sort;

import dev.sluice.spi.WriterConfig;
import java.util.HashMap;
import java.util.Map;

/**
 * The executor's execution memory as Spark's {@code ExecutionMemoryPool} shares it between running tasks: a task may
 * hold at most the pool over the number of tasks that hold memory ({@code maxMemoryPerTask}), and a request the pool
 * cannot grant is refused, which makes the sorter spill. The pool is the writer configuration's memory limit;
 * without one every request is granted. Spark grants part of a request and makes a task below its minimum share wait
 * for others; here a request is granted whole or refused, and nothing waits (docs/fidelity.md).
 */
final class ExecutionMemory {
    private final long pool;
    private final Map<Object, Long> heldByTask = new HashMap<>();
    private long used;

    ExecutionMemory(WriterConfig config) {
        this.pool = config.memoryLimit;
    }

    /** Grants {@code bytes} to {@code task} if its share and the pool allow; returns whether it did. */
    synchronized boolean tryAcquire(Object task, long bytes) {
        long held = heldByTask.getOrDefault(task, 0L);
        int tasks = heldByTask.containsKey(task) ? heldByTask.size() : heldByTask.size() + 1;
        if (pool != WriterConfig.UNLIMITED && (held + bytes > pool / tasks || used + bytes > pool)) {
            return false;
        }
        acquireAnyway(task, bytes);
        return true;
    }

    /** Records {@code bytes} as held by {@code task} whatever its share: what Spark would fail the task for. */
    synchronized void acquireAnyway(Object task, long bytes) {
        heldByTask.merge(task, bytes, Long::sum);
        used += bytes;
    }

    synchronized void release(Object task, long bytes) {
        if (bytes == 0) {
            return;
        }
        long held = heldByTask.getOrDefault(task, 0L) - bytes;
        if (held < 0) {
            throw new IllegalStateException("task released " + bytes + " bytes of execution memory, "
                    + (held + bytes) + " held");
        }
        if (held == 0) {
            heldByTask.remove(task);
        } else {
            heldByTask.put(task, held);
        }
        used -= bytes;
    }

    /** Bytes held by every task. */
    synchronized long used() {
        return used;
    }
}
