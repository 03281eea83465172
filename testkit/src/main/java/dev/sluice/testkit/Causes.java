package dev.sluice.testkit;

/** An exception and its causes in one line, for assertion messages and for matching what a failure says. */
public final class Causes {
    private Causes() {}

    /** Each throwable of the cause chain, outermost first, as {@code toString()} gives it, joined by " <- ". */
    public static String of(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t).append(" <- ");
        }
        return all.toString();
    }
}
