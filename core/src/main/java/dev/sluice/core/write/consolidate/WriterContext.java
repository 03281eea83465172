package dev.sluice.core.write.consolidate;

import dev.sluice.core.io.Bytes;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.memory.MemoryBudget;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.serde.RecordSerializer;
import dev.sluice.core.write.BoundedPool;
import dev.sluice.core.write.WriterConfig;
import io.netty.buffer.ByteBufAllocator;
import org.apache.arrow.memory.BufferAllocator;

/** What a consolidating writer gets from its executor: shared pools and storage, its own memory and files. */
public final class WriterContext {
    /** Start of a partial buffer: PR-13724 starts at 128 MB for 1 GB GPU batches; Sluice's batches are smaller. */
    static final long INITIAL_PARTIAL = 4 * Bytes.MiB;

    final String strategy;
    final WriterConfig config;
    final CountedStorage storage;
    final MapOutputFiles files;
    final RecordSerializer serializer;
    final BufferAllocator scratch;
    final ByteBufAllocator buffers;
    final MemoryBudget memory;
    final BoundedPool compression;
    final BoundedPool mergers;

    WriterContext(String strategy, WriterConfig config, CountedStorage storage, MapOutputFiles files, RecordSerializer serializer,
                  BufferAllocator scratch, ByteBufAllocator buffers, MemoryBudget memory, BoundedPool compression,
                  BoundedPool mergers) {
        this.strategy = strategy;
        this.config = config;
        this.storage = storage;
        this.files = files;
        this.serializer = serializer;
        this.scratch = scratch;
        this.buffers = buffers;
        this.memory = memory;
        this.compression = compression;
        this.mergers = mergers;
    }

    public WriterConfig config() {
        return config;
    }
}
