package dev.sluice.spi.option;

import dev.sluice.spi.EngineOnly;
import dev.sluice.spi.InvalidParameterException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Parses the options part of a strategy spec, {@code NAME:key=value:key=value} (no commas, so that JMH's
 * {@code -p strategy=a,b} still lists several specs). Every refusal names the parameter, the spec, the strategy, the
 * option, the value and what is allowed.
 */
@EngineOnly
public final class SpecParser {
    private SpecParser() {}

    /**
     * The values given in {@code pieces} (each {@code key=value}) for a strategy declaring {@code declared}.
     *
     * @param parameter the parameter the spec came from, e.g. {@code --strategy}
     * @param spec the whole spec, for messages
     */
    public static OptionValues parse(String parameter, String spec, String strategy, StrategyOptions declared,
                                     Iterable<String> pieces) {
        Map<StrategyOption<?>, Object> given = new LinkedHashMap<>();
        for (String piece : pieces) {
            int eq = piece.indexOf('=');
            if (eq <= 0 || eq == piece.length() - 1) {
                throw new InvalidParameterException(parameter, spec, "NAME or NAME:key=value:key=value (not '"
                        + piece + "')");
            }
            String key = piece.substring(0, eq);
            String text = piece.substring(eq + 1);
            StrategyOption<?> option = declared.find(key);
            if (option == null) {
                throw new InvalidParameterException(parameter, spec, declared.isEmpty()
                        ? strategy + " with no options (it takes none)"
                        : "an option of " + strategy + ": " + names(declared) + " (not '" + key + "')");
            }
            Object value;
            try {
                value = option.parse(text);
            } catch (IllegalArgumentException e) {
                throw new InvalidParameterException(parameter, spec, "for " + strategy + "'s option " + key + ": "
                        + option.allowed() + " (not '" + text + "')");
            }
            if (given.put(option, value) != null) {
                throw new InvalidParameterException(parameter, spec, "each option of " + strategy + " once ("
                        + key + " is given twice)");
            }
        }
        return new OptionValues(declared, given);
    }

    private static String names(StrategyOptions declared) {
        return declared.all().stream().map(StrategyOption::name).collect(Collectors.joining(", "));
    }
}
