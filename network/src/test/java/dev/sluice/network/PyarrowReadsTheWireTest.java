package dev.sluice.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.testkit.Python;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A reader outside Sluice, pyarrow, takes a map output from the wire ({@code scripts/pyarrow-receive.py}) and reads
 * every partition with {@code pyarrow.ipc.open_stream}, zstd frames decompressed first by the zstandard package. The
 * interpreter is {@link Python}'s: {@code .venv} from {@code scripts/python-env}, which CI makes; skipped only where
 * there is no python3 at all.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PyarrowReadsTheWireTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SCRIPT = ROOT.resolve("scripts").resolve("pyarrow-receive.py");
    private static final BoundaryShape SHAPE = new BoundaryShape(7, 1000, 256);

    @ParameterizedTest
    @EnumSource(value = ShuffleCodec.class, names = {"NONE", "LZ4_FRAME", "ZSTD"})
    void pyarrowReadsEveryPartitionOfACoalescedMapOutputFromTheSocket(ShuffleCodec codec) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             BoundaryInput input = BoundaryInput.prepare(InputSpec.of(DataSize.TINY, 0.25), SHAPE,
                     BoundaryMode.COALESCE, allocator)) {
            Received received = receive(input, codec, allocator);
            assertEquals(0, received.status, received.toString());
            assertTrue(received.json.contains("\"total_rows\": " + input.rows), received.json);
            for (int p = 0; p < SHAPE.partitions; p++) {
                long rows = input.expected.rows(p);
                if (rows > 0) {
                    assertTrue(received.json.contains("\"" + p + "\": " + rows), "partition " + p + " in " + received.json);
                }
            }
        }
    }

    @Test
    void pyarrowReceiveRefusesLz4BlockSayingWhatItIs() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             BoundaryInput input = BoundaryInput.prepare(InputSpec.of(DataSize.TINY, 0.05), SHAPE,
                     BoundaryMode.COALESCE, allocator)) {
            Received received = receive(input, ShuffleCodec.LZ4_BLOCK, allocator);
            assertEquals(2, received.status, received.toString());
            assertTrue(received.err.contains("is lz4-block, Spark's LZ4BlockOutputStream framing")
                    && received.err.contains("'LZ4Block'") && received.err.contains("none, lz4-frame or zstd"),
                    received.err);
        }
    }

    private static final class Received {
        final int status;
        final String json;
        final String err;

        Received(int status, String json, String err) {
            this.status = status;
            this.json = json;
            this.err = err;
        }

        @Override
        public String toString() {
            return "exit " + status + "; stdout: " + json + "; stderr: " + err;
        }
    }

    /** One map output sent by Sluice's sender to pyarrow-receive.py, and what the receiver said. */
    private static Received receive(BoundaryInput input, ShuffleCodec codec, BufferAllocator allocator)
            throws Exception {
        String python = Python.withModules(ROOT, "pyarrow", "zstandard");
        Path err = Files.createTempFile("pyarrow-receive", ".err");
        Process receiver = new ProcessBuilder(python, SCRIPT.toString(), "--partition", "3", "--timeout", "30")
                .redirectError(err.toFile()).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
                    StandardCharsets.UTF_8));
            String listening = lines.readLine();
            assertTrue(listening != null && listening.startsWith("listening on "),
                    listening + "; stderr: " + Files.readString(err));
            int port = Integer.parseInt(listening.substring("listening on ".length()).trim());
            ArrowIpcFormat format = new ArrowIpcFormat(input.schema, codec);
            try (NetworkSender sender = NetworkSender.connect(NetworkTransport.best(),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
                NetworkBoundary.send(sender, input, BoundaryMode.COALESCE, SHAPE, format, allocator);
            }
            String json = String.valueOf(lines.readLine());
            assertTrue(receiver.waitFor(30, TimeUnit.SECONDS), "pyarrow-receive did not end");
            return new Received(receiver.exitValue(), json, Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            receiver.destroyForcibly();
            Files.deleteIfExists(err);
        }
    }
}
