package dev.sluice.strategy.consolidating;

import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.storage.WritableFile;
import dev.sluice.strategy.support.HostBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a partial's bytes live while it is in memory ({@code partial=} option). The handle decides when memory is
 * charged, grown or given up; this says how bytes are placed, read and written out. Callers hold the handle's lock.
 */
abstract class PartialMemory {
    /** Bytes of memory held (what the memory bound is charged). */
    abstract long capacity();

    /** Copies {@code src}'s remaining bytes to {@code at}; the capacity covers them. */
    abstract void put(long at, ByteBuffer src);

    /** Fills {@code dst} from bytes starting at {@code at}. */
    abstract void get(long at, ByteBuffer dst);

    /** Views of bytes [offset, offset+length), in order, without a copy: valid until the memory is freed. */
    abstract void slices(long offset, long length, List<ByteBuffer> out);

    /** Gives every buffer back. */
    abstract void free();

    /** Writes bytes [0, size) to {@code file}: one call for one buffer, gathering writes for chunks. */
    final void writeTo(WritableFile file, long size) throws IOException {
        List<ByteBuffer> pieces = new ArrayList<>();
        slices(0, size, pieces);
        DataFileMerge.writeAll(file, pieces);
    }

    /**
     * Upstream's: one buffer ({@code SpillablePartialFileHandle} @ e465ec3851). Growing means a new buffer, a copy of
     * what was written, and freeing the old one.
     */
    static final class Contiguous extends PartialMemory {
        private final HostBuffers buffers;
        private final HostBuffer buffer;

        /** A buffer of {@code bytes}, holding {@code size} bytes copied from {@code previous} (if any). */
        Contiguous(HostBuffers buffers, long bytes, Contiguous previous, long size) {
            this.buffers = buffers;
            this.buffer = buffers.take(bytes);
            if (previous != null && size > 0) {
                buffer.setBytes(0, previous.buffer, 0, size);
            }
        }

        @Override
        long capacity() {
            return buffer.capacity();
        }

        @Override
        void put(long at, ByteBuffer src) {
            buffer.setBytes(at, src.duplicate());
        }

        @Override
        void get(long at, ByteBuffer dst) {
            buffer.getBytes(at, dst);
        }

        @Override
        void slices(long offset, long length, List<ByteBuffer> out) {
            if (length > 0) {
                out.add(buffer.nioBuffer(offset, Math.toIntExact(length)));
            }
        }

        @Override
        void free() {
            buffers.give(buffer);
        }
    }

    /**
     * Sluice's ({@code partial=chunked}): a list of fixed-size chunks. Growing takes one more chunk and copies nothing;
     * the bytes go out with gathering writes.
     */
    static final class Chunked extends PartialMemory {
        private final HostBuffers buffers;
        private final int chunk;
        private final List<HostBuffer> chunks = new ArrayList<>();

        Chunked(HostBuffers buffers, int chunk) {
            this.buffers = buffers;
            this.chunk = chunk;
        }

        /** Memory one more chunk holds. */
        long chunkCapacity() {
            return buffers.capacityFor(chunk);
        }

        void addChunk() {
            chunks.add(buffers.take(chunk));
        }

        @Override
        long capacity() {
            return chunkCapacity() * chunks.size();
        }

        @Override
        void put(long at, ByteBuffer src) {
            ByteBuffer rest = src.duplicate();
            long position = at;
            while (rest.hasRemaining()) {
                int inChunk = (int) (position % chunk);
                int n = Math.min(rest.remaining(), chunk - inChunk);
                ByteBuffer piece = rest.duplicate();
                piece.limit(piece.position() + n);
                chunks.get((int) (position / chunk)).setBytes(inChunk, piece);
                rest.position(rest.position() + n);
                position += n;
            }
        }

        @Override
        void get(long at, ByteBuffer dst) {
            long position = at;
            while (dst.hasRemaining()) {
                int inChunk = (int) (position % chunk);
                int n = Math.min(dst.remaining(), chunk - inChunk);
                ByteBuffer piece = dst.slice();
                piece.limit(n);
                chunks.get((int) (position / chunk)).getBytes(inChunk, piece);
                dst.position(dst.position() + n);
                position += n;
            }
        }

        @Override
        void slices(long offset, long length, List<ByteBuffer> out) {
            long position = offset;
            long end = offset + length;
            while (position < end) {
                int inChunk = (int) (position % chunk);
                int n = (int) Math.min(end - position, chunk - inChunk);
                out.add(chunks.get((int) (position / chunk)).nioBuffer(inChunk, n));
                position += n;
            }
        }

        @Override
        void free() {
            for (HostBuffer c : chunks) {
                buffers.give(c);
            }
            chunks.clear();
        }
    }

    /**
     * Sluice's ({@code partial=records}): the batch's compressed records themselves, in order, each in the buffer it
     * was compressed into, which the partial takes over instead of copying; the stream headers and end markers between
     * them are small copies. The bytes go out with gathering writes, straight from the records' buffers.
     */
    static final class Records extends PartialMemory {
        private final List<ByteBuffer> pieces = new ArrayList<>();
        private final List<SerializedRecord> owned = new ArrayList<>();
        /** Where each piece starts in the partial. */
        private long[] starts = new long[64];
        private long end;
        private long held;

        /** Takes over {@code record}'s buffer, whose memory the handle has charged; it is released by {@link #free}. */
        void adopt(SerializedRecord record) {
            owned.add(record);
            held += record.memory();
            add(record.bytes());
        }

        private void add(ByteBuffer piece) {
            if (pieces.size() == starts.length) {
                starts = Arrays.copyOf(starts, 2 * starts.length);
            }
            starts[pieces.size()] = end;
            pieces.add(piece);
            end += piece.remaining();
        }

        @Override
        long capacity() {
            return held;
        }

        /** A copy of {@code src} (a stream header or end marker: a few bytes), appended; {@code at} is the end. */
        @Override
        void put(long at, ByteBuffer src) {
            ByteBuffer copy = ByteBuffer.allocate(src.remaining());
            copy.put(src.duplicate()).flip();
            add(copy);
        }

        @Override
        void get(long at, ByteBuffer dst) {
            long position = at;
            int i = pieceAt(position);
            while (dst.hasRemaining()) {
                ByteBuffer piece = pieces.get(i).duplicate();
                piece.position(piece.position() + (int) (position - starts[i]));
                int n = Math.min(piece.remaining(), dst.remaining());
                piece.limit(piece.position() + n);
                dst.put(piece);
                position += n;
                i++;
            }
        }

        @Override
        void slices(long offset, long length, List<ByteBuffer> out) {
            if (length == 0) {
                return;
            }
            long position = offset;
            long last = offset + length;
            for (int i = pieceAt(offset); position < last; i++) {
                ByteBuffer piece = pieces.get(i).duplicate();
                piece.position(piece.position() + (int) (position - starts[i]));
                int n = (int) Math.min(piece.remaining(), last - position);
                piece.limit(piece.position() + n);
                out.add(piece);
                position += n;
            }
        }

        /** The piece holding byte {@code position}. */
        private int pieceAt(long position) {
            int i = Arrays.binarySearch(starts, 0, pieces.size(), position);
            if (i < 0) {
                i = -i - 2;
            }
            // Skip empty pieces that start at the same position.
            while (i < pieces.size() - 1 && starts[i + 1] <= position) {
                i++;
            }
            return i;
        }

        @Override
        void free() {
            for (SerializedRecord record : owned) {
                record.release();
            }
            owned.clear();
            pieces.clear();
            held = 0;
        }
    }
}
