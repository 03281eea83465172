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

    /** Whether {@code --name} was given. */
    boolean has(String name) {
        return given.containsKey(name);
    }

    /** The value of {@code --name}, or {@code otherwise} where it was not given. */
    String get(String name, String otherwise) {
        return given.getOrDefault(name, otherwise);
    }

    /** Where an option's value came from: given on the command line, else the preset's. */
    String from(String name) {
        return has(name) ? "given" : "the preset's";
    }
}
