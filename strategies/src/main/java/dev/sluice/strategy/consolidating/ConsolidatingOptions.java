package dev.sluice.strategy.consolidating;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.option.StrategyOption;
import dev.sluice.spi.option.StrategyOptions;
import dev.sluice.strategy.support.ChecksumOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of the consolidating strategies ({@code buffered} = PR-13724, {@code async} = PR-14090). Each default is
 * upstream's at the PR's commit, with its source; the other values are Sluice's improvements, listed in
 * docs/fidelity.md. The initial partial size differs between the two PRs, so each strategy declares its own.
 */
public final class ConsolidatingOptions {
    /** PR-13724's merge commit. */
    public static final String PR_13724 = "e465ec3851";
    /** PR-14090's resubmission (#14220), the commit that landed. */
    public static final String PR_14090 = "c4d50b3624";
    static final String RSIMB = "RapidsShuffleInternalManagerBase.scala";
    static final String HANDLE = "SpillablePartialFileHandle.scala";

    private ConsolidatingOptions() {}

    /** The first capacity of a batch's partial buffer. */
    public static StrategyOption<Long> initialPartial(long defaultValue, String commit) {
        return StrategyOption.size("initialPartial", defaultValue, 64 * Bytes.KiB, Integer.MAX_VALUE,
                "first capacity of a batch's partial buffer, allocated on the batch's first write",
                "spark.rapids.memory.host.partialFileBufferInitialSize = " + Bytes.format(defaultValue)
                        + " (RapidsConf.scala @ " + commit + "; allocated by the handle of the batch's first "
                        + "getPartitionWriter, RapidsLocalDiskShuffleMapOutputWriter.scala)");
    }

    public static final StrategyOption<Long> MAX_PARTIAL = StrategyOption.size("maxPartial", Integer.MAX_VALUE,
            64 * Bytes.KiB, Integer.MAX_VALUE, "largest partial buffer; a batch that needs more continues as a file",
            "spark.rapids.memory.host.partialFileBufferMaxSize = Int.MaxValue (RapidsConf.scala @ " + PR_13724 + ")");
    public static final StrategyOption<Double> MEMORY_THRESHOLD = StrategyOption.fraction("memoryThreshold", 0.5,
            "with a memory limit and memoryBound=threshold: a partial starts or grows in memory only while the "
                    + "executor's host memory use is below this fraction of the limit, else it goes to file",
            "spark.rapids.memory.host.partialFileBufferMemoryThreshold = 0.5 (RapidsConf.scala @ " + PR_13724 + ")");
    public static final StrategyOption<Long> MAX_BYTES_IN_FLIGHT = StrategyOption.size("maxBytesInFlight",
            128 * Bytes.MiB, 1, Long.MAX_VALUE / 2, "uncompressed record bytes a map task may have handed to the "
                    + "writer threads and not yet merged (upstream's BytesInFlightLimiter)",
            "spark.rapids.shuffle.multiThreaded.maxBytesInFlight = 128m (RapidsConf.scala @ " + PR_13724 + ")");
    public static final StrategyOption<Long> FILE_BUFFER = StrategyOption.size("fileBuffer", 32 * Bytes.KiB, 1,
            Bytes.GiB, "merge=stream: the array each segment is copied through",
            "spark.shuffle.file.buffer = 32k (mergePartialFiles in " + RSIMB + " @ " + PR_13724 + ")");
    public static final StrategyOption<Modes.Merge> MERGE = StrategyOption.choice("merge", Modes.Merge.class,
            Modes.Merge.STREAM, "commit of several batches: stream copies each segment through fileBuffer into a "
                    + "64 KiB buffered stream (about 16 write calls per MiB); gather hands segments in memory to "
                    + "gathering writes", "mergePartialFiles + FILE_ONLY handle (" + RSIMB + ", " + HANDLE + " @ "
                    + PR_13724 + ")");
    public static final StrategyOption<Boolean> SHRINK = StrategyOption.flag("shrink", false,
            "copy a finished partial with over a quarter of its capacity unused into an exact-size buffer",
            "none: a finished handle keeps its capacity (" + HANDLE + " @ " + PR_13724 + ")");
    public static final StrategyOption<Modes.Merger> MERGER = StrategyOption.choice("merger", Modes.Merger.class,
            Modes.Merger.BLOCKING, "blocking: one merger task per batch holds a single-thread merger slot until its "
                    + "batch is sealed and merged, so later batches' mergers queue behind it; it can deadlock "
                    + "(spark-rapids #15208), so Sluice bounds its wait (-Dsluice.blockingMerger.timeoutSeconds, "
                    + "600) and then fails the map task naming #15208. cooperative: mergers drain ready records and "
                    + "yield, never parking a thread",
            "mergerTask queued on getNextMergerSlot's slot (" + RSIMB + " @ " + PR_13724 + " and " + PR_14090
                    + "); cooperative since #15208 (NVIDIA/cudf-spark)");
    public static final StrategyOption<Integer> MERGER_THREADS = StrategyOption.threadCount("mergerThreads",
            "merger threads (slots) of the executor",
            "numMergerSlots = numWriterThreads (startThreadPoolIfNeeded in " + RSIMB + " @ " + PR_13724 + ")");
    public static final StrategyOption<Modes.Compression> COMPRESSION = StrategyOption.choice("compression",
            Modes.Compression.class, Modes.Compression.SLOTS, "slots pins each partition of a map task to one writer "
                    + "slot; pool lets any writer thread compress any record",
            "partitionSlots + queueWriteTask (" + RSIMB + " @ " + PR_13724 + ")");
    public static final StrategyOption<Modes.MemoryBound> MEMORY_BOUND = StrategyOption.choice("memoryBound",
            Modes.MemoryBound.class, Modes.MemoryBound.THRESHOLD, "threshold: host memory use counts the input "
                    + "batches' host copies and the partials; a partial goes to file past memoryThreshold of the "
                    + "limit, and one that does not fit under it first spills other finished partials and retries; "
                    + "partials-only: the same threshold over partials alone, straight to file when one does not fit "
                    + "(Sluice up to af77937); exact: records and partials are charged before allocation and never "
                    + "pass the limit (the task thread spills the largest partial, then waits)",
            "HostAlloc.isUsageBelowThreshold in " + HANDLE + ", HostAlloc.alloc's spill and retry (HostAlloc.scala @ "
                    + PR_13724 + ")");
    public static final StrategyOption<Modes.RecordBuffer> RECORD_BUFFER = StrategyOption.choice("recordBuffer",
            Modes.RecordBuffer.class, Modes.RecordBuffer.HEAP, "heap: each compressed record grows in a heap array "
                    + "and is copied into the partial; direct: one pooled direct buffer of exactly its size",
            "OpenByteArrayOutputStream per partition of a batch (" + RSIMB + " @ " + PR_13724 + ")");
    public static final StrategyOption<Modes.Partial> PARTIAL = StrategyOption.choice("partial", Modes.Partial.class,
            Modes.Partial.CONTIGUOUS, "contiguous: one buffer per batch, grown by allocating a bigger one and copying; "
                    + "chunked: a list of fixed-size chunks (chunk), growth adds one and copies nothing; records: the "
                    + "compressed records' own buffers linked in order, so the merger copies nothing. Commit and spill "
                    + "write chunks or records with gathering writes (initialPartial and the growth policy then do not "
                    + "apply)",
            "expandBuffer: allocate, copy, free (" + HANDLE + " @ " + PR_13724 + ")");
    public static final StrategyOption<Long> CHUNK = StrategyOption.size("chunk", 4 * Bytes.MiB, 64 * Bytes.KiB,
            Bytes.GiB, "partial=chunked: bytes of one chunk",
            "none: upstream has no chunked partials");
    public static final StrategyOption<Boolean> POOL = StrategyOption.flag("pool", false,
            "partial buffers (and records with recordBuffer=direct) come from an executor-wide pool that map tasks "
                    + "give them back to, never zeroed, so steady-state waves touch no fresh pages; idle buffers count "
                    + "against a memory limit and are freed to fit it",
            "HostMemoryBuffer.allocate(size, false) per partial, freed when its task ends (" + HANDLE + " @ "
                    + PR_13724 + ")");
    public static final StrategyOption<Boolean> CHECKSUM = StrategyOption.flag("checksum", false,
            "a checksum of each partition (checksumAlgorithm), committed as the .checksum file",
            "commitAllPartitions(writer, emptyChecksums = true): no checksum file (" + RSIMB + " @ " + PR_13724 + ")");

