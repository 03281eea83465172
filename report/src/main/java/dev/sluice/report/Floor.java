package dev.sluice.report;

import dev.sluice.core.run.BenchmarkName;
import dev.sluice.core.run.BenchmarkParam;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The floor under a size's waves (issue 32), from the same run: the CPU work every strategy must do, every record of
 * the wave serialized as Arrow IPC and the serialized records compressed by the run's codec, each on every core with no
 * I/O (FloorBenchmark's {@code serialize} and {@code compress}), and the storage's part, one write of the committed
 * bytes (RawWriteBenchmark), each its mean in ms per wave. A wave must do both, so none can be shorter than the slower
 * of the two; nor, where the run measured it, than the same write made no faster than the CPU work makes its bytes
 * (the paced write: RawWriteBenchmark's {@code pace} at the bytes over serialize + compress). That is the two
 * overlapped as well as a write through the page cache can follow its bytes, and on a device whose writeback starts
 * only once its dirty cap is reached it is slower than either (docs/limits.md). {@link #floorMs()} is the slowest of
 * the three. Where the write's copy into the page cache is CPU work on the same cores as the compression (two cores
 * here) the CPU work and the write overlap little, and a wave comes nearer their sum, {@link #sumMs()}: a reference,
 * not a bound. The report and comparisons.json give every strategy's time over both, computed here alone.
 */
final class Floor {
    static final String SERIALIZE = "serialize";
    static final String COMPRESS = "compress";

    /** The rows the floor is read from, each with its waves and error. */
    final JmhResults.Row serialize;
    final JmhResults.Row compress;
    final JmhResults.Row raw;
    /** The paced write, where the run measured one. */
    final Optional<JmhResults.Row> paced;
    /** Their means, ms per wave; the paced write's NaN where there is none. */
    final double serializeMs;
    final double compressMs;
    final double rawWriteMs;
    final double pacedWriteMs;

    private Floor(JmhResults.Row serialize, JmhResults.Row compress, JmhResults.Row raw,
                  Optional<JmhResults.Row> paced) {
        this.serialize = serialize;
        this.compress = compress;
        this.raw = raw;
        this.paced = paced;
        this.serializeMs = serialize.score;
        this.compressMs = compress.score;
        this.rawWriteMs = raw.score;
        this.pacedWriteMs = paced.map(r -> r.score).orElse(Double.NaN);
    }

    /**
     * The floor of {@code size} from {@code rows}: its FloorBenchmark serialize and compress rows, its raw write (the
     * first of that size, as the report's raw-write table takes it) and the paced write of the same size and device,
     * if any; empty where any of the first three is missing.
     */
    static Optional<Floor> of(List<JmhResults.Row> rows, String size) {
        Optional<JmhResults.Row> serialize = floorRow(rows, size, SERIALIZE);
        Optional<JmhResults.Row> compress = floorRow(rows, size, COMPRESS);
        Optional<JmhResults.Row> raw = rawWrite(rows, size);
        if (serialize.isEmpty() || compress.isEmpty() || raw.isEmpty()) {
            return Optional.empty();
        }
        String device = raw.get().param(BenchmarkParam.DEVICE);
        Optional<JmhResults.Row> paced = rows.stream().filter(r -> r.isPacedWrite() && r.param(BenchmarkParam.SIZE).equals(size)
                && r.param(BenchmarkParam.DEVICE).equals(device)).findFirst();
        return Optional.of(new Floor(serialize.get(), compress.get(), raw.get(), paced));
    }

    /** The raw write of {@code size}: the first of that size, as the report's raw-write table takes it. */
    static Optional<JmhResults.Row> rawWrite(List<JmhResults.Row> rows, String size) {
        return rows.stream().filter(r -> r.isRawWrite() && r.param(BenchmarkParam.SIZE).equals(size)).findFirst();
    }

    /** Whether {@code rows} hold any floor measurement at all. */
    static boolean measured(List<JmhResults.Row> rows) {
        return rows.stream().anyMatch(r -> r.is(BenchmarkName.FLOOR));
    }

    /** Serialize plus compress of {@code size} from {@code rows} alone, as the floor takes them; empty without both. */
    static OptionalDouble cpuMs(List<JmhResults.Row> rows, String size) {
        Optional<JmhResults.Row> serialize = floorRow(rows, size, SERIALIZE);
        Optional<JmhResults.Row> compress = floorRow(rows, size, COMPRESS);
        return serialize.isEmpty() || compress.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(serialize.get().score + compress.get().score);
    }

    private static Optional<JmhResults.Row> floorRow(List<JmhResults.Row> rows, String size, String method) {
        return rows.stream().filter(r -> r.is(BenchmarkName.FLOOR) && r.benchmark.endsWith("." + method)
                && r.param(BenchmarkParam.SIZE).equals(size)).findFirst();
    }

    /** Serialize plus compress: the CPU work on every core. */
    double cpuMs() {
        return serializeMs + compressMs;
    }

    /** The floor: the slowest of the CPU work, the raw write and, where measured, the paced write. */
    double floorMs() {
        double slower = Math.max(cpuMs(), rawWriteMs);
        return paced.isPresent() ? Math.max(slower, pacedWriteMs) : slower;
    }

    /** The CPU work and the raw write one after the other: what a wave comes near where they share the cores. */
    double sumMs() {
        return cpuMs() + rawWriteMs;
    }

    /** Which part is the floor: "serialize + compress", "raw write" or "paced write". */
    String slower() {
        if (paced.isPresent() && pacedWriteMs >= floorMs()) {
            return "paced write";
        }
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
