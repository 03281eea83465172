package dev.sluice.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnvironmentTest {
    @TempDir
    Path dir;

    @Test
    void readsWholeSysctlValuesAndSurvivesARoundTrip() throws Exception {
        Environment env = Environment.probe(dir, "some jdk", "abc123");
        for (String setting : Environment.DIRTY_SETTINGS) {
            Path file = Path.of("/proc/sys/vm", setting);
            if (Files.isReadable(file)) {
                // Multi-digit values (dirty_expire_centisecs is 3000 by default) must come back whole.
                assertEquals(Files.readAllLines(file).get(0).trim(), env.get("vm." + setting), setting);
            }
        }
        assertEquals(String.valueOf(Runtime.getRuntime().availableProcessors()), env.get("cores"));
        Path file = dir.resolve("environment.json");
        env.write(file);
        assertEquals(env.values(), Environment.read(file).values());
        assertEquals(List.of("some jdk", "abc123"), List.of(env.get("jdk"), env.get("gitCommit")));
    }
}
