package dev.sluice.spi.storage;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.WriterGiven;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * PR-14090's skip-merge output: no data file, no index file, only a catalog of where each partition's segments are
 * (source, offset, length), in batch order. A reader is served from memory or from spill files; each partition reads
 * as the same stream a data file would hold (header, segments, end-of-stream marker). Owns its sources: closing the
 * catalog frees their memory and deletes their files.
 */
@WriterGiven
public final class SegmentCatalog implements MapOutput {
    private static final class Segment {
        final SegmentSource source;
        final long offset;
        final long length;

        Segment(SegmentSource source, long offset, long length) {
            this.source = source;
            this.offset = offset;
            this.length = length;
        }
    }

    private final int shuffleId;
    private final long mapId;
    private final byte[] header;
    private final byte[] endOfStream;
    private final List<List<Segment>> partitions = new ArrayList<>();
    private final long[] lengths;
    private final Set<SegmentSource> sources = new LinkedHashSet<>();
    private boolean released;

    public SegmentCatalog(int shuffleId, long mapId, int numPartitions, byte[] header, byte[] endOfStream) {
        this.shuffleId = shuffleId;
        this.mapId = mapId;
        this.header = header;
        this.endOfStream = endOfStream;
        this.lengths = new long[numPartitions];
        for (int p = 0; p < numPartitions; p++) {
            partitions.add(new ArrayList<>());
        }
    }

    /** Registers the next segment of {@code partition}; segments must come in batch order. */
    public void add(int partition, SegmentSource source, long offset, long length) {
        if (length == 0) {
            return;
        }
        List<Segment> segments = partitions.get(partition);
        if (segments.isEmpty()) {
            lengths[partition] = header.length + endOfStream.length;
        }
        segments.add(new Segment(source, offset, length));
        lengths[partition] += length;
        sources.add(source);
    }

    /** Takes ownership of a source with no segments, so that closing the catalog releases it too. */
    public void own(SegmentSource source) {
        sources.add(source);
    }

    @Override
    public int shuffleId() {
        return shuffleId;
    }

    @Override
    public long mapId() {
        return mapId;
    }

    @Override
    public long[] partitionLengths() {
        return lengths;
    }

    @Override
    public List<Path> files() {
        return List.of();
    }

    /** Reads through the sources; spill files are read through the storage they were written with. */
    @Override
    public PartitionReader openReader(CountedStorage storage) {
        return new PartitionReader() {
            @Override
            public int numPartitions() {
                return lengths.length;
            }

            @Override
            public long length(int partition) {
                return lengths[partition];
            }

            @Override
            public ReadableByteChannel open(int partition) throws IOException {
                if (released) {
                    throw new IOException("segment catalog of map " + mapId + " was released");
                }
                List<ReadableByteChannel> pieces = new ArrayList<>();
                List<Segment> segments = partitions.get(partition);
                if (!segments.isEmpty()) {
                    pieces.add(new BufferChannel(ByteBuffer.wrap(header)));
                    for (Segment s : segments) {
                        pieces.add(new SegmentChannel(s));
                    }
                    pieces.add(new BufferChannel(ByteBuffer.wrap(endOfStream)));
                }
                return new ConcatChannel(pieces);
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public void delete(CountedStorage storage) throws IOException {
        release();
    }

    @Override
    public void close() {
        try {
            release();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void release() throws IOException {
        if (released) {
            return;
        }
        released = true;
        Cleanup cleanup = new Cleanup();
        for (SegmentSource source : sources) {
            cleanup.run(source::release);
        }
        cleanup.done();
    }

    /**
     * A segment read by position through its source on every call, so that the source may spill to file between
     * reads without the reader holding its memory (upstream's {@code readAt}, whose races are #15018 and #15064).
     */
    private static final class SegmentChannel implements ReadableByteChannel {
        private final Segment segment;
        private long done;

        SegmentChannel(Segment segment) {
            this.segment = segment;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (done >= segment.length) {
                return -1;
            }
            ByteBuffer window = dst.slice();
            window.limit((int) Math.min(window.remaining(), segment.length - done));
            int n = segment.source.read(segment.offset + done, window);
            if (n < 0) {
                throw new java.io.EOFException("segment source ends " + (segment.length - done) + " bytes early");
            }
            dst.position(dst.position() + n);
            done += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    private static final class BufferChannel implements ReadableByteChannel {
        private final ByteBuffer bytes;

        BufferChannel(ByteBuffer bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (!bytes.hasRemaining()) {
                return -1;
            }
            int n = Math.min(dst.remaining(), bytes.remaining());
            ByteBuffer part = bytes.slice();
            part.limit(n);
            dst.put(part);
            bytes.position(bytes.position() + n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    private static final class ConcatChannel implements ReadableByteChannel {
        private final List<ReadableByteChannel> pieces;
        private int current;

        ConcatChannel(List<ReadableByteChannel> pieces) {
            this.pieces = pieces;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            while (current < pieces.size()) {
                int n = pieces.get(current).read(dst);
                if (n >= 0) {
                    return n;
                }
                current++;
            }
            return -1;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
