package dev.sluice.jmh.network;

import dev.sluice.jmh.RunSettings;
import dev.sluice.network.NetworkBoundary;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The network boundary's modes interleaved in one fork ({@link PairedBoundaryState}): one operation is one map
 * output sent in the iteration's mode until the receiver acknowledged it. JMH's score is the mean over every mode's
 * map outputs and means nothing on its own: each iteration's mode and round are the secondary results
 * {@code pair.mode} and {@code pair.round}, from which {@code scripts/net-map} (ReportTools {@code net-map}) takes
 * each mode's times and the paired ratios with their intervals. This is the benchmark of the link map
 * (docs/network.md): {@code -p link=...} sets the link, {@code -p inputRows,targetRows} the batch shape.
 */
public class PairedBoundaryBenchmark extends RunSettings {
    @Benchmark
    public NetworkBoundary.Sent mapOutput(PairedBoundaryState state) throws IOException {
        return state.send();
    }
}
