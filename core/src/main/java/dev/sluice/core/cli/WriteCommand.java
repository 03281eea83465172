package dev.sluice.core.cli;

import dev.sluice.core.InvalidParameterException;
import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.input.SchemaSpec;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.IoSnapshot;
import dev.sluice.core.io.ProcSelfIo;
import dev.sluice.core.memory.DoesNotFitException;
import dev.sluice.core.memory.MemoryPlan;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Reference;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.core.write.MapTask;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriter;
import dev.sluice.core.write.StrategySpec;
import dev.sluice.core.write.ShuffleWriters;
import dev.sluice.core.write.WriterConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** {@code sluice write}: one map task through one strategy, verified, reported as one JSON line. */
final class WriteCommand {
    static final int SHUFFLE_ID = 0;
    static final long MAP_ID = 0;

    static Options options() {
        return new Options()
                .required("strategy", "SPEC", "writer strategy, NAME or NAME:key=value:...: "
                        + String.join(", ", ShuffleWriters.available().keySet())
                        + " (options and defaults: scripts/sluice strategies)")
                .required("size", "NAME", "input per map task: " + DataSize.names()
                        + " (4 MB, 402 MB, 803 MB, 1.18 GB, 1.57 GB, 1.95 GB of Arrow buffers)")
                .optional("scale", "F", "1", "multiply the size by F (> 0)")
                .required("partitions", "N", "reduce partitions (>= 1)")
                .required("codec", "CODEC", "partition stream compression: " + ShuffleCodec.names())
                .optional("keys", "DIST", "uniform", "key distribution: uniform, or zipf (128 hot keys; some partitions stay empty)")
                .optional("partitioning", "SCHEME", "hash", "hash (Spark's Murmur3 pmod on key) or roundrobin (df.repartition(N))")
                .optional("rows-per-batch", "N", String.valueOf(InputSpec.DEFAULT_ROWS_PER_BATCH), "rows per input batch (>= 1)")
                .optional("columns", "LIST", SchemaSpec.DEFAULT, "columns after the int64 key: int64, int32, float64, utf8; ? = nullable")
                .optional("threads", "N", String.valueOf(WriterConfig.Builder.DEFAULT_THREADS), "writer threads of the executor (>= 1; the seed report's 16, upstream's default is 20)")
                .optional("memory-limit", "SIZE", "none", "host memory limit of the executor (spark.rapids.memory.host.offHeapLimit), or none as upstream's default; what it bounds is the strategy's (see its memoryBound option)")
                .optional("seed", "N", String.valueOf(InputSpec.DEFAULT_SEED), "input seed: same seed and options, same bytes")
                .flag("fsync", "force data, index and checksum files to the device before the commit renames them")
                .required("out", "DIR", "output directory (created if missing; map output files are replaced)");
    }

    static String usage() {
        return "Usage: scripts/sluice write --strategy SPEC --size NAME [--scale F] --partitions N --codec CODEC\n"
                + "                            [--keys uniform|zipf] [--partitioning hash|roundrobin] [--rows-per-batch N]\n"
                + "                            [--threads N] [--memory-limit SIZE|none] [--seed N] [--fsync] --out DIR\n\n"
                + "Generates one map task's Arrow input from the seed, partitions it, writes it through the strategy\n"
                + "into DIR in Spark's layout (shuffle_0_0_0.data, .index, and .checksum.ADLER32 where the strategy\n"
                + "writes checksums; async:skipMerge=true keeps its output in a segment catalog in memory instead),\n"
                + "reads every partition back and compares it with a reference, then prints one JSON object on stdout.\n"
                + "SPEC is a strategy name, optionally with options: async:skipMerge=true, buffered:merge=gather:shrink=true\n"
                + "('scripts/sluice strategies' lists every option with its default and upstream source).\n"
                + "Progress goes to stderr. Only writing and committing are timed (millis); generation, partitioning and\n"
                + "verification are not. A configuration that cannot fit this machine's memory is refused first.\n"
                + "Exit status: 0 written and verified, 1 the write failed or verification found a difference,\n"
                + "2 invalid options or a configuration too big for this machine (nothing was created).\n\n"
                + "Options:\n" + options().describe();
    }

    private final PrintStream out;
    private final PrintStream err;

    WriteCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs {@code write}; returns the exit status. Invalid options throw before anything is created. */
    int run(List<String> args) throws Exception {
        Options options = options();
        if (!options.parse(args)) {
            out.print(usage());
            return 0;
        }
        try {
            return validatedRun(options);
        } catch (InvalidParameterException e) {
            // Report the value as the user typed it (0, not 0.0).
            String typed = options.typed(e.parameter().replaceFirst("^--", ""));
            throw typed == null ? e : new InvalidParameterException(e.parameter(), typed, e.allowed());
        }
    }

