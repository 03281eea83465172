package dev.sluice.strategy.sort;

import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.ReadableFile;
import dev.sluice.spi.storage.WritableFile;
import dev.sluice.strategy.support.BufferedFileChannel;
import dev.sluice.strategy.support.MergeCopy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.List;

/**
 * {@code UnsafeShuffleWriter.mergeSpillsUsingStandardWriter} on its fast path: every codec of Sluice's concatenates
 * (a payload's bytes are self-contained in it), and so each partition of the data file is its segments from every
 * spill file, in spill order, copied as they are. {@code mergeCopy=transfer}: one kernel copy per segment
 * ({@code mergeSpillsWithTransferTo}); {@code stream}: read through a {@code spark.shuffle.file.merge.buffer} buffer
 * per file and written through the data file's {@code spark.shuffle.unsafe.file.output.buffer}, flushed only at the
 * end ({@code mergeSpillsWithFileStream} without a codec). Spark's slow path, which decompresses and compresses each
 * segment again for a codec that does not concatenate, has nothing to model here.
 */
final class SpillMerge {
    private final SortSettings settings;
    private final CountedStorage storage;
    private final HostAllocator allocator;

    SpillMerge(SortSettings settings, CountedStorage storage, HostAllocator allocator) {
        this.settings = settings;
        this.storage = storage;
        this.allocator = allocator;
    }

    /** Appends every partition's segments to {@code data}; returns the partitions' lengths. */
    long[] merge(List<Spill> spills, int partitions, WritableFile data) throws IOException {
        long[] lengths = new long[partitions];
        ReadableFile[] inputs = new ReadableFile[spills.size()];
        long[] positions = new long[spills.size()];
        try {
            for (int s = 0; s < inputs.length; s++) {
                inputs[s] = storage.openForRead(spills.get(s).path);
            }
            if (settings.mergeCopy == MergeCopy.TRANSFER) {
                for (int p = 0; p < partitions; p++) {
                    for (int s = 0; s < inputs.length; s++) {
                        long length = spills.get(s).partitionLengths[p];
                        if (length > 0) {
                            data.transferFrom(inputs[s], positions[s], length);
                        }
                        positions[s] += length;
                        lengths[p] += length;
                    }
                }
            } else {
                streamMerge(spills, inputs, positions, lengths, data);
            }
            return lengths;
        } finally {
            for (ReadableFile input : inputs) {
                if (input != null) {
                    input.close();
                }
            }
        }
    }

    private void streamMerge(List<Spill> spills, ReadableFile[] inputs, long[] positions, long[] lengths,
                             WritableFile data) throws IOException {
        try (HostBuffer readBuffer = allocator.buffer(settings.mergeBuffer);
             HostBuffer outputBuffer = allocator.buffer(settings.outputBuffer)) {
            ByteBuffer read = readBuffer.nioBuffer(0, settings.mergeBuffer);
            BufferedFileChannel out = new BufferedFileChannel(data, outputBuffer.nioBuffer(0, settings.outputBuffer));
            for (int p = 0; p < lengths.length; p++) {
                for (int s = 0; s < inputs.length; s++) {
                    long length = spills.get(s).partitionLengths[p];
                    // The segment's range fails with EOFException if the spill file ends inside it.
                    ReadableByteChannel segment = inputs[s].range(positions[s], length);
                    while (read.clear().hasRemaining() && segment.read(read) >= 0) {
                        read.flip();
                        out.write(read);
                    }
                    positions[s] += length;
                    lengths[p] += length;
                }
            }
            out.flush();
        }
    }
}
