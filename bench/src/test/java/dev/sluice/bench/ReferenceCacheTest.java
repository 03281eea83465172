package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.jmh.write.RawWriteBenchmark;
import dev.sluice.report.RunTiming;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** References kept per machine, build, storage and JMH run: found under the same key, measured again otherwise. */
class ReferenceCacheTest {
    private static JmhRun raw(String size, String fileBytes) {
        return new JmhRun("03-" + size + "-raw", RawWriteBenchmark.class, 1, 5).param(BenchmarkParam.SIZE, size)
                .param(BenchmarkParam.FILE_BYTES, fileBytes);
    }

    @Test
    void aReferenceKeptIsFoundUnderTheSameKeyWithWhenAndWhereItWasMeasured(@TempDir Path dir) throws Exception {
        ReferenceCache cache = new ReferenceCache(dir.resolve("cache"));
        Path result = Files.writeString(dir.resolve("03-small-raw.json"), "[{\"benchmark\": \"raw\"}]");
        Map<String, String> key = ReferenceCache.key(raw("small", "1000"));
        assertTrue(cache.find(key).isEmpty(), "an empty cache holds nothing");
        cache.store(key, result, "2026-11-27T22:30:00Z at abc123");
        ReferenceCache.Entry kept = cache.find(key).orElseThrow();
        assertEquals("[{\"benchmark\": \"raw\"}]", Files.readString(kept.result()));
        assertEquals("2026-11-27T22:30:00Z at abc123", kept.made());
        try (var files = Files.list(dir.resolve("cache"))) {
            assertEquals(2, files.count(), "the result and its key, no temporary file left");
        }
    }

