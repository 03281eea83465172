package dev.sluice.core.write.consolidate;

import dev.sluice.core.io.BufferedFileChannel;
import dev.sluice.core.io.Cleanup;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.ReadableFile;
import dev.sluice.core.io.WritableFile;
import dev.sluice.core.memory.MemoryBudget;
import dev.sluice.core.output.SegmentSource;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * PR-13724's partial-file handle: one batch's partitions, contiguous, in a growable pooled direct buffer while the
 * writer's memory allows; when it cannot grow (or the writer needs the memory back), it writes what it holds once and
 * continues as a file through a small write buffer. Every byte of the buffer is charged to the writer's
 * {@link MemoryBudget} before it is allocated, so the handle never takes the writer over its limit; growth is capped
 * at {@link #MAX_CAPACITY} (one huge buffer is what ran upstream out of memory, spark-rapids #14174).
 */
final class PartialHandle implements SegmentSource {
    static final long MAX_CAPACITY = 1L << 30;
    static final int FILE_BUFFER = 64 * 1024;

    private final ReentrantLock lock = new ReentrantLock();
    private final MemoryBudget memory;
    private final ByteBufAllocator allocator;
    private final CountedStorage storage;
    private final Supplier<Path> spillPath;
    private final PartialSizing sizing;

    private ByteBuf buffer;
    private long bufferReserved;
    private Path path;
    private WritableFile file;
    private ByteBuf fileBuffer;
    private BufferedFileChannel fileOut;
    private ReadableFile readBack;
    private long size;
    private boolean released;

    PartialHandle(MemoryBudget memory, ByteBufAllocator allocator, CountedStorage storage, Supplier<Path> spillPath,
                  PartialSizing sizing) {
        this.memory = memory;
        this.allocator = allocator;
        this.storage = storage;
        this.spillPath = spillPath;
        this.sizing = sizing;
    }

    /** Appends one record's bytes (merger thread). */
    void append(ByteBuf record) throws IOException {
        int n = record.readableBytes();
        lock.lock();
        try {
            if (file == null && ensureCapacity(size + n)) {
                buffer.writeBytes(record, record.readerIndex(), n);
            } else {
                if (file == null) {
                    spillLocked();
                }
                fileOut.write(record.nioBuffer());
                storage.counters().recordSpill(n);
            }
            size += n;
        } finally {
            lock.unlock();
        }
    }

    /** Makes room for {@code needed} bytes in memory, charging the budget first; false if the budget refused. */
    private boolean ensureCapacity(long needed) {
        long capacity = buffer == null ? 0 : buffer.capacity();
        if (needed <= capacity) {
            return true;
        }
        long target = buffer == null ? Math.max(needed, sizing.initialCapacity()) : sizing.grow(capacity, needed);
        target = Math.min(target, MAX_CAPACITY);
        if (target < needed || !memory.tryReserve(target)) {
            return false;
        }
        try {
            if (buffer == null) {
                buffer = allocator.directBuffer((int) target, (int) MAX_CAPACITY);
            } else {
                // Regrowth copies into a new buffer while the old one still exists: both were charged.
                buffer.capacity((int) target);
            }
        } catch (RuntimeException | Error e) {
            memory.release(target);
            throw e;
        }
        memory.release(bufferReserved);
        bufferReserved = target;
        return true;
    }

    /**
     * Writes what the buffer holds to a file in one call and frees the buffer, if it is in memory (any thread).
     * Returns the bytes of memory given back.
     */
    long spill() throws IOException {
        lock.lock();
        try {
            if (file != null || released || size == 0) {
                return 0;
            }
            long freed = bufferReserved;
            spillLocked();
            return freed;
        } finally {
            lock.unlock();
        }
    }

    /** Moves the handle to a file, atomically: if writing what it holds fails, the file is removed again. */
    private void spillLocked() throws IOException {
        Path newPath = spillPath.get();
        WritableFile newFile = storage.create(newPath);
        try {
            if (buffer != null && size > 0) {
                newFile.write(buffer.nioBuffer(0, (int) size));
                storage.counters().recordSpill(size);
            }
        } catch (IOException | RuntimeException | Error e) {
            try {
                newFile.close();
                storage.delete(newPath);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        path = newPath;
        file = newFile;
        if (buffer != null) {
            freeBuffer();
        }
        // The file's write buffer is memory too; without room for it, bytes go straight to the file.
        if (memory.tryReserve(FILE_BUFFER)) {
            fileBuffer = allocator.directBuffer(FILE_BUFFER, FILE_BUFFER);
            fileOut = new BufferedFileChannel(file, fileBuffer.nioBuffer(0, FILE_BUFFER));
        } else {
            fileOut = new BufferedFileChannel(file, ByteBuffer.allocate(0));
        }
    }

    private void freeBuffer() {
        buffer.release();
        buffer = null;
        memory.release(bufferReserved);
        bufferReserved = 0;
    }

    /**
     * The batch is complete (merger thread): a file is flushed and closed; a buffer with more than a quarter of its
     * capacity unused is copied into one of exactly its size, giving the slack back to the writer (upstream keeps it),
     * if the budget has room for the copy.
     */
    void finish() throws IOException {
        lock.lock();
        try {
            closeFile();
            if (buffer != null && size > 0 && bufferReserved - size > bufferReserved / 4 && memory.tryReserve(size)) {
                ByteBuf exact;
                try {
                    exact = allocator.directBuffer((int) size, (int) size);
                } catch (RuntimeException | Error e) {
                    memory.release(size);
                    throw e;
                }
                exact.writeBytes(buffer, 0, (int) size);
                freeBuffer();
                buffer = exact;
                bufferReserved = size;
            }
        } finally {
            lock.unlock();
        }
    }

    private void closeFile() throws IOException {
        if (file == null || !file.isOpen()) {
            return;
        }
        try {
            fileOut.flush();
        } finally {
            file.close();
            if (fileBuffer != null) {
                fileBuffer.release();
                fileBuffer = null;
                memory.release(FILE_BUFFER);
            }
        }
    }

    /** The spill file's path, or null while in memory. */
    Path path() {
        return path;
    }

    long size() {
        return size;
    }

    @Override
    public boolean inMemory() {
        return file == null;
    }

    /** Memory this handle holds now. */
    long memoryHeld() {
        lock.lock();
        try {
            return bufferReserved;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public ByteBuffer memorySlice(long offset, long length) {
        return buffer.nioBuffer((int) offset, (int) length);
    }

    @Override
    public ReadableFile file() throws IOException {
        if (readBack == null) {
            readBack = storage.openForRead(path);
        }
        return readBack;
    }

    @Override
    public void release() throws IOException {
        lock.lock();
        try {
            if (released) {
                return;
            }
            released = true;
            Cleanup cleanup = new Cleanup().run(this::closeFile);
            if (buffer != null) {
                freeBuffer();
            }
            if (readBack != null) {
                cleanup.run(readBack::close);
            }
            if (path != null) {
                cleanup.run(() -> storage.delete(path));
            }
            cleanup.done();
        } finally {
            lock.unlock();
        }
    }
}
