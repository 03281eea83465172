package dev.sluice.strategy.sort;

import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.FilePurpose;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.storage.PartitionChecksums;
import dev.sluice.spi.storage.WritableFile;
import dev.sluice.strategy.support.BufferedFileChannel;
import dev.sluice.strategy.support.ChecksumChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

/**
 * {@code ShuffleExternalSorter.writeSortedFile}: the records in memory, sorted by partition, to a new file through a
 * {@code spark.shuffle.file.buffer} buffer, each record copied from its page through the disk write buffer
 * ({@code spark.shuffle.spill.diskWriteBufferSize}); the file is flushed at the end of each partition's segment, as
 * {@code DiskBlockObjectWriter.commitAndGet} flushes, so that the segment's length is known. With checksums, each
 * partition's checksum sees its segments' bytes in the order the merged output holds them. Knows which partitions
 * have begun their stream (and so which need an end marker in the task's last file).
 */
final class SortedFile {
    private final SortSettings settings;
    private final CountedStorage storage;
    private final MapOutputFiles files;
    private final StreamFormat format;
    private final HostAllocator allocator;
    private final PartitionChecksums checksums;
    private final int partitions;
    /** Partitions whose stream header has been written, in an earlier file or this one. */
    private final BitSet begun = new BitSet();

    SortedFile(SortSettings settings, CountedStorage storage, MapOutputFiles files, StreamFormat format,
               HostAllocator allocator, PartitionChecksums checksums, int partitions) {
        this.settings = settings;
        this.storage = storage;
        this.files = files;
        this.format = format;
        this.allocator = allocator;
        this.checksums = checksums;
        this.partitions = partitions;
    }

    /**
     * Writes the records {@code pointers} points at in {@code pages}, sorted by partition. {@code last}: the task's
     * last file, whose segments end every begun partition's stream. {@code dataFile}: the task wrote no file before,
     * so that this one, if last, becomes the data file (a map output file, Spark's shuffle write, and left open);
     * any other is a spill file, closed once written. On failure the file is deleted.
     */
    Spill write(PointerArray pointers, List<HostBuffer> pages, boolean last, boolean first) throws IOException {
        Path path = files.newTempShuffleFile();
        boolean dataFile = last && first;
        WritableFile file = storage.create(path, dataFile ? FilePurpose.MAP_OUTPUT : FilePurpose.SPILL);
        Spill spill = new Spill(path, file, partitions);
        try (HostBuffer fileBuffer = allocator.buffer(settings.fileBuffer);
             HostBuffer diskWriteBuffer = allocator.buffer(settings.diskWriteBuffer)) {
            BufferedFileChannel out = new BufferedFileChannel(file, fileBuffer.nioBuffer(0, settings.fileBuffer));
            ByteBuffer copy = diskWriteBuffer.nioBuffer(0, settings.diskWriteBuffer);
            int start = pointers.sortByPartition();
            int end = start + pointers.records();
            int next = start;
            // The last file visits every partition (a begun one needs its end marker); a spill only its records'.
            int partition = last ? 0 : (next < end ? PackedPointer.partition(pointers.get(next)) : partitions);
            while (partition < partitions) {
                long segmentStart = out.bytesWritten();
                WritableByteChannel segment = checksums == null ? out : new ChecksumChannel(out, checksums.of(partition));
                boolean hasRecords = next < end && PackedPointer.partition(pointers.get(next)) == partition;
                if (hasRecords && !begun.get(partition)) {
                    segment.write(ByteBuffer.wrap(format.streamHeader()));
                    begun.set(partition);
                }
                while (next < end && PackedPointer.partition(pointers.get(next)) == partition) {
                    copyRecord(pointers.get(next), pages, copy, segment);
                    next++;
                }
                if (last && begun.get(partition)) {
                    segment.write(ByteBuffer.wrap(format.endOfStream()));
                }
                out.flush();
                spill.partitionLengths[partition] = out.bytesWritten() - segmentStart;
                partition = last ? partition + 1 : (next < end ? PackedPointer.partition(pointers.get(next)) : partitions);
            }
            if (!dataFile) {
                spill.close();
            }
            return spill;
        } catch (IOException | RuntimeException | Error e) {
            try {
                spill.discard(storage);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /** A record's bytes, after its length in its page, through the disk write buffer, a buffer-full at a time. */
    private static void copyRecord(long pointer, List<HostBuffer> pages, ByteBuffer copy, WritableByteChannel out)
            throws IOException {
        HostBuffer page = pages.get(PackedPointer.page(pointer));
        long offset = PackedPointer.offset(pointer);
        int remaining = page.nioBuffer(offset, 4).getInt(0);
        long position = offset + 4;
        while (remaining > 0) {
            int n = Math.min(copy.capacity(), remaining);
            copy.clear().limit(n);
            page.getBytes(position, copy);
            copy.flip();
            while (copy.hasRemaining()) {
                out.write(copy);
            }
            position += n;
            remaining -= n;
        }
    }

    /** Each partition's checksum over all its segments so far, or null without checksums. */
    PartitionChecksums checksums() {
        return checksums;
    }
}
