package dev.sluice.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The statistics behind the report's comparisons. */
class SeedReportTest {
    @Test
    void wavesThatDoNotOverlapDifferSignificantly() {
        double p = SeedReport.welch(List.of(2.81, 2.93, 2.66, 2.67, 2.72), List.of(4.53, 3.84, 4.11, 4.24, 4.08));
        assertTrue(p < SeedReport.SIGNIFICANCE, "p = " + p);
    }

    @Test
    void wavesFromTheSameSpreadDoNotDifferSignificantly() {
        double p = SeedReport.welch(List.of(11.84, 9.47, 10.40, 10.52, 10.32), List.of(11.43, 11.51, 11.01, 10.61, 9.47));
        assertTrue(p > SeedReport.SIGNIFICANCE, "p = " + p);
    }

    @Test
    void oneWaveHasNoTest() {
        assertTrue(Double.isNaN(SeedReport.welch(List.of(1.0), List.of(2.0, 3.0))));
    }

    @Test
    void fiveWavesNeedAVariationOfAboutAQuarterOfTheTargetError() {
        // JMH's 99.9% error of 5 runs is t(0.9995, 4) / sqrt(5) = 3.85 coefficients of variation.
        assertEquals(2, SeedReport.runsFor(0.03, 0.0), "an error needs two runs");
        assertTrue(SeedReport.runsFor(0.03, 0.038) > 5, "3.8% variation cannot give 3% with 5 waves");
    }
}
