package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PairedWavesTest {
    @TempDir
    Path dir;

    @Test
    void eachStrategyByItsPlaceIsPairedWithTheFirstInTheSameRoundEvenWhenTheNamesRepeat() throws Exception {
        // Three rounds of ideal counted (#0) and uncounted (#1); round r starts at strategy r mod 2.
        Path result = dir.resolve("paired.json");
        Files.writeString(result, "[{\"benchmark\": \"dev.sluice.jmh.write.PairedWaveBenchmark.wave\","
                + " \"params\": {\"strategies\": \"ideal+ideal\", \"counting\": \"true+false\", \"size\": \"small\","
                + " \"codec\": \"none\"},"
                + " \"primaryMetric\": {\"rawData\": [[100, 90, 110, 100, 120, 108]]},"
                + " \"secondaryMetrics\": {\"pair.strategy\": {\"rawData\": [[0, 1, 1, 0, 0, 1]]},"
                + " \"pair.round\": {\"rawData\": [[0, 0, 1, 1, 2, 2]]}}}]");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PairedWaves.print(result, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("ideal+ideal, size small, codec none, device native, 3 rounds"), out);
        // Pairs 90/100, 110/100, 108/120: the geometric mean of 0.9, 1.1 and 0.9.
        assertTrue(out.contains("#1 ideal counting=false against #0 ideal: 0.962 ["), out);
        assertTrue(out.contains("], 3 pairs"), out);
    }
}
