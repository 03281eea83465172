package dev.sluice.bench;

import dev.sluice.spi.InvalidParameterException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The options of scripts/bench.sh as the plan takes them: {@code --name value} pairs, each name at most once. */
final class PlanOptions {
    private final Map<String, String> given = new LinkedHashMap<>();

    PlanOptions(List<String> args) {
        for (int i = 0; i < args.size(); i += 2) {
            if (!args.get(i).startsWith("--") || i + 1 >= args.size()) {
                throw new InvalidParameterException("argument", args.get(i), "--name value pairs");
            }
            given.put(args.get(i).substring(2), args.get(i + 1));
        }
    }

    /** Whether {@code option} was given. */
    boolean has(BenchOption option) {
        return given.containsKey(option.optionName());
    }

    /** The value of {@code option}, or {@code otherwise} where it was not given. */
    String get(BenchOption option, String otherwise) {
        return given.getOrDefault(option.optionName(), otherwise);
    }

    /** Where an option's value came from: given on the command line, else the preset's. */
    String from(BenchOption option) {
        return has(option) ? "given" : "the preset's";
    }
}
