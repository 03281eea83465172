package dev.sluice.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where a profile's samples go: the frames with the most samples of their own (the last frame of each stack), then
 * by mechanism, the share of samples whose stack passes through memory zeroing, page faults, allocation,
 * compression, copies, write calls or GC. Reads async-profiler's collapsed stacks (one line per stack, frames joined
 * by {@code ;}, then the sample count). A sample counts in every category one of its frames matches, so the shares
 * overlap (a page fault inside a copy counts in both) and do not add up to 100%.
 */
final class ProfileShares {
    /** Category name to the pattern one frame must contain. */
    static final Map<String, Pattern> CATEGORIES = new LinkedHashMap<>();

    static {
        CATEGORIES.put("zeroing by the JVM (Unsafe.setMemory, as ByteBuffer.allocateDirect does)",
                Pattern.compile("setMemory|SetMemory"));
        CATEGORIES.put("page faults (first touch of fresh memory; the kernel zeroes each page)",
                Pattern.compile("exc_page_fault|do_page_fault|handle_mm_fault"));
        CATEGORIES.put("allocation and release (malloc, free, mmap, munmap, the allocators)",
                Pattern.compile("^(malloc|free|__libc_malloc|__libc_free|cfree|_int_malloc|_int_free)$|mmap|munmap"
                        + "|madvise|AllocateMemory|allocateMemory|FreeMemory|freeMemory|allocateDirect|BaseAllocator"
                        + "|AllocationManager"));
        CATEGORIES.put("LZ4 compression and its XXHash32 checksums (the compressor, not the stream around it)",
                Pattern.compile("LZ4_compress|LZ4Compressor\\.compress|XXH32"));
        // zstd-jni's native methods, and the library under them: async-profiler names its frames by the file zstd-jni
        // extracted the library to (deleted once loaded) where it cannot read its symbols, by ZSTD_... where it can.
        CATEGORIES.put("zstd compression (zstd-jni's native compressor and its contexts, not the stream around it)",
                Pattern.compile("ZstdOutputStreamNoFinalizer\\.(compressStream|flushStream|endStream|createCStream"
                        + "|freeCStream|resetCStream)|libzstd-jni|^ZSTD_(compress|endStream|flushStream|initCStream"
                        + "|createCStream|freeCStream|CCtx_reset)|^HUF_compress"));
        CATEGORIES.put("copies in the process (arraycopy, copyMemory, memcpy)",
                Pattern.compile("arraycopy|copyMemory|CopyMemory|memcpy|memmove"));
        CATEGORIES.put("write system calls (the copy into the page cache included)",
                Pattern.compile("ksys_write|ksys_pwrite|vfs_write|do_writev|vfs_writev|__x64_sys_write|__x64_sys_pwrite"
                        + "|__x64_sys_sendfile|do_splice|splice_direct"));
        CATEGORIES.put("garbage collection", Pattern.compile("^G1[A-Z]|GCTaskThread|WorkerThread::run|^\\[GC"));
    }

    /** How many of the frames with the most samples of their own are printed. */
    static final int TOP_FRAMES = 15;
    /**
     * Fewer samples than this get a warning: a share of n samples is uncertain by up to 0.5 / sqrt(n) (one binomial
     * standard error at 50%), 1.6 percentage points at 1000 samples, 19 at 7.
     */
    static final int ENOUGH_SAMPLES = 1000;

    private ProfileShares() {}

    /** Prints the top frames by their own samples, then the total samples and each category's share of them. */
    static void print(Path collapsed, PrintStream out) throws IOException {
        long total = 0;
        long[] hits = new long[CATEGORIES.size()];
        Map<String, Long> self = new HashMap<>();
        List<Pattern> patterns = List.copyOf(CATEGORIES.values());
        for (String line : Files.readAllLines(collapsed, StandardCharsets.UTF_8)) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            long n = Long.parseLong(line.substring(space + 1).trim());
            total += n;
            String[] frames = line.substring(0, space).split(";");
            self.merge(frames[frames.length - 1], n, Long::sum);
            for (int c = 0; c < patterns.size(); c++) {
                for (String frame : frames) {
                    if (patterns.get(c).matcher(frame).find()) {
                        hits[c] += n;
                        break;
                    }
                }
            }
        }
        long all = total;
        self.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(TOP_FRAMES)
                .forEach(e -> out.printf(Locale.ROOT, "%6.1f%%  %s%n", 100.0 * e.getValue() / all, e.getKey()));
        out.printf(Locale.ROOT, "%d samples; a sample counts in every category a frame of its stack matches%n", total);
        int c = 0;
        for (String name : CATEGORIES.keySet()) {
            out.printf(Locale.ROOT, "%6.1f%%  %s%n", total == 0 ? 0.0 : 100.0 * hits[c] / total, name);
            c++;
        }
        String warning = fewSamples(total);
        if (warning != null) {
            out.println(warning);
        }
    }

    /** The warning for a profile of {@code samples} samples, or null where they are enough. */
    static String fewSamples(long samples) {
        if (samples >= ENOUGH_SAMPLES) {
            return null;
        }
        return String.format(Locale.ROOT, "warning: this profile holds only %d sample%s, so each share above is "
                + "uncertain by up to %s percentage points (one standard error); for %d or more, profile more measured "
                + "waves (profile.sh --iterations N) or a bigger input (--size, --scale)", samples,
                samples == 1 ? "" : "s", samples == 0 ? "100" : String.format(Locale.ROOT, "%.0f",
                        Math.min(100, 50 / Math.sqrt(samples))), ENOUGH_SAMPLES);
    }
}
