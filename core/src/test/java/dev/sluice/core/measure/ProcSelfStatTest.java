package dev.sluice.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcSelfStatTest {
    @Test
    void parsesTheKernelsLineEvenWithSpacesAndParenthesesInTheCommandName() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        ProcSelfStat stat = ProcSelfStat.parse("4242 (java (x) y) S 1 4242 4242 0 -1 4194560 123456 0 7 0 250 "
                + "31 0 0 20 0 40 0 1000 0 0");
        assertEquals(123456, stat.minorFaults);
        assertEquals(7, stat.majorFaults);
        assertEquals(2_500_000_000L, stat.userNanos, "250 ticks of 10 ms");
        assertEquals(310_000_000L, stat.systemNanos);
        assertEquals(-1, stat.compilationNanos, "a parsed line has no compilation time");
        assertEquals(-1, ProcSelfStat.read().map(now -> now.since(stat).compilationNanos).orElse(-1L),
                "nor a difference with one");
    }

    @Test
    void seesThisProcessTouchFreshMemoryOrSaysNothing() {
        Optional<ProcSelfStat> before = ProcSelfStat.read();
        if (before.isEmpty()) {
            return; // not Linux: nothing to read, and nothing invented
        }
        byte[][] pages = new byte[64][];
        for (int i = 0; i < pages.length; i++) {
            pages[i] = new byte[1 << 20];
            for (int p = 0; p < pages[i].length; p += 4096) {
                pages[i][p] = 1;
            }
        }
        ProcSelfStat d = ProcSelfStat.read().orElseThrow().since(before.get());
        assertTrue(d.minorFaults >= 0 && d.userNanos >= 0 && d.systemNanos >= 0, "counters only grow");
        assertTrue(d.compilationNanos >= 0, "HotSpot monitors its compilers' time, which only grows: "
                + d.compilationNanos);
        assertEquals(1, pages[63][4096]);
    }
}
