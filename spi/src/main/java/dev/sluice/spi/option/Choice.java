package dev.sluice.spi.option;

import dev.sluice.spi.WriterImplements;
import java.util.Locale;

/**
 * A value of a strategy option that is one of a few named alternatives, e.g. {@code merge=stream|gather}: an enum
 * whose constants are written in a spec in lower case.
 */
@WriterImplements
public interface Choice {
    /** The constant's name (an enum's own {@code name()}). */
    String name();

    /** The name written in a strategy spec: the constant's name in lower case. */
    default String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
