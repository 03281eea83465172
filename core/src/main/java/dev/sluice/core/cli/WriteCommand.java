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
import dev.sluice.core.write.MergeCopy;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriter;
import dev.sluice.core.write.ShuffleWriterFactory;
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
                .required("strategy", "NAME", "writer strategy: " + String.join(", ", ShuffleWriters.available().keySet()))
                .required("size", "NAME", "input per map task: " + DataSize.names()
                        + " (4 MB, 402 MB, 803 MB, 1.18 GB, 1.57 GB, 1.95 GB of Arrow buffers)")
                .optional("scale", "F", "1", "multiply the size by F (> 0)")
                .required("partitions", "N", "reduce partitions (>= 1)")
                .required("codec", "CODEC", "partition stream compression: " + ShuffleCodec.names())
                .optional("keys", "DIST", "uniform", "key distribution: uniform, or zipf (128 hot keys; some partitions stay empty)")
                .optional("partitioning", "SCHEME", "hash", "hash (Spark's Murmur3 pmod on key) or roundrobin (df.repartition(N))")
                .optional("rows-per-batch", "N", String.valueOf(InputSpec.DEFAULT_ROWS_PER_BATCH), "rows per input batch (>= 1)")
                .optional("columns", "LIST", SchemaSpec.DEFAULT, "columns after the int64 key: int64, int32, float64, utf8; ? = nullable")
                .optional("threads", "N", String.valueOf(WriterConfig.Builder.DEFAULT_THREADS), "writer (compression) threads (>= 1)")
                .optional("merger-threads", "N", String.valueOf(WriterConfig.Builder.DEFAULT_MERGER_THREADS), "merger threads of buffered and async (>= 1)")
                .optional("buffer-size", "SIZE", "32k", "per-file write buffer, spark.shuffle.file.buffer (1 byte to 1g)")
                .optional("max-bytes-in-flight", "SIZE", "128m", "bytes handed to writer threads and not yet written (>= 1)")
                .optional("memory-limit", "SIZE", "512m", "memory a writer may hold beyond its input; buffered and async never exceed it (spilling instead), per-batch only reports its use (>= 1)")
                .optional("merge-copy", "HOW", "transfer", "how per-partition files are copied at commit: transfer (kernel) or stream (buffer)")
                .optional("seed", "N", String.valueOf(InputSpec.DEFAULT_SEED), "input seed: same seed and options, same bytes")
                .flag("materialize", "async only: write Spark's data and index files at commit instead of a segment catalog")
                .flag("fsync", "force data and index files to the device before the commit renames them")
                .required("out", "DIR", "output directory (created if missing; map output files are replaced)");
    }

    static String usage() {
        return "Usage: scripts/sluice write --strategy NAME --size NAME [--scale F] --partitions N --codec CODEC\n"
                + "                            [--keys uniform|zipf] [--partitioning hash|roundrobin] [--rows-per-batch N]\n"
                + "                            [--threads N] [--memory-limit SIZE] [--seed N] [--fsync] --out DIR [...]\n\n"
                + "Generates one map task's Arrow input from the seed, partitions it, writes it through the strategy\n"
                + "into DIR as shuffle_0_0_0.data and shuffle_0_0_0.index (Spark's layout; async without --materialize keeps\n"
                + "its output in a segment catalog in memory and writes no files), reads every partition back\n"
                + "and compares it with a reference, then prints one JSON object on stdout. Progress goes to stderr.\n"
                + "Only writing and committing are timed (millis); generation, partitioning and verification are not.\n"
                + "Exit status: 0 written and verified, 1 the write failed or verification found a difference,\n"
                + "2 invalid options (nothing was created).\n\nOptions:\n" + options().describe();
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
        ShuffleWriterFactory factory = ShuffleWriters.find("--strategy", options.string("strategy"));
        DataSize size = DataSize.parse("--size", options.string("size"));
        Partitioning partitioning = Partitioning.parse("--partitioning", options.string("partitioning"));
        InputSpec spec = new InputSpec(size, options.number("scale"), options.integer("rows-per-batch"),
                KeyDistribution.parse("--keys", options.string("keys")), options.longValue("seed"),
                SchemaSpec.parse("columns", options.string("columns")));
        Path outDir = Paths.get(options.string("out"));
        WriterConfig config = WriterConfig.builder()
                .partitions(options.integer("partitions"))
                .threads(options.integer("threads"))
                .mergerThreads(options.integer("merger-threads"))
                .materialize(options.flag("materialize"))
                .bufferSize(options.bytes("buffer-size"))
                .maxBytesInFlight(options.bytes("max-bytes-in-flight"))
                .memoryLimit(options.bytes("memory-limit"))
                .codec(ShuffleCodec.parse("--codec", options.string("codec")))
                .mergeCopy(MergeCopy.parse("--merge-copy", options.string("merge-copy")))
                .fsync(options.flag("fsync"))
                .outputDir(outDir)
                .build();
        // Everything is valid: from here on files may be created.
        Files.createDirectories(outDir);
        try (BufferAllocator allocator = new RootAllocator()) {
            return run(factory, spec, partitioning, config, allocator);
        }
    }

    private int run(ShuffleWriterFactory factory, InputSpec spec, Partitioning partitioning, WriterConfig config,
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
            return writeAndVerify(factory, spec, partitioning, config, allocator, input, reference, records);
        }
    }

    private int writeAndVerify(ShuffleWriterFactory factory, InputSpec spec, Partitioning partitioning,
                               WriterConfig config, BufferAllocator allocator, MapTaskInput input,
                               Reference reference, PartitionedInput records) throws Exception {
        CountedStorage storage = new CountedStorage();
        MapOutput output;
        long peakBuffered;
        long nanos;
        IoSnapshot io;
        Optional<ProcSelfIo> procBefore;
        Optional<ProcSelfIo> procAfter;
        try (ShuffleExecutor executor = factory.createExecutor(config, storage, allocator)) {
            Progress writing = new Progress(err, "writing with " + factory.name(), records.records().size());
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
        out.println(result(factory, spec, partitioning, config, input, reference, output, io, peakBuffered, nanos,
                filesLeft, procBefore, procAfter, verified));
        return verified.ok() ? 0 : 1;
    }

    private static Json result(ShuffleWriterFactory factory, InputSpec spec, Partitioning partitioning,
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
                .put("strategy", factory.name())
                .put("size", spec.size.label())
                .put("scale", spec.scale)
                .put("partitions", config.partitions)
                .put("codec", config.codec.label())
                .put("keys", spec.keys.label())
                .put("partitioning", partitioning.label())
                .put("rowsPerBatch", spec.rowsPerBatch)
                .put("columns", spec.schema.toString())
                .put("threads", config.threads)
                .put("bufferSize", config.bufferSize)
                .put("maxBytesInFlight", config.maxBytesInFlight)
                .put("memoryLimit", config.memoryLimit)
                .put("mergeCopy", config.mergeCopy.label())
                .put("mergerThreads", config.mergerThreads)
                .put("materialize", config.materialize)
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
