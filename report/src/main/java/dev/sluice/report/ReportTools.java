package dev.sluice.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The report tools behind {@code scripts/}: {@code report}, {@code compare}, {@code merge}, {@code results},
 * {@code env}, {@code table}, {@code metric}, {@code shares}, {@code coverage}; and, for the runner of scripts/bench.sh
 * ({@code dev.sluice.bench.BenchRunner}), the same report, crossover map and environment as calls.
 * Exit status: 0 done, 1 a comparison found a slowdown (compare) or the tool failed, 2 bad arguments.
 */
public final class ReportTools {
    private ReportTools() {}

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        try {
            System.exit(run(args));
        } catch (UsageException e) {
            System.err.println(prefix() + e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            System.err.println(prefix() + "report tools: " + e);
            System.exit(1);
        }
    }

    /** The script that runs the tools ({@code -Dsluice.script}, set by scripts/lib.sh), to name it in messages. */
    private static String prefix() {
        String script = System.getProperty("sluice.script", "");
        return script.isEmpty() ? "" : script + ": ";
    }

    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    static int run(String[] args) throws Exception {
        if (args.length == 0) {
            throw new UsageException("usage: ReportTools report|balance|axes|compare|merge|env|table|ablation|"
                    + "metric|shares|coverage|pairs ...");
        }
        List<String> rest = List.of(args).subList(1, args.length);
        switch (args[0]) {
            case "report": {
                // report RESULT.json OUT_DIR [ENVIRONMENT.json]
                if (rest.size() < 2) {
                    throw new UsageException("usage: report RESULT.json OUT_DIR [ENVIRONMENT.json]");
                }
                Path result = existing(rest.get(0));
                Path env = rest.size() > 2 ? Paths.get(rest.get(2)) : result.resolveSibling("environment.json");
                System.out.println(report(result, Paths.get(rest.get(1)), env));
                return 0;
            }
            case "balance": {
                // balance RESULT.json OUT_DIR: the crossover map (scripts/bench.sh --preset balance)
                if (rest.size() != 2) {
                    throw new UsageException("usage: balance RESULT.json OUT_DIR");
                }
                System.out.println(balance(existing(rest.get(0)), Paths.get(rest.get(1))));
                return 0;
            }
            case "axes": {
                // axes RESULT.json OUT_DIR: the pages along the partition and memory axes (--partitions, --memory-limit)
                if (rest.size() != 2) {
                    throw new UsageException("usage: axes RESULT.json OUT_DIR");
                }
                axes(existing(rest.get(0)), Paths.get(rest.get(1))).forEach(System.out::println);
                return 0;
            }
            case "compare": {
                // compare BASE.json NEW.json THRESHOLD_FRACTION
                if (rest.size() != 3) {
                    throw new UsageException("usage: compare BASE.json NEW.json THRESHOLD");
                }
                double threshold = Double.parseDouble(rest.get(2));
                List<JmhResults.Row> base = JmhResults.read(existing(rest.get(0)));
                List<JmhResults.Row> fresh = JmhResults.read(existing(rest.get(1)));
                List<Compare.Line> lines = Compare.compare(base, fresh, threshold);
                String refusal = Compare.nothingShared(lines, rest.get(0), base, rest.get(1), fresh);
                if (refusal != null) {
                    throw new UsageException(refusal);
                }
                return Compare.print(lines, threshold, System.out) ? 1 : 0;
            }
            case "pairs": {
                // pairs RESULT.json: a raw PairedWaveBenchmark result's strategies, by place, against the first
                if (rest.size() != 1) {
                    throw new UsageException("usage: pairs RESULT.json");
                }
                PairedWaves.print(existing(rest.get(0)), System.out);
                return 0;
            }
            case "merge": {
                if (rest.size() < 2) {
                    throw new UsageException("usage: merge OUT.json IN.json...");
                }
                List<Path> inputs = new ArrayList<>();
                for (String in : rest.subList(1, rest.size())) {
                    inputs.add(existing(in));
                }
                MergeResults.merge(Paths.get(rest.get(0)), inputs);
                return 0;
            }
            case "coverage": {
                // coverage [EXPERIMENTS]: how often t on the logarithms and the percentile bootstrap cover a known ratio
                int experiments = rest.isEmpty() ? 2000 : Integer.parseInt(rest.get(0));
                Coverage.print(experiments, System.out);
                return 0;
            }
            case "env": {
                // env OUT.json BENCHMARK_DIR JDK_DESCRIPTION GIT_COMMIT [RESULT.json: the devices its runs used]
                if (rest.size() != 4 && rest.size() != 5) {
                    throw new UsageException("usage: env OUT.json BENCHMARK_DIR JDK COMMIT [RESULT.json]");
                }
                environment(Paths.get(rest.get(0)), Paths.get(rest.get(1)), rest.get(2), rest.get(3),
                        rest.size() == 5 ? existing(rest.get(4)) : null);
                return 0;
            }
            case "net-map": {
                // net-map OUT_DIR RESULT.json...: the link map of the network boundary (NetworkMap)
                if (rest.size() < 2) {
                    throw new UsageException("usage: net-map OUT_DIR RESULT.json...");
                }
                List<Path> jsons = new ArrayList<>();
                for (String json : rest.subList(1, rest.size())) {
                    jsons.add(existing(json));
                }
                System.out.println(NetworkMap.write(jsons, Paths.get(rest.get(0))));
                return 0;
            }
            case "table": {
                if (rest.size() != 1) {
                    throw new UsageException("usage: table RESULT.json");
                }
                ResultsTable.print(JmhResults.read(existing(rest.get(0))), System.out);
                return 0;
            }
            case "ablation": {
                // ablation RESULT.json: docs/tuning.md's table per codec and size (scripts/bench.sh --preset tuning)
                if (rest.size() != 1) {
                    throw new UsageException("usage: ablation RESULT.json");
                }
                AblationTable.print(JmhResults.read(existing(rest.get(0))), System.out);
                return 0;
            }
            case "metric": {
                // metric RESULT.json KEY: the first benchmark's secondary result, rounded (for scripts)
                if (rest.size() != 2) {
                    throw new UsageException("usage: metric RESULT.json KEY");
                }
                List<JmhResults.Row> rows = JmhResults.read(existing(rest.get(0)));
                if (rows.isEmpty() || rows.get(0).metric(rest.get(1)).isEmpty()) {
                    throw new UsageException(rest.get(0) + " has no " + rest.get(1));
                }
                System.out.println(Math.round(rows.get(0).metric(rest.get(1)).getAsDouble()));
                return 0;
            }
            case "shares": {
                // shares COLLAPSED.txt: where a profile's samples go, by mechanism (profile.sh prints it)
                if (rest.size() != 1) {
                    throw new UsageException("usage: shares COLLAPSED.txt");
                }
                ProfileShares.print(existing(rest.get(0)), System.out);
                return 0;
            }
            default:
                throw new UsageException("unknown tool '" + args[0] + "': allowed is report, balance, axes, compare, "
                        + "merge, env, table, ablation, metric, shares or coverage");
        }
    }

