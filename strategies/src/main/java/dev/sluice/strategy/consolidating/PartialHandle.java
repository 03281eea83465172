package dev.sluice.strategy.consolidating;

import dev.sluice.spi.storage.Cleanup;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.FilePurpose;
import dev.sluice.spi.storage.ReadableFile;
import dev.sluice.spi.storage.SegmentSource;
import dev.sluice.spi.storage.WritableFile;
import dev.sluice.strategy.support.BufferedFileChannel;
import dev.sluice.strategy.support.HostBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * PR-13724's partial-file handle ({@code SpillablePartialFileHandle} @ e465ec3851): one batch's partitions,
 * contiguous, each a complete stream (header, records, end-of-stream marker), so that a single batch's partial is
 * the data file as it stands. It lives in a host buffer while memory allows and continues as a file after that:
 * <ul>
 *   <li>The buffer starts at {@code initialPartial} when the batch starts, unless the memory bound says no (upstream's
 *       {@code FILE_ONLY} mode), and comes from an allocator that does not zero memory, as
 *       {@code HostMemoryBuffer.allocate(size, false)} mallocs.</li>
 *   <li>When a write does not fit, the buffer grows as the strategy's {@link PartialSizing} says: a new buffer is
 *       allocated, what was written is copied over and the old one freed. If it cannot grow (maximum reached, or the
 *       memory bound refuses) it writes what it holds to its file in one call and continues there through a 64 KiB
 *       buffered stream.</li>
 *   <li>Once finished, it keeps its capacity ({@code shrink=true} copies it into an exact-size buffer instead).</li>
 * </ul>
 * With {@code partial=chunked} (Sluice) the memory is a list of fixed-size chunks instead: growing takes one more chunk
 * (charged like a growth) and copies nothing; {@code pool=true} takes buffers from, and gives them back to, the
 * executor's pool instead of the allocator.
 * Readers read by position under the handle's lock, so another thread may spill it between reads (an exact memory
 * bound spills the executor's largest partial). A pinned handle (being merged from memory) is never spilled.
 */
final class PartialHandle implements SegmentSource {
    /** {@code new BufferedOutputStream(fos, 64 * 1024)} of {@code ensureFileOutputStreamOpen}. */
    static final int FILE_BUFFER = 64 * 1024;

    private final ReentrantLock lock = new ReentrantLock();
    private final WriterMemory memory;
    private final ExecutorMemory host;
    private final HostBuffers buffers;
    private final CountedStorage storage;
    private final Supplier<Path> spillPath;
    private final ConsolidatingSettings settings;

    private boolean started;
    /** The bytes while in memory; null before the first append and once in a file. */
    private PartialMemory buffer;
    /** Capacity of the memory, which is what the memory bound was charged. */
    private long capacity;
    private long size;
    private int completedPartitions;
    private long completedBytes;
    private Path path;
    private WritableFile file;
    private BufferedFileChannel fileOut;
    private ByteBuffer fileBuffer;
    private ReadableFile readBack;
    private int pins;
    private boolean committed;
    private boolean finished;
    private boolean released;

    PartialHandle(WriterMemory memory, ExecutorMemory host, HostBuffers buffers, CountedStorage storage,
                  Supplier<Path> spillPath, ConsolidatingSettings settings) {
        this.memory = memory;
        this.host = host;
        this.buffers = buffers;
        this.storage = storage;
        this.spillPath = spillPath;
        this.settings = settings;
    }

    /** The writer whose memory this partial is. */
    WriterMemory owner() {
        return memory;
    }

    /** Merger: partitions 0..{@code partition}-1 of the batch are complete; the next bytes are {@code partition}'s. */
    void partitionStarting(int partition) {
        lock.lock();
        try {
            completedPartitions = partition;
            completedBytes = size;
        } finally {
            lock.unlock();
        }
    }

