package dev.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.util.LeakPresenceDetector;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/** What every test of a writer checks at the end: no Arrow memory, no Netty buffer, no thread left. */
public final class Leaks {
    private Leaks() {}

    public static void assertNone(BufferAllocator allocator, long expectedArrowBytes, String what) {
        assertEquals(expectedArrowBytes, allocator.getAllocatedMemory(), what + ": Arrow memory not released");
        LeakPresenceDetector.check();
        assertEquals(List.of(), Threads.sluiceThreads(), what + ": threads left running");
    }
}