    private int validatedRun(Options options) throws Exception {
        StrategySpec strategy = StrategySpec.parse("--strategy", options.string("strategy"));
        DataSize size = DataSize.parse("--size", options.string("size"));
        Partitioning partitioning = Partitioning.parse("--partitioning", options.string("partitioning"));
        InputSpec spec = new InputSpec(size, options.number("scale"), options.integer("rows-per-batch"),
                KeyDistribution.parse("--keys", options.string("keys")), options.longValue("seed"),
                SchemaSpec.parse("columns", options.string("columns")));
        Path outDir = Paths.get(options.string("out"));
        WriterConfig config = WriterConfig.builder()
                .partitions(options.integer("partitions"))
                .threads(options.integer("threads"))
                .memoryLimit(memoryLimit(options))
                .codec(ShuffleCodec.parse("--codec", options.string("codec")))
                .fsync(options.flag("fsync"))
                .outputDir(outDir)
                .build();
        strategy.check("--strategy", config);
        String refusal = memoryPlan(strategy, config, spec).refusal(MemoryPlan.availableMemory(),
                Runtime.getRuntime().maxMemory());
        if (refusal != null) {
            throw new DoesNotFitException(strategy.text() + " at " + size.label() + " x " + spec.scale + " " + refusal);
        }
        // Everything is valid: from here on files may be created.
        Files.createDirectories(outDir);
        try (BufferAllocator allocator = new RootAllocator()) {
            return run(strategy, spec, partitioning, config, allocator);
        }
    }

    /** {@code none} or a size. */
    private static long memoryLimit(Options options) {
        return "none".equals(options.string("memory-limit")) ? WriterConfig.UNLIMITED : options.bytes("memory-limit");
    }

    /** The input, its partitioned copy (both exist while it is partitioned), and what the writer may hold. */
    static MemoryPlan memoryPlan(StrategySpec strategy, WriterConfig config, InputSpec spec) {
        long input = spec.targetBytes();
        MemoryPlan plan = new MemoryPlan().offHeap("input", input).offHeap("partitioned input", input);
        strategy.planMemory(plan, config, 1, input);
        return plan;
    }

    private int run(StrategySpec strategy, InputSpec spec, Partitioning partitioning, WriterConfig config,
                    BufferAllocator allocator) throws Exception {
        MapTaskInput input;
        Reference reference;
        PartitionedInput records;
        Progress generating = new Progress(err, String.format(Locale.ROOT, "generating %s input (%.1f MB, seed %d)",
                spec.size.label(), spec.targetBytes() / 1e6, spec.seed), spec.targetBytes());
        input = BatchGenerator.generate(spec, allocator, generating::update);
        try {
            generating.done(input.rows() + " rows in " + input.batches().size() + " batches, fingerprint " + input.fingerprint());
            reference = Reference.compute(input, partitioning.create(config.partitions, MAP_ID));
            Progress partitioningStep = new Progress(err, "partitioning (" + partitioning.label() + ", "
                    + config.partitions + " partitions)", 1);
            records = PartitionedInput.partition(input, partitioning.create(config.partitions, MAP_ID), allocator);
            partitioningStep.done(records.records().size() + " records");
        } finally {
            // The records own their rows now; the generated batches are no longer needed.
            input.close();
        }
        try (records) {
            return writeAndVerify(strategy, spec, partitioning, config, allocator, input, reference, records);
        }
    }

