package dev.sluice.cli;

import dev.sluice.core.strategy.Presets;
import dev.sluice.core.strategy.ShuffleWriters;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.option.StrategyOption;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * {@code sluice strategies}: every strategy on the class path with what it models and each option's default, meaning
 * and upstream source. {@code sluice strategies SPEC...} checks specs and prints each with all its option values.
 */
final class StrategiesCommand {
    private final PrintStream out;

    StrategiesCommand(PrintStream out) {
        this.out = out;
    }

    static String usage() {
        return "Usage: scripts/sluice strategies [SPEC...]\n\n"
                + "Without arguments, lists every strategy on the class path: what it models, and each option with its\n"
                + "default (upstream's), what it means and where upstream sets it. With SPECs (NAME or\n"
                + "NAME:key=value:...), checks each and prints it with every option's value; exit status 2 if one is\n"
                + "invalid. Presets (e.g. consolidated-best) stand for a strategy with options and are listed last.\n";
    }

    int run(List<String> args) {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(usage());
            return SluiceCli.OK;
        }
        if (!args.isEmpty()) {
            for (String text : args) {
                StrategySpec spec = StrategySpec.parse("strategy", text);
                StringBuilder line = new StringBuilder(spec.name());
                for (Map.Entry<String, String> option : spec.describeOptions().entrySet()) {
                    line.append(':').append(option.getKey()).append('=').append(option.getValue());
                }
                out.println(line);
            }
            return SluiceCli.OK;
        }
        for (ShuffleWriterFactory factory : ShuffleWriters.available().values()) {
            out.printf("%s%n  %s%n", factory.name(), factory.description());
            if (!factory.upstream().isEmpty()) {
                out.printf("  models: %s%n", factory.upstream());
            }
            List<StrategyOption<?>> options = factory.options().all();
            if (options.isEmpty()) {
                out.println("  options: none");
            } else {
                out.printf("  options (%s:key=value:...):%n", factory.name());
                for (StrategyOption<?> option : options) {
                    out.printf("    %s=%s  (%s)%n", option.name(), option.format(option.defaultValue()),
                            option.allowed());
                    out.printf("        %s%n", option.meaning());
                    out.printf("        upstream: %s%n", option.upstream());
                }
            }
            out.println();
        }
        for (String preset : Presets.names()) {
            out.printf("%s  (preset)%n  %s%n  is: %s (options after it override these)%n  source: %s%n%n", preset,
                    Presets.description(preset), Presets.expansion(preset), Presets.source(preset));
        }
        return SluiceCli.OK;
    }
}