    /**
     * A consolidating strategy's options: its own first ({@code initialPartial}'s default differs by PR), then those
     * buffered and async share, in the order {@code scripts/sluice strategies} lists them.
     */
    public static StrategyOptions declare(StrategyOption<?>... own) {
        List<StrategyOption<?>> all = new ArrayList<>(List.of(own));
        all.addAll(List.of(MAX_PARTIAL, MEMORY_THRESHOLD, MAX_BYTES_IN_FLIGHT, FILE_BUFFER, MERGE, SHRINK, MERGER,
                MERGER_THREADS, COMPRESSION, MEMORY_BOUND, RECORD_BUFFER, PARTIAL, CHUNK, POOL, CHECKSUM,
                ChecksumOptions.ALGORITHM));
        return StrategyOptions.of(all.toArray(new StrategyOption<?>[0]));
    }

    /** Refuses values that cannot run with {@code config}; null when they can. */
    public static String check(WriterConfig config, OptionValues options, StrategyOption<Long> initialPartial) {
        if (options.get(initialPartial) > options.get(MAX_PARTIAL)) {
            return "initialPartial <= maxPartial (" + Bytes.format(options.get(initialPartial)) + " > "
                    + Bytes.format(options.get(MAX_PARTIAL)) + ")";
        }
        if (options.get(PARTIAL) == Modes.Partial.RECORDS && options.get(RECORD_BUFFER) != Modes.RecordBuffer.DIRECT) {
            return "partial=records only with recordBuffer=direct: a partial of heap records would hold the map "
                    + "task's whole output on the Java heap";
        }
        if (options.get(MEMORY_BOUND) == Modes.MemoryBound.EXACT && !config.hasMemoryLimit()) {
            return "memoryBound=exact only with a memory limit to bound (--memory-limit SIZE)";
        }
        return null;
    }
}
