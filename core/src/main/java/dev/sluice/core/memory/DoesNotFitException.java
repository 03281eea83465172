package dev.sluice.core.memory;

/** A configuration that needs more memory than the machine or the JVM has; thrown before anything is created. */
public final class DoesNotFitException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public DoesNotFitException(String message) {
        super(message);
    }
}
