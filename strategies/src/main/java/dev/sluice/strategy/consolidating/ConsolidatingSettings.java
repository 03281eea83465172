package dev.sluice.strategy.consolidating;

import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.option.StrategyOption;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.strategy.support.ChecksumOptions;

/** A consolidating strategy's option values and what its design fixes, resolved once per executor. */
public final class ConsolidatingSettings {
    final long initialPartial;
    final long maxPartial;
    final double memoryThreshold;
    final long maxBytesInFlight;
    final int fileBuffer;
    final Modes.Merge merge;
    final boolean shrink;
    final Modes.Merger merger;
    final int mergerThreads;
    final Modes.Compression compression;
    final Modes.MemoryBound memoryBound;
    final Modes.RecordBuffer recordBuffer;
    /** The checksum file's algorithm, or null: none. */
    final ChecksumAlgorithm checksum;
    final Modes.Partial partial;
    final int chunk;
    final boolean pool;
    final PartialSizing sizing;
    final boolean skipMerge;

    /**
     * @param sizing how partials grow: the design of the strategy (PR-13724 doubles, PR-14090 predicts)
     * @param skipMerge whether the commit registers a segment catalog instead of writing the data file
     */
    public ConsolidatingSettings(WriterConfig config, OptionValues options, StrategyOption<Long> initialPartial,
                                 PartialSizing sizing, boolean skipMerge) {
        this.initialPartial = options.get(initialPartial);
        this.maxPartial = options.get(ConsolidatingOptions.MAX_PARTIAL);
        this.memoryThreshold = options.get(ConsolidatingOptions.MEMORY_THRESHOLD);
        this.maxBytesInFlight = options.get(ConsolidatingOptions.MAX_BYTES_IN_FLIGHT);
        this.fileBuffer = Math.toIntExact(options.get(ConsolidatingOptions.FILE_BUFFER));
        this.merge = options.get(ConsolidatingOptions.MERGE);
        this.shrink = options.get(ConsolidatingOptions.SHRINK);
        this.merger = options.get(ConsolidatingOptions.MERGER);
        int mergers = options.get(ConsolidatingOptions.MERGER_THREADS);
        this.mergerThreads = mergers == 0 ? config.threads : mergers;
        this.compression = options.get(ConsolidatingOptions.COMPRESSION);
        this.memoryBound = options.get(ConsolidatingOptions.MEMORY_BOUND);
        this.recordBuffer = options.get(ConsolidatingOptions.RECORD_BUFFER);
        this.checksum = ChecksumOptions.algorithm(options, ConsolidatingOptions.CHECKSUM);
        this.partial = options.get(ConsolidatingOptions.PARTIAL);
        this.chunk = Math.toIntExact(options.get(ConsolidatingOptions.CHUNK));
        this.pool = options.get(ConsolidatingOptions.POOL);
        this.sizing = sizing;
        this.skipMerge = skipMerge;
    }

    /**
     * The most the writers of {@code shape}'s tasks may hold at once: each batch's partial as this strategy's own
     * sizing grows it to the batch's bytes (simulated with the same {@link PartialSizing}), with the copy of one
     * growth at a time per task on top; capped by a memory limit; plus the compressed records in flight (heap arrays
     * that double, or exact direct buffers) and their compression scratch.
     */
    public void planMemory(MemoryPlan plan, WriterConfig config, TaskShape shape) {
        long batchBytes = (long) Math.ceil(shape.inputBytes * TaskShape.SERIALIZED_PER_INPUT / shape.batches);
        long[] partial = partialPeak(batchBytes, config.partitions);
        long partials = shape.tasks * (shape.batches * partial[0] + partial[1]);
        String growth = this.partial == Modes.Partial.CHUNKED ? "in " + chunk + "-byte chunks"
                : this.partial == Modes.Partial.RECORDS ? "as the records' own buffers"
                : "as " + (sizing == PartialSizing.DOUBLING ? "doubling" : "predictive sizing") + " grows them";
        if (pool && this.partial == Modes.Partial.CONTIGUOUS) {
            // The pool keeps every size a partial passed through: a growth series sums to at most twice its last.
            partials *= 2;
            growth += ", and the pool keeps each size";
        }
        if (config.hasMemoryLimit()) {
            partials = Math.min(partials, config.memoryLimit);
        }
        plan.offHeap("partials (" + shape.batches + " per task, " + growth + ")", partials);
        // What the in-flight quota can hold: maxBytesInFlight, or the task's whole input if that is less.
        long inFlight = shape.inFlightBytes(maxBytesInFlight);
        if (recordBuffer == Modes.RecordBuffer.HEAP) {
            plan.heap("compressed records (2 x in-flight bytes per task)", shape.tasks * 2 * inFlight);
        } else if (pool || this.partial == Modes.Partial.RECORDS) {
            // Records from the allocator or the pool are rounded up to a power of two: up to twice their bound.
            plan.offHeap("compressed records (2 x in-flight bytes per task, from the allocator or the pool)",
                    shape.tasks * 2 * inFlight);
        } else {
            plan.direct("compressed records (in-flight bytes per task)", shape.tasks * inFlight);
        }
        plan.offHeap("compression scratch (in-flight bytes per task)", shape.tasks * inFlight);
    }

    /**
     * Each task's data file; with several batches whose partials went to file, those files too until the merge has
     * read them (upstream's merge deletes them after); with skip-merge, only partials that went to file. Open: a
     * partial file per batch, the data, index and checksum files.
     */
    public void planStorage(StoragePlan plan, WriterConfig config, TaskShape shape) {
        long once = shape.tasks * shape.serializedBytes();
        if (shape.batches > 1 && !skipMerge) {
            plan.bytes("partial files and the merged data files (the output of " + shape.tasksText() + ", twice)", 2 * once);
        } else {
            plan.bytes((skipMerge ? "partials that went to file" : "data files") + " (the output of "
                    + shape.tasksText() + ", once)", once);
        }
        plan.openFiles("a partial file per batch of " + shape.tasksText() + " (" + shape.batches + " each), and "
                + "each task's data, index and checksum files", (long) shape.tasks * (shape.batches + 3));
    }

    /**
     * A batch of {@code bytes} grown from {@code initialPartial}: its final capacity (0 if it ends in a file) and the
     * largest growth, when the old buffer and the new one both exist.
     */
    long[] partialPeak(long bytes, int partitions) {
        if (partial == Modes.Partial.RECORDS) {
            // The records' own buffers from the allocator or the pool: up to twice their bytes (rounded up to a power
            // of two). Heap records are refused with partial=records.
            long held = 2 * bytes;
            return held > maxPartial ? new long[] {0, 0} : new long[] {held, 0};
        }
        if (partial == Modes.Partial.CHUNKED) {
            long chunks = (bytes + chunk - 1) / chunk;
            return chunks * chunk > maxPartial ? new long[] {0, 0} : new long[] {chunks * Long.highestOneBit(
                    2L * chunk - 1), 0};
        }
        long capacity = initialPartial;
        long copying = 0;
        while (capacity < bytes) {
            long required = capacity + 1;
            int completed = (int) Math.min(partitions, (double) partitions * capacity / bytes);
            long next = sizing.grow(capacity, required, completed, (long) ((double) completed * bytes / partitions),
                    maxPartial);
            if (next < required) {
                return new long[] {0, Math.max(copying, capacity)};
            }
            copying = Math.max(copying, capacity);
            capacity = next;
        }
        return new long[] {capacity, copying};
    }
}
