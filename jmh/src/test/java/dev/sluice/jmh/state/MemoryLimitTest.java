package dev.sluice.jmh.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
import org.junit.jupiter.api.Test;

/** The benchmarks' memoryLimit parameter: machine is read where the fork runs, so results of any machine compare. */
class MemoryLimitTest {
    private static final long GIB = 1L << 30;

    @Test
    void machineIsTheMemoryOfTheMachineTheForkRunsOn() {
        assertEquals(24 * GIB, MemoryLimit.parse("memoryLimit", "machine", 24 * GIB));
        assertEquals(512 * GIB, MemoryLimit.parse("memoryLimit", "machine", 512 * GIB));
        assertEquals(64L << 20, MemoryLimit.parse("memoryLimit", "64m", 24 * GIB));
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> MemoryLimit.parse("memoryLimit", "lots", 24 * GIB));
        assertEquals("memoryLimit", e.parameter());
        assertTrue(e.allowed().contains("machine"), e.allowed());
    }
}
