package dev.sluice.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.core.serde.ShuffleCodec;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A reader outside Sluice, pyarrow, takes a map output from the wire ({@code scripts/pyarrow-receive.py}) and reads
 * every partition with {@code pyarrow.ipc.open_stream}. Skipped, saying why, where python3 has no pyarrow
 * ({@code SLUICE_PYTHON} names another interpreter, such as a virtual environment's).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PyarrowReadsTheWireTest {

    @ParameterizedTest
    @EnumSource(value = ShuffleCodec.class, names = {"NONE", "LZ4_FRAME"})
    void pyarrowReadsEveryPartitionOfACoalescedMapOutputFromTheSocket(ShuffleCodec codec) throws Exception {
        String python = System.getenv().getOrDefault("SLUICE_PYTHON", "python3");
        Path script = Path.of("..", "scripts", "pyarrow-receive.py").toAbsolutePath().normalize();
        Assumptions.assumeTrue(Files.isRegularFile(script), "no " + script);
        Process probe;
        try {
            probe = new ProcessBuilder(python, "-c", "import pyarrow").redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            Assumptions.abort("no " + python + " to run pyarrow: " + e.getMessage());
            return;
        }
        Assumptions.assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0,
                python + " has no pyarrow (pip install pyarrow, or set SLUICE_PYTHON)");

        BoundaryShape shape = new BoundaryShape(7, 1000, 256);
        Process receiver = new ProcessBuilder(python, script.toString(), "--partition", "3", "--timeout", "30")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferAllocator allocator = new RootAllocator();
             BoundaryInput input = BoundaryInput.prepare(InputSpec.of(DataSize.TINY, 0.25), shape,
                     BoundaryMode.COALESCE, allocator)) {
            BufferedReader lines = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
                    StandardCharsets.UTF_8));
            String listening = lines.readLine();
            assertTrue(listening != null && listening.startsWith("listening on "), String.valueOf(listening));
            int port = Integer.parseInt(listening.substring("listening on ".length()).trim());
            ArrowIpcFormat format = new ArrowIpcFormat(input.schema, codec);
            try (NetworkSender sender = NetworkSender.connect(NetworkTransport.best(),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
                NetworkBoundary.send(sender, input, BoundaryMode.COALESCE, shape, format, allocator);
            }
            String json = lines.readLine();
            assertTrue(receiver.waitFor(30, TimeUnit.SECONDS), "pyarrow-receive did not end");
            assertEquals(0, receiver.exitValue(), json);
            assertTrue(json.contains("\"total_rows\": " + input.rows), json);
            for (int p = 0; p < shape.partitions; p++) {
                long rows = input.reference.rows(p);
                if (rows > 0) {
                    assertTrue(json.contains("\"" + p + "\": " + rows), "partition " + p + " in " + json);
                }
            }
        } finally {
            receiver.destroyForcibly();
        }
    }
}
