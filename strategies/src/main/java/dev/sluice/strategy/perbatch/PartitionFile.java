package dev.sluice.strategy.perbatch;

import dev.sluice.spi.Payload;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.FilePurpose;
import dev.sluice.spi.storage.ReadableFile;
import dev.sluice.spi.storage.WritableFile;
import dev.sluice.strategy.support.BufferedFileChannel;
import dev.sluice.strategy.support.ChecksumChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.zip.Checksum;

/**
 * One reduce partition's temp file ({@code temp_shuffle_<uuid>}), as Spark's {@code DiskBlockObjectWriter} keeps it:
 * opened on the partition's first record, written through a {@code spark.shuffle.file.buffer}-sized buffer, finished
 * at commit and then copied into the data file and deleted. With a checksum, every byte written updates it, as
 * Spark's {@code DiskBlockObjectWriter} does when shuffle checksums are on. Used by one slot thread at a time.
 */
final class PartitionFile {
    private final CountedStorage storage;
    private final Path path;
    private final WritableFile file;
    private final HostBuffer buffer;
    private final BufferedFileChannel buffered;
    /** What records go through: the buffer, behind the checksum if there is one. */
    private final WritableByteChannel out;
    private boolean open = true;

    private PartitionFile(CountedStorage storage, Path path, WritableFile file, HostBuffer buffer, Checksum checksum) {
        this.storage = storage;
        this.path = path;
        this.file = file;
        this.buffer = buffer;
        this.buffered = new BufferedFileChannel(file, buffer.nioBuffer(0, (int) buffer.capacity()));
        this.out = checksum == null ? buffered : new ChecksumChannel(buffered, checksum);
    }

    /** Creates the file and writes the stream header; {@code checksum} (or null) sees every byte written. */
    static PartitionFile create(CountedStorage storage, Path path, HostAllocator allocator, int bufferSize,
                                Checksum checksum, byte[] header) throws IOException {
        HostBuffer buffer = allocator.buffer(bufferSize);
        WritableFile file;
        try {
            file = storage.create(path, FilePurpose.TEMP);
        } catch (IOException | RuntimeException e) {
            buffer.close();
            throw e;
        }
        PartitionFile partition = new PartitionFile(storage, path, file, buffer, checksum);
        try {
            partition.out.write(ByteBuffer.wrap(header));
        } catch (IOException | RuntimeException e) {
            partition.discard();
            throw e;
        }
        return partition;
    }

    /** Appends the payload's bytes; compression scratch comes from {@code scratch}. */
    void append(Payload payload, HostAllocator scratch) throws IOException {
        payload.writeTo(out, scratch);
    }

    /** Writes the end-of-stream marker, flushes, closes the file and frees the buffer; returns the file's length. */
    long finish(byte[] endOfStream) throws IOException {
        out.write(ByteBuffer.wrap(endOfStream));
        buffered.flush();
        closeFileAndBuffer();
        return buffered.bytesWritten();
    }

    /** Appends the finished file to {@code target} by a kernel copy, one call. */
    void transferTo(WritableFile target, long length) throws IOException {
        try (ReadableFile in = storage.openForRead(path)) {
            target.transferFrom(in, 0, length);
        }
    }

    /** Appends the finished file to {@code target} through {@code copyBuffer}, one read and one write per fill. */
    void copyTo(WritableByteChannel target, ByteBuffer copyBuffer) throws IOException {
        try (ReadableFile in = storage.openForRead(path)) {
            long position = 0;
            while (true) {
                copyBuffer.clear();
                int n = in.read(copyBuffer, position);
                if (n < 0) {
                    return;
                }
                position += n;
                copyBuffer.flip();
                while (copyBuffer.hasRemaining()) {
                    target.write(copyBuffer);
                }
            }
        }
    }

    void delete() throws IOException {
        storage.delete(path);
    }

    /** Closes and deletes, whatever state the file is in. */
    void discard() throws IOException {
        try {
            closeFileAndBuffer();
        } finally {
            delete();
        }
    }

    /**
     * After a failure: discards every partition file still held (and forgets it), then closes {@code allocator};
     * problems go to {@code cause} as suppressed, so that one failed delete never leaves the next file behind.
     */
    static void discardAll(PartitionFile[] files, HostAllocator allocator, Throwable cause) {
        for (int p = 0; p < files.length; p++) {
            if (files[p] != null) {
                try {
                    files[p].discard();
                } catch (IOException | RuntimeException e) {
                    cause.addSuppressed(e);
                }
                files[p] = null;
            }
        }
        try {
            allocator.close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * What a file per partition needs of storage (per-batch's and bypass's): every task's partitions in temp files,
     * each appended to the data file and deleted in turn at commit, so about the output once plus one partition; a
     * temp file open per non-empty partition of every task until its commit.
     */
    static void planStorage(StoragePlan plan, WriterConfig config, TaskShape shape) {
        plan.bytes("temp files and data files (the output of " + shape.tasksText() + ", once)", shape.tasks
                * (shape.serializedBytes() + shape.serializedBytes() / config.partitions));
        plan.openFiles("a temp file per partition of " + shape.tasksText() + " (" + config.partitions + " each), "
                + "and each task's data, index and checksum files", (long) shape.tasks * (config.partitions + 3));
    }

    private void closeFileAndBuffer() throws IOException {
        if (open) {
            open = false;
            try {
                file.close();
            } finally {
                buffer.close();
            }
        }
    }
}
