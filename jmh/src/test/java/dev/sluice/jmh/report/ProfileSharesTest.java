package dev.sluice.jmh.report;

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
}
