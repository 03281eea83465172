package dev.sluice.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MachineCpuTest {
    @Test
    void busyTimeIsUserNiceSystemIrqSoftirqAndStealButNotIdleNorIoWait() {
        // cpu user nice system idle iowait irq softirq steal guest guest_nice
        MachineCpu cpu = MachineCpu.parse("cpu  100 2 30 5000 70 4 5 6 50 0");
        assertEquals((100 + 2 + 30 + 4 + 5 + 6) * 10_000_000L, cpu.busyNanos);
        assertThrows(IllegalArgumentException.class, () -> MachineCpu.parse("cpu0 1 2 3 4 5 6 7 8"));
    }

    @Test
    void countsTheCpuOfAnotherProcessThatThisOneDoesNot() throws Exception {
        Optional<MachineCpu> before = MachineCpu.read();
        Optional<ProcSelfStat> self = ProcSelfStat.read();
        assumeTrue(before.isPresent() && self.isPresent(), "no /proc/stat to read: not Linux");
        // Another process spinning for 600 ms of wall time: its CPU is the machine's, not this process's.
        Process spin = new ProcessBuilder("sh", "-c", "end=$(($(date +%s%N) + 600000000)); "
                + "while [ $(date +%s%N) -lt $end ]; do :; done").start();
        assertTrue(spin.waitFor(30, TimeUnit.SECONDS), "the spinning process ended");
        long machine = MachineCpu.read().orElseThrow().since(before.get()).busyNanos;
        ProcSelfStat own = ProcSelfStat.read().orElseThrow().since(self.get());
        long others = machine - own.userNanos - own.systemNanos;
        assertTrue(others >= 250_000_000L, "a process spinning 600 ms beside this one: the others' CPU "
                + others / 1_000_000 + " ms");
    }
}
