package dev.sluice.jmh.network;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.network.BoundaryInput;
import dev.sluice.network.BoundaryMode;
import dev.sluice.network.BoundaryShape;
import dev.sluice.network.BoundaryWorkload;
import dev.sluice.network.NetworkBoundary;
import dev.sluice.network.NetworkTransport;
import java.io.IOException;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The network boundary experiment's configuration and fixture, made once per trial outside any measurement: one map
 * task's seeded input ({@code size} x {@code scale}, generated in batches of {@code inputRows}), hash-partitioned
 * into {@code partitions} and shaped for the {@code mode} ({@code native} re-batches the same rows into batches of
 * {@code targetRows x partitions}); a receiver and a sender connected over loopback with {@code transport}.
 *
 * <p>Its own parameters rather than {@code WorkloadState}'s: this is datafusion-distributed's workload, not the
 * seed's. It is hash-partitioned by design (the experiment is DataFusion's hash repartition, and round robin's deal
 * would differ between the modes' batchings), one map task, batches of {@code inputRows}; a workload parameter it
 * would ignore is better not offered. Its codec default is {@code none}, as the experiment's recorded runs.
 */
@State(Scope.Benchmark)
public class BoundaryState {
    /** per-slice, coalesce or native ({@link BoundaryMode}). */
    @Param({"per-slice", "coalesce", "native"})
    public String mode;

    @Param({"200"})
    public int partitions;

    /** Rows of each input batch (what per-slice and coalesce partition). */
    @Param({"32768"})
    public int inputRows;

    /** Rows of each batch on the wire: coalesce's target, and what native's slices hold. */
    @Param({"8192"})
    public int targetRows;

    /** none, lz4-frame, lz4-block or zstd: the Arrow IPC body compression of each message. */
    @Param({"none"})
    public String codec;

    @Param({"small"})
    public String size;

    @Param({"1"})
    public double scale;

    /** auto (epoll where available), epoll or nio. */
    @Param({NetworkTransport.AUTO})
    public String transport;

    /**
     * The link crossed: native, emulated:rate=RATE[:burst=SIZE] or a profile ({@code LinkSpec}); an emulated one
     * needs the run started by benchmarks.jar's main as root, which runs the forks in a namespace made for the run.
     */
    @Param({"native"})
    public String link;

    /** today (Sluice's generated table) or lineitem (TPC-H lineitem-like rows). */
    @Param({"today"})
    public String workload;

    private LinkTrial linkTrial;
    private BufferAllocator allocator;
    private BoundaryInput input;
    private NetworkBoundary boundary;

    @Setup(Level.Trial)
    public void open() throws IOException {
        BoundaryMode boundaryMode = BoundaryMode.parse(BenchmarkParam.MODE.key(), mode);
        BoundaryShape shape = new BoundaryShape(partitions, inputRows, targetRows);
        ShuffleCodec shuffleCodec = ShuffleCodec.parse(BenchmarkParam.CODEC.key(), codec);
        NetworkTransport net = NetworkTransport.parse(BenchmarkParam.TRANSPORT.key(), transport);
        InputSpec spec = InputSpec.of(DataSize.parse(BenchmarkParam.SIZE.key(), size), scale);
        BoundaryWorkload rows = BoundaryWorkload.parse(BenchmarkParam.WORKLOAD.key(), workload);
        linkTrial = LinkTrial.open(link);
        allocator = new RootAllocator();
        long start = System.nanoTime();
        input = BoundaryInput.prepare(rows, spec, shape, boundaryMode, allocator);
        boundary = NetworkBoundary.open(input, boundaryMode, shape, shuffleCodec, net, allocator);
        System.out.printf(Locale.ROOT, "%nsluice input: %s x %.3f, %d rows, %d bytes, %d batches of %d rows, "
                        + "%d slices in %d partitions, fingerprint %s, made in %.1f s; transport %s%n", size, scale,
                input.rows, input.bytes, input.batches, input.batchRows, input.slices.size(), partitions,
                input.fingerprint, (System.nanoTime() - start) / 1e9, net.label());
    }

    NetworkBoundary boundary() {
        return boundary;
    }

    LinkTrial link() {
        return linkTrial;
    }

    BoundaryInput input() {
        return input;
    }

    @TearDown(Level.Trial)
    public void close() {
        try {
            if (boundary != null) {
                boundary.close();
            }
        } finally {
            if (input != null) {
                input.close();
            }
            if (allocator != null) {
                allocator.close();
            }
        }
    }
}
