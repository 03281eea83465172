package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The freerun fraction of a strictly capped device as the kernel computes it from the machine's dirty limits
 * ({@code dirty_freerun_ceiling} in mm/page-writeback.c), and the cap that puts a device's cache there.
 */
class KernelDirtyLimitsTest {
    private static final double GB = 1e9;

    @Test
    void theDefaultLimitsTwentyAndTenGiveThreeQuarters() {
        assertEquals(0.75, new KernelDirtyLimits(20 * GB, 10 * GB).freerunFraction(), 1e-12);
        assertEquals(0.75, new KernelDirtyLimits(2000, 1000).freerunFraction(), 1e-12, "only the ratio counts");
    }

    @Test
    void theFractionIsTheMidpointOfTheBackgroundShareAndOne() {
        assertEquals((1 + 0.25) / 2, new KernelDirtyLimits(20 * GB, 5 * GB).freerunFraction(), 1e-12);
        assertEquals(0.5, new KernelDirtyLimits(20 * GB, 0).freerunFraction(), 1e-12, "no background: half");
    }

    @Test
    void aBackgroundAtOrAboveTheThresholdIsHalvedAsTheKernelDoes() {
        assertEquals(0.75, new KernelDirtyLimits(20 * GB, 20 * GB).freerunFraction(), 1e-12, "at the threshold");
        assertEquals(0.75, new KernelDirtyLimits(20 * GB, 30 * GB).freerunFraction(), 1e-12, "above it");
        assertEquals(20 * GB, new KernelDirtyLimits(20 * GB, 30 * GB).thresholdBytes(), 0.0);
    }

    @Test
    void theCapIsTheCacheOverTheFraction() {
        KernelDirtyLimits defaults = new KernelDirtyLimits(20 * GB, 10 * GB);
        assertEquals(Math.round(64 * Bytes.MiB / 0.75), defaults.capFor(64 * Bytes.MiB));
        assertEquals(4 * Bytes.GiB, defaults.capFor(3 * Bytes.GiB));
        KernelDirtyLimits other = new KernelDirtyLimits(20 * GB, 5 * GB);
        assertEquals(Math.round(Bytes.GiB / 0.625), other.capFor(Bytes.GiB));
        assertEquals(0, defaults.capFor(0));
    }

    @Test
    void thisMachinesLimitsReadFromProcVmstatGiveAFractionBetweenAHalfAndOne() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/vmstat")), "no /proc/vmstat here");
        KernelDirtyLimits here = KernelDirtyLimits.read();
        assertTrue(here.thresholdBytes() > 0, here.describe());
        assertTrue(here.freerunFraction() >= 0.5 && here.freerunFraction() < 1, here.describe());
        assertTrue(here.describe().contains("freerun at"), here.describe());
    }
}
