package dev.sluice.jmh.network;

import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.jmh.profile.Figures;
import dev.sluice.network.NetworkBoundary;
import dev.sluice.network.ReceivedMapOutput;
import java.time.Duration;
import java.util.Optional;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One measured map output of the network boundary: the kernel's I/O counters around it, then, after the measured
 * time, what the receiver got, read back partition by partition and verified against the input's reference (a map
 * output that differs fails the iteration instead of scoring), and the figures handed to {@link ShuffleIoProfiler}.
 */
@State(Scope.Benchmark)
public class BoundaryIteration {
    private static final Duration RECEIVE = Duration.ofSeconds(60);

    private Optional<ProcSelfIo> before = Optional.empty();
    private NetworkBoundary.Sent sent;
    private long sendNanos;
    private long started;

    @Setup(Level.Iteration)
    public void begin() {
        sent = null;
        before = ProcSelfIo.read();
        started = System.nanoTime();
    }

    NetworkBoundary.Sent measured(NetworkBoundary.Sent result) {
        sendNanos = System.nanoTime() - started;
        sent = result;
        return result;
    }

    @TearDown(Level.Iteration)
    public void verify(BoundaryState state) throws Exception {
        if (sent == null) {
            return;
        }
        Optional<ProcSelfIo> proc = before.flatMap(b -> ProcSelfIo.read().map(after -> after.since(b)));
        try (ReceivedMapOutput received = state.boundary().receive(RECEIVE)) {
            long start = System.nanoTime();
            VerificationResult verified = state.boundary().verify(received);
            long readNanos = System.nanoTime() - start;
            if (!verified.ok()) {
                throw new IllegalStateException("mode " + state.mode + ": the received map output differs from the "
                        + "input: " + verified);
            }
            Figures.publish(new BoundaryFigures(sent, received.batches(), received.rows(), received.wireBytes(),
                    sendNanos, readNanos, proc, state.input().bytes, state.link().results()));
        }
    }
}
