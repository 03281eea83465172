package dev.sluice.spi.memory;

import dev.sluice.spi.WriterGiven;

/**
 * One map task's memory as its host's memory manager sees it: Spark's manager hands each writer a memory consumer of
 * the task ({@code TaskMemoryManager}), so that what a strategy holds for the task (partials) is granted by Spark and
 * given back when Spark asks, as Spark's own {@code ShuffleExternalSorter} holds its pages; benchmarks and the command
 * line hand {@link #UNBOUNDED}, which grants everything and never asks.
 *
 * <p>Any thread may acquire and release. {@link #acquire} may first ask this task's {@link Spillable}s (the writer's
 * own among them) to give memory back, on the acquiring thread, while the host holds its own lock: a spillable must
 * therefore never wait for a lock another thread may hold while it acquires.
 */
@WriterGiven
public interface TaskMemory {
    /** Grants every request, asks for nothing back: a task whose host manages no memory. */
    TaskMemory UNBOUNDED = new TaskMemory() {
        @Override
        public long acquire(long bytes) {
            return bytes;
        }

        @Override
        public void release(long bytes) {}

        @Override
        public void spillable(Spillable spillable) {}

        @Override
        public String toString() {
            return "unbounded task memory";
        }
    };

    /** Asks for {@code bytes}; returns those granted, from 0 to {@code bytes}, which the caller holds until it releases them. */
    long acquire(long bytes);

    /** Gives {@code bytes} of what was granted back. */
    void release(long bytes);

    /** Whom the host asks to give memory back from now on: the writer, once it holds memory; null when it ends. */
    void spillable(Spillable spillable);
}
