package dev.sluice.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The report tools behind {@code scripts/}: {@code report}, {@code compare}, {@code merge}, {@code results},
 * {@code paired-next}, {@code env}, {@code table}, {@code metric}, {@code metric-of}, {@code shares}, {@code coverage}.
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
            throw new UsageException("usage: ReportTools report|balance|compare|merge|results|paired-next|env|table|"
                    + "ablation|metric|metric-of|shares|coverage|pairs ...");
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
                Path outDir = Paths.get(rest.get(1));
                // The result as the report's own link to it: relative to where the report is written.
                String link = outDir.toAbsolutePath().normalize().relativize(result.toAbsolutePath().normalize())
                        .toString();
                // A paired run's stops.json, beside its result: why each configuration stopped.
                Path stops = result.resolveSibling("stops.json");
                com.fasterxml.jackson.databind.JsonNode stopped = Files.isRegularFile(stops)
                        ? new com.fasterxml.jackson.databind.ObjectMapper().readTree(stops.toFile()) : null;
                Path report = new SeedReport(JmhResults.read(result), Environment.read(env), link, stopped)
                        .write(outDir);
                System.out.println(report);
                return 0;
            }
            case "balance": {
                // balance RESULT.json OUT_DIR: the crossover map (scripts/bench.sh --preset balance)
                if (rest.size() != 2) {
                    throw new UsageException("usage: balance RESULT.json OUT_DIR");
                }
                Path result = existing(rest.get(0));
                Path outDir = Paths.get(rest.get(1));
                String link = outDir.toAbsolutePath().normalize().relativize(result.toAbsolutePath().normalize())
                        .toString();
                System.out.println(BalanceMap.write(JmhResults.read(result), outDir, link));
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
            case "results": {
                // results RUN_DIR: jmh-result.json (paired configurations as one result per strategy), and
                // comparisons.json and stops.json where the run has paired configurations
                if (rest.size() != 1) {
                    throw new UsageException("usage: results RUN_DIR");
                }
                new RunDirectory(Paths.get(rest.get(0))).writeResults();
                return 0;
            }
            case "paired-next": {
                // paired-next RUN_DIR NN-NAME rounds|forks SECONDS_LEFT|none SECONDS_SPENT: the next chunk's JMH runs
                if (rest.size() != 5) {
                    throw new UsageException("usage: paired-next RUN_DIR NN-NAME rounds|forks SECONDS_LEFT|none "
                            + "SECONDS_SPENT");
                }
                String design = rest.get(2);
                if (!design.equals(PairedRun.ROUNDS) && !design.equals(PairedRun.FORKS)) {
                    throw new UsageException("invalid design '" + design + "': allowed is " + PairedRun.ROUNDS + " or "
                            + PairedRun.FORKS);
                }
                double left = rest.get(3).equals("none") ? Double.POSITIVE_INFINITY : Double.parseDouble(rest.get(3));
                NextChunk.next(new RunDirectory(Paths.get(rest.get(0))), rest.get(1), design, left,
                        Double.parseDouble(rest.get(4)), new StoppingRule(), System.out);
                return 0;
            }
            case "metric-of": {
                // metric-of RUN_DIR NAME KEY: a configuration's secondary result, rounded (bench.sh's @KEY:NAME)
                if (rest.size() != 3) {
                    throw new UsageException("usage: metric-of RUN_DIR NAME KEY");
                }
                System.out.println(Math.round(new RunDirectory(Paths.get(rest.get(0))).metric(rest.get(1),
                        rest.get(2))));
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
                Environment environment = Environment.probe(Paths.get(rest.get(1)), rest.get(2), rest.get(3));
                if (rest.size() == 5) {
                    environment = environment.withDevices(JmhResults.read(existing(rest.get(4))));
                }
                environment.write(Paths.get(rest.get(0)));
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
                throw new UsageException("unknown tool '" + args[0] + "': allowed is report, balance, compare, merge, "
                        + "results, paired-next, env, table, ablation, metric, metric-of, shares or coverage");
        }
    }

    private static Path existing(String path) throws UsageException, IOException {
        Path p = Paths.get(path);
        if (!Files.isRegularFile(p)) {
            throw new UsageException(path + ": no such file");
        }
        return p;
    }
}
