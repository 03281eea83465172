package dev.sluice.jmh.profile;

import java.util.concurrent.atomic.AtomicReference;

/** The figures of the iteration that just ran, published by its state ({@link Figures#publish}). */
final class IterationFigures {
    static final AtomicReference<Figures> LAST = new AtomicReference<>();

    private IterationFigures() {}

    /** The last iteration's figures, once; null if none was published since. */
    static Figures take() {
        return LAST.getAndSet(null);
    }
}
