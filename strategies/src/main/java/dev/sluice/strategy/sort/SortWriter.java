package dev.sluice.strategy.sort;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.Payload;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.DataFileCommit;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.storage.PartitionChecksums;
import dev.sluice.strategy.support.BackgroundWriter;
import dev.sluice.strategy.support.ChecksumOptions;
import dev.sluice.strategy.support.HostBufferPool;
import dev.sluice.strategy.support.MemoryBudget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One map task of Spark's serialized sort shuffle ({@code UnsafeShuffleWriter} over {@code ShuffleExternalSorter},
 * Spark 4.1.1), all on the task thread. Each record is serialized into a buffer, then copied, behind its length,
 * into the task's current memory page, and its packed pointer goes into the pointer array. When the array is full it
 * doubles, and when a page is full a new one is taken, both from the executor's execution memory; when that refuses,
 * the task spills: the pointers are radix-sorted by partition and the records written in that order to a spill file,
 * a segment per partition, and the pages freed. At commit the records in memory are written the same way; a task that
 * never spilled renames that file into place as its data file, one that did concatenates each partition's segments
 * from every spill file ({@link SpillMerge}).
 *
 * <p>Spark compresses a partition's records as one stream per segment, which concatenates; here each record's
 * payload brings its bytes compressed (the SPI's payloads), a partition's stream header goes into its first segment,
 * and its end marker into its segment of the task's last file, so that the concatenated segments are the partition's
 * stream.
 */
final class SortWriter extends BackgroundWriter {
    /** {@code UnsafeShuffleWriter.DEFAULT_INITIAL_SER_BUFFER_SIZE}. */
    private static final int INITIAL_SER_BUFFER = 1024 * 1024;
    /** {@code UnsafeAlignedOffset.getUaoSize()} on x86 and aarch64: a record's length before its bytes. */
    private static final int LENGTH_BYTES = 4;

    private final WriterConfig config;
    private final SortSettings settings;
    private final CountedStorage storage;
    private final MapOutputFiles files;
    private final StreamFormat format;
    private final HostAllocator allocator;
    private final MemoryBudget held;
    private final ExecutionMemory memory;
    private final HostBufferPool pagePool;
    private final PointerArray pointers;
    private final SortedFile sortedFile;
    private final List<HostBuffer> pages = new ArrayList<>();
    private final List<Spill> spills = new ArrayList<>();
    private HostBuffer serBuffer;
    private HostBuffer currentPage;
    private long pageCursor;
    /** Execution memory this task holds: its pages and its pointer array. */
    private long pageBytes;
    private long arrayBytes;

    SortWriter(WriterConfig config, SortSettings settings, CountedStorage storage, MapOutputFiles files,
               StreamFormat format, HostAllocator allocator, MemoryBudget held, ExecutionMemory memory,
               HostBufferPool pagePool) {
        super("sort writer for map " + files.mapId(), config.partitions);
        this.config = config;
        this.settings = settings;
        this.storage = storage;
        this.files = files;
        this.format = format;
        this.allocator = allocator;
        this.held = held;
        this.memory = memory;
        this.pagePool = pagePool;
        this.pointers = new PointerArray(settings.initialBuffer);
        this.sortedFile = new SortedFile(settings, storage, files, format, allocator,
                ChecksumOptions.checksums(settings.checksum, config.partitions), config.partitions);
        acquireArray(pointers.bytes());
    }

    /** {@code insertRecordIntoSorter} and {@code ShuffleExternalSorter.insertRecord}. */
    @Override
    protected void accept(ShuffleRecord record) throws IOException {
        int length = serialize(record.payload());
        growPointerArrayIfNecessary();
        int required = length + LENGTH_BYTES;
        acquireNewPageIfNecessary(required);
        currentPage.nioBuffer(pageCursor, LENGTH_BYTES).putInt(0, length);
        currentPage.setBytes(pageCursor + LENGTH_BYTES, serBuffer.nioBuffer(0, length));
        pointers.insert(PackedPointer.pack(record.partitionId(), pages.size() - 1, pageCursor));
        pageCursor += required;
    }

    /**
     * The record's bytes in the serialization buffer ({@code serBuffer}, 1 MiB at first, grown to the largest record,
     * as Spark's {@code ExposedBufferByteArrayOutputStream} grows); returns how many.
     */
    private int serialize(Payload payload) throws IOException {
        long bound = payload.serializedBound();
        if (bound > Integer.MAX_VALUE - LENGTH_BYTES) {
            throw new IOException("a record of up to " + bound + " serialized bytes is larger than a sort page holds");
        }
        if (serBuffer == null || serBuffer.capacity() < bound) {
            long capacity = Math.max(bound, serBuffer == null ? INITIAL_SER_BUFFER : 2 * serBuffer.capacity());
            HostBuffer grown = allocator.buffer(Math.min(capacity, Integer.MAX_VALUE));
            if (serBuffer != null) {
                serBuffer.close();
            }
            serBuffer = grown;
        }
        return payload.writeInto(serBuffer.nioBuffer(0, (int) serBuffer.capacity()), allocator);
    }

    /** Doubles the pointer array when it is full; if execution memory refuses, spills (which empties it). */
    private void growPointerArrayIfNecessary() throws IOException {
        if (pointers.hasSpace()) {
            return;
        }
        int size = pointers.grownSize();
        long bytes = 8L * size;
        if (memory.tryAcquire(this, bytes)) {
            held.reserve(bytes);
            arrayBytes += bytes;
            releaseArray(pointers.expand(size));
        } else {
            spill();
        }
    }

    /**
     * A new page when the record does not fit in what is left of the current one: the page size, or the record's if
     * larger. If execution memory refuses it, the task spills and asks again; refused again (a task's share smaller
     * than a page), the page is taken beyond the share, where Spark fails the task with {@code SparkOutOfMemoryError}.
     */
    private void acquireNewPageIfNecessary(int required) throws IOException {
        if (currentPage != null && pageCursor + required <= currentPage.capacity()) {
            return;
        }
        long size = Math.max(settings.pageSize, required);
        if (size > PackedPointer.MAX_PAGE_BYTES) {
            throw new IOException("a record of " + required + " bytes needs a page larger than a packed pointer "
                    + "addresses (" + PackedPointer.MAX_PAGE_BYTES + " bytes)");
        }
        if (pages.size() == PackedPointer.MAX_PAGES) {
            throw new IOException("the task holds " + PackedPointer.MAX_PAGES + " pages, all a packed pointer "
                    + "addresses (TaskMemoryManager.PAGE_TABLE_SIZE)");
        }
        long capacity = pagePool.capacityFor(size);
        if (!memory.tryAcquire(this, capacity)) {
            spill();
            if (!memory.tryAcquire(this, capacity)) {
                memory.acquireAnyway(this, capacity);
            }
        }
        pageBytes += capacity;
        held.reserve(capacity);
        HostBuffer page;
        try {
            page = pagePool.take(size);
        } catch (RuntimeException | Error e) {
            pageBytes -= capacity;
            held.release(capacity);
            memory.release(this, capacity);
            throw e;
        }
        pages.add(page);
        currentPage = page;
        pageCursor = 0;
    }

    /** {@code ShuffleExternalSorter.spill}: the records in memory to a spill file, then their memory freed. */
    private void spill() throws IOException {
        if (pointers.records() == 0) {
            return;
        }
        spills.add(sortedFile.write(pointers, pages, false, spills.isEmpty()));
        freePages();
        resetArray();
    }

    /** Gives the pages back to the executor's pool, their memory first, so that the pool keeps what fits. */
    private void freePages() {
        held.release(pageBytes);
        memory.release(this, pageBytes);
        pageBytes = 0;
        for (HostBuffer page : pages) {
            pagePool.give(page);
        }
        pages.clear();
        currentPage = null;
    }

    private void resetArray() {
        long freed = pointers.reset(settings.initialBuffer);
        if (freed > 0) {
            releaseArray(freed);
        }
    }

    private void acquireArray(long bytes) {
        if (!memory.tryAcquire(this, bytes)) {
            memory.acquireAnyway(this, bytes);
        }
        held.reserve(bytes);
        arrayBytes += bytes;
    }

    private void releaseArray(long bytes) {
        held.release(bytes);
        memory.release(this, bytes);
        arrayBytes -= bytes;
    }

    @Override
    protected void wakeWaiters(Throwable cause) {
        // Nothing waits: the task thread does all the work.
    }

    /**
     * {@code closeAndWriteOutput}: the records in memory to the task's last file, then {@code mergeSpills}: no file,
     * an empty output; one, renamed into place; several, merged.
     */
    @Override
    protected MapOutput publish() throws IOException {
        if (pointers.records() > 0 || !spills.isEmpty()) {
            spills.add(sortedFile.write(pointers, pages, true, spills.isEmpty()));
        }
        freePages();
        releaseSerBuffer();
        if (spills.isEmpty()) {
            // Spark commits an empty output with no checksums (ShuffleChecksumHelper.EMPTY_CHECKSUM_VALUE).
            try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
                return commit.commit(new long[config.partitions], config.fsync);
            }
        }
        PartitionChecksums checksums = sortedFile.checksums();
        if (spills.size() == 1) {
            // LocalDiskSingleSpillMapOutputWriter.transferMapSpillFile: the file is renamed, not copied.
            Spill only = spills.remove(0);
            try (DataFileCommit commit = DataFileCommit.adopt(storage, files, only.file)) {
                only.file = null;
                return commit.commit(only.partitionLengths, checksums, config.fsync);
            }
        }
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            long[] lengths = new SpillMerge(settings, storage, allocator).merge(spills, config.partitions,
                    commit.data());
            while (!spills.isEmpty()) {
                spills.remove(spills.size() - 1).discard(storage);
            }
            return commit.commit(lengths, checksums, config.fsync);
        }
    }

    private void releaseSerBuffer() {
        if (serBuffer != null) {
            serBuffer.close();
            serBuffer = null;
        }
    }

    @Override
    protected void releaseAfterCommit() {
        releaseArray(arrayBytes);
        allocator.close();
    }

    @Override
    protected void cleanUp(Throwable cause) {
        for (Spill spill : spills) {
            try {
                spill.discard(storage);
            } catch (IOException | RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
        spills.clear();
        try {
            freePages();
            releaseArray(arrayBytes);
            releaseSerBuffer();
            allocator.close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public long peakBufferedBytes() {
        return held.peak();
    }
}
