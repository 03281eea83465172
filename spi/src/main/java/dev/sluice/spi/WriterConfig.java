package dev.sluice.spi;

import dev.sluice.spi.memory.MemoryScope;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What every writer strategy shares, validated as a whole when built: an invalid value is refused with its parameter
 * name, the value and what is allowed, before anything touches the file system. Parameter names are those of the
 * command line (without the dashes). What only one strategy uses is an option of that strategy (its
 * {@link ShuffleWriterFactory#options}). The codec is not here: the records' payloads bring their bytes compressed, and
 * a strategy never sees which codec did it.
 */
@WriterGiven
public final class WriterConfig {
    /** {@link #memoryLimit} when there is none (upstream's default: {@code offHeapLimit.enabled=false}). */
    public static final long UNLIMITED = Long.MAX_VALUE;

    public final int partitions;
    /** Writer threads of the executor ({@code spark.rapids.shuffle.multiThreaded.writer.threads}). */
    public final int threads;
    public final Path outputDir;
    public final boolean fsync;
    /**
     * Host memory the executor's writers may hold together, all map tasks included
     * ({@code spark.rapids.memory.host.offHeapLimit.size}); {@link #UNLIMITED} when there is no limit.
     */
    public final long memoryLimit;
    /**
     * Where executors of one process share what the memory limit bounds, or null when this executor has its own
     * ({@link MemoryScope}).
     */
    public final MemoryScope memoryScope;

    private WriterConfig(Builder b) {
        this.partitions = b.partitions;
        this.threads = b.threads;
        this.outputDir = b.outputDir;
        this.fsync = b.fsync;
        this.memoryLimit = b.memoryLimit;
        this.memoryScope = b.memoryScope;
    }

    public boolean hasMemoryLimit() {
        return memoryLimit != UNLIMITED;
    }

    /**
     * A memory limit as a command line or a JMH parameter gives it: {@code none} ({@link #UNLIMITED}) or a byte size.
     *
     * @param parameter the parameter's name, for the error
     */
    public static long parseMemoryLimit(String parameter, String text) {
        if ("none".equals(text)) {
            return UNLIMITED;
        }
        try {
            return Bytes.parse(text);
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(parameter, text, "none or a byte size (examples: 4096, 32k, 64m, 1.5g)");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        /** The seed report's {@code writer.threads}; upstream's default is 20 (RapidsConf). */
        public static final int DEFAULT_THREADS = 16;

        private int partitions = 200;
        private int threads = DEFAULT_THREADS;
        private long memoryLimit = UNLIMITED;
        private Path outputDir;
        private boolean fsync;
        private MemoryScope memoryScope;

        public Builder partitions(int v) {
            partitions = v;
            return this;
        }

        public Builder threads(int v) {
            threads = v;
            return this;
        }

        /** Host memory limit of the executor; {@link #UNLIMITED} for none. */
        public Builder memoryLimit(long v) {
            memoryLimit = v;
            return this;
        }

        /** Shares the memory limit with every executor built with the same scope (null: this one's own). */
        public Builder memoryScope(MemoryScope v) {
            memoryScope = v;
            return this;
        }

        public Builder outputDir(Path v) {
            outputDir = v;
            return this;
        }

        public Builder fsync(boolean v) {
            fsync = v;
            return this;
        }

        /** Validates every parameter; creates nothing. */
        public WriterConfig build() {
            if (partitions < 1) {
                throw new InvalidParameterException("partitions", partitions, "an integer >= 1");
            }
            if (threads < 1) {
                throw new InvalidParameterException("threads", threads, "an integer >= 1");
            }
            if (memoryLimit < 1) {
                throw new InvalidParameterException("memory-limit", memoryLimit, "none, or a size >= 1 byte");
            }
            checkOutputDir(outputDir);
            return new WriterConfig(this);
        }

        /**
         * The output directory must be a writable directory, or not exist yet under a writable directory (it is
         * created when the first map task starts).
         */
        static void checkOutputDir(Path dir) {
            String allowed = "a writable directory, or a path whose nearest existing parent is a writable directory";
            if (dir == null) {
                throw new InvalidParameterException("out", null, allowed);
            }
            Path existing = dir.toAbsolutePath();
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            if (existing == null) {
                throw new InvalidParameterException("out", dir, allowed);
            }
            if (!Files.isDirectory(existing)) {
                throw new InvalidParameterException("out", dir, allowed + " (" + existing + " is not a directory)");
            }
            if (!Files.isWritable(existing) || !Files.isExecutable(existing)) {
                throw new InvalidParameterException("out", dir, allowed + " (" + existing + " is not writable)");
            }
        }
    }
}
