package dev.sluice.jmh.state;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Trial directories are removed when the trial ends, and by the shutdown hook when it failed before. */
class TrialDirectoryTest {
    @Test
    void aDirectoryNotRemovedByItsTrialIsRemovedWhenTheJvmExits() throws Exception {
        Path dir = TrialDirectory.create("sluice-test-");
        Files.createDirectories(dir.resolve("nested"));
        Files.writeString(dir.resolve("nested/left-behind"), "x");
        assertTrue(TrialDirectory.open().contains(dir));
        TrialDirectory.removeAll(); // what the shutdown hook runs
        assertFalse(Files.exists(dir), dir + " stays");
        assertFalse(TrialDirectory.open().contains(dir));
    }

    @Test
    void aTrialThatEndsRemovesItsDirectory() throws Exception {
        Path dir = TrialDirectory.create("sluice-test-");
        Files.writeString(dir.resolve("file"), "x");
        TrialDirectory.remove(dir);
        assertFalse(Files.exists(dir));
        assertFalse(TrialDirectory.open().contains(dir));
    }
}
