package dev.sluice.jmh.network;

import static dev.sluice.jmh.profile.Figures.result;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.jmh.profile.Figures;
import dev.sluice.jmh.state.WriterSettings;
import dev.sluice.network.BoundaryInput;
import dev.sluice.network.BoundaryMode;
import dev.sluice.network.BoundaryShape;
import dev.sluice.network.BoundaryWorkload;
import dev.sluice.network.NetworkBoundary;
import dev.sluice.network.NetworkTransport;
import dev.sluice.network.ReceivedMapOutput;
import dev.sluice.spi.InvalidParameterException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.results.Result;

/**
 * The network boundary's modes taking turns in one fork, on one link, for paired ratios (as {@code PairedState} does
 * for write strategies): each mode has its input and its connection, made once per trial; each iteration sends one map
 * output in one mode, a round one in each, round r starting at mode r mod k, so that what drifts on a shared machine is
 * in both halves of a pair. Before each iteration the heap is collected, outside the time. After it, the receiver's
 * map output is read back and verified (one that differs fails the run) and the figures are published with the
 * iteration's {@code pair.mode} (the mode's index in {@code modes}) and {@code pair.round}, from which the map's report
 * takes the pairs. Give {@code -wi} and {@code -i} as multiples of the modes' count.
 */
@State(Scope.Benchmark)
public class PairedBoundaryState {
    private static final Duration RECEIVE = Duration.ofSeconds(120);

    /** The modes, separated by {@value WriterSettings#LIST}; the first is the baseline of the ratios. */
    @Param({"native+coalesce"})
    public String modes;

    /** Receivers: datafusion-distributed's seed runs had 4 workers. */
    @Param({"4"})
    public int partitions;

    @Param({"32768"})
    public int inputRows;

    @Param({"65536"})
    public int targetRows;

    @Param({"none"})
    public String codec;

    @Param({"lineitem"})
    public String workload;

    @Param({"small"})
    public String size;

    @Param({"0.25"})
    public double scale;

    @Param({NetworkTransport.AUTO})
    public String transport;

    @Param({"native"})
    public String link;

    private final List<BoundaryMode> order = new ArrayList<>();
    private final List<BoundaryInput> inputs = new ArrayList<>();
    private final List<NetworkBoundary> boundaries = new ArrayList<>();
    private BufferAllocator allocator;
    private LinkTrial linkTrial;
    private int iterations;
    private int current;
    private int round;
    private Optional<ProcSelfIo> before = Optional.empty();
    private NetworkBoundary.Sent sent;
    private long sendNanos;
    private long started;

    @Setup(Level.Trial)
    public void open() throws IOException {
        for (String m : WriterSettings.split(modes)) {
            BoundaryMode mode = BoundaryMode.parse(BenchmarkParam.MODES.key(), m);
            if (order.contains(mode)) {
                throw new InvalidParameterException(BenchmarkParam.MODES.key(), modes, "distinct modes");
            }
            order.add(mode);
        }
        if (order.size() < 2) {
            throw new InvalidParameterException(BenchmarkParam.MODES.key(), modes, "two or more modes separated by "
                    + WriterSettings.LIST);
        }
        BoundaryShape shape = new BoundaryShape(partitions, inputRows, targetRows);
        ShuffleCodec shuffleCodec = ShuffleCodec.parse(BenchmarkParam.CODEC.key(), codec);
        NetworkTransport net = NetworkTransport.parse(BenchmarkParam.TRANSPORT.key(), transport);
        InputSpec spec = InputSpec.of(DataSize.parse(BenchmarkParam.SIZE.key(), size), scale);
        BoundaryWorkload rows = BoundaryWorkload.parse(BenchmarkParam.WORKLOAD.key(), workload);
        linkTrial = LinkTrial.open(link);
        allocator = new RootAllocator();
        for (BoundaryMode mode : order) {
            long start = System.nanoTime();
            BoundaryInput input = BoundaryInput.prepare(rows, spec, shape, mode, allocator);
            inputs.add(input);
            boundaries.add(NetworkBoundary.open(input, mode, shape, shuffleCodec, net, allocator));
            System.out.printf(Locale.ROOT, "sluice input for %s: %s %s x %.4f, %d rows, %d bytes, %d batches of %d "
                            + "rows, %d slices in %d partitions, fingerprint %s, made in %.1f s; transport %s%n",
                    mode.label(), workload, size, scale, input.rows, input.bytes, input.batches, input.batchRows,
                    input.slices.size(), partitions, input.fingerprint, (System.nanoTime() - start) / 1e9,
                    net.label());
        }
    }

    @Setup(Level.Iteration)
    public void next() {
        int k = order.size();
        round = iterations / k;
        current = (round + iterations % k) % k;
        iterations++;
        sent = null;
        System.gc();
        before = ProcSelfIo.read();
        started = System.nanoTime();
    }

    NetworkBoundary.Sent send() throws IOException {
        NetworkBoundary.Sent result = boundaries.get(current).send();
        sendNanos = System.nanoTime() - started;
        sent = result;
        return result;
    }

    @TearDown(Level.Iteration)
    public void verify() throws Exception {
        if (sent == null) {
            return;
        }
        Optional<ProcSelfIo> proc = before.flatMap(b -> ProcSelfIo.read().map(after -> after.since(b)));
        NetworkBoundary boundary = boundaries.get(current);
        try (ReceivedMapOutput received = boundary.receive(RECEIVE)) {
            long start = System.nanoTime();
            VerificationResult verified = boundary.verify(received);
            long readNanos = System.nanoTime() - start;
            if (!verified.ok()) {
                throw new IllegalStateException("mode " + order.get(current).label() + ": the received map output "
                        + "differs from the input: " + verified);
            }
            List<Result> extra = new ArrayList<>(linkTrial.results());
            extra.add(result(Metric.PAIR_MODE, current));
            extra.add(result(Metric.PAIR_ROUND, round));
            extra.add(result(Metric.NET_ROWS_VERIFIED, verified.rowsRead()));
            Figures.publish(new BoundaryFigures(sent, received.batches(), received.rows(), received.wireBytes(),
                    sendNanos, readNanos, proc, inputs.get(current).bytes, extra));
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        try {
            for (NetworkBoundary b : boundaries) {
                b.close();
            }
        } finally {
            try {
                for (BoundaryInput i : inputs) {
                    i.close();
                }
            } finally {
                if (allocator != null) {
                    allocator.close();
                }
            }
        }
    }
}
