package dev.sluice.strategy.consolidating;

import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.DataFileCommit;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.storage.PartitionChecksums;
import dev.sluice.spi.storage.SparkMapOutput;
import dev.sluice.spi.storage.WritableFile;
import dev.sluice.strategy.support.BufferedFileChannel;
import dev.sluice.strategy.support.ChecksumChannel;
import dev.sluice.strategy.support.ChecksumOptions;
import dev.sluice.strategy.support.GatheringWriter;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The commit of PR-13724 ({@code writePartitionedGpuBatches} and {@code mergePartialFiles} @ e465ec3851), once every
 * batch is finished:
 * <ul>
 *   <li>One batch: its partial already is the data file. In memory, it is written in one call
 *       ({@code commitAllPartitions} spills the handle); in a file, that file is renamed into place.</li>
 *   <li>Several batches, {@code merge=stream} (upstream): partition by partition, each batch's segment is copied
 *       through a {@code fileBuffer} array into a 64 KiB buffered stream in front of the data file (upstream's
 *       FILE_ONLY handle), about 16 write calls per MiB.</li>
 *   <li>Several batches, {@code merge=gather} (Sluice): segments in memory go out with gathering writes, up to 1024
 *       pieces a call; segments in files are read into a staging buffer that joins the same writes.</li>
 * </ul>
 * Each partition of the data file is one stream: the header, every batch's records in batch order, the end-of-stream
 * marker. The merge's own buffers (at most 1 MiB) are outside the memory bound. Checksums, when asked for, are taken
 * over the bytes as they go into the data file.
 */
final class DataFileMerge {
    /** The FILE_ONLY handle's {@code BufferedOutputStream} in front of the merged file. */
    static final int MERGE_STREAM = PartialHandle.FILE_BUFFER;
    /** merge=gather: where segments of partials in files are read to join the gathering writes. */
    static final int STAGING = 1 << 20;
    /** How much a checksum of a partial file's segment reads at a time. */
    private static final int CHECKSUM_READ = 64 * 1024;
    /**
     * A spilled partial is read through a {@code BufferedInputStream} of 64 KiB ({@code ensureFileInputStreamOpen} in
     * SpillablePartialFileHandle.scala @ e465ec3851): the merge's 32 KiB reads become 64 KiB read calls.
     */
    static final int SPILL_READ_BUFFER = 64 * 1024;

    private DataFileMerge() {}

