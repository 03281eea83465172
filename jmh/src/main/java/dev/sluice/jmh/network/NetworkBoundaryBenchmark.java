package dev.sluice.jmh.network;

import dev.sluice.jmh.RunSettings;
import dev.sluice.network.NetworkBoundary;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * datafusion-distributed's coalescing experiment (PR #407) in-process: one operation is one map task's input sent
 * over a loopback Netty connection as one map output, until the receiver has acknowledged all of it, in one of three
 * {@code mode}s: every partition slice its own message ({@code per-slice}), slices copied into batches of
 * {@code targetRows} before sending ({@code coalesce}, the {@code CoalesceBatchesExec} the PR removed), or input
 * batches big enough that slices are already that size ({@code native}). Secondary results
 * ({@link ShuffleIoProfiler}): messages, bytes on the wire, bytes copied, batches received and their mean rows, the
 * reduce side's read, write system calls.
 */
public class NetworkBoundaryBenchmark extends RunSettings {
    @Benchmark
    public NetworkBoundary.Sent mapOutput(BoundaryState state, BoundaryIteration iteration) throws IOException {
        return iteration.measured(state.boundary().send());
    }
}
