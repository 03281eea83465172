package dev.sluice.cli;

import dev.sluice.core.cli.Options;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.network.BoundaryInput;
import dev.sluice.network.BoundaryMode;
import dev.sluice.network.BoundaryShape;
import dev.sluice.network.BoundaryWorkload;
import dev.sluice.network.NetworkBoundary;
import dev.sluice.network.NetworkSender;
import dev.sluice.network.NetworkTransport;
import dev.sluice.network.ReceivedMapOutput;
import dev.sluice.network.link.EmulatedLink;
import dev.sluice.network.link.LinkProbe;
import dev.sluice.network.link.LinkSpec;
import dev.sluice.spi.InvalidParameterException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * {@code scripts/net-send}: sends one map task's seeded input, partitioned and shaped by a mode, as one map output to
 * a receiver listening on {@code 127.0.0.1} (another Sluice, or {@code scripts/pyarrow-receive.py}), and prints what
 * it sent as one JSON line. Exit status 0 success, 1 failure, 2 invalid usage.
 */
public final class SendCommand {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);

    private SendCommand() {}

    static Options options() {
        return new Options()
                .optional("port", "N", "none", "the receiver's port on 127.0.0.1; none: net-send's own receiver, "
                        + "in-process, which verifies every partition (the only receiver an emulated --link allows)")
                .optional("link", "LINK", LinkSpec.NATIVE, "the link crossed: " + LinkSpec.allowed())
                .optional("mode", "MODE", "per-slice", "how slices cross the boundary: " + BoundaryMode.names())
                .optional("workload", "W", "today", "input rows: " + BoundaryWorkload.names())
                .optional("size", "SIZE", "tiny", "input size: " + DataSize.names())
                .optional("scale", "X", "1", "factor applied to the size")
                .optional("partitions", "N", "200", "hash partitions (Spark's Murmur3, seed 42, on key)")
                .optional("input-rows", "N", "32768", "rows of each input batch (per-slice, coalesce)")
                .optional("target-rows", "N", "8192", "rows of each batch on the wire (coalesce, native)")
                .optional("codec", "CODEC", "none", "stream codec: " + ShuffleCodec.names())
                .optional("transport", "T", NetworkTransport.AUTO, "auto, epoll or nio");
    }

    static String usage() {
        return "Usage: scripts/net-send [--port N] [--link LINK] [OPTIONS]\n\n"
                + "Sends one map task's seeded input as one map output in Sluice's wire format (docs/network.md) to a\n"
                + "receiver on 127.0.0.1:N (or its own, which verifies what arrived), waits for its acknowledgement and\n"
                + "prints one JSON line of what was sent. With an emulated --link, the sender and its receiver run in a\n"
                + "network namespace made for the run, whose loopback a tbf qdisc limits to the link's rate (root only);\n"
                + "it is removed when the run ends, is interrupted or fails, and 'scripts/sluice link cleanup' removes\n"
                + "it after SIGKILL.\n\n"
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
            String portText = options.string("port");
            int port = 0;
            if (!portText.equals("none")) {
                port = options.integer("port");
                if (port < 1 || port > 65535) {
                    throw new InvalidParameterException("--port", port, "a port from 1 to 65535, or none");
                }
            }
            LinkSpec link = LinkSpec.parse("--link", options.string("link"));
            if (!link.isNative() && port != 0) {
                throw new InvalidParameterException("--port", port, "none with an emulated --link: the receiver must "
                        + "run inside the link's namespace, where only net-send's own receiver is");
            }
            BoundaryMode mode = BoundaryMode.parse("--mode", options.string("mode"));
            double scale;
            try {
                scale = Double.parseDouble(options.string("scale"));
            } catch (NumberFormatException e) {
                throw new InvalidParameterException("--scale", options.string("scale"), "a number > 0");
            }
            BoundaryWorkload workload = BoundaryWorkload.parse("--workload", options.string("workload"));
            InputSpec spec = InputSpec.of(DataSize.parse("--size", options.string("size")), scale);
            BoundaryShape shape = new BoundaryShape(options.integer("partitions"), options.integer("input-rows"),
                    options.integer("target-rows"));
            ShuffleCodec codec = ShuffleCodec.parse("--codec", options.string("codec"));
            NetworkTransport transport = NetworkTransport.parse("--transport", options.string("transport"));
            String inside = EmulatedLink.insideNamespace();
            if (!link.isNative() && inside == null) {
                return inLink(link, args, err);
            }
            try (BufferAllocator allocator = new RootAllocator()) {
                try (BoundaryInput input = BoundaryInput.prepare(workload, spec, shape, mode, allocator)) {
                    String linkJson = linkJson(link, inside);
                    if (port == 0) {
                        return sendToOwnReceiver(input, mode, shape, codec, transport, allocator, linkJson, out, err);
                    }
                    try (NetworkSender sender = NetworkSender.connect(transport,
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
                        long start = System.nanoTime();
                        NetworkBoundary.Sent sent = NetworkBoundary.send(sender, input, mode, shape,
                                new ArrowIpcFormat(input.schema, codec), allocator);
                        print(out, mode, shape, input, codec, transport, sent, System.nanoTime() - start, linkJson,
                                "");
                        return 0;
                    }
                }
            }
        } catch (InvalidParameterException e) {
            err.println("net-send: invalid " + e.parameter() + " '" + e.value() + "': allowed is " + e.allowed());
            return 2;
        } catch (Exception e) {
            err.println("net-send: failed: " + e);
            return 1;
        }
    }

    /** The link the send crosses, measured from inside it, as JSON fields. */
    private static String linkJson(LinkSpec link, String namespace) throws java.io.IOException {
        LinkProbe.Measured measured = LinkProbe.measure(LinkProbe.bytesFor(link, 2.0), PROBE_TIMEOUT);
        return String.format(Locale.ROOT, "\"link\":\"%s\",\"linkMechanism\":\"%s\",\"linkRateBits\":%d,"
                        + "\"linkMeasuredBits\":%.0f,\"linkNamespace\":%s", link.text(), link.mechanism(),
                link.rateBits(), measured.bitsPerSecond(), namespace == null ? "null" : "\"" + namespace + "\"");
    }

    private static int sendToOwnReceiver(BoundaryInput input, BoundaryMode mode, BoundaryShape shape,
                                         ShuffleCodec codec, NetworkTransport transport, BufferAllocator allocator,
                                         String linkJson, PrintStream out, PrintStream err) throws Exception {
        try (NetworkBoundary boundary = NetworkBoundary.open(input, mode, shape, codec, transport, allocator)) {
            long start = System.nanoTime();
            NetworkBoundary.Sent sent = boundary.send();
            long nanos = System.nanoTime() - start;
            try (ReceivedMapOutput received = boundary.receive(NetworkSender.DEFAULT_TIMEOUT)) {
                VerificationResult verified = boundary.verify(received);
                if (!verified.ok()) {
                    err.println("net-send: the received map output differs from the input: " + verified);
                    return 1;
                }
                print(out, mode, shape, input, codec, transport, sent, nanos, linkJson,
                        ",\"verified\":true,\"rowsVerified\":" + verified.rowsRead());
                return 0;
            }
        }
    }

    private static void print(PrintStream out, BoundaryMode mode, BoundaryShape shape, BoundaryInput input,
                              ShuffleCodec codec, NetworkTransport transport, NetworkBoundary.Sent sent, long nanos,
                              String linkJson, String extra) {
        out.printf(Locale.ROOT, "{\"mode\":\"%s\",\"partitions\":%d,\"inputBatches\":%d,\"batchRows\":%d,"
                        + "\"rows\":%d,\"fingerprint\":\"%s\",\"codec\":\"%s\",\"transport\":\"%s\","
                        + "\"messages\":%d,\"batches\":%d,\"wireBytes\":%d,\"serializedBytes\":%d,"
                        + "\"coalescedBytes\":%d,\"millis\":%.1f,\"linkWaitMillis\":%.1f,%s%s}%n",
                mode.label(), shape.partitions, input.batches, input.batchRows, sent.rows, input.fingerprint,
                codec.label(), transport.label(), sent.messages, sent.batches, sent.wireBytes,
                sent.serializedBytes, sent.coalescedBytes, nanos / 1e6, sent.waitedNanos / 1e6, linkJson, extra);
    }

    /**
     * Makes the link's namespace and runs this command again inside it, in a JVM started as this one was; returns its
     * exit status. The link is removed when it ends, and by the link's shutdown hook on SIGINT or SIGTERM (which ends
     * the JVM inside first).
     */
    private static int inLink(LinkSpec link, List<String> args, PrintStream err) throws Exception {
        try (EmulatedLink made = EmulatedLink.create("--link", link)) {
            err.println("net-send: link " + made.name() + ": " + link.describe());
            List<String> java = new ArrayList<>();
            java.add(ProcessHandle.current().info().command().orElse(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            java.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            java.addAll(List.of("-cp", System.getProperty("java.class.path"), SendCommand.class.getName()));
            java.addAll(args);
            ProcessBuilder builder = new ProcessBuilder(made.command(java)).inheritIO();
            builder.environment().put(EmulatedLink.NETNS_ENV, made.name());
            Process child = builder.start();
            try {
                return child.waitFor();
            } finally {
                if (child.isAlive()) {
                    child.destroyForcibly();
                    child.waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }
}
