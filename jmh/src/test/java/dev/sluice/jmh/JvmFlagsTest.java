package dev.sluice.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A fork's flags: the GCLocker's retries only on the JDKs that have a GCLocker, and every flag understood. */
class JvmFlagsTest {
    @Test
    void aForkBeforeJdk22RetriesAllocationsTheGcLockerHoldsUpAndOneFromJdk22HasNoSuchFlag() {
        assertTrue(JvmFlags.forFork(17).containsAll(JvmFlags.GC_LOCKER_RETRIES));
        assertTrue(JvmFlags.forFork(21).containsAll(JvmFlags.GC_LOCKER_RETRIES));
        assertFalse(JvmFlags.forFork(22).stream().anyMatch(f -> f.contains("GCLocker")));
        assertFalse(JvmFlags.forFork(25).stream().anyMatch(f -> f.contains("GCLocker")));
    }

    @Test
    void theRunningJdkStartsWithEveryFlagAForkGets() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.forFork(Runtime.version().feature()));
        command.add("-version");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), command + ": " + out);
    }
}
