package com.example.shuffle;

import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.FilePurpose;
import dev.sluice.spi.storage.ReadableFile;
import dev.sluice.spi.storage.WritableFile;
import dev.sluice.spi.storage.DataFileCommit;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.WriterConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import dev.sluice.spi.memory.HostAllocator;

/**
 * One map task of {@code celeborn-push}. The task thread serializes each record into its partition's push buffer and
 * hands a full buffer to the pusher thread through a bounded queue (it waits, at most {@link #TIMEOUT_SECONDS}, when
 * the pusher is behind); the pusher appends it to the push file and notes where. The commit pushes what is left,
 * waits for the pusher, then writes each partition (stream header, its chunks in push order, end marker) into the
 * data file by kernel copies, and deletes the push file.
 */
final class PushWriter implements ShuffleWriter {
    static final long TIMEOUT_SECONDS = 60;
    private static final Push END = new Push(-1, new byte[0]);

    private final WriterConfig config;
    private final CountedStorage storage;
    private final HostAllocator scratch;
    private final MapOutputFiles files;
    private final StreamFormat format;
    private final boolean removesPushFileOnAbort;
    private final ByteArrayOutputStream[] buffers;
    /** Per partition, the (offset, length) of each chunk in the push file; written by the pusher only. */
    private final List<List<long[]>> chunks = new ArrayList<>();
    private final BlockingQueue<Push> queue = new ArrayBlockingQueue<>(PushWriterFactory.MAX_QUEUED_PUSHES);
    private final Path pushPath;
    private final WritableFile pushFile;
    private final Thread pusher;
    private volatile Throwable failure;
    /** Bytes in push buffers and queued pushes: added by the task thread, taken off by the pusher. */
    private final AtomicLong buffered = new AtomicLong();
    private volatile long peak;
    private boolean open = true;
    private boolean committed;

    private static final class Push {
        final int partition;
        final byte[] bytes;

        Push(int partition, byte[] bytes) {
            this.partition = partition;
            this.bytes = bytes;
        }
    }

    PushWriter(WriterConfig config, CountedStorage storage, HostAllocator scratch, MapOutputFiles files,
               StreamFormat format, boolean removesPushFileOnAbort) {
        this.config = config;
        this.storage = storage;
        this.scratch = scratch;
        this.files = files;
        this.format = format;
        this.removesPushFileOnAbort = removesPushFileOnAbort;
        this.buffers = new ByteArrayOutputStream[config.partitions];
        for (int p = 0; p < config.partitions; p++) {
            chunks.add(new ArrayList<>());
        }
        this.pushPath = files.newTempShuffleFile();
        try {
            this.pushFile = storage.create(pushPath, FilePurpose.TEMP);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("creating the push file " + pushPath, e);
        }
        // Sluice's leak checks look for threads named sluice-*: this one must be gone after commit or abort.
        this.pusher = new Thread(this::pushLoop, "sluice-example-pusher-" + files.mapId());
        pusher.setDaemon(true);
        pusher.start();
    }

    @Override
    public void write(ShuffleRecord record) throws IOException, InterruptedException {
        checkOpen();
        int p = record.partitionId();
        if (buffers[p] == null) {
            buffers[p] = new ByteArrayOutputStream(PushWriterFactory.PUSH_BUFFER);
        }
        int before = buffers[p].size();
        record.payload().writeTo(Channels.newChannel(buffers[p]), scratch);
        peak = Math.max(peak, buffered.addAndGet(buffers[p].size() - before));
        if (buffers[p].size() >= PushWriterFactory.PUSH_BUFFER) {
            push(p);
        }
    }

    @Override
    public MapOutput commit() throws IOException, InterruptedException {
        checkOpen();
        try {
            for (int p = 0; p < buffers.length; p++) {
                if (buffers[p] != null && buffers[p].size() > 0) {
                    push(p);
                }
            }
            offer(END);
            pusher.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            if (pusher.isAlive()) {
                throw new IOException("the pusher did not finish in " + TIMEOUT_SECONDS + " s");
            }
            throwIfFailed();
            pushFile.close();
            MapOutput output = assemble();
            open = false;
            committed = true;
            storage.delete(pushPath);
            return output;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            abort(e);
            throw e;
        }
    }

    /** The data file: each partition's header, chunks in push order, and end marker, copied file to file. */
    private MapOutput assemble() throws IOException {
        long[] lengths = new long[config.partitions];
        try (DataFileCommit commit = DataFileCommit.begin(storage, files);
             ReadableFile pushed = storage.openForRead(pushPath)) {
            for (int p = 0; p < config.partitions; p++) {
                if (chunks.get(p).isEmpty()) {
                    continue;
                }
                lengths[p] += commit.data().write(ByteBuffer.wrap(format.streamHeader()));
                for (long[] chunk : chunks.get(p)) {
                    lengths[p] += commit.data().transferFrom(pushed, chunk[0], chunk[1]);
                }
                lengths[p] += commit.data().write(ByteBuffer.wrap(format.endOfStream()));
            }
            return commit.commit(lengths, config.fsync);
        }
    }

    private void push(int p) throws IOException, InterruptedException {
        byte[] bytes = buffers[p].toByteArray();
        buffers[p].reset();
        offer(new Push(p, bytes));
    }

    private void offer(Push push) throws IOException, InterruptedException {
        throwIfFailed();
        if (!queue.offer(push, TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IOException("the pusher took no push in " + TIMEOUT_SECONDS + " s");
        }
    }

    /** Pusher thread: append each push to the push file; after a failure, keep draining so the task never waits. */
    private void pushLoop() {
        long offset = 0;
        try {
            while (true) {
                Push push = queue.take();
                if (push == END) {
                    return;
                }
                if (failure == null) {
                    try {
                        pushFile.write(ByteBuffer.wrap(push.bytes));
                        chunks.get(push.partition).add(new long[] {offset, push.bytes.length});
                        offset += push.bytes.length;
                    } catch (Throwable t) {
                        failure = t;
                    }
                }
                buffered.addAndGet(-push.bytes.length);
            }
        } catch (InterruptedException e) {
            // abort: stop
        }
    }

    private void throwIfFailed() throws IOException {
        Throwable t = failure;
        if (t != null) {
            throw new IOException("the pusher failed", t);
        }
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("writer for map " + files.mapId() + " is " + (committed ? "committed" : "aborted"));
        }
    }

    @Override
    public void abort(Throwable cause) {
        if (!open) {
            return;
        }
        open = false;
        pusher.interrupt();
        try {
            pusher.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            pushFile.close();
            if (removesPushFileOnAbort) {
                storage.delete(pushPath);
            }
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
        java.util.Arrays.fill(buffers, null);
    }

    @Override
    public long peakBufferedBytes() {
        return peak;
    }

    @Override
    public void close() {
        if (!committed) {
            abort(new IllegalStateException("closed before commit"));
        }
    }
}
