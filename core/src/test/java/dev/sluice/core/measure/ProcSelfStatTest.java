package dev.sluice.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
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
    void countsTheCpuTimeAndPageFaultsOfWorkThisProcessDoes() {
        Optional<ProcSelfStat> before = ProcSelfStat.read();
        assumeTrue(before.isPresent(), "no /proc/self/stat to read: not Linux");
        // Fresh memory: 64 MiB the JVM maps and zeroes for a direct buffer, then touched page by page; at least one
        // fault per 2 MiB even where the kernel backs it with huge pages.
        ByteBuffer fresh = ByteBuffer.allocateDirect(64 << 20);
        for (int p = 0; p < fresh.capacity(); p += 4096) {
            fresh.put(p, (byte) 1);
        }
        // CPU: work on this thread until the JVM's own clock for it has counted 200 ms.
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long x = 1;
        while (threads.getCurrentThreadCpuTime() - cpuStart < 200_000_000L) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        ProcSelfStat d = ProcSelfStat.read().orElseThrow().since(before.get());
        assertTrue(d.minorFaults >= 32, "64 MiB of fresh memory touched: " + d.minorFaults + " minor faults");
        // The kernel counts in clock ticks (10 ms here): 200 ms of this thread's CPU is at least 180 ms of the process's.
        assertTrue(d.userNanos + d.systemNanos >= 180_000_000L, "200 ms of CPU on this thread: the process counted "
                + (d.userNanos + d.systemNanos) / 1_000_000 + " ms (" + x + ")");
        assertTrue(d.compilationNanos >= 0, "HotSpot monitors its compilers' time, which only grows: "
                + d.compilationNanos);
        assertEquals(1, fresh.get(4096));
    }
}
