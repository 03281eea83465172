package dev.sluice.strategy.ideal;

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
import dev.sluice.strategy.support.BackgroundWriter;
import dev.sluice.strategy.support.BoundedPool;
import dev.sluice.strategy.support.GatheringWriter;
import dev.sluice.strategy.support.HostBufferPool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One map task of the reference: each record is compressed by a pool thread into the thread's current slab of this
 * task (slabs of one size, reused from wave to wave, so that a wave after the first touches no fresh page); at commit
 * the data file is written in partition order as the records' compression finishes (the last batch's records are
 * still being compressed while the first partitions are written), with gathering writes straight from the slabs. A
 * record whose bytes need not be made (no compression, no framing: {@code Payload.pieces}) is not copied into a slab
 * at all: its vectors' own buffers go to the gathering write, so its bytes are copied once, into the file.
 */
final class IdealWriter extends BackgroundWriter {
    /** A slab's bytes: Arrow's chunk size, so that the allocator neither rounds nor splits it. */
    static final long SLAB = 16L << 20;

    private final WriterConfig config;
    private final CountedStorage storage;
    private final MapOutputFiles files;
    private final StreamFormat format;
    private final HostAllocator scratch;
    private final HostBufferPool pool;
    private final BoundedPool compression;
    private final Slabs slabs;
    /** This task's rank among the executor's: its records are compressed before a later task's. */
    private final long order;
    private final List<List<Compressed>> partitions = new ArrayList<>();
    /** Each compression thread's slab for this task: only that thread moves its cursor. */
    private final Map<Thread, Slab> current = new ConcurrentHashMap<>();
    /** The slabs this task took, and the buffers of its records larger than a slab: given back after the commit. */
    private final List<HostBuffer> slabsTaken = new ArrayList<>();
    private final List<HostBuffer> largeRecords = new ArrayList<>();
    private long held;
    private long peak;

    IdealWriter(WriterConfig config, CountedStorage storage, MapOutputFiles files, StreamFormat format,
                HostAllocator scratch, HostBufferPool pool, BoundedPool compression, Slabs slabs, long order) {
        super("ideal writer for map " + files.mapId(), config.partitions);
        this.order = order;
        this.slabs = slabs;
        this.config = config;
        this.storage = storage;
        this.files = files;
        this.format = format;
        this.scratch = scratch;
        this.pool = pool;
        this.compression = compression;
        for (int p = 0; p < config.partitions; p++) {
            partitions.add(new ArrayList<>());
        }
        slabs.writerOpened();
    }

    /**
     * A record's compressed bytes: where they lie (a slab, or the record's own pieces), set by its compression thread
     * before it marks them done.
     */
    private static final class Compressed {
        HostBuffer buffer;
        long offset;
        long length;
        Payload.Pieces pieces;
        volatile boolean done;
    }

    private static final class Slab {
        final HostBuffer buffer;
        long used;

        Slab(HostBuffer buffer) {
            this.buffer = buffer;
        }
    }

    @Override
    protected void accept(ShuffleRecord record) throws InterruptedException {
        Compressed slot = new Compressed();
        partitions.get(record.partitionId()).add(slot);
        pending.started();
        try {
            // The data file is written in partition order, so the pool compresses the earliest task's lowest
            // partition first: its write starts as soon as that partition's records are done and follows the
            // compression, instead of waiting for the last batch's first record behind every record before it.
            compression.submit(() -> compress(record, slot), order, record.partitionId());
        } catch (InterruptedException | RuntimeException e) {
            pending.finished();
            throw e;
        }
    }

