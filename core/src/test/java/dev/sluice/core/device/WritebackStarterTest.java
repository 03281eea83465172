package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The writeback starter's pause: its default, and what the environment may set for an experiment. */
class WritebackStarterTest {
    @Test
    void thePauseIsFiveMillisecondsUnlessTheEnvironmentNamesWholeMillisecondsFromOneToAThousand() {
        assertEquals(5, WritebackStarter.pauseMillis(null));
        assertEquals(5, WritebackStarter.pauseMillis(" "));
        assertEquals(25, WritebackStarter.pauseMillis("25"));
        assertEquals(1000, WritebackStarter.pauseMillis("1000"));
        for (String bad : new String[] {"0", "1001", "2.5", "fast"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> WritebackStarter.pauseMillis(bad));
            assertEquals("invalid SLUICE_WRITEBACK_PAUSE_MS '" + bad + "': allowed are whole milliseconds from 1 to "
                    + "1000", e.getMessage());
        }
    }
}
