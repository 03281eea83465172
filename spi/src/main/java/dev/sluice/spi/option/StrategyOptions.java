package dev.sluice.spi.option;

import dev.sluice.spi.WriterGiven;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The options a strategy declares, in the order its listing shows them. */
@WriterGiven
public final class StrategyOptions {
    public static final StrategyOptions NONE = new StrategyOptions(List.of());

    private final Map<String, StrategyOption<?>> byName = new LinkedHashMap<>();

    private StrategyOptions(List<StrategyOption<?>> options) {
        for (StrategyOption<?> option : options) {
            if (byName.put(option.name(), option) != null) {
                throw new IllegalArgumentException("option '" + option.name() + "' declared twice");
            }
        }
    }

    public static StrategyOptions of(StrategyOption<?>... options) {
        return new StrategyOptions(List.of(options));
    }

    public List<StrategyOption<?>> all() {
        return List.copyOf(byName.values());
    }

    /** The option called {@code name}, or null where the strategy declares none. */
    public StrategyOption<?> find(String name) {
        return byName.get(name);
    }

    public boolean isEmpty() {
        return byName.isEmpty();
    }

    /** Every option at its default. */
    public OptionValues defaults() {
        return new OptionValues(this, Collections.emptyMap());
    }
}
