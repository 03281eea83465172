package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A measured task rate is found again only under the same machine, harness and configuration. */
class TaskRateCacheTest {
    @TempDir
    Path dir;

    private static Map<String, String> key(String tasks) {
        Map<String, String> key = new LinkedHashMap<>(TaskRateCache.machine());
        key.put("harness.code", TaskRateCache.code(List.of(TaskRateCacheTest.class)));
        key.put("run.tasks", tasks);
        return key;
    }

    @Test
    void aStoredRateIsFoundUnderTheSameKeyWithHowItWasMeasured() throws Exception {
        TaskRateCache cache = new TaskRateCache(dir.resolve("sub/task-rates.properties"));
        assertTrue(cache.find(key("2")).isEmpty());
        cache.store(key("2"), new TaskRate(123.5e6, "measured: test"));
        TaskRate found = cache.find(key("2")).orElseThrow();
        assertEquals(123.5e6, found.bytesPerSecond);
        assertTrue(found.how.startsWith("from the cache ") && found.how.endsWith(": measured: test"), found.how);
        // A second cache on the same file (the next JVM) finds it too; nothing is left beside the file.
        assertEquals(123.5e6, new TaskRateCache(cache.file()).find(key("2")).orElseThrow().bytesPerSecond);
        try (var files = Files.list(cache.file().getParent())) {
            assertEquals(List.of(cache.file()), files.toList());
        }
    }

    @Test
    void anyChangeOfTheKeyMissesAndIsMeasuredAgain() throws Exception {
        TaskRateCache cache = new TaskRateCache(dir.resolve("task-rates.properties"));
        cache.store(key("2"), new TaskRate(100e6, "two tasks"));
        assertTrue(cache.find(key("1")).isEmpty());
        Map<String, String> otherMachine = key("2");
        otherMachine.put("machine.cores", "16");
        assertTrue(cache.find(otherMachine).isEmpty());
        Map<String, String> rebuilt = key("2");
        rebuilt.put("harness.code", "another build");
        assertTrue(cache.find(rebuilt).isEmpty());
        // Replaced under the same key, the other entries stay.
        cache.store(key("1"), new TaskRate(150e6, "one task"));
        cache.store(key("2"), new TaskRate(110e6, "two tasks again"));
        assertEquals(150e6, cache.find(key("1")).orElseThrow().bytesPerSecond);
        assertEquals(110e6, cache.find(key("2")).orElseThrow().bytesPerSecond);
    }

    @Test
    void aDamagedEntryIsAMissAndOffKeepsNothing() throws Exception {
        Path file = dir.resolve("task-rates.properties");
        TaskRateCache cache = new TaskRateCache(file);
        cache.store(key("2"), new TaskRate(100e6, "x"));
        Files.writeString(file, Files.readString(file).replaceAll("bytesPerSecond=.*", "bytesPerSecond=-3"));
        assertTrue(cache.find(key("2")).isEmpty());
        TaskRateCache off = new TaskRateCache(null);
        off.store(key("2"), new TaskRate(100e6, "x"));
        assertTrue(off.find(key("2")).isEmpty());
        assertFalse(Files.exists(dir.resolve("off")));
    }

    @Test
    void theCodeOfAHarnessNamesItsClassFileOrJarWithSizeAndTime() {
        String code = TaskRateCache.code(List.of(TaskRateCacheTest.class));
        assertTrue(code.contains("TaskRateCacheTest.class") || code.endsWith(".jar"), code);
        assertTrue(TaskRateCache.machine().keySet().containsAll(List.of("machine.host", "machine.cpu",
                "machine.cores", "machine.memory", "machine.kernel", "machine.jvm")));
    }
}
