package dev.sluice.core.run;

import dev.sluice.core.measure.MachineCpu;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.measure.ProcSelfStat;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.OwnedThreads;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoSnapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BinaryOperator;

/**
 * The seed's mapper stage: N map tasks written at once on one executor, each on a task thread of its own, as an
 * executor's task slots run them; they share the executor's writer and merger threads. The wave's time runs from the
 * moment all tasks are released together to the last commit. A wave owns its task threads until closed.
 */
public final class Wave implements AutoCloseable {
    /** How long a wave may take before it is given up. */
    static final long TIMEOUT_MINUTES = 30;

    private final int tasks;
    private final Producer producer;
    private final OwnedThreads taskThreads = new OwnedThreads("sluice-task");
    private final ExecutorService threads;

    public Wave(int tasks) {
        this(tasks, Producer.NONE);
    }

    /** A wave whose tasks' batches each take {@code producer}'s time before they are written. */
    public Wave(int tasks, Producer producer) {
        if (tasks < 1) {
            throw new IllegalArgumentException("a wave needs at least one task, not " + tasks);
        }
        this.tasks = tasks;
        this.producer = producer;
        this.threads = Executors.newFixedThreadPool(tasks, taskThreads);
    }

    /**
     * Writes every task of {@code input} through {@code executor}, all at once, and commits them. If any task fails,
     * the wave waits for the others, releases their outputs, and throws the first failure. Each task's records are
     * payloads in {@code codec}, made before the wave starts.
     *
     * @param dirty where to sample Dirty during the wave, or null
     */
    public WaveResult run(ShuffleExecutor executor, WaveInput input, ShuffleCodec codec, CountedStorage storage,
                          DirtyPages dirty)
            throws Exception {
        if (input.size() != tasks) {
            throw new IllegalArgumentException("a wave of " + tasks + " tasks given " + input.size() + " inputs");
        }
        CountDownLatch go = new CountDownLatch(1);
        List<Future<MapTaskResult>> futures = new ArrayList<>();
        IoSnapshot before = storage.counters().snapshot();
        // What the tasks had written when the first of them began its commit (WaveResult.bytesBeforeFirstCommit).
        AtomicLong atFirstCommit = new AtomicLong(-1);
        Runnable beforeCommit = () -> {
            if (atFirstCommit.get() < 0) {
                atFirstCommit.compareAndSet(-1, storage.counters().snapshot().since(before).bytesWritten);
            }
        };
        for (TaskInput task : input.tasks()) {
            task.records(codec); // made here, outside the wave's time
            futures.add(threads.submit(() -> {
                go.await();
                return MapTaskRunner.run(executor, task, codec, producer, beforeCommit);
            }));
        }
        Optional<ProcSelfIo> procBefore = ProcSelfIo.read();
        Optional<ProcSelfStat> cpuBefore = ProcSelfStat.read();
        Optional<MachineCpu> machineBefore = MachineCpu.read();
        DirtyPages.Sampler sampler = dirty != null && dirty.available() ? dirty.sample() : null;
        long start = System.nanoTime();
        go.countDown();
        List<MapTaskResult> results = new ArrayList<>();
        Exception failure = null;
        long deadline = start + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
        for (Future<MapTaskResult> future : futures) {
            try {
                results.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException e) {
                failure = add(failure, e.getCause() instanceof Exception ? (Exception) e.getCause() : e);
            } catch (TimeoutException e) {
                future.cancel(true);
                failure = add(failure, new IOException("a map task of the wave was still running after "
                        + TIMEOUT_MINUTES + " minutes", e));
            } catch (InterruptedException e) {
                futures.forEach(f -> f.cancel(true));
                failure = add(failure, e);
            }
        }
        long wall = System.nanoTime() - start;
        long peakDirty = -1;
        if (sampler != null) {
            sampler.close();
            peakDirty = sampler.peak();
        }
        IoSnapshot io = storage.counters().snapshot().since(before);
        Optional<ProcSelfIo> procAfter = ProcSelfIo.read();
        Optional<ProcSelfStat> cpuAfter = ProcSelfStat.read();
        Optional<MachineCpu> machineAfter = MachineCpu.read();
        if (failure != null) {
            for (MapTaskResult done : results) {
                try (MapOutput output = done.output) {
                    output.delete(storage);
                } catch (IOException | RuntimeException e) {
                    failure.addSuppressed(e);
                }
            }
            throw failure;
        }
        return new WaveResult(results, wall, io, Math.max(0, atFirstCommit.get()),
                since(procBefore, procAfter, ProcSelfIo::since), since(cpuBefore, cpuAfter, ProcSelfStat::since),
                since(machineBefore, machineAfter, MachineCpu::since), peakDirty);
    }

    /** What a kernel count changed by over the wave: {@code after} since {@code before}, where both were read. */
    private static <T> Optional<T> since(Optional<T> before, Optional<T> after, BinaryOperator<T> since) {
        return before.flatMap(b -> after.map(a -> since.apply(a, b)));
    }

    private static Exception add(Exception first, Exception next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    @Override
    public void close() {
        threads.shutdownNow();
        try {
            if (!threads.awaitTermination(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("task threads did not stop within 60 s");
            }
            taskThreads.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
