package com.example.shuffle;

import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.memory.HostAllocator;

/**
 * {@code celeborn-push}: Celeborn-style push buffers. Each partition's serialized records collect in a heap buffer of
 * its own; a full buffer is pushed to a pusher thread, which appends it to one push file in arrival order (the worker
 * side of Celeborn, here on local disk). At commit the data file is assembled from each partition's pushed chunks, in
 * partition order. Registered by {@code ServiceLoader}
 * ({@code META-INF/services/dev.sluice.spi.ShuffleWriterFactory}).
 */
public class PushWriterFactory implements ShuffleWriterFactory {
    /** Celeborn's {@code celeborn.client.push.buffer.max.size} default. */
    static final int PUSH_BUFFER = 64 * 1024;
    /** Pushes queued for the pusher thread, at most. */
    static final int MAX_QUEUED_PUSHES = 8;

    @Override
    public String name() {
        return "celeborn-push";
    }

    @Override
    public String description() {
        return "per-partition 64 KiB push buffers, pushed by one pusher thread into one file in arrival order, "
                + "assembled into the data file at commit (an example strategy outside Sluice's tree)";
    }

    @Override
    public String upstream() {
        return "Celeborn's push-based shuffle client (celeborn.client.push.buffer.max.size = 64k), modelled loosely";
    }

    /** Each task: a push buffer per partition, plus the queued pushes, on the heap. */
    @Override
    public void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        plan.heap("celeborn-push buffers", (long) shape.tasks * (config.partitions + MAX_QUEUED_PUSHES) * 2L * PUSH_BUFFER);
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return new ShuffleExecutor() {
            @Override
            public ShuffleWriter createMapOutputWriter(MapTask task) {
                MapOutputFiles files = new MapOutputFiles(task.directory(config), task.shuffleId, task.mapId);
                return new PushWriter(config, storage, allocator, files, task.format, removesPushFileOnAbort());
            }

            @Override
            public void close() {
                // Each writer owns its pusher thread and stops it at commit or abort.
            }
        };
    }

    /** Whether an aborted writer deletes its push file: always, except in the kit's broken variant. */
    protected boolean removesPushFileOnAbort() {
        return true;
    }
}
