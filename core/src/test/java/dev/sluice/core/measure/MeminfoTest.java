package dev.sluice.core.measure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeminfoTest {
    @Test
    void readsTheKeysAskedForInBytesInTheOrderAsked(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("meminfo"),
                "MemTotal:       24682416 kB\nDirty:              1000 kB\nWriteback:            24 kB\n");
        assertArrayEquals(new long[] {24 * 1024, 1000 * 1024}, Meminfo.read(file, "Writeback", "Dirty"));
    }

    @Test
    void aMissingKeyOrFileGivesNothing(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("meminfo"), "Dirty:              1000 kB\n");
        assertNull(Meminfo.read(file, "Dirty", "Writeback"));
        assertNull(Meminfo.read(dir.resolve("absent"), "Dirty"));
    }
}
