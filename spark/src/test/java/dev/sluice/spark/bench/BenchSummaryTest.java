package dev.sluice.spark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.report.PairedRatio;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

/** The summary's statistics on synthetic rounds: no Spark. */
class BenchSummaryTest {
    private static final Shape SMALL = Shape.of("small", 0.1, 2, "64m", RowSizing.SERIALIZED);

    /** A run whose mapper stage, query and sum of tasks are {@code mapper}, 10 and 2 times {@code mapper}. */
    private static RunFigures run(String writer, int iteration, boolean warmup, double mapper) {
        long m = Math.round(mapper);
        return new RunFigures(writer, iteration, warmup, 10 * m, 10 * m + 5, m, 2 * m, 9 * m, 1, 2, 1L << 30, 0L,
                1000, 100, 3, 100, true, 0L, null, List.of(), Map.of(), 0, 0);
    }

    private static TreeMap<Integer, RunFigures> rounds(String writer, double... mappers) {
        TreeMap<Integer, RunFigures> out = new TreeMap<>();
        for (int i = 0; i < mappers.length; i++) {
            out.put(i + 1, run(writer, i + 1, false, mappers[i]));
        }
        return out;
    }

    @Test
    void knownRatiosGiveTheirGeometricMeanAndTheTIntervalOfTheirLogarithms() {
        double[] base = {1000, 1200, 900, 1100, 1000};
        double[] ratios = {0.80, 0.75, 0.78, 0.82, 0.77};
        double[] writer = new double[base.length];
        double logSum = 0;
        for (int i = 0; i < base.length; i++) {
            writer[i] = base[i] * ratios[i];
            logSum += Math.log(ratios[i]);
        }
        PairedRatio ratio = BenchSummary.paired(rounds("buffered", writer), rounds("per-batch", base),
                "mapperStageMillis");
        double meanLog = logSum / ratios.length;
        assertEquals(5, ratio.pairs());
        assertEquals(Math.exp(meanLog), ratio.ratio, 1e-3);
        // exp(mean ± t(4, 0.995) sd / sqrt(5)) of the logs, t from commons-math3 here too.
        double squares = 0;
        for (double r : ratios) {
            squares += (Math.log(r) - meanLog) * (Math.log(r) - meanLog);
        }
        double h = new TDistribution(4).inverseCumulativeProbability(0.995) * Math.sqrt(squares / 4) / Math.sqrt(5);
        assertEquals(Math.exp(meanLog - h), ratio.low, 1e-3);
        assertEquals(Math.exp(meanLog + h), ratio.high, 1e-3);
        assertTrue(ratio.low < ratio.ratio && ratio.ratio < ratio.high);
        assertTrue(ratio.faster(), "every pair is 18 to 25% faster: the interval lies below 1");
    }

    @Test
    void theSameRatioEveryRoundGivesAnIntervalOfThatRatioAlone() {
        PairedRatio ratio = BenchSummary.paired(rounds("async", 800, 960, 720), rounds("per-batch", 1000, 1200, 900),
                "mapperStageMillis");
        assertEquals(0.8, ratio.ratio, 1e-12);
        assertEquals(0.8, ratio.low, 1e-12);
        assertEquals(0.8, ratio.high, 1e-12);
        assertEquals("+20.0% [+20.0, +20.0]", BenchSummary.improvement(ratio));
    }

    @Test
    void roundsArePairedByTheirIterationNotByTheirPosition() {
        TreeMap<Integer, RunFigures> writer = new TreeMap<>(Map.of(1, run("buffered", 1, false, 500),
                2, run("buffered", 2, false, 600), 3, run("buffered", 3, false, 700)));
        TreeMap<Integer, RunFigures> base = new TreeMap<>(Map.of(2, run("stock", 2, false, 1200),
                3, run("stock", 3, false, 1400), 4, run("stock", 4, false, 10)));
        PairedRatio ratio = BenchSummary.paired(writer, base, "mapperStageMillis");
        assertEquals(List.of(0.5, 0.5), ratio.ratios);
        assertNull(BenchSummary.paired(writer, new TreeMap<>(Map.of(9, run("stock", 9, false, 1))),
                "mapperStageMillis"), "no shared round, no ratio");
    }

    @Test
    void onePairHasARatioButNoInterval() {
        PairedRatio ratio = BenchSummary.paired(rounds("async", 900), rounds("stock", 1000), "queryMillis");
        assertEquals("+10.0% [no interval: 1 pair]", BenchSummary.improvement(ratio));
    }

    @Test
    void theTextGivesEveryWriterAgainstPerBatchAndStockAndLeavesOutWarmUps() {
        BenchSummary summary = new BenchSummary(List.of("stock", "per-batch", "buffered"));
        for (int i = 0; i < 6; i++) {
            boolean warmup = i == 0;
            summary.add(SMALL, run("stock", i, warmup, warmup ? 5 : 1000));
            summary.add(SMALL, run("per-batch", i, warmup, warmup ? 5 : 1250));
            summary.add(SMALL, run("buffered", i, warmup, warmup ? 5 : 1000 - i));
        }
        List<String> text = summary.text("small");
        String all = String.join("\n", text);
        assertTrue(all.contains("stock                mapper stage 1000 ± 0 ms"), all);
        assertTrue(all.contains("(n=5)"), all);
        assertTrue(text.stream().anyMatch(l -> l.startsWith("  buffered vs per-batch: mapper +20.")
                && l.endsWith("(99%, 5 pairs)")), all);
        assertTrue(text.stream().anyMatch(l -> l.startsWith("  per-batch vs stock: mapper -25.0% [-25.0, -25.0]")),
                all);
        assertTrue(text.stream().anyMatch(l -> l.startsWith("  buffered vs stock: ")), all);
        assertFalse(all.contains("stock vs per-batch"), "the inverse of per-batch vs stock is left out: " + all);
    }

    @Test
    void theJsonSummaryHoldsEverySizeWithItsWritersAndTheirRatios() {
        BenchSummary summary = new BenchSummary(List.of("per-batch", "async"));
        Shape xxlarge = Shape.seed("xxlarge", 0.01, 2, RowSizing.SERIALIZED);
        for (int i = 0; i < 3; i++) {
            summary.add(SMALL, run("per-batch", i, false, 1000));
            summary.add(SMALL, run("async", i, false, 500));
            summary.add(xxlarge, run("per-batch", i, false, 2000));
            summary.add(xxlarge, run("async", i, false, 1500));
        }
        String json = Json.line(summary.json("seed"));
        assertTrue(json.startsWith("{\"summary\":{\"confidence\":0.99,\"preset\":\"seed\",\"sizes\":[{\"size\":"
                + "\"small\""), json);
        assertTrue(json.contains("{\"size\":\"xxlarge\",\"scale\":0.01,\"tasks\":2,\"batchBytes\":\""
                + xxlarge.batchBytes() + "\",\"batchesPerTask\":5"), json);
        assertTrue(json.contains("\"writer\":\"async\",\"n\":3,\"mapperStageMillis\":{\"mean\":500.0,\"sd\":0.0}"),
                json);
        assertTrue(json.contains("\"versus\":{\"per-batch\":{\"mapperStageMillis\":{\"pairs\":3,\"ratio\":0.5,"
                + "\"low\":0.5,\"high\":0.5,\"improvement\":0.5"), json);
        assertTrue(json.contains("\"peakOffHeapBytes\":{\"mean\":0.0"), json);
    }
}