    /**
     * The report of {@code result} into {@code outDir}, with the environment {@code env} and, beside the result, a
     * paired run's {@code stops.json}; returns the report's path.
     */
    public static Path report(Path result, Path outDir, Path env) throws IOException {
        // The result as the report's own link to it: relative to where the report is written.
        String link = outDir.toAbsolutePath().normalize().relativize(result.toAbsolutePath().normalize()).toString();
        // A paired run's stops.json, beside its result: why each configuration stopped.
        Path stops = result.resolveSibling("stops.json");
        com.fasterxml.jackson.databind.JsonNode stopped = Files.isRegularFile(stops)
                ? new com.fasterxml.jackson.databind.ObjectMapper().readTree(stops.toFile()) : null;
        return new SeedReport(JmhResults.read(result), Environment.read(env), link, stopped)
                .withTiming(RunTiming.read(result.toAbsolutePath().getParent()).orElse(null)).write(outDir);
    }

    /**
     * The pages of {@code result} along each axis with more than one point ({@code --partitions LIST},
     * {@code --memory-limit LIST}) into {@code outDir}; their paths.
     */
    public static List<Path> axes(Path result, Path outDir) throws IOException {
        String link = outDir.toAbsolutePath().normalize().relativize(result.toAbsolutePath().normalize()).toString();
        return AxisMap.write(JmhResults.read(result), outDir, link);
    }

    /** The crossover map of {@code result} (scripts/bench.sh --preset balance) into {@code outDir}; its path. */
    public static Path balance(Path result, Path outDir) throws IOException {
        String link = outDir.toAbsolutePath().normalize().relativize(result.toAbsolutePath().normalize()).toString();
        return BalanceMap.write(JmhResults.read(result), outDir, link);
    }

    /**
     * Writes {@code out}: the environment of benchmarks whose files went to {@code benchmarkDir}, run on
     * {@code jdk} at {@code commit}, with the devices the runs of {@code result} used (none if null).
     */
    public static void environment(Path out, Path benchmarkDir, String jdk, String commit, Path result)
            throws IOException {
        environment(out, benchmarkDir, jdk, commit, result, null);
    }

    /** As above, with what the gate did before every wave ({@code gate} in environment.json), where it is known. */
    public static void environment(Path out, Path benchmarkDir, String jdk, String commit, Path result, String gate)
            throws IOException {
        Environment environment = Environment.probe(benchmarkDir, jdk, commit);
        if (gate != null) {
            environment = environment.with("gate", gate);
        }
        if (result != null) {
            environment = environment.withDevices(JmhResults.read(result));
        }
        environment.write(out);
    }

    private static Path existing(String path) throws UsageException, IOException {
        Path p = Paths.get(path);
        if (!Files.isRegularFile(p)) {
            throw new UsageException(path + ": no such file");
        }
        return p;
    }
}
