package dev.sluice.core.cli;

import dev.sluice.spi.InvalidParameterException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Command-line options of one tool or subcommand (scripts/sluice, scripts/net-send, scripts/spark-bench): declared
 * with their help text, parsed from {@code --name value}, {@code --name=value} or {@code --flag}. Every refusal is an
 * {@link InvalidParameterException} naming the option, the value given and what is allowed, so that every tool
 * refuses a command line in the same words.
 */
public final class Options {
    /** The column where the help text of an option starts in {@link #describe()}. */
    public static final int HELP_COLUMN = 31;

    private record Option(String name, String valueName, String help, String defaultValue, boolean required,
                          boolean repeatable) {
        boolean isFlag() {
            return valueName == null;
        }
    }

    private final Map<String, Option> declared = new LinkedHashMap<>();
    private final Map<String, List<String>> values = new LinkedHashMap<>();

    /** An option that must be given, once. */
    public Options required(String name, String valueName, String help) {
        return declare(new Option(name, valueName, help, null, true, false));
    }

    /** An option given at most once; {@code defaultValue} (null for none) is its value when it is not given. */
    public Options optional(String name, String valueName, String defaultValue, String help) {
        return declare(new Option(name, valueName, help, defaultValue, false, false));
    }

    /** An option that may be given any number of times, each value kept in order ({@link #values}). */
    public Options repeatable(String name, String valueName, String help) {
        return declare(new Option(name, valueName, help, null, false, true));
    }

    /** An option without a value: given or not. */
    public Options flag(String name, String help) {
        return declare(new Option(name, null, help, null, false, false));
    }

    private Options declare(Option option) {
        if (declared.putIfAbsent(option.name, option) != null) {
            throw new IllegalArgumentException("--" + option.name + " is declared twice");
        }
        return this;
    }

    /** Parses {@code args}; returns false if {@code --help} (or {@code -h}) was among them. */
    public boolean parse(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--help") || arg.equals("-h")) {
                return false;
            }
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new InvalidParameterException("argument", arg, "options of the form --name value (see --help)");
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            Option option = declared.get(name);
            if (option == null) {
                throw new InvalidParameterException("option", "--" + name, "one of " + names());
            }
            if (option.isFlag()) {
                if (value != null) {
                    throw new InvalidParameterException("--" + name, value, "no value (it is a flag)");
                }
                value = "true";
            } else if (value == null) {
                if (i + 1 >= args.size() || (args.get(i + 1).startsWith("--") && args.get(i + 1).length() > 2)) {
                    throw new InvalidParameterException("--" + name, "", "a value: --" + name + " " + option.valueName);
                }
                value = args.get(++i);
            }
            List<String> given = values.computeIfAbsent(name, n -> new ArrayList<>());
            if (!given.isEmpty() && !option.repeatable) {
                throw new InvalidParameterException("--" + name, value, "the option once");
            }
            given.add(value);
        }
        for (Option option : declared.values()) {
            if (option.required && !values.containsKey(option.name)) {
                throw new InvalidParameterException("--" + option.name, "", "a value: --" + option.name + " "
                        + option.valueName + " is required");
            }
        }
        return true;
    }

    private String names() {
        List<String> all = new ArrayList<>();
        for (String name : declared.keySet()) {
            all.add("--" + name);
        }
        return String.join(", ", all) + ", --help";
    }

    private Option option(String name) {
        Option option = declared.get(name);
        if (option == null) {
            throw new IllegalArgumentException("no option --" + name + " is declared");
        }
        return option;
    }

    /** The value given, else the default (null where there is none). */
    public String string(String name) {
        String value = typed(name);
        return value != null ? value : option(name).defaultValue;
    }

    /** The value as given on the command line, or null if the option was not given. */
    public String typed(String name) {
        List<String> given = values(name);
        return given.isEmpty() ? null : given.get(0);
    }

    /** Whether the option was given on the command line. */
    public boolean given(String name) {
        return !values(name).isEmpty();
    }

    /** Every value given to the option, in order; empty if it was not given. */
    public List<String> values(String name) {
        option(name);
        return List.copyOf(values.getOrDefault(name, List.of()));
    }

    public boolean flag(String name) {
        return given(name);
    }

    public int integer(String name) {
        String text = string(name);
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException | NullPointerException e) {
            throw new InvalidParameterException("--" + name, text, "an integer");
        }
    }

    /** The value as an integer of at least {@code min}. */
    public int integer(String name, int min) {
        String text = string(name);
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException | NullPointerException e) {
            // refused below
        }
        throw new InvalidParameterException("--" + name, text, "an integer >= " + min);
    }

    /** The value as a finite number above 0. */
    public double positive(String name) {
        String text = string(name);
        try {
            double x = Double.parseDouble(text.trim());
            if (x > 0 && Double.isFinite(x)) {
                return x;
            }
        } catch (NumberFormatException | NullPointerException e) {
            // refused below
        }
        throw new InvalidParameterException("--" + name, text, "a number > 0");
    }

    /** Help lines for every option, aligned at {@link #HELP_COLUMN}. */
    public String describe() {
        return describe(HELP_COLUMN);
    }

    /**
     * Help lines for every option, each option's text from {@code column} on: a text's own line breaks continue at
     * that column, and the default or "(required)" follows its last line, as the parser holds it.
     */
    public String describe(int column) {
        StringBuilder out = new StringBuilder();
        String indent = " ".repeat(column);
        for (Option o : declared.values()) {
            String text = o.help;
            if (o.required) {
                text += " (required)";
            } else if (o.defaultValue != null) {
                text += " (default: " + o.defaultValue + ")";
            }
            String left = "  --" + o.name + (o.isFlag() ? "" : " " + o.valueName);
            out.append(String.format(Locale.ROOT, "%-" + (column - 1) + "s %s", left,
                    text.replace("\n", "\n" + indent))).append('\n');
        }
        out.append(String.format(Locale.ROOT, "%-" + (column - 1) + "s %s%n", "  --help", "print this help and exit"));
        return out.toString();
    }
}