    /** Merger: appends {@code src}'s remaining bytes (its position does not move). */
    void append(ByteBuffer src) throws IOException {
        int n = src.remaining();
        lock.lock();
        try {
            if (finished || released) {
                throw new IllegalStateException("partial already " + (released ? "released" : "finished"));
            }
            if (!started) {
                started = true;
                if (!memory.partialMayStartInMemory() || !startInMemoryLocked()) {
                    toFileLocked();
                }
            }
            // Records hold what they adopted; the few bytes between them (headers, end markers) are copies.
            if (file == null && size + n > capacity && !(buffer instanceof PartialMemory.Records)) {
                growLocked(size + n);
            }
            if (file == null) {
                buffer.put(size, src);
            } else {
                fileOut.write(src.duplicate());
                memory.spilled(n);
            }
            size += n;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Merger: a compressed record. With {@code partial=records} the handle takes over the record's buffer instead of
     * copying it, its memory becoming partial memory ({@link WriterMemory#tryAdoptRecord}), and returns true: the
     * caller must then neither release the record nor give back its memory. Otherwise (other layouts, in a file, or
     * when the memory bound or {@code maxPartial} says no) the bytes are copied and the caller keeps the record.
     */
    boolean appendRecord(SerializedRecord record) throws IOException {
        if (settings.partial != Modes.Partial.RECORDS) {
            append(record.bytes());
            return false;
        }
        lock.lock();
        try {
            if (!started) {
                // A batch starts with its first record's stream header, so the handle has started by now.
                throw new IllegalStateException("a record before its stream header");
            }
            long memoryHeld = record.memory();
            if (file == null && !finished && !released && capacity + memoryHeld <= settings.maxPartial
                    && memory.tryAdoptRecord(memoryHeld)) {
                ((PartialMemory.Records) buffer).adopt(record);
                capacity += memoryHeld;
                size += record.bytes().remaining();
                host.holdsMemory(this);
                return true;
            }
            if (file == null && !finished && !released) {
                toFileLocked();
            }
        } finally {
            lock.unlock();
        }
        append(record.bytes());
        return false;
    }

    /** The first memory: {@code initialPartial}, one chunk, or none for records; false if the memory bound refused. */
    private boolean startInMemoryLocked() throws IOException {
        if (settings.partial == Modes.Partial.RECORDS) {
            buffer = new PartialMemory.Records();
            return true;
        }
        if (settings.partial == Modes.Partial.CHUNKED) {
            buffer = new PartialMemory.Chunked(buffers, settings.chunk);
            return addChunkLocked();
        }
        return replaceBufferLocked(settings.initialPartial);
    }

    /** One more chunk, charged first; false, and nothing changed, if the memory bound refused. */
    private boolean addChunkLocked() throws IOException {
        PartialMemory.Chunked chunks = (PartialMemory.Chunked) buffer;
        long more = chunks.chunkCapacity();
        if (capacity + more > settings.maxPartial || !memory.tryReservePartial(more)) {
            return false;
        }
        try {
            chunks.addChunk();
        } catch (RuntimeException | Error e) {
            memory.releasePartial(more);
            throw e;
        }
        capacity += more;
        host.holdsMemory(this);
        return true;
    }

    /**
     * Charges and allocates a buffer of {@code bytes} in place of the current one (if any), whose {@code size} bytes
     * are copied over before it is freed; false, and nothing changed, if the memory bound refused. As upstream's
     * {@code expandBuffer}: the new buffer is allocated, what was written copied, then the old one freed, so both exist
     * meanwhile.
     */
    private boolean replaceBufferLocked(long bytes) throws IOException {
        long charge = buffers.capacityFor(bytes);
        if (!memory.tryReservePartial(charge)) {
            return false;
        }
        PartialMemory next;
        try {
            next = new PartialMemory.Contiguous(buffers, bytes, (PartialMemory.Contiguous) buffer, size);
        } catch (RuntimeException | Error e) {
            memory.releasePartial(charge);
            throw e;
        }
        if (buffer != null) {
            buffer.free();
            memory.releasePartial(capacity);
        }
        buffer = next;
        capacity = charge;
        host.holdsMemory(this);
        return true;
    }

    /**
     * {@code expandBuffer}: a bigger buffer (or more chunks), or the file when the sizing, the maximum or the memory
     * bound says no.
     */
    private void growLocked(long required) throws IOException {
        if (buffer instanceof PartialMemory.Chunked) {
            while (capacity < required) {
                if (!addChunkLocked()) {
                    toFileLocked();
                    return;
                }
            }
            return;
        }
        long next = settings.sizing.grow(capacity, required, completedPartitions, completedBytes,
                settings.maxPartial);
        if (next < required || !replaceBufferLocked(next)) {
            toFileLocked();
        }
    }

    /**
     * Moves the handle to its file ({@code spillBufferToFileAndSwitch}): what the buffer holds is written in one call
     * and the buffer freed; later appends go through a 64 KiB buffered stream. Atomic: if writing fails, the file is
     * removed again and the buffer kept.
     */
    private void toFileLocked() throws IOException {
        Path newPath = spillPath.get();
        WritableFile newFile = storage.create(newPath, FilePurpose.SPILL);
        try {
            if (buffer != null && size > 0) {
                buffer.writeTo(newFile, size);
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
        if (committed) {
            storage.commit(List.of(newPath));
        }
        memory.spilled(size);
        freeBuffer();
        if (!finished) {
            // A stream buffer is memory too; without room for it, bytes go straight to the file.
            fileBuffer = memory.tryReserveIoBuffer(FILE_BUFFER) ? ByteBuffer.allocate(FILE_BUFFER) : ByteBuffer.allocate(0);
            fileOut = new BufferedFileChannel(file, fileBuffer);
            if (fileBuffer.capacity() > 0) {
                host.holdsMemory(this); // an exact bound may take the stream buffer back (spill)
            }
        }
    }

    private void freeBuffer() {
        if (buffer != null) {
            buffer.free();
            buffer = null;
            memory.releasePartial(capacity);
            capacity = 0;
            host.freedMemory(this);
        }
    }

    /**
     * The batch is complete (merger): a file is flushed (and stays open, to be renamed or read); with
     * {@code shrink=true}, a buffer with over a quarter of its capacity unused is copied into one of exactly its size.
     */
    void finish() throws IOException {
        lock.lock();
        try {
            finished = true;
            closeFileStream();
            if (settings.shrink && buffer instanceof PartialMemory.Contiguous && size > 0
                    && capacity - size > capacity / 4) {
                replaceBufferLocked(size);
            }
        } finally {
            lock.unlock();
        }
    }

    private void closeFileStream() throws IOException {
        if (fileOut == null) {
            return;
        }
        try {
            fileOut.flush();
        } finally {
            fileOut = null;
            memory.releaseIoBuffer(fileBuffer.capacity());
            fileBuffer = null;
            if (buffer == null) {
                host.freedMemory(this);
            }
        }
    }

    /**
     * Memory a spill would give back now: the buffer's, or once in a file the stream buffer's; 0 while pinned or in
     * use by no one.
     */
    long spillableBytes() {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
            if (file != null) {
                return fileBuffer == null ? 0 : fileBuffer.capacity();
            }
            return released || pins > 0 || size == 0 ? 0 : capacity;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Memory a spill of this finished partial would give back now, as {@code HostAlloc}'s spill sees it: a finished,
     * unpinned partial in memory (upstream's handle is spillable once {@code finishWrite} ended its write phase); 0
     * otherwise, or while another thread holds it.
     */
    long finishedSpillableBytes() {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
            return finishedInMemoryLocked() ? capacity : 0;
        } finally {
            lock.unlock();
        }
    }

    /** Finished, unpinned, holding bytes in memory: what {@code HostAlloc}'s spill may take. */
    private boolean finishedInMemoryLocked() {
        return finished && !released && pins == 0 && file == null && buffer != null && size > 0;
    }

    /**
     * Spills this partial if it is finished, unpinned, in memory and no other thread holds it at the moment; returns
     * the memory freed, 0 if it did not spill. Never waits for the handle's lock, so a merger holding its own partial
     * may call it on others.
     */
    long trySpillFinished() throws IOException {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
            if (!finishedInMemoryLocked()) {
                return 0;
            }
            long freed = capacity;
            toFileLocked();
            return freed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes what the buffer holds to the file in one call and frees the buffer (any thread); for a handle already in
     * a file, flushes its stream buffer and continues without one, so that open spilled partials cannot hold every
     * byte of an exact limit. Returns the memory freed.
     */
    long spill() throws IOException {
        lock.lock();
        try {
            if (file != null && fileOut != null && fileBuffer.capacity() > 0) {
                long freed = fileBuffer.capacity();
                closeFileStream();
                fileBuffer = ByteBuffer.allocate(0);
                fileOut = new BufferedFileChannel(file, fileBuffer);
                return freed;
            }
            if (released || file != null || buffer == null || pins > 0 || size == 0) {
                return 0;
            }
            long freed = capacity;
            toFileLocked();
            return freed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A committed output (a segment catalog) now holds this handle: its file, now or after a later spill, is part of
     * that output, not one left behind, and the storage counts it as committed.
     */
    void heldByCommittedOutput() throws IOException {
        lock.lock();
        try {
            committed = true;
            if (path != null) {
                storage.commit(List.of(path));
            }
        } finally {
            lock.unlock();
        }
    }

    /** Keeps the handle in memory (if it is) until {@link #unpin}: its memory slices stay valid. */
    void pin() {
        lock.lock();
        try {
            pins++;
        } finally {
            lock.unlock();
        }
    }

    void unpin() {
        lock.lock();
        try {
            pins--;
        } finally {
            lock.unlock();
        }
    }

    long size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean inMemory() {
        lock.lock();
        try {
            return file == null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Bytes [offset, offset+length) of a pinned handle in memory, without a copy: one piece for a contiguous buffer,
     * one per chunk touched for chunks.
     */
    void memorySlices(long offset, long length, List<ByteBuffer> out) {
        lock.lock();
        try {
            if (pins == 0 || buffer == null) {
                throw new IllegalStateException("memory slice of a partial that is not pinned in memory");
            }
            buffer.slices(offset, length, out);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int read(long position, ByteBuffer dst) throws IOException {
        lock.lock();
        try {
            if (released) {
                throw new IOException("partial of " + size + " bytes was released");
            }
            if (position >= size) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), size - position);
            if (file == null) {
                ByteBuffer window = dst.slice();
                window.limit(n);
                buffer.get(position, window);
                dst.position(dst.position() + n);
                return n;
            }
            if (readBack == null) {
                readBack = storage.openForRead(path);
            }
            ByteBuffer window = dst.slice().limit(n);
            int read = readBack.read(window, position);
            dst.position(dst.position() + Math.max(read, 0));
            return read;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The finished file, open, handed over to the caller, who now owns it (a single batch's partial file renamed
     * into the data file, as {@code RapidsLocalDiskShuffleMapOutputWriter} does); null if the handle is in memory.
     */
    WritableFile takeFile() {
        lock.lock();
        try {
            if (file == null || !finished) {
                return null;
            }
            WritableFile taken = file;
            file = null;
            path = null;
            return taken;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void release() throws IOException {
        lock.lock();
        try {
            if (released) {
                return;
            }
            released = true;
            Cleanup cleanup = new Cleanup().run(this::closeFileStream);
            freeBuffer();
            if (readBack != null) {
                cleanup.run(readBack::close);
            }
            if (file != null) {
                cleanup.run(file::close);
            }
            if (path != null) {
                Path p = path;
                cleanup.run(() -> storage.delete(p));
            }
            cleanup.done();
        } finally {
            lock.unlock();
        }
    }
}
