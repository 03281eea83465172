package dev.sluice.spark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON lines' values as spark-bench's readers (the docs' runs, scripts) have always read them. */
class JsonTest {
    @Test
    void keysKeepTheirOrderAndNumbersAreWrittenAsJavaPrintsThem() {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("writer", "per-batch");
        line.put("iteration", 0);
        line.put("warmup", false);
        line.put("peakHeapBytes", 739_623_176L);
        line.put("mean", 5.54552808E8);
        line.put("scale", 0.01);
        line.put("improvement", -8.736676568232848E-4);
        line.put("ratio", 0.5f);
        line.put("checksum", new BigDecimal("596400565786889745669"));
        line.put("batchesPerTask", null);
        assertEquals("{\"writer\":\"per-batch\",\"iteration\":0,\"warmup\":false,\"peakHeapBytes\":739623176,"
                + "\"mean\":5.54552808E8,\"scale\":0.01,\"improvement\":-8.736676568232848E-4,\"ratio\":0.5,"
                + "\"checksum\":596400565786889745669,\"batchesPerTask\":null}", Json.line(line));
    }

    @Test
    void aValueThatIsNotFiniteIsNullAtAnyDepth() {
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("mean", Double.NaN);
        stats.put("sd", Double.POSITIVE_INFINITY);
        stats.put("low", Float.NaN);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("stats", stats);
        line.put("ratios", Arrays.asList(0.8, Double.NaN, null));
        assertEquals("{\"stats\":{\"mean\":null,\"sd\":null,\"low\":null},\"ratios\":[0.8,null,null]}",
                Json.line(line));
    }

    @Test
    void stringsAreQuotedAndEscaped() {
        assertEquals("\"a \\\"b\\\" \\\\ c\"", Json.quote("a \"b\" \\ c"));
        assertEquals("{\"fallbacks\":[\"shuffle 0: 201 partitions\\n\"]}",
                Json.line(Map.of("fallbacks", List.of("shuffle 0: 201 partitions\n"))));
    }
}
