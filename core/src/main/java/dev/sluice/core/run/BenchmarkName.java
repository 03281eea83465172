package dev.sluice.core.run;

/**
 * The benchmark classes the report tools tell apart in a JMH result, by their simple names: a JMH result names a
 * benchmark {@code package.Class.method}, and the report picks rows by the class. The benchmarks module's tests check
 * that each names a benchmark class there.
 */
public enum BenchmarkName {
    /** One strategy's waves. */
    SHUFFLE_WRITE("ShuffleWriteBenchmark"),
    /** Several strategies' waves interleaved round by round (or fork by fork). */
    PAIRED_WAVE("PairedWaveBenchmark"),
    /** The storage's own write of the committed bytes: the reference a wave is held against. */
    RAW_WRITE("RawWriteBenchmark"),
    /** The CPU floors under a wave, no I/O: its records serialized, and compressed, on every core. */
    FLOOR("FloorBenchmark"),
    /** The same work every iteration with no I/O: the machine's own spread. */
    NOISE_FLOOR("NoiseFloorBenchmark"),
    /** The network boundary's modes interleaved round by round. */
    PAIRED_BOUNDARY("PairedBoundaryBenchmark");

    private final String simpleName;

    BenchmarkName(String simpleName) {
        this.simpleName = simpleName;
    }

    /** The benchmark class's simple name, as it appears in a JMH result's benchmark names. */
    public String simpleName() {
        return simpleName;
    }
}
