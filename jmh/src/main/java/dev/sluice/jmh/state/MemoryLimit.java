package dev.sluice.jmh.state;

import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.core.run.SeedScale;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.WriterConfig;

/**
 * The benchmarks' {@code memoryLimit} parameter: {@code none} (upstream's default), a byte size, or
 * {@value #MACHINE}: the memory of the machine the fork runs on ({@code MemTotal}), read in the fork. A result records
 * the parameter as given, so {@code memoryLimit=machine} reads the same in results from any machine and
 * {@code scripts/compare.sh} matches them, as {@code scale=seed-equivalent} does for the scale.
 */
public final class MemoryLimit {
    public static final String MACHINE = BenchmarkTerms.MACHINE;
    static final String ALLOWED = "none, " + MACHINE + " (this machine's memory, read where the benchmark runs) or a "
            + "byte size (examples: 4096, 32k, 64m, 1.5g)";

    private MemoryLimit() {}

    /** The limit in bytes ({@link WriterConfig#UNLIMITED} for none), refusing anything else by its parameter. */
    public static long parse(String parameter, String text) {
        return parse(parameter, text, SeedScale.memoryTotal());
    }

    /** As {@link #parse(String, String)}, with {@code machineMemory} for {@value #MACHINE}. */
    public static long parse(String parameter, String text, long machineMemory) {
        if (MACHINE.equals(text)) {
            return machineMemory;
        }
        try {
            return WriterConfig.parseMemoryLimit(parameter, text);
        } catch (InvalidParameterException e) {
            throw new InvalidParameterException(parameter, text, ALLOWED);
        }
    }
}
