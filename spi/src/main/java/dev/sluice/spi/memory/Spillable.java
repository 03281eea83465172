package dev.sluice.spi.memory;

import dev.sluice.spi.WriterImplements;
import java.io.IOException;

/**
 * What a writer gives its {@link TaskMemory} so that the host can ask for memory back, as Spark asks a
 * {@code MemoryConsumer} to {@code spill}: the writer moves what it holds to files until about {@code wanted} bytes are
 * released (through {@link TaskMemory#release}), and returns how many it released. It never waits for a lock another
 * thread may hold (it skips what is in use), since the host may call it while a thread of the same task acquires.
 */
@WriterImplements
@FunctionalInterface
public interface Spillable {
    long spill(long wanted) throws IOException;
}
