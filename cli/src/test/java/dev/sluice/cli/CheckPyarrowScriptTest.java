package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testkit.Python;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * scripts/check-pyarrow.py reads what {@code scripts/sluice write} wrote with readers outside Java: pyarrow, and for
 * zstd the zstandard package, every frame to its end. lz4-block, which has no Python reader, is refused saying what it
 * is. The interpreter is {@link Python}'s: {@code .venv} from {@code scripts/python-env}, which CI makes.
 */
@Timeout(180)
class CheckPyarrowScriptTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SCRIPT = ROOT.resolve("scripts").resolve("check-pyarrow.py");
    private static final int PARTITIONS = 7;
    private static final int BATCHES = 2;

    @TempDir
    Path tmp;

    /** Writes one map output with the command line, in-process; returns its JSON result. */
    private String write(String codec, Path out) {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int status = SluiceCli.run(List.of("write", "--strategy", "buffered", "--size", "tiny", "--scale", "0.1",
                        "--partitions", String.valueOf(PARTITIONS), "--batches", String.valueOf(BATCHES), "--codec", codec,
                        "--threads", "2", "--out", out.toString()),
                new PrintStream(stdout, true, StandardCharsets.UTF_8), new PrintStream(stderr, true, StandardCharsets.UTF_8));
        String json = stdout.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, stderr.toString(StandardCharsets.UTF_8));
        assertTrue(json.contains("\"codec\":\"" + codec + "\"") && json.contains("\"verified\":true"), json);
        return json;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"none, arrow", "lz4-frame, arrow", "zstd, zstd"})
    void pyarrowReadsEveryPartitionAndRowOfTheOutput(String codec, String framing) throws Exception {
        String python = Python.withModules(ROOT, "pyarrow", "zstandard");
        Path out = tmp.resolve(codec);
        String written = write(codec, out);
        Python.Run read = Python.run(python, ROOT, SCRIPT, out.toString(), "--codec", codec);
        assertEquals(0, read.status, read.toString());
        String json = read.out.trim();
        assertEquals(number(written, "rows"), number(json, "rows"), "rows pyarrow read: " + json);
        assertEquals(number(written, "nonEmptyPartitions"), number(json, "nonEmptyPartitions"), json);
        assertEquals(PARTITIONS, number(json, "partitions"), json);
        assertTrue(json.contains("\"framing\": [\"" + framing + "\"]"), json);
        if (codec.equals("zstd")) {
            // Round robin gives every partition rows of both batches: header, two records, end marker, each a frame.
            assertEquals(PARTITIONS * (BATCHES + 2), number(json, "zstdFrames"), "one frame per piece: " + json);
        } else {
            assertFalse(json.contains("zstdFrames"), json);
        }
    }

    /** Told by its magic bytes, without --codec, instead of pyarrow's "Expected to read 1110727244 metadata bytes". */
    @Test
    void anLz4BlockOutputIsRefusedSayingWhatItIs() throws Exception {
        String python = Python.withModules(ROOT, "pyarrow", "zstandard");
        Path out = tmp.resolve("lz4-block");
        write("lz4-block", out);
        Python.Run read = Python.run(python, ROOT, SCRIPT, out.toString());
        assertEquals(2, read.status, read.toString());
        assertEquals("", read.out);
        assertTrue(read.err.contains("partition 0 is lz4-block, Spark's LZ4BlockOutputStream framing")
                && read.err.contains("'LZ4Block'") && read.err.contains("--codec none, lz4-frame or zstd"), read.err);
        assertFalse(read.err.contains("metadata bytes"), read.err);
    }

    @Test
    void aPartitionFramedOtherwiseThanTheCodecGivenFails() throws Exception {
        String python = Python.withModules(ROOT, "pyarrow", "zstandard");
        Path out = tmp.resolve("zstd");
        write("zstd", out);
        Python.Run read = Python.run(python, ROOT, SCRIPT, out.toString(), "--codec", "none");
        assertEquals(1, read.status, read.toString());
        assertTrue(read.err.contains("is framed as zstd, not as --codec none frames it"), read.err);
        Python.Run bad = Python.run(python, ROOT, SCRIPT, out.toString(), "--codec", "snappy");
        assertEquals(2, bad.status, bad.toString());
        assertTrue(bad.err.contains("invalid --codec 'snappy': allowed are none, lz4-frame, zstd"), bad.err);
    }

    private static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": ?(\\d+)").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        return Long.parseLong(m.group(1));
    }
}
