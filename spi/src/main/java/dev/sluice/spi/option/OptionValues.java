package dev.sluice.spi.option;

import dev.sluice.spi.WriterGiven;
import java.util.LinkedHashMap;
import java.util.Map;

/** The value of every option a strategy declares: the ones a spec gave, the defaults for the rest. */
@WriterGiven
public final class OptionValues {
    private final StrategyOptions declared;
    private final Map<StrategyOption<?>, Object> given;

    OptionValues(StrategyOptions declared, Map<StrategyOption<?>, Object> given) {
        this.declared = declared;
        this.given = Map.copyOf(given);
    }

    /** The value of {@code option}; it must be one the strategy declared. */
    public <T> T get(StrategyOption<T> option) {
        if (declared.find(option.name()) != option) {
            throw new IllegalArgumentException("option '" + option.name() + "' is not declared by this strategy");
        }
        @SuppressWarnings("unchecked")
        T value = given.containsKey(option) ? (T) given.get(option) : option.defaultValue();
        return value;
    }

    /** Whether the spec set {@code option} explicitly. */
    public boolean given(StrategyOption<?> option) {
        return given.containsKey(option);
    }

    /** Every option and its value as a spec writes it, in declaration order. */
    public Map<String, String> describe() {
        Map<String, String> out = new LinkedHashMap<>();
        for (StrategyOption<?> option : declared.all()) {
            out.put(option.name(), option.format(get(option)));
        }
        return out;
    }
}
