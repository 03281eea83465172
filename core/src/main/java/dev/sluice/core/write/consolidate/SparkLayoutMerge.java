package dev.sluice.core.write.consolidate;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.GatheringWriter;
import dev.sluice.core.io.ReadableFile;
import dev.sluice.core.memory.MemoryBudget;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import dev.sluice.core.output.DataFileCommit;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.output.SparkMapOutput;
import dev.sluice.core.serde.RecordSerializer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The commit of PR-13724: partition by partition, each batch's segment of it, in batch order, goes into the data file,
 * between the partition's stream header and end-of-stream marker. Segments of partials still in memory go out with
 * gathering writes (up to 1024 pieces a call), so one batch that stayed in memory is written in one or a few large
 * calls and every byte once. Segments of spilled partials are read into a staging buffer that joins the same
 * gathering writes, rather than copied file to file one small segment at a time (upstream's many small transfers,
 * the pattern of SPARK-20014); without memory for the buffer, they are transferred. Then the index and the renames.
 */
final class SparkLayoutMerge {
    static final int STAGING = 1 << 20;

    private SparkLayoutMerge() {}

    static SparkMapOutput write(List<BatchMerger> batches, int partitions, RecordSerializer serializer,
                                CountedStorage storage, MapOutputFiles files, boolean fsync, MemoryBudget memory,
                                ByteBufAllocator allocator) throws IOException {
        boolean spilled = false;
        for (BatchMerger batch : batches) {
            spilled |= !batch.partial.inMemory();
        }
        ByteBuf staging = spilled && memory.tryReserve(STAGING) ? allocator.directBuffer(STAGING, STAGING) : null;
        try {
            return write(batches, partitions, serializer, storage, files, fsync, staging);
        } finally {
            if (staging != null) {
                staging.release();
                memory.release(STAGING);
            }
        }
    }

    private static SparkMapOutput write(List<BatchMerger> batches, int partitions, RecordSerializer serializer,
                                        CountedStorage storage, MapOutputFiles files, boolean fsync, ByteBuf staging)
            throws IOException {
        byte[] header = serializer.streamHeader();
        byte[] endOfStream = serializer.endOfStream();
        long[] lengths = new long[partitions];
        ByteBuffer stage = staging == null ? null : staging.nioBuffer(0, STAGING);
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            GatheringWriter out = new GatheringWriter(commit.data());
            for (int p = 0; p < partitions; p++) {
                long body = 0;
                for (BatchMerger batch : batches) {
                    body += batch.lengths[p];
                }
                if (body == 0) {
                    continue;
                }
                out.add(ByteBuffer.wrap(header));
                for (BatchMerger batch : batches) {
                    long length = batch.lengths[p];
                    if (length == 0) {
                        continue;
                    }
                    if (batch.partial.inMemory()) {
                        out.add(batch.partial.memorySlice(batch.offsets[p], length));
                    } else if (stage == null) {
                        out.flush();
                        commit.data().transferFrom(batch.partial.file(), batch.offsets[p], length);
                    } else {
                        stageSegment(batch.partial.file(), batch.offsets[p], length, stage, out);
                    }
                }
                out.add(ByteBuffer.wrap(endOfStream));
                lengths[p] = header.length + body + endOfStream.length;
            }
            out.flush();
            return commit.commit(lengths, fsync);
        }
    }

    /** Reads a spilled segment into the staging buffer, handing each filled piece to the gathering writer. */
    private static void stageSegment(ReadableFile file, long offset, long length, ByteBuffer stage,
                                     GatheringWriter out) throws IOException {
        long done = 0;
        while (done < length) {
            if (!stage.hasRemaining()) {
                // The pieces handed over point into the buffer: write them before it is reused.
                out.flush();
                stage.clear();
            }
            ByteBuffer piece = stage.slice();
            piece.limit((int) Math.min(piece.remaining(), length - done));
            file.readFully(piece, offset + done);
            piece.flip();
            stage.position(stage.position() + piece.limit());
            out.add(piece);
            done += piece.limit();
        }
    }
}
