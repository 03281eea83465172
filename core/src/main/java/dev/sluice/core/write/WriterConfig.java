package dev.sluice.core.write;

import dev.sluice.core.InvalidParameterException;
import dev.sluice.core.io.Bytes;
import dev.sluice.core.serde.ShuffleCodec;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Everything a writer strategy may be configured with, validated as a whole when built: an invalid value is refused
 * with its parameter name, the value and what is allowed, before anything touches the file system. Parameter names
 * are those of the command line (without the dashes).
 */
public final class WriterConfig {
    public final int partitions;
    public final int threads;
    public final int bufferSize;
    public final long maxBytesInFlight;
    public final long memoryLimit;
    public final ShuffleCodec codec;
    public final Path outputDir;
    public final boolean fsync;
    public final MergeCopy mergeCopy;
    public final int mergerThreads;
    public final boolean materialize;

    private WriterConfig(Builder b) {
        this.partitions = b.partitions;
        this.threads = b.threads;
        this.bufferSize = b.bufferSize;
        this.maxBytesInFlight = b.maxBytesInFlight;
        this.memoryLimit = b.memoryLimit;
        this.codec = b.codec;
        this.outputDir = b.outputDir;
        this.fsync = b.fsync;
        this.mergeCopy = b.mergeCopy;
        this.mergerThreads = b.mergerThreads;
        this.materialize = b.materialize;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        public static final int DEFAULT_THREADS = 16;
        public static final int DEFAULT_MERGER_THREADS = 4;
        public static final int DEFAULT_BUFFER_SIZE = 32 * 1024;
        public static final long DEFAULT_MAX_BYTES_IN_FLIGHT = 128 * Bytes.MiB;
        public static final long DEFAULT_MEMORY_LIMIT = 512 * Bytes.MiB;
        /** Larger file buffers than this are refused: a buffer is allocated per open partition. */
        public static final int MAX_BUFFER_SIZE = 1 << 30;

        private int partitions = 200;
        private int threads = DEFAULT_THREADS;
        private long bufferSizeRequested = DEFAULT_BUFFER_SIZE;
        private int bufferSize;
        private long maxBytesInFlight = DEFAULT_MAX_BYTES_IN_FLIGHT;
        private long memoryLimit = DEFAULT_MEMORY_LIMIT;
        private ShuffleCodec codec = ShuffleCodec.LZ4_FRAME;
        private Path outputDir;
        private boolean fsync;
        private MergeCopy mergeCopy = MergeCopy.TRANSFER;
        private int mergerThreads = DEFAULT_MERGER_THREADS;
        private boolean materialize;

        public Builder partitions(int v) {
            partitions = v;
            return this;
        }

        public Builder threads(int v) {
            threads = v;
            return this;
        }

        public Builder bufferSize(long v) {
            bufferSizeRequested = v;
            return this;
        }

        public Builder maxBytesInFlight(long v) {
            maxBytesInFlight = v;
            return this;
        }

        public Builder memoryLimit(long v) {
            memoryLimit = v;
            return this;
        }

        public Builder codec(ShuffleCodec v) {
            codec = v;
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

        public Builder mergeCopy(MergeCopy v) {
            mergeCopy = v;
            return this;
        }

        public Builder mergerThreads(int v) {
            mergerThreads = v;
            return this;
        }

        /** For {@code async}: write Spark's data and index files at commit instead of only a segment catalog. */
        public Builder materialize(boolean v) {
            materialize = v;
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
            if (bufferSizeRequested < 1 || bufferSizeRequested > MAX_BUFFER_SIZE) {
                throw new InvalidParameterException("buffer-size", bufferSizeRequested, "a size from 1 byte to 1g");
            }
            bufferSize = (int) bufferSizeRequested;
            if (mergerThreads < 1) {
                throw new InvalidParameterException("merger-threads", mergerThreads, "an integer >= 1");
            }
            if (maxBytesInFlight < 1) {
                throw new InvalidParameterException("max-bytes-in-flight", maxBytesInFlight, "a size >= 1 byte");
            }
            if (memoryLimit < 1) {
                throw new InvalidParameterException("memory-limit", memoryLimit, "a size >= 1 byte");
            }
            if (codec == null) {
                throw new InvalidParameterException("codec", null, "one of " + ShuffleCodec.names());
            }
            if (mergeCopy == null) {
                throw new InvalidParameterException("merge-copy", null, "transfer or stream");
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
