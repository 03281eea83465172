package dev.sluice.jmh.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
import org.junit.jupiter.api.Test;

class RawWritePaceTest {
    @Test
    void noneLeavesTheRawWriteUnpaced() {
        assertEquals(0, RawWriteBenchmark.RawWrites.paceBytesPerSecond("none"));
    }

    @Test
    void aRateIsReadInBinaryUnitsWithOrWithoutPerSecond() {
        assertEquals(1000L << 20, RawWriteBenchmark.RawWrites.paceBytesPerSecond("1000m"));
        assertEquals(1000L << 20, RawWriteBenchmark.RawWrites.paceBytesPerSecond("1000m/s"));
        assertEquals(1_017_000_000L, RawWriteBenchmark.RawWrites.paceBytesPerSecond("1017000000"));
    }

    @Test
    void anythingElseIsRefusedNamingTheParameterTheValueAndWhatIsAllowed() {
        for (String bad : new String[] {"fast", "", "-5m", "100k", "0"}) {
            InvalidParameterException e = assertThrows(InvalidParameterException.class,
                    () -> RawWriteBenchmark.RawWrites.paceBytesPerSecond(bad));
            assertTrue(e.getMessage().contains("pace"), e.getMessage());
            assertTrue(e.getMessage().contains("at least 1m"), e.getMessage());
        }
    }
}
