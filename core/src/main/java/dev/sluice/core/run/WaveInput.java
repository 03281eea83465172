package dev.sluice.core.run;

import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.spi.OwnedThreads;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The inputs of a wave of {@code tasks} concurrent map tasks: task t is map {@code t}, generated from seed
 * {@code seed + t}, so every task has its own rows and its own fingerprint, all of the same size and shape.
 */
public final class WaveInput implements AutoCloseable {
    private final List<TaskInput> tasks;

    private WaveInput(List<TaskInput> tasks) {
        this.tasks = Collections.unmodifiableList(tasks);
    }

    /** Receives progress while inputs are made (from several threads): task index, bytes generated so far of it. */
    public interface Progress {
        void generated(int task, long bytes);
    }

    /** How many tasks' inputs {@link #prepare} makes at once: as many as there are processors. */
    static int preparingThreads(int tasks) {
        return Math.max(1, Math.min(tasks, Runtime.getRuntime().availableProcessors()));
    }

    /** Makes every task's input, {@link #preparingThreads} at once (the inputs are independent). */
    public static WaveInput prepare(InputSpec spec, int tasks, Partitioning partitioning, int partitions,
                                    int shuffleId, BufferAllocator allocator, Progress progress) {
        if (tasks < 1) {
            throw new IllegalArgumentException("a wave needs at least one task, not " + tasks);
        }
        int threads = preparingThreads(tasks);
        OwnedThreads inputThreads = new OwnedThreads("sluice-input");
        ExecutorService pool = Executors.newFixedThreadPool(threads, inputThreads);
        List<Future<TaskInput>> futures = new ArrayList<>();
        List<TaskInput> made = new ArrayList<>();
        Throwable failure = null;
        try {
            for (int t = 0; t < tasks; t++) {
                int task = t;
                futures.add(pool.submit(() -> TaskInput.prepare(spec.withSeed(spec.seed + task), partitioning,
                        partitions, shuffleId, task, allocator, bytes -> progress.generated(task, bytes))));
            }
            for (Future<TaskInput> future : futures) {
                try {
                    made.add(future.get());
                } catch (ExecutionException e) {
                    failure = failure == null ? e.getCause() : failure;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = failure == null ? e : failure;
                    futures.forEach(f -> f.cancel(true));
                }
            }
        } finally {
            pool.shutdownNow();
            try {
                if (pool.awaitTermination(60, TimeUnit.SECONDS)) {
                    inputThreads.join(TimeUnit.SECONDS.toMillis(60));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure != null) {
            made.forEach(TaskInput::close);
            if (failure instanceof RuntimeException) {
                throw (RuntimeException) failure;
            }
            if (failure instanceof Error) {
                throw (Error) failure;
            }
            throw new IllegalStateException("making the wave's inputs failed", failure);
        }
        Set<String> fingerprints = new HashSet<>();
        for (TaskInput input : made) {
            if (!fingerprints.add(input.fingerprint)) {
                made.forEach(TaskInput::close);
                throw new IllegalStateException("two tasks of a wave got the same input, fingerprint " + input.fingerprint);
            }
        }
        return new WaveInput(made);
    }

    /** Every task's {@link TaskInput#warmUp warm-up copy}: for a warm-up wave, which is not verified. */
    public WaveInput warmUp(int divisor) {
        List<TaskInput> cut = new ArrayList<>();
        try {
            for (TaskInput task : tasks) {
                cut.add(task.warmUp(divisor));
            }
        } catch (RuntimeException | Error e) {
            cut.forEach(TaskInput::close);
            throw e;
        }
        return new WaveInput(cut);
    }

    public List<TaskInput> tasks() {
        return tasks;
    }

    public int size() {
        return tasks.size();
    }

    /** Bytes of Arrow input over all tasks. */
    public long bytes() {
        return tasks.stream().mapToLong(t -> t.bytes).sum();
    }

    @Override
    public void close() {
        tasks.forEach(TaskInput::close);
    }
}
