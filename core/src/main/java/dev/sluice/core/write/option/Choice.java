package dev.sluice.core.write.option;

/** A value of a strategy option that is one of a few named alternatives, e.g. {@code merge=stream|gather}. */
public interface Choice {
    /** The name written in a strategy spec. */
    String label();
}
