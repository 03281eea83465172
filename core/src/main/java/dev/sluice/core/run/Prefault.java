package dev.sluice.core.run;

import dev.sluice.core.measure.Meminfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Gives a wave memory the machine has just touched: right before the wave (outside its time) a scratch file of about
 * the bytes the wave will take is written through the page cache and removed before any of it reaches the disk.
 *
 * <p>Why: on a virtual machine with free page reporting (virtio-balloon; Linux {@code mm/page_reporting.c} reports
 * free blocks of {@code page_reporting_order} and above about two seconds after they are freed) the host takes the
 * backing of the guest's idle free memory away, and the guest's next write to it faults on the host, in time the
 * guest's profilers do not see. On the machine docs/paired.md describes, 256 MiB written into the page cache took 43
 * ms of system time right after another file's pages were freed and about 500 ms after a pause of 1.5 s or more. A
 * wave's outputs are removed after it, and how long the gate, the verification and the collection before the next
 * wave take decides which of the two that wave pays: two states, not one. The pages of the scratch file, freed last,
 * are the first the wave's own writes get, so every wave starts from the first state (which is also a machine's
 * without a hypervisor). Without free page reporting this costs the scratch write and changes nothing else.
 *
 * <p>The file is never forced, and removed while its pages are still dirty, so nothing is written to the device
 * unless background writeback starts on it first: its size is capped at a quarter of {@code MemAvailable}.
 */
public final class Prefault {
    /** The system property that asks for it before every wave ({@code scripts/bench.sh --prefault true}). */
    public static final String PROPERTY = "sluice.prefault";
    static final int WRITE_SIZE = 4 << 20;

    private final Path dir;
    private final ByteBuffer zeros = ByteBuffer.allocateDirect(WRITE_SIZE);
    private long lastNanos;

    /** Scratch files go into {@code dir}, which must exist: a directory of the harness's own. */
    public Prefault(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("prefault directory " + dir + ": not a directory");
        }
        this.dir = dir;
    }

    /** Whether the property asks for it. */
    public static boolean requested() {
        return Boolean.getBoolean(PROPERTY);
    }

    /**
     * Writes a scratch file of {@code bytes} (at most a quarter of {@code MemAvailable}) and removes it; returns the
     * bytes written. Nothing is left behind on failure.
     */
    public long touch(long bytes) throws IOException {
        if (bytes < 0) {
            throw new IllegalArgumentException("prefault bytes " + bytes + ": must be 0 or more");
        }
        long n = Math.min(bytes, Meminfo.available() / 4);
        long start = System.nanoTime();
        if (n > 0) {
            Path file = Files.createTempFile(dir, "prefault-", ".scratch");
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
                long written = 0;
                while (written < n) {
                    ByteBuffer piece = zeros.duplicate();
                    piece.limit((int) Math.min(WRITE_SIZE, n - written));
                    while (piece.hasRemaining()) {
                        written += out.write(piece);
                    }
                }
            } finally {
                Files.deleteIfExists(file);
            }
        }
        lastNanos = System.nanoTime() - start;
        return n;
    }

    /** How long the last {@link #touch} took. */
    public long lastNanos() {
        return lastNanos;
    }
}
