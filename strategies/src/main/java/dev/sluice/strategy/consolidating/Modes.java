package dev.sluice.strategy.consolidating;

import dev.sluice.spi.option.Choice;

/** The alternatives of the consolidating strategies' options: upstream's value first, Sluice's after. */
final class Modes {
    private Modes() {}

    /** How several batches' partials become the data file at commit. */
    enum Merge implements Choice {
        /** Upstream: each segment copied through a {@code fileBuffer} array into a 64 KiB buffered stream. */
        STREAM,
        /** Sluice: segments in memory handed to gathering writes ({@code writev}), up to 1024 pieces a call. */
        GATHER
    }

    /** How a batch's merger is scheduled. */
    enum Merger implements Choice {
        /** Upstream at the PRs: one task per batch on a merger slot, blocking on each record in turn. */
        BLOCKING,
        /** Upstream after #15208 (and Sluice): drains ready records and yields; never parks a thread. */
        COOPERATIVE
    }

    /** Where records are compressed. */
    enum Compression implements Choice {
        /** Upstream: each partition of a map task pinned to one writer slot (single thread, in order). */
        SLOTS,
        /** Sluice: any thread of a shared pool. */
        POOL
    }

    /** What the memory limit bounds. */
    enum MemoryBound implements Choice {
        /**
         * Upstream ({@code HostAlloc}): the executor's host memory use counts the input batches' host copies and the
         * partials; a partial goes to file once use passes memoryThreshold of the limit, and an allocation under it
         * that does not fit first spills other finished partials and retries.
         */
        THRESHOLD,
        /**
         * Sluice up to af77937: the same threshold, but only partials count, and a partial that does not fit goes
         * straight to file.
         */
        PARTIALS_ONLY {
            @Override
            public String label() {
                return "partials-only";
            }
        },
        /** Sluice: everything a writer holds is charged before allocation and never passes the limit. */
        EXACT
    }

    /** What a compressed record is held in until its merger appends it. */
    enum RecordBuffer implements Choice {
        /** Upstream: a growing heap byte array ({@code OpenByteArrayOutputStream}). */
        HEAP,
        /** Sluice: a pooled direct buffer of exactly the serialized size (computed before writing). */
        DIRECT
    }

    /** How a partial holds its bytes in memory. */
    enum Partial implements Choice {
        /** Upstream: one buffer, replaced by a bigger one (and copied) when it grows. */
        CONTIGUOUS,
        /** Sluice: fixed-size chunks; growing adds one and copies nothing. */
        CHUNKED,
        /** Sluice: the compressed records' own buffers, linked in order; the merge copies nothing. */
        RECORDS
    }
}
