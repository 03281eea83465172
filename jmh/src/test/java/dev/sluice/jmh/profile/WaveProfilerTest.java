package dev.sluice.jmh.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.profile.ProfilerException;

class WaveProfilerTest {
    @Test
    void anOptionItDoesNotKnowIsRefusedWithTheOnesItDoes() {
        ProfilerException e = assertThrows(ProfilerException.class, () -> new WaveProfiler("perwave=true"));
        assertTrue(e.getMessage().contains("'perwave'") && e.getMessage().contains("perWave"), e.getMessage());
    }

    @Test
    void perWaveTakesTrueOrFalseAndNamesAnythingElse() {
        ProfilerException e = assertThrows(ProfilerException.class, () -> new WaveProfiler("perWave=yes"));
        assertTrue(e.getMessage().contains("perWave 'yes'") && e.getMessage().contains("true, false"),
                e.getMessage());
    }

    @Test
    void aTrialIsNamedAfterItsStrategySizeAndTasks() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("strategy", "async:skipMerge=true");
        values.put("size", "small");
        values.put("tasks", "2");
        assertEquals("async_skipMerge_true-small-2tasks", WaveProfiler.trialName(values, "ShuffleWriteBenchmark"));
        assertEquals("PairedWaveBenchmark", WaveProfiler.trialName(new LinkedHashMap<>(), "PairedWaveBenchmark"));
    }
}
