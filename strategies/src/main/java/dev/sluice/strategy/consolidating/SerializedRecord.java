package dev.sluice.strategy.consolidating;

import dev.sluice.spi.GrowingBytes;
import dev.sluice.spi.Payload;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.strategy.support.HostBuffers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;

/** A record's serialized, compressed bytes between its compression task and its merger, and the memory they hold. */
abstract class SerializedRecord {
    /** The bytes, as a view: valid until {@link #release}. */
    abstract ByteBuffer bytes();

    /** Bytes of memory held, which may exceed the record's size. */
    abstract long memory();

    abstract void release();

    /** Upstream's: a heap array grown while the record was written ({@code recordBuffer=heap}). */
    static SerializedRecord heap(GrowingBytes bytes) {
        return new SerializedRecord() {
            @Override
            ByteBuffer bytes() {
                return bytes.bytes();
            }

            @Override
            long memory() {
                return bytes.capacity();
            }

            @Override
            void release() {}
        };
    }

    /**
     * Sluice's: one pooled direct buffer of {@code buffers}, of exactly the record's size ({@code recordBuffer=direct}),
     * that {@code payload} is written into.
     */
    static SerializedRecord direct(Payload payload, ByteBufAllocator buffers, HostAllocator scratch)
            throws IOException {
        ByteBuf buffer = payload.writeSized(n -> buffers.directBuffer(n, n), b -> b.nioBuffer(0, b.capacity()),
                ByteBuf::release, scratch);
        buffer.writerIndex(buffer.capacity());
        return new SerializedRecord() {
            @Override
            ByteBuffer bytes() {
                return buffer.nioBuffer();
            }

            @Override
            long memory() {
                return buffer.capacity();
            }

            @Override
            void release() {
                buffer.release();
            }
        };
    }

    /**
     * Sluice's with {@code pool=true} (or {@code partial=records}): a buffer of the executor's pool (or its allocator),
     * as large as the record's memory bound, given back once merged or once the partial that took it is freed.
     */
    static SerializedRecord pooled(HostBuffer buffer, int length, HostBuffers pool) {
        return new SerializedRecord() {
            @Override
            ByteBuffer bytes() {
                return buffer.nioBuffer(0, length);
            }

            @Override
            long memory() {
                return buffer.capacity();
            }

            @Override
            void release() {
                pool.give(buffer);
            }
        };
    }
}
