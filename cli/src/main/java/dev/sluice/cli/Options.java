package dev.sluice.cli;

import dev.sluice.spi.InvalidParameterException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command-line options of one subcommand: declared with their help text, parsed from {@code --name value},
 * {@code --name=value} or {@code --flag}. Every refusal is an {@link InvalidParameterException} naming the option.
 */
public final class Options {
    private static final class Option {
        final String name;
        final String valueName;
        final String help;
        final String defaultValue;
        final boolean required;

        Option(String name, String valueName, String help, String defaultValue, boolean required) {
            this.name = name;
            this.valueName = valueName;
            this.help = help;
            this.defaultValue = defaultValue;
            this.required = required;
        }

        boolean isFlag() {
            return valueName == null;
        }
    }

    private final Map<String, Option> declared = new LinkedHashMap<>();
    private final Map<String, String> values = new LinkedHashMap<>();

    public Options required(String name, String valueName, String help) {
        declared.put(name, new Option(name, valueName, help, null, true));
        return this;
    }

    public Options optional(String name, String valueName, String defaultValue, String help) {
        declared.put(name, new Option(name, valueName, help, defaultValue, false));
        return this;
    }

    public Options flag(String name, String help) {
        declared.put(name, new Option(name, null, help, null, false));
        return this;
    }

    /** Parses {@code args}; returns false if {@code --help} was among them. */
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
            if (values.put(name, value) != null) {
                throw new InvalidParameterException("--" + name, value, "the option once");
            }
        }
        for (Option option : declared.values()) {
            if (option.required && !values.containsKey(option.name)) {
                throw new InvalidParameterException("--" + option.name, "", "a value: --" + option.name + " " + option.valueName + " is required");
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

    public String string(String name) {
        String value = values.get(name);
        return value != null ? value : declared.get(name).defaultValue;
    }

    /** The value as given on the command line, or null if the option was not given. */
    public String typed(String name) {
        return values.get(name);
    }

    public boolean flag(String name) {
        return values.containsKey(name);
    }

    public int integer(String name) {
        String text = string(name);
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidParameterException("--" + name, text, "an integer");
        }
    }

    /** Help lines for every option, aligned. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        for (Option o : declared.values()) {
            String left = "  --" + o.name + (o.isFlag() ? "" : " " + o.valueName);
            out.append(String.format("%-30s %s", left, o.help));
            if (o.required) {
                out.append(" (required)");
            } else if (o.defaultValue != null) {
                out.append(" (default: ").append(o.defaultValue).append(')');
            }
            out.append('\n');
        }
        out.append(String.format("%-30s %s%n", "  --help", "print this help and exit"));
        return out.toString();
    }
}
