package dev.sluice.cli;

import dev.sluice.network.BoundaryInput;
import dev.sluice.network.BoundaryMode;
import dev.sluice.network.BoundaryShape;
import dev.sluice.network.NetworkBoundary;
import dev.sluice.network.NetworkSender;
import dev.sluice.network.NetworkTransport;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.core.serde.ShuffleCodec;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * {@code scripts/net-send}: sends one map task's seeded input, partitioned and shaped by a mode, as one map output to
 * a receiver listening on {@code 127.0.0.1} (another Sluice, or {@code scripts/pyarrow-receive.py}), and prints what
 * it sent as one JSON line. Exit status 0 success, 1 failure, 2 invalid usage.
 */
public final class SendCommand {
    private SendCommand() {}

    static Options options() {
        return new Options()
                .required("port", "N", "the receiver's port on 127.0.0.1")
                .optional("mode", "MODE", "per-slice", "how slices cross the boundary: " + BoundaryMode.names())
                .optional("size", "SIZE", "tiny", "input size: " + DataSize.names())
                .optional("scale", "X", "1", "factor applied to the size")
                .optional("partitions", "N", "200", "hash partitions (Spark's Murmur3, seed 42, on key)")
                .optional("input-rows", "N", "32768", "rows of each input batch (per-slice, coalesce)")
                .optional("target-rows", "N", "8192", "rows of each batch on the wire (coalesce, native)")
                .optional("codec", "CODEC", "none", "stream codec: " + ShuffleCodec.names())
                .optional("transport", "T", NetworkTransport.AUTO, "auto, epoll or nio");
    }

    static String usage() {
        return "Usage: scripts/net-send --port N [OPTIONS]\n\n"
                + "Sends one map task's seeded input as one map output in Sluice's wire format (docs/network.md) to a\n"
                + "receiver on 127.0.0.1:N, waits for its acknowledgement and prints one JSON line of what was sent.\n\n"
                + "Options:\n" + options().describe();
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Options options = options();
        try {
            if (!options.parse(args)) {
                out.print(usage());
                return 0;
            }
            int port = options.integer("port");
            if (port < 1 || port > 65535) {
                throw new InvalidParameterException("--port", port, "a port from 1 to 65535");
            }
            BoundaryMode mode = BoundaryMode.parse("--mode", options.string("mode"));
            double scale;
            try {
                scale = Double.parseDouble(options.string("scale"));
            } catch (NumberFormatException e) {
                throw new InvalidParameterException("--scale", options.string("scale"), "a number > 0");
            }
            InputSpec spec = InputSpec.of(DataSize.parse("--size", options.string("size")), scale);
            BoundaryShape shape = new BoundaryShape(options.integer("partitions"), options.integer("input-rows"),
                    options.integer("target-rows"));
            ShuffleCodec codec = ShuffleCodec.parse("--codec", options.string("codec"));
            NetworkTransport transport = NetworkTransport.parse("--transport", options.string("transport"));
            try (BufferAllocator allocator = new RootAllocator();
                 BoundaryInput input = BoundaryInput.prepare(spec, shape, mode, allocator);
                 NetworkSender sender = NetworkSender.connect(transport,
                         new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
                long start = System.nanoTime();
                NetworkBoundary.Sent sent = NetworkBoundary.send(sender, input, mode, shape,
                        new ArrowIpcFormat(input.schema, codec), allocator);
                long nanos = System.nanoTime() - start;
                out.printf(Locale.ROOT, "{\"mode\":\"%s\",\"partitions\":%d,\"inputBatches\":%d,\"batchRows\":%d,"
                                + "\"rows\":%d,\"fingerprint\":\"%s\",\"codec\":\"%s\",\"transport\":\"%s\","
                                + "\"messages\":%d,\"batches\":%d,\"wireBytes\":%d,\"serializedBytes\":%d,"
                                + "\"coalescedBytes\":%d,\"millis\":%.1f}%n",
                        mode.label(), shape.partitions, input.batches, input.batchRows, sent.rows, input.fingerprint,
                        codec.label(), transport.label(), sent.messages, sent.batches, sent.wireBytes,
                        sent.serializedBytes, sent.coalescedBytes, nanos / 1e6);
                return 0;
            }
        } catch (InvalidParameterException e) {
            err.println("net-send: invalid " + e.parameter() + " '" + e.value() + "': allowed is " + e.allowed());
            return 2;
        } catch (Exception e) {
            err.println("net-send: failed: " + e);
            return 1;
        }
    }
}