    private void compress(ShuffleRecord record, Compressed slot) {
        try {
            if (failure() == null) {
                Optional<Payload.Pieces> pieces = record.payload().pieces(scratch);
                if (pieces.isPresent()) {
                    slot.pieces = pieces.get();
                    slot.length = slot.pieces.bytes();
                    return;
                }
                long bound = record.payload().serializedBound();
                Slab slab = null;
                if (bound > SLAB) {
                    slot.buffer = hold(pool.take(bound), largeRecords); // a buffer of its own, pooled by size
                } else {
                    slab = current.get(Thread.currentThread());
                    if (slab == null || SLAB - slab.used < bound) {
                        slab = new Slab(hold(slabs.take(), slabsTaken));
                        current.put(Thread.currentThread(), slab);
                    }
                    slot.buffer = slab.buffer;
                    slot.offset = slab.used;
                }
                slot.length = record.payload().writeInto(
                        slot.buffer.nioBuffer(slot.offset, Math.toIntExact(bound)), scratch);
                if (slab != null) {
                    slab.used += slot.length;
                }
            }
        } catch (Throwable t) {
            fail(t);
        } finally {
            slot.done = true;
            synchronized (this) {
                notifyAll();
            }
            pending.finished();
        }
    }

    private synchronized HostBuffer hold(HostBuffer buffer, List<HostBuffer> into) {
        into.add(buffer);
        held += buffer.capacity();
        peak = Math.max(peak, held);
        return buffer;
    }

    @Override
    protected boolean publishesWhileWorking() {
        return true;
    }

    @Override
    protected MapOutput publish() throws IOException, InterruptedException {
        byte[] header = format.streamHeader();
        byte[] end = format.endOfStream();
        long[] lengths = new long[config.partitions];
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(DRAIN_TIMEOUT_MINUTES);
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            GatheringWriter out = new GatheringWriter(commit.data());
            for (int p = 0; p < config.partitions; p++) {
                List<Compressed> records = partitions.get(p);
                if (records.isEmpty()) {
                    continue;
                }
                out.add(ByteBuffer.wrap(header));
                long length = header.length + end.length;
                for (Compressed record : records) {
                    if (!record.done) {
                        out.flush(); // what is ready goes to the file while this record is still being compressed
                        awaitDone(record, deadline);
                    }
                    throwIfFailed();
                    if (record.pieces != null) {
                        for (ByteBuffer piece : record.pieces.buffers()) {
                            out.add(piece);
                        }
                    } else {
                        out.add(record.buffer.nioBuffer(record.offset, Math.toIntExact(record.length)));
                    }
                    length += record.length;
                }
                out.add(ByteBuffer.wrap(end));
                lengths[p] = length;
            }
            out.flush();
            try {
                pending.awaitIdle(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new IOException(files + ": compression still running after " + DRAIN_TIMEOUT_MINUTES
                        + " minutes", e);
            }
            throwIfFailed();
            return commit.commit(lengths, config.fsync);
        }
    }

    private synchronized void awaitDone(Compressed record, long deadline) throws InterruptedException, IOException {
        while (!record.done) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IOException(files + ": a record still compressing after " + DRAIN_TIMEOUT_MINUTES
                        + " minutes");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    @Override
    protected void releaseAfterCommit() {
        release();
    }

    @Override
    protected void cleanUp(Throwable cause) {
        try {
            release();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /** After the commit or a failure alike: the slabs, buffers and pieces given back, then the reserve made. */
    private void release() {
        int taken = giveBack();
        scratch.close();
        slabs.writerDone(taken);
    }

    /** Gives back every slab and buffer this task took; returns how many slabs. */
    private synchronized int giveBack() {
        int taken = slabsTaken.size();
        slabsTaken.forEach(slabs::give);
        slabsTaken.clear();
        largeRecords.forEach(pool::give);
        largeRecords.clear();
        current.clear();
        for (List<Compressed> records : partitions) {
            for (Compressed record : records) {
                record.buffer = null;
                if (record.pieces != null) {
                    record.pieces.close();
                    record.pieces = null;
                }
            }
        }
        held = 0;
        return taken;
    }

    @Override
    protected void wakeWaiters(Throwable cause) {
        // The task thread waits on the pool's backlog, which drains by itself, or at commit on this writer.
        synchronized (this) {
            notifyAll();
        }
    }

    @Override
    public synchronized long peakBufferedBytes() {
        return peak;
    }
}
