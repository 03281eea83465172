package dev.sluice.jmh.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GpuDeviceStateTest {
    @Test
    void rmmsPoolIsTheFreeMemoryLessSparkRapidsReserveAlignedTo512Bytes() {
        long free = 81_079_500_800L + 100; // an H100's free memory, give or take, not a multiple of 512
        long pool = GpuDeviceState.asyncPoolSize(free);
        assertEquals(0, pool % 512);
        assertTrue(pool <= free - (640L << 20) && pool > free - (640L << 20) - 512, "pool " + pool);
    }

    @Test
    void aDeviceWithNoMoreFreeThanTheReserveIsRefusedSayingSo() {
        IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> GpuDeviceState.asyncPoolSize(600L << 20));
        assertTrue(refused.getMessage().contains("nothing is left for RMM's pool"), refused.getMessage());
    }
}
