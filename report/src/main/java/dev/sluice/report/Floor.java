package dev.sluice.report;

import dev.sluice.core.run.BenchmarkName;
import java.util.List;
import java.util.Optional;

/**
 * The floor under a size's waves (issue 32), from the same run: the CPU work every strategy must do, every record of
 * the wave serialized as Arrow IPC and the serialized records compressed by the run's codec, each on every core with no
 * I/O (FloorBenchmark's {@code serialize} and {@code compress}), and the storage's part, one write of the committed
 * bytes (RawWriteBenchmark), each its mean in ms per wave. A wave must do both, so none can be shorter than the slower
 * of the two, {@link #floorMs()}; where the write's copy into the page cache is CPU work on the same cores as the
 * compression (two cores here, docs/limits.md) the two overlap little, and a wave comes nearer their sum,
 * {@link #sumMs()}: a reference, not a bound. The report and comparisons.json give every strategy's time over both,
 * computed here alone.
 */
final class Floor {
    static final String SERIALIZE = "serialize";
    static final String COMPRESS = "compress";

    /** The rows the floor is read from, each with its waves and error. */
    final JmhResults.Row serialize;
    final JmhResults.Row compress;
    final JmhResults.Row raw;
    /** Their means, ms per wave. */
    final double serializeMs;
    final double compressMs;
    final double rawWriteMs;

    private Floor(JmhResults.Row serialize, JmhResults.Row compress, JmhResults.Row raw) {
        this.serialize = serialize;
        this.compress = compress;
        this.raw = raw;
        this.serializeMs = serialize.score;
        this.compressMs = compress.score;
        this.rawWriteMs = raw.score;
    }

    /**
     * The floor of {@code size} from {@code rows}: its FloorBenchmark serialize and compress rows and its raw write
     * (the first of that size, as the report's raw-write table takes it); empty where any of the three is missing.
     */
    static Optional<Floor> of(List<JmhResults.Row> rows, String size) {
        Optional<JmhResults.Row> serialize = floorRow(rows, size, SERIALIZE);
        Optional<JmhResults.Row> compress = floorRow(rows, size, COMPRESS);
        Optional<JmhResults.Row> raw = rawWrite(rows, size);
        if (serialize.isEmpty() || compress.isEmpty() || raw.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Floor(serialize.get(), compress.get(), raw.get()));
    }

    /** The raw write of {@code size}: the first of that size, as the report's raw-write table takes it. */
    static Optional<JmhResults.Row> rawWrite(List<JmhResults.Row> rows, String size) {
        return rows.stream().filter(r -> r.is(BenchmarkName.RAW_WRITE) && r.param("size").equals(size)).findFirst();
    }

    /** Whether {@code rows} hold any floor measurement at all. */
    static boolean measured(List<JmhResults.Row> rows) {
        return rows.stream().anyMatch(r -> r.is(BenchmarkName.FLOOR));
    }

    private static Optional<JmhResults.Row> floorRow(List<JmhResults.Row> rows, String size, String method) {
        return rows.stream().filter(r -> r.is(BenchmarkName.FLOOR) && r.benchmark.endsWith("." + method)
                && r.param("size").equals(size)).findFirst();
    }

    /** Serialize plus compress: the CPU work on every core. */
    double cpuMs() {
        return serializeMs + compressMs;
    }

    /** The floor: the slower of the CPU work and the raw write. */
    double floorMs() {
        return Math.max(cpuMs(), rawWriteMs);
    }

    /** The CPU work and the raw write one after the other: what a wave comes near where they share the cores. */
    double sumMs() {
        return cpuMs() + rawWriteMs;
    }

    /** Which part is the floor: "serialize + compress" or "raw write". */
    String slower() {
        return cpuMs() >= rawWriteMs ? SERIALIZE + " + " + COMPRESS : "raw write";
    }

    /** A strategy's waves (ms) over the floor: their geometric mean, as the paired ratios are taken, over it. */
    double over(List<Double> waves) {
        return geometricMean(waves) / floorMs();
    }

    /** A strategy's waves (ms) over the sum of the floor's parts. */
    double overSum(List<Double> waves) {
        return geometricMean(waves) / sumMs();
    }

    /** The geometric mean of {@code values} (all > 0); NaN for none. */
    static double geometricMean(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double logs = 0;
        for (double v : values) {
            logs += Math.log(v);
        }
        return Math.exp(logs / values.size());
    }
}