    @Test
    void underABudgetAReferenceTheCacheDoesNotHoldWaitsAndOneItHoldsIsCopied(@TempDir Path dir) throws Exception {
        ReferenceCache cache = new ReferenceCache(dir.resolve("cache"));
        Path out = Files.createDirectories(dir.resolve("run"));
        Files.createDirectories(out.resolve("runs"));
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        // No invoker: a reference that waits must not run, and one in the cache is copied.
        References references = new References(cache, null, null, out, "abc", new PrintStream(said, true,
                StandardCharsets.UTF_8), "bench.sh");
        JmhRun cold = raw("small", "1000");
        assertFalse(references.run(cold, true), "not in the cache: it waits");
        assertFalse(Files.exists(out.resolve("runs/03-small-raw.json")), "and writes nothing");
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("measured after the comparisons"), said.toString(
                StandardCharsets.UTF_8));
        cache.store(ReferenceCache.key(cold), Files.writeString(dir.resolve("kept.json"), "[]"), "then at abc");
        assertTrue(references.run(cold, true), "in the cache: copied");
        assertEquals("[]", Files.readString(out.resolve("runs/03-small-raw.json")));
        assertTrue(Files.readString(out.resolve(RunTiming.CACHED)).startsWith("03-small-raw\tthen at abc\t"));
        references.unmeasured("11-large-raw", "the budget was spent");
        assertEquals("11-large-raw\tthe budget was spent\n", Files.readString(out.resolve(RunTiming.UNMEASURED)));
    }

    @Test
    void theReferencesCodeIsTheJarsContentButTheStrategiesSoARebuildOrAStrategyAloneKeepsTheCache(@TempDir Path dir)
            throws Exception {
        Path built = jar(dir.resolve("a/benchmarks.jar"), Map.of("dev/sluice/core/Floor.class", "core",
                "dev/sluice/strategy/Buffered.class", "buffered", "net/jpountz/lz4/LZ4.class", "lz4"));
        Path rebuilt = jar(dir.resolve("b/benchmarks.jar"), Map.of("dev/sluice/core/Floor.class", "core",
                "dev/sluice/strategy/Buffered.class", "buffered", "net/jpountz/lz4/LZ4.class", "lz4"));
        Files.setLastModifiedTime(rebuilt, java.nio.file.attribute.FileTime.fromMillis(0));
        Path strategyChanged = jar(dir.resolve("c/benchmarks.jar"), Map.of("dev/sluice/core/Floor.class", "core",
                "dev/sluice/strategy/Buffered.class", "buffered, faster", "net/jpountz/lz4/LZ4.class", "lz4"));
        Path coreChanged = jar(dir.resolve("d/benchmarks.jar"), Map.of("dev/sluice/core/Floor.class", "core, changed",
                "dev/sluice/strategy/Buffered.class", "buffered", "net/jpountz/lz4/LZ4.class", "lz4"));
        Path libraryChanged = jar(dir.resolve("e/benchmarks.jar"), Map.of("dev/sluice/core/Floor.class", "core",
                "dev/sluice/strategy/Buffered.class", "buffered", "net/jpountz/lz4/LZ4.class", "lz4 1.11"));
        String code = ReferenceCache.jarDigest(built);
        assertTrue(code.startsWith("benchmarks.jar 2 entries but dev/sluice/strategy/, sha-256 "), code);
        assertEquals(code, ReferenceCache.jarDigest(rebuilt), "the same code built again, at another time");
        assertEquals(code, ReferenceCache.jarDigest(strategyChanged), "a strategy alone changed");
        assertFalse(code.equals(ReferenceCache.jarDigest(coreChanged)), "core changed");
        assertFalse(code.equals(ReferenceCache.jarDigest(libraryChanged)), "a library changed");
    }

    private static Path jar(Path file, Map<String, String> entries) throws Exception {
        Files.createDirectories(file.getParent());
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(file))) {
            for (Map.Entry<String, String> e : new java.util.TreeMap<>(entries).entrySet()) {
                out.putNextEntry(new java.util.zip.ZipEntry(e.getKey()));
                out.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return file;
    }

    @Test
    void aWaitingReferenceStartsWhileItsEstimateFitsWhatIsLeftOfTheBudget() {
        assertTrue(References.fits(30, 90));
        assertTrue(References.fits(90, 90), "exactly what is left");
        assertFalse(References.fits(91, 90));
        assertTrue(References.fits(0, 1), "the first of its kind, with nothing to go by, while any is left");
        assertFalse(References.fits(0, 0), "nothing left");
        assertFalse(References.fits(0, -5), "the comparisons' last chunk ran past the budget");
    }

    @Test
    void anotherBuildOrAnotherConfigurationMissesAndIsMeasuredAgain(@TempDir Path dir) throws Exception {
        ReferenceCache cache = new ReferenceCache(dir);
        Path result = Files.writeString(dir.resolve("r.json"), "[]");
        Map<String, String> key = ReferenceCache.key(raw("small", "1000"));
        cache.store(key, result, "then at abc");
        assertTrue(cache.find(ReferenceCache.key(raw("small", "2000"))).isEmpty(), "other file bytes");
        assertTrue(cache.find(ReferenceCache.key(raw("large", "1000"))).isEmpty(), "another size");
        Map<String, String> rebuilt = new LinkedHashMap<>(key);
        rebuilt.put("code", key.get("code") + " (rebuilt)");
        assertTrue(cache.find(rebuilt).isEmpty(), "a rebuilt benchmarks.jar");
        Map<String, String> otherMachine = new LinkedHashMap<>(key);
        otherMachine.put("machine.kernel", "Linux 9.9");
        assertTrue(cache.find(otherMachine).isEmpty(), "another kernel");
        assertTrue(cache.find(key).isPresent(), "the same run is still kept");
        assertTrue(key.get("run").startsWith("RawWriteBenchmark -p size=small -p fileBytes=1000 "), key.get("run"));
    }

    @Test
    void theCacheIsOffWhenAskedAndTheRunnerTakesItUnderABudgetByDefault() throws Exception {
        String before = System.getProperty(ReferenceCache.PROPERTY);
        System.setProperty(ReferenceCache.PROPERTY, "off");
        try {
            assertNull(ReferenceCache.standard());
        } finally {
            if (before == null) {
                System.clearProperty(ReferenceCache.PROPERTY);
            } else {
                System.setProperty(ReferenceCache.PROPERTY, before);
            }
        }
        RunnerOptions defaults = RunnerOptions.parse(java.util.List.of());
        assertTrue(defaults.cachedReferences(1800), "under a budget");
        assertTrue(!defaults.cachedReferences(0), "without one");
        assertTrue(!RunnerOptions.parse(java.util.List.of("--references", "measured")).cachedReferences(1800));
        assertTrue(RunnerOptions.parse(java.util.List.of("--references", "cached")).cachedReferences(0));
    }
}
