package dev.sluice.jmh.write;

import dev.sluice.core.run.WaveResult;
import dev.sluice.jmh.RunSettings;
import dev.sluice.jmh.profile.WaveWindow;
import dev.sluice.jmh.state.GateState;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The seed's mapper stage for several strategies at once, interleaved: one operation is one wave of one strategy
 * ({@code tasks} map tasks written at once through its executor and committed), the strategies taking turns wave by
 * wave on the same inputs ({@link PairedState}), so that strategy A's time over baseline B's is taken between waves of
 * the same round. Give {@code -wi} and {@code -i} as multiples of the strategies' count ({@code -wi k -i 5k}: one
 * warm-up wave each, five rounds). Every wave is JMH's own single-shot time; JMH's score is the mean over every
 * strategy's waves and means nothing on its own: each wave's strategy and round are the secondary results
 * {@code pair.strategy} and {@code pair.round}, from which {@code scripts/bench.sh} (ReportTools {@code paired})
 * makes one result per strategy and the paired ratios with their intervals.
 */
public class PairedWaveBenchmark extends RunSettings {
    @Benchmark
    public WaveResult wave(PairedState paired, GateState gate) throws Exception {
        WaveResult result;
        WaveWindow.opened();
        try {
            result = paired.runWave();
        } finally {
            WaveWindow.closed();
        }
        return result;
    }
}
