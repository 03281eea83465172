package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profile summary that profile.sh prints. */
class ProfileSharesTest {
    @Test
    void topFramesThenASampleCountsInEveryMechanismItsStackPassesThrough(@TempDir Path dir) throws Exception {
        Path collapsed = dir.resolve("collapsed.txt");
        Files.writeString(collapsed, String.join("\n",
                "Thread.run;PartialHandle.append;Unsafe_CopyMemory;asm_exc_page_fault;exc_page_fault;clear_page_erms 30",
                "Thread.run;LZ4JNI.LZ4_compress_limitedOutput;LZ4_compress_fast 50",
                "Thread.run;ByteBuffer.allocateDirect;Unsafe_SetMemory 20",
                "Thread.run;com/github/luben/zstd/ZstdOutputStreamNoFinalizer.compressStream;libzstd-jni-1.5.7-6.so 10",
                ""), StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProfileShares.print(collapsed, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("  45.5%  LZ4_compress_fast\n  27.3%  clear_page_erms\n  18.2%  Unsafe_SetMemory\n"
                + "   9.1%  libzstd-jni-1.5.7-6.so\n110 samples"),
                "the frames with the most samples of their own come first: " + text);
        assertTrue(text.contains("  27.3%  page faults"), text);
        assertTrue(text.contains("  27.3%  copies in the process"), text);
        assertTrue(text.contains("  45.5%  LZ4 compression and its"), text);
        assertTrue(text.contains("   9.1%  zstd compression"), text);
        assertTrue(text.contains("  18.2%  zeroing by the JVM"), text);
        assertTrue(text.contains("  18.2%  allocation and release"), text);
        assertTrue(text.contains("   0.0%  write system calls"), text);
    }

    @Test
    void aProfileOfFewSamplesIsFlaggedWithItsCountAndHowToGetMore(@TempDir Path dir) throws Exception {
        Path collapsed = dir.resolve("collapsed.txt");
        Files.writeString(collapsed, "Thread.run;LZ4_compress_fast 5\nThread.run;memcpy 2\n", StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProfileShares.print(collapsed, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("warning: this profile holds only 7 samples"), text);
        assertTrue(text.contains("up to 19 percentage points"), text);
        assertTrue(text.contains("--iterations") && text.contains("--size"), text);
        assertTrue(ProfileShares.fewSamples(2).contains("only 2 samples"));
        assertTrue(ProfileShares.fewSamples(1).contains("only 1 sample,"));
        assertNull(ProfileShares.fewSamples(ProfileShares.ENOUGH_SAMPLES));
        Files.writeString(collapsed, "Thread.run;LZ4_compress_fast 5000\n", StandardCharsets.UTF_8);
        bytes.reset();
        ProfileShares.print(collapsed, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertFalse(bytes.toString(StandardCharsets.UTF_8).contains("warning"));
    }
}