    private int writeAndVerify(StrategySpec strategy, InputSpec spec, Partitioning partitioning,
                               WriterConfig config, BufferAllocator allocator, MapTaskInput input,
                               Reference reference, PartitionedInput records) throws Exception {
        CountedStorage storage = new CountedStorage();
        MapOutput output;
        long peakBuffered;
        long nanos;
        IoSnapshot io;
        Optional<ProcSelfIo> procBefore;
        Optional<ProcSelfIo> procAfter;
        try (ShuffleExecutor executor = strategy.createExecutor(config, storage, allocator)) {
            Progress writing = new Progress(err, "writing with " + strategy.text(), records.records().size());
            IoSnapshot before = storage.counters().snapshot();
            procBefore = ProcSelfIo.read();
            long start = System.nanoTime();
            try (ShuffleWriter writer = executor.createMapOutputWriter(new MapTask(SHUFFLE_ID, MAP_ID, input.schema()))) {
                long written = 0;
                for (ShuffleRecord record : records.records()) {
                    writer.write(record);
                    writing.update(++written);
                }
                output = writer.commit();
                peakBuffered = writer.peakBufferedBytes();
            } catch (IOException e) {
                err.println("sluice: write failed: " + e);
                Throwable cause = e.getCause();
                while (cause != null) {
                    err.println("sluice:   caused by: " + cause);
                    cause = cause.getCause();
                }
                return 1;
            }
            nanos = System.nanoTime() - start;
            procAfter = ProcSelfIo.read();
            io = storage.counters().snapshot().since(before);
            writing.done(String.format(Locale.ROOT, "%d bytes committed", io.committedBytes));
        }
        int filesLeft = storage.filesLeft();
        VerificationResult verified;
        try (output) {
            Progress verifying = new Progress(err, "verifying " + output.numPartitions() + " partitions", 1);
            try (PartitionReader reader = output.openReader(storage)) {
                verified = Verifier.verify(reader, reference, input.schema(), config.codec, allocator);
            }
            verifying.done(verified.toString());
        }
        out.println(result(strategy, spec, partitioning, config, input, reference, output, io, peakBuffered, nanos,
                filesLeft, procBefore, procAfter, verified));
        return verified.ok() ? 0 : 1;
    }

    private static Json result(StrategySpec strategy, InputSpec spec, Partitioning partitioning,
                               WriterConfig config, MapTaskInput input, Reference reference, MapOutput output,
                               IoSnapshot io, long peakBuffered, long nanos, int filesLeft,
                               Optional<ProcSelfIo> procBefore, Optional<ProcSelfIo> procAfter,
                               VerificationResult verified) {
        double millis = nanos / 1e6;
        Json proc = new Json();
        if (procBefore.isPresent() && procAfter.isPresent()) {
            ProcSelfIo d = procAfter.get().since(procBefore.get());
            proc.put("available", true).put("syscw", d.syscw).put("syscr", d.syscr).put("wchar", d.wchar)
                    .put("rchar", d.rchar).put("write_bytes", d.writeBytes)
                    .put("cancelled_write_bytes", d.cancelledWriteBytes);
        } else {
            proc.put("available", false).put("reason", ProcSelfIo.unavailableReason().orElse("/proc/self/io could not be read"));
        }
        return new Json()
                .put("strategy", strategy.text())
                .put("strategyOptions", strategy.describeOptions())
                .put("size", spec.size.label())
                .put("scale", spec.scale)
                .put("partitions", config.partitions)
                .put("codec", config.codec.label())
                .put("keys", spec.keys.label())
                .put("partitioning", partitioning.label())
                .put("rowsPerBatch", spec.rowsPerBatch)
                .put("columns", spec.schema.toString())
                .put("threads", config.threads)
                .put("memoryLimit", config.hasMemoryLimit() ? config.memoryLimit : null)
                .put("fsync", config.fsync)
                .put("seed", spec.seed)
                .put("rows", input.rows())
                .put("inputBytes", input.bytes())
                .put("batches", input.batches().size())
                .put("fingerprint", input.fingerprint())
                .put("nonEmptyPartitions", reference.nonEmptyPartitions())
                .put("committedBytes", io.committedBytes)
                .put("dataBytes", output.totalBytes())
                .put("bytesWritten", io.bytesWritten)
                .put("amplification", io.amplification())
                .put("writeCalls", io.writeCalls)
                .put("transferCalls", io.transferCalls)
                .put("meanWriteCallBytes", io.meanWriteCallBytes())
                .put("largestMemoryWriteBytes", io.largestMemoryWrite)
                .put("writeSizeHistogram", io.writeSizeHistogram())
                .put("filesCreated", io.filesCreated)
                .put("filesDeleted", io.filesDeleted)
                .put("filesLeft", filesLeft)
                .put("bytesRead", io.bytesRead)
                .put("fsyncs", io.fsyncs)
                .put("renames", io.renames)
                .put("peakBufferedBytes", peakBuffered)
                .put("spilledBytes", io.spilledBytes)
                .put("millis", Math.round(millis * 1000) / 1000.0)
                .put("inputMBPerSecond", millis == 0 ? null : input.bytes() / 1e6 / (millis / 1000))
                .put("procSelfIo", proc)
                .put("verified", verified.ok())
                .put("verification", verified.toString())
                .put("output", output.files().stream().map(Path::toString).collect(java.util.stream.Collectors.toList()));
    }
}
