package dev.sluice.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scratch write before a wave: its bytes, and that it leaves nothing behind. */
class PrefaultTest {
    @TempDir
    Path dir;

    private long filesIn(Path d) throws IOException {
        try (Stream<Path> files = Files.list(d)) {
            return files.count();
        }
    }

    @Test
    void aPrefaultWritesTheBytesAskedForAndLeavesNoFile() throws IOException {
        Prefault prefault = new Prefault(dir);
        long asked = 3L * Prefault.WRITE_SIZE + 12_345;
        assertEquals(asked, prefault.touch(asked));
        assertTrue(prefault.lastNanos() > 0);
        assertEquals(0, filesIn(dir));
    }

    @Test
    void aPrefaultOfNothingCreatesNoFile() throws IOException {
        Prefault prefault = new Prefault(dir);
        assertEquals(0, prefault.touch(0));
        assertEquals(0, filesIn(dir));
    }

    @Test
    void negativeBytesAreRefusedWithTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Prefault(dir).touch(-1));
        assertEquals("prefault bytes -1: must be 0 or more", e.getMessage());
    }

    @Test
    void aDirectoryThatIsNotThereIsRefused() {
        Path missing = dir.resolve("missing");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Prefault(missing));
        assertEquals("prefault directory " + missing + ": not a directory", e.getMessage());
    }

    @Test
    void aPrefaultWhoseDirectoryWentAwayFailsAndCreatesNothing() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Prefault prefault = new Prefault(sub);
        Files.delete(sub);
        assertThrows(IOException.class, () -> prefault.touch(1 << 20));
        assertEquals(0, filesIn(dir));
    }
}