    static SparkMapOutput write(List<BatchMerger> batches, ConsolidatingSettings settings, WriterConfig config,
                                StreamFormat format, CountedStorage storage, MapOutputFiles files)
            throws IOException {
        PartitionChecksums checksums = ChecksumOptions.checksums(settings.checksum, config.partitions);
        if (batches.size() == 1) {
            return oneBatch(batches.get(0), config, storage, files, checksums);
        }
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            long[] lengths = settings.merge == Modes.Merge.GATHER
                    ? gather(batches, config.partitions, format, commit.data(), checksums)
                    : stream(batches, config.partitions, format, commit.data(), checksums, settings.fileBuffer);
            return commit.commit(lengths, checksums, config.fsync);
        }
    }

    private static SparkMapOutput oneBatch(BatchMerger batch, WriterConfig config, CountedStorage storage,
                                           MapOutputFiles files, PartitionChecksums checksums) throws IOException {
        PartialHandle partial = batch.partial;
        long[] lengths = batch.lengths.clone();
        partial.pin();
        try {
            if (partial.inMemory()) {
                try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
                    long size = partial.size();
                    if (size > 0) {
                        if (checksums != null) {
                            for (int p = 0; p < lengths.length; p++) {
                                if (lengths[p] > 0) {
                                    List<ByteBuffer> pieces = new ArrayList<>();
                                    partial.memorySlices(batch.offsets[p], lengths[p], pieces);
                                    for (ByteBuffer piece : pieces) {
                                        checksums.update(p, piece);
                                    }
                                }
                            }
                        }
                        // One call for a contiguous buffer (upstream's spill of the handle), gathering writes for chunks.
                        List<ByteBuffer> all = new ArrayList<>();
                        partial.memorySlices(0, size, all);
                        writeAll(commit.data(), all);
                    }
                    return commit.commit(lengths, checksums, config.fsync);
                }
            }
        } finally {
            partial.unpin();
        }
        if (checksums != null) {
            ByteBuffer chunk = ByteBuffer.allocate(CHECKSUM_READ);
            SpilledRead read = new SpilledRead(partial);
            for (int p = 0; p < lengths.length; p++) {
                int partition = p;
                readSegment(read, batch.offsets[p], lengths[p], chunk, piece -> checksums.update(partition, piece));
            }
        }
        WritableFile file = partial.takeFile();
        try (DataFileCommit commit = DataFileCommit.adopt(storage, files, file)) {
            return commit.commit(lengths, checksums, config.fsync);
        }
    }

    /** {@code pieces} in order: one write call for one piece, gathering writes for more. */
    static void writeAll(WritableFile file, List<ByteBuffer> pieces) throws IOException {
        if (pieces.size() == 1) {
            file.write(pieces.get(0));
            return;
        }
        GatheringWriter out = new GatheringWriter(file);
        for (ByteBuffer piece : pieces) {
            out.add(piece);
        }
        out.flush();
    }

    /** Upstream's merge: every segment through {@code fileBuffer} bytes into a 64 KiB buffered stream. */
    private static long[] stream(List<BatchMerger> batches, int partitions, StreamFormat format,
                                 WritableFile data, PartitionChecksums checksums, int fileBuffer) throws IOException {
        byte[] header = format.streamHeader();
        byte[] endOfStream = format.endOfStream();
        long[] lengths = new long[partitions];
        BufferedFileChannel out = new BufferedFileChannel(data, ByteBuffer.allocate(MERGE_STREAM));
        ByteBuffer temp = ByteBuffer.allocate(fileBuffer);
        List<SpilledRead> partials = new ArrayList<>();
        for (BatchMerger batch : batches) {
            partials.add(new SpilledRead(batch.partial));
        }
        for (int p = 0; p < partitions; p++) {
            long body = bodyBytes(batches, p);
            if (body == 0) {
                continue;
            }
            WritableByteChannel sink = checksums == null ? out : new ChecksumChannel(out, checksums.of(p));
            sink.write(ByteBuffer.wrap(header));
            for (int b = 0; b < batches.size(); b++) {
                BatchMerger batch = batches.get(b);
                readSegment(partials.get(b), batch.bodyOffset(p), batch.bodyLength(p), temp, sink::write);
            }
            sink.write(ByteBuffer.wrap(endOfStream));
            lengths[p] = header.length + body + endOfStream.length;
        }
        out.flush();
        return lengths;
    }

    /** Sluice's merge: segments in memory handed to gathering writes, without a copy. */
    private static long[] gather(List<BatchMerger> batches, int partitions, StreamFormat format,
                                 WritableFile data, PartitionChecksums checksums) throws IOException {
        for (BatchMerger batch : batches) {
            batch.partial.pin();
        }
        try {
            return gatherPinned(batches, partitions, format, data, checksums);
        } finally {
            for (BatchMerger batch : batches) {
                batch.partial.unpin();
            }
        }
    }

    private static long[] gatherPinned(List<BatchMerger> batches, int partitions, StreamFormat format,
                                       WritableFile data, PartitionChecksums checksums) throws IOException {
        long[] lengths = new long[partitions];
        GatheringWriter out = new GatheringWriter(data);
        List<ByteBuffer> pieces = new ArrayList<>();
        ByteBuffer staging = null;
        for (int p = 0; p < partitions; p++) {
            long body = bodyBytes(batches, p);
            if (body == 0) {
                continue;
            }
            int partition = p;
            Piece add = piece -> {
                if (checksums != null) {
                    checksums.update(partition, piece);
                }
                out.add(piece);
            };
            add.accept(ByteBuffer.wrap(format.streamHeader()));
            for (BatchMerger batch : batches) {
                long length = batch.bodyLength(p);
                if (length == 0) {
                    continue;
                }
                if (batch.partial.inMemory()) {
                    pieces.clear();
                    batch.partial.memorySlices(batch.bodyOffset(p), length, pieces);
                    for (ByteBuffer piece : pieces) {
                        add.accept(piece);
                    }
                } else {
                    if (staging == null) {
                        staging = ByteBuffer.allocateDirect(STAGING);
                    }
                    stage(batch.partial, batch.bodyOffset(p), length, staging, out, add);
                }
            }
            add.accept(ByteBuffer.wrap(format.endOfStream()));
            lengths[p] = format.streamHeader().length + body + format.endOfStream().length;
        }
        out.flush();
        return lengths;
    }

    /** Reads a spilled segment into the staging buffer, handing each filled piece to the gathering writer. */
    private static void stage(PartialHandle partial, long offset, long length, ByteBuffer staging, GatheringWriter out,
                              Piece add) throws IOException {
        long done = 0;
        while (done < length) {
            if (!staging.hasRemaining()) {
                // The pieces handed over point into the buffer: write them before it is reused.
                out.flush();
                staging.clear();
            }
            ByteBuffer piece = staging.slice();
            piece.limit((int) Math.min(piece.remaining(), length - done));
            readFully(partial, offset + done, piece);
            piece.flip();
            staging.position(staging.position() + piece.limit());
            add.accept(piece);
            done += piece.limit();
        }
    }

    /** Reads bytes [offset, offset+length) of {@code partial} through {@code buffer}, handing each fill to {@code sink}. */
    private static void readSegment(SpilledRead partial, long offset, long length, ByteBuffer buffer, Piece sink)
            throws IOException {
        long done = 0;
        while (done < length) {
            buffer.clear();
            buffer.limit((int) Math.min(buffer.capacity(), length - done));
            partial.readFully(offset + done, buffer);
            buffer.flip();
            done += buffer.remaining();
            sink.accept(buffer);
        }
    }

    /**
     * Upstream's sequential read of a partial: from memory while it is in memory, and once spilled through a
     * {@value #SPILL_READ_BUFFER}-byte read-ahead, as its {@code BufferedInputStream} reads the file. A read past the
     * buffered window (the merge skips each segment's stream header and end marker, a few bytes within the window)
     * refills it from there.
     */
    static final class SpilledRead {
        private final PartialHandle partial;
        private ByteBuffer ahead;
        private long aheadStart;

        SpilledRead(PartialHandle partial) {
            this.partial = partial;
        }

        void readFully(long position, ByteBuffer dst) throws IOException {
            long at = position;
            while (dst.hasRemaining()) {
                if (partial.inMemory()) {
                    // Spills only go from memory to file, so a window filled from the file stays valid.
                    DataFileMerge.readFully(partial, at, dst);
                    return;
                }
                if (ahead == null) {
                    ahead = ByteBuffer.allocate(SPILL_READ_BUFFER);
                    ahead.limit(0);
                }
                if (at < aheadStart || at >= aheadStart + ahead.limit()) {
                    ahead.clear();
                    int n = partial.read(at, ahead);
                    if (n < 0) {
                        throw new EOFException("partial of " + partial.size() + " bytes ends before "
                                + (at + dst.remaining()));
                    }
                    ahead.flip();
                    aheadStart = at;
                }
                ByteBuffer window = ahead.duplicate();
                window.position((int) (at - aheadStart));
                window.limit(window.position() + (int) Math.min(window.remaining(), dst.remaining()));
                at += window.remaining();
                dst.put(window);
            }
        }
    }

    private static void readFully(PartialHandle partial, long position, ByteBuffer dst) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = partial.read(at, dst);
            if (n < 0) {
                throw new EOFException("partial of " + partial.size() + " bytes ends before " + (at + dst.remaining()));
            }
            at += n;
        }
    }

    private static long bodyBytes(List<BatchMerger> batches, int p) {
        long body = 0;
        for (BatchMerger batch : batches) {
            body += batch.bodyLength(p);
        }
        return body;
    }

    /** Takes one piece of a partition's bytes. */
    private interface Piece {
        void accept(ByteBuffer piece) throws IOException;
    }
}
