package dev.sluice.core.run;

/**
 * What the benchmarks, their plan ({@code scripts/bench.sh}) and the report tools say to each other: parameter values,
 * in one place, so that the plan and the reports need not load the benchmarks. The keys of their results are
 * {@link Metric}s, the benchmarks' names {@link BenchmarkName}s.
 */
public final class BenchmarkTerms {
    /** Separates the values of a list parameter (the paired benchmark's {@code strategies} and {@code memoryLimit}). */
    public static final String LIST = "+";
    /** {@code memoryLimit=machine}: the memory of the machine the fork runs on, read there. */
    public static final String MACHINE = "machine";
    /** {@code warmUp=quarter}: warm-up waves write every record cut to its first quarter. */
    public static final String QUARTER = "quarter";
    /** {@code warmUp=full}: warm-up waves write the records themselves. */
    public static final String FULL = "full";

    private BenchmarkTerms() {}
}
