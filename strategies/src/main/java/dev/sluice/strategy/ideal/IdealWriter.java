package dev.sluice.strategy.ideal;

import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.strategy.support.GatheringWriter;
import dev.sluice.strategy.support.HostBufferPool;
import dev.sluice.spi.storage.DataFileCommit;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.StreamFormat;
import dev.sluice.strategy.support.BackgroundWriter;
import dev.sluice.strategy.support.BoundedPool;
import dev.sluice.spi.WriterConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.memory.HostAllocator;

/**
 * One map task of the reference: each record is compressed by a pool thread into a pooled buffer of its memory bound;
 * at commit, partition by partition, the stream header, the partition's records in arrival order and the end marker
 * go to the data file with gathering writes, straight from those buffers.
 */
final class IdealWriter extends BackgroundWriter {
    private final WriterConfig config;
    private final CountedStorage storage;
    private final MapOutputFiles files;
    private final StreamFormat format;
    private final HostAllocator scratch;
    private final HostBufferPool pool;
    private final BoundedPool compression;
    private final List<List<Compressed>> partitions = new ArrayList<>();
    private long held;
    private long peak;

    IdealWriter(WriterConfig config, CountedStorage storage, MapOutputFiles files, StreamFormat format,
                HostAllocator scratch, HostBufferPool pool, BoundedPool compression) {
        super("ideal writer for map " + files.mapId(), config.partitions);
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
    }

    /** A record's compressed bytes: set by its compression thread before it reports the work finished. */
    private static final class Compressed {
        HostBuffer buffer;
        int length;
    }

    @Override
    protected void accept(ShuffleRecord record) throws InterruptedException {
        Compressed slot = new Compressed();
        partitions.get(record.partitionId()).add(slot);
        pending.started();
        try {
            compression.submit(() -> compress(record, slot));
        } catch (InterruptedException | RuntimeException e) {
            pending.finished();
            throw e;
        }
    }

    private void compress(ShuffleRecord record, Compressed slot) {
        try {
            if (failure() == null) {
                long bound = record.payload().serializedBound();
                HostBuffer buffer = pool.take(bound);
                synchronized (this) {
                    slot.buffer = buffer;
                    held += buffer.capacity();
                    peak = Math.max(peak, held);
                }
                slot.length = record.payload().writeInto(buffer.nioBuffer(0, Math.toIntExact(bound)), scratch);
            }
        } catch (Throwable t) {
            fail(t);
        } finally {
            pending.finished();
        }
    }

    @Override
    protected MapOutput publish() throws IOException {
        byte[] header = format.streamHeader();
        byte[] end = format.endOfStream();
        long[] lengths = new long[config.partitions];
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
                    out.add(record.buffer.nioBuffer(0, record.length));
                    length += record.length;
                }
                out.add(ByteBuffer.wrap(end));
                lengths[p] = length;
            }
            out.flush();
            return commit.commit(lengths, config.fsync);
        }
    }

    @Override
    protected void releaseAfterCommit() {
        giveBack();
        scratch.close();
    }

    @Override
    protected void cleanUp(Throwable cause) {
        try {
            giveBack();
            scratch.close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private synchronized void giveBack() {
        for (List<Compressed> records : partitions) {
            for (Compressed record : records) {
                if (record.buffer != null) {
                    pool.give(record.buffer);
                    record.buffer = null;
                }
            }
        }
        held = 0;
    }

    @Override
    protected void wakeWaiters(Throwable cause) {
        // The task thread waits only on the pool's backlog, which drains by itself.
    }

    @Override
    public synchronized long peakBufferedBytes() {
        return peak;
    }
}
