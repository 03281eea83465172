package dev.sluice.cli;

import dev.sluice.core.cli.Options;
import dev.sluice.core.device.DeviceProfile;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.RunDevice;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.run.BalanceFit;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.MapTaskResult;
import dev.sluice.core.run.Producer;
import dev.sluice.core.run.ReduceRead;
import dev.sluice.core.run.SeedScale;
import dev.sluice.core.run.TaskRateCalibration;
import dev.sluice.core.run.Trial;
import dev.sluice.core.run.Wave;
import dev.sluice.core.run.WaveInput;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.run.WaveVerification;
import dev.sluice.core.run.Workload;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.Presets;
import dev.sluice.core.strategy.ShuffleWriters;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoFaults;
import dev.sluice.spi.storage.MapOutputFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * {@code sluice write}: one wave of map tasks (one by default) through one strategy, verified, reported as one JSON
 * line.
 */
final class WriteCommand {
    static final int SHUFFLE_ID = 0;

    static Options options() {
        return new Options()
                .required("strategy", "SPEC", "writer strategy, NAME or NAME:key=value:...: "
                        + String.join(", ", ShuffleWriters.available().keySet()) + ", or a preset: "
                        + String.join(", ", Presets.names()) + " (options, defaults and presets: scripts/sluice "
                        + "strategies)")
                .required("size", "NAME", "input per map task: " + DataSize.names()
                        + " (4 MB, 402 MB, 803 MB, 1.18 GB, 1.57 GB, 1.95 GB of Arrow buffers)")
                .optional("scale", "F", Workload.DEFAULT_SCALE, "multiply the size by F (> 0), or "
                        + SeedScale.NAME + ": tasks x size / this machine's memory as the seed's 16 x size / 125 GiB")
                .optional("tasks", "N", Workload.DEFAULT_TASKS, "map tasks written at once on one executor, each with "
                        + "its own input (seed + task number)")
                .optional("partitions", "N", Workload.DEFAULT_PARTITIONS, "reduce partitions (>= 1)")
                .optional("codec", "CODEC", Workload.DEFAULT_CODEC, "partition stream compression: "
                        + ShuffleCodec.names() + " (lz4-block is Spark's lz4, zstd Spark's zstd)")
                .optional("keys", "DIST", Workload.DEFAULT_KEYS, "key distribution: uniform, or zipf (128 hot keys; some partitions stay empty)")
                .optional("partitioning", "SCHEME", Workload.DEFAULT_PARTITIONING, "roundrobin (df.repartition(N)) or hash (Spark's Murmur3 pmod on key)")
                .optional("batches", "N", Workload.DEFAULT_BATCHES, "input batches per task: seed (the seed report's 1 to 5 for small to xxlarge) or N")
                .optional("batch-bytes", "SIZE", Workload.DEFAULT_BATCH_BYTES, "input batches of about SIZE bytes instead")
                .optional("rows-per-batch", "N", Workload.DEFAULT_ROWS_PER_BATCH, "input batches of N rows instead")
                .optional("columns", "LIST", dev.sluice.core.input.SchemaSpec.DEFAULT, "columns after the int64 key: int64, int32, float64, utf8; ? = nullable")
                .optional("threads", "N", String.valueOf(WriterConfig.Builder.DEFAULT_THREADS), "writer threads of the executor (>= 1; the seed report's 16, upstream's default is 20)")
                .optional("memory-limit", "SIZE", "none", "host memory limit of the executor (spark.rapids.memory.host.offHeapLimit), or none as upstream's default; what it bounds is the strategy's (see its memoryBound option)")
                .optional("producer", "KIND:RATE", BalanceFit.AUTO, "what makes each batch on the task's thread "
                        + "before it is written: none (inputs made before the wave), gpu:RATE (the thread waits, as on "
                        + "a GPU scan) or cpu:RATE (it works on its core), RATE input bytes per second, e.g. gpu:58m; "
                        + "or auto: none, unless --device is a balance that would ask more than half of what the "
                        + "storage under the device delivers (measured once per machine and kept with the task rates), "
                        + "then the gpu:RATE that slows the tasks until it does not (docs/balance.md)")
                .optional("seed", "N", Workload.DEFAULT_SEED, "input seed of task 0: same seed and options, same bytes")
                .flag("fsync", "force data, index and checksum files to the device before the commit renames them")
                .optional("device", "SPEC", DeviceSpec.NATIVE, "where the files go: native (--out as given), "
                        + "emulated:write=RATE:dirty=SIZE[:iops=N][:read=RATE][:size=SIZE], or a profile ("
                        + String.join(", ", DeviceProfile.names()) + ", scaled to --tasks and --scale; list them "
                        + "with scripts/sluice device profiles): a loop device made in --out for the run, throttled "
                        + "and with its dirty page cache capped, torn down after it (needs root). A balance (seed-ssd, "
                        + "or :produce=RATE) sets the disk relative to this harness's task rate, measured first on "
                        + "native storage in --out (per-batch at small, a few seconds) or read from the cache")
                .required("out", "DIR", "output directory (created if missing); what earlier runs wrote there (listed "
                        + "in DIR/" + OwnedFiles.LIST + ") is removed first, nothing else is touched");
    }

    static String usage() {
        return "Usage: scripts/sluice write --strategy SPEC --size NAME --out DIR [--tasks N] [--scale F|seed-equivalent]\n"
                + "                            [--partitions N] [--codec CODEC] [--partitioning roundrobin|hash]\n"
                + "                            [--batches N|--batch-bytes SIZE|--rows-per-batch N] [--threads N]\n"
                + "                            [--memory-limit SIZE|none] [--keys uniform|zipf] [--seed N] [--fsync]\n"
                + "                            [--columns LIST] [--device native|emulated:...|PROFILE]\n"
                + "                            [--producer auto|none|gpu:RATE|cpu:RATE]\n\n"
                + "Generates each map task's Arrow input from its seed, partitions it, and writes all tasks at once\n"
                + "through one executor of the strategy (the seed's mapper stage) into DIR in Spark's layout\n"
                + "(shuffle_0_MAP_0.data, .index, and .checksum.ADLER32 where the strategy writes checksums;\n"
                + "async:skipMerge=true keeps its output in segment catalogs in memory instead). Then it reads every\n"
                + "partition of every output as reduce tasks would (the rest of the seed's query), verifies each task's\n"
                + "output against what it must hold, and prints one JSON object on stdout. Progress goes to stderr.\n"
                + "SPEC is a strategy name, optionally with options: async:skipMerge=true, buffered:merge=gather:shrink=true\n"
                + "('scripts/sluice strategies' lists every option with its default and upstream source).\n"
                + "Only the wave (writing and committing) and the reduce-side read are timed; generation, partitioning\n"
                + "and verification are not. A configuration that cannot fit this machine's memory, the free space of\n"
                + "DIR's file system or the process's open-file limit is refused first, with the numbers.\n"
                + "Every file a run writes in DIR is listed in DIR/" + OwnedFiles.LIST + " before it is created; the next run\n"
                + "removes those files first, and refuses a DIR holding map output files of shuffle 0 that no run listed.\n"
                + "Ctrl-C (SIGINT) or SIGTERM stops the run and removes every file it wrote.\n"
                + "Exit status: 0 written and verified, 1 the write failed or verification found a difference,\n"
                + "2 invalid options or a configuration too big for this machine (nothing was created),\n"
                + "130 or 143 interrupted by SIGINT or SIGTERM (nothing of the run is left).\n\n"
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

    /** Why {@code --producer auto} chose the run's producer; null where one was given. */
    private String producerChoice;

    private static boolean autoProducer(Options options) {
        return BalanceFit.AUTO.equals(options.string("producer").trim());
    }

    private int validatedRun(Options options) throws Exception {
        Workload workload = Workload.parse("--", options.string("size"), options.string("scale"),
                options.string("tasks"), options.string("partitions"), options.string("batches"),
                options.string("batch-bytes"), options.string("rows-per-batch"), options.string("partitioning"),
                options.string("keys"), options.string("codec"), options.string("seed"), options.string("columns"))
                .withProducer(autoProducer(options) ? Producer.NONE : Producer.parse("--producer",
                        options.string("producer")));
        Path outDir = Paths.get(options.string("out"));
        DeviceSpec device = DeviceSpec.parse("--device", options.string("device"));
        WriterConfig.Builder settings = WriterConfig.builder()
                .partitions(workload.partitions)
                .threads(options.integer("threads"))
                .memoryLimit(memoryLimit(options))
                .fsync(options.flag("fsync"));
        Trial trial = Trial.check("--strategy", options.string("strategy"), settings, workload, outDir);
        for (String warning : trial.warnings()) {
            err.println("sluice: warning: " + warning);
        }
        // The device's room, as the benchmarks' forks plan it for the same workload (RunDevice.plannedBytes).
        RunDevice.Planned planned = RunDevice.plan("--device", device, workload.tasks, workload.scale,
                RunDevice.plannedBytes(workload.taskShape()));
        if (!"given".equals(workload.scaleReason)) {
            err.println("sluice: " + workload.scaleReason);
        }
        // Everything is valid: from here on files may be created, each listed first.
        List<String> outputs = new ArrayList<>();
        for (int task = 0; task < workload.tasks; task++) {
            MapOutputFiles files = new MapOutputFiles(outDir, SHUFFLE_ID, task);
            for (Path file : List.of(files.dataFile(), files.indexFile(), files.checksumFile())) {
                outputs.add(file.getFileName().toString());
            }
        }
        if (!device.isNative()) {
            err.println("sluice: making device " + device.text() + " in " + outDir + " (its outputs go with it)");
        }
        // The interruption is closed last, once the device is undone too: only then does its hook remove files.
        try (Interruption interruption = new Interruption(Thread.currentThread(), err)) {
            // A balance sets the device relative to this harness's own task rate (measured on native storage in
            // --out, in a directory of its own that it removes, or read from the cache).
            if (autoProducer(options)) {
                BalanceFit.Choice choice = BalanceFit.resolve(device, workload, settings, outDir,
                        TaskRateCache.standard(), err);
                workload = workload.withProducer(choice.producer);
                producerChoice = choice.why;
                if (device.needsTaskRate()) { // elsewhere auto is none, and nothing was measured for it
                    err.println("sluice: producer " + choice);
                }
            }
            Workload measured = workload;
            RunDevice.TaskRateSource rates = () -> TaskRateCalibration.find(measured, settings, outDir,
                    TaskRateCache.standard(), err);
            return openAndRun(interruption, trial, workload, planned, rates, outDir, outputs);
        }
    }

    private int openAndRun(Interruption interruption, Trial trial, Workload workload, RunDevice.Planned device,
                           RunDevice.TaskRateSource rates, Path outDir, List<String> outputs) throws Exception {
        try (RunDevice storageDevice = device.open(outDir, rates, err, true);
             OwnedFiles owned = OwnedFiles.claim(storageDevice.directory(), SHUFFLE_ID, outputs);
             BufferAllocator allocator = new RootAllocator();
             Trial strategy = trial) {
            interruption.watch(owned);
            if (owned.removedEarlier() > 0) {
                err.printf(Locale.ROOT, "sluice: removed %d file%s (%.1f MB) an earlier run wrote to %s%n",
                        owned.removedEarlier(), owned.removedEarlier() == 1 ? "" : "s",
                        owned.removedEarlierBytes() / 1e6, owned.directory());
            }
            strategy.open(storageDevice.directory(), new CountedStorage(IoFaults.NONE, owned), allocator);
            return run(strategy, workload, allocator, storageDevice);
        }
    }

    private static long memoryLimit(Options options) {
        return WriterConfig.parseMemoryLimit("--memory-limit", options.string("memory-limit"));
    }

    private int run(Trial strategy, Workload workload, BufferAllocator allocator, RunDevice device) throws Exception {
        long total = workload.taskBytes() * workload.tasks;
        Progress generating = new Progress(err, String.format(Locale.ROOT,
                "generating and partitioning %d task input%s of %s x %.3f (%.1f MB each, seed %d + task)",
                workload.tasks, workload.tasks == 1 ? "" : "s", workload.size.label(), workload.scale,
                workload.taskBytes() / 1e6, workload.inputSpec().seed), total);
        AtomicLongArray made = new AtomicLongArray(workload.tasks);
        try (WaveInput input = WaveInput.prepare(workload.inputSpec(), workload.tasks, workload.partitioning,
                workload.partitions, SHUFFLE_ID, allocator, (task, bytes) -> {
                    made.set(task, bytes);
                    long sum = 0;
                    for (int t = 0; t < made.length(); t++) {
                        sum += made.get(t);
                    }
                    generating.update(sum);
                })) {
            generating.done(input.tasks().get(0).rows + " rows in " + input.tasks().get(0).batches
                    + " batches per task; fingerprint of task 0 " + input.tasks().get(0).fingerprint);
            return writeReadAndVerify(strategy, workload, allocator, input, device);
        }
    }

    private int writeReadAndVerify(Trial strategy, Workload workload, BufferAllocator allocator, WaveInput input,
                                   RunDevice device) throws Exception {
        CountedStorage storage = strategy.storage();
        WriterConfig config = strategy.config();
        WaveResult wave;
        strategy.startExecutor();
        try (Wave tasks = new Wave(workload.tasks, workload.producer)) {
            Progress writing = new Progress(err, "writing " + workload.tasks + " task" + (workload.tasks == 1 ? "" : "s")
                    + " at once with " + strategy.text, 1);
            try (Progress.Ticker ticker = writing.every(Progress.TICK_SECONDS, () -> String.format(Locale.ROOT,
                    "%.1f MB written to storage so far (the input is %.1f MB)",
                    storage.counters().snapshot().bytesWritten / 1e6, input.bytes() / 1e6))) {
                wave = strategy.runWave(tasks, input, DirtyPages.system());
            } catch (IOException e) {
                err.println("sluice: write failed: " + e);
                for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                    err.println("sluice:   caused by: " + cause);
                }
                return 1;
            }
            writing.done(String.format(Locale.ROOT, "%d bytes committed", wave.io.committedBytes));
        } finally {
            strategy.stopExecutor();
        }
        int filesLeft = storage.filesLeft();
        try (wave) {
            Progress reading = new Progress(err, "reading every partition of every output (reduce side)", 1);
            ReduceRead.Result read = ReduceRead.readAll(wave.outputs(), storage);
            reading.done(read.bytes + " bytes");
            Progress verifying = new Progress(err, "verifying " + workload.tasks + " output"
                    + (workload.tasks == 1 ? "" : "s") + " of " + config.partitions + " partitions", 1);
            // The first wave of a run, read row by row against what each task's output must hold.
            List<VerificationResult> verified = new WaveVerification(null, null).verify(wave, strategy, allocator)
                    .rows;
            boolean ok = verified.stream().allMatch(VerificationResult::ok);
            String summary = ok ? verified.stream().mapToLong(VerificationResult::rowsRead).sum() + " rows in "
                    + verified.size() + " outputs verified" : verified.stream().filter(v -> !v.ok())
                    .map(VerificationResult::toString).findFirst().orElse("");
            verifying.done(summary);
            out.println(result(strategy.spec, workload, config, input, wave, read, filesLeft, verified, ok, summary)
                    .put("device", device.describe()));
            return ok ? 0 : 1;
        }
    }

    private Json result(StrategySpec strategy, Workload workload, WriterConfig config, WaveInput input,
                               WaveResult wave, ReduceRead.Result read, int filesLeft,
                               List<VerificationResult> verified, boolean ok, String summary) {
        double millis = wave.wallNanos / 1e6;
        double readMillis = read.nanos / 1e6;
        Json proc = new Json();
        if (wave.proc.isPresent()) {
            ProcSelfIo d = wave.proc.get();
            proc.put("available", true).put("syscw", d.syscw).put("syscr", d.syscr).put("wchar", d.wchar)
                    .put("rchar", d.rchar).put("write_bytes", d.writeBytes)
                    .put("cancelled_write_bytes", d.cancelledWriteBytes);
        } else {
            proc.put("available", false).put("reason", ProcSelfIo.unavailableReason().orElse("/proc/self/io could not be read"));
        }
        List<Json> tasks = new ArrayList<>();
        for (int t = 0; t < wave.tasks.size(); t++) {
            MapTaskResult task = wave.tasks.get(t);
            tasks.add(new Json().put("mapId", task.input.mapId).put("seed", task.input.spec.seed)
                    .put("fingerprint", task.input.fingerprint).put("millis", round(task.nanos / 1e6))
                    .put("peakBufferedBytes", task.peakBufferedBytes).put("verified", verified.get(t).ok()));
        }
        long dataBytes = wave.outputs().stream().mapToLong(MapOutput::totalBytes).sum();
        return new Json()
                .put("strategy", strategy.text())
                .put("strategyOptions", strategy.describeOptions())
                .put("size", workload.size.label())
                .put("scale", workload.scale)
                .put("tasks", workload.tasks)
                .put("partitions", config.partitions)
                .put("codec", workload.codec.label())
                .put("keys", workload.inputSpec().keys.label())
                .put("partitioning", workload.partitioning.label())
                .put("batchesPerTask", input.tasks().get(0).batches)
                .put("producer", workload.producer.toString())
                .put("producerChoice", producerChoice)
                .put("columns", workload.inputSpec().schema.toString())
                .put("threads", config.threads)
                .put("memoryLimit", config.hasMemoryLimit() ? config.memoryLimit : null)
                .put("fsync", config.fsync)
                .put("warnings", strategy.warnings(config))
                .put("seed", workload.inputSpec().seed)
                .put("rows", input.tasks().stream().mapToLong(t -> t.rows).sum())
                .put("inputBytes", input.bytes())
                .put("fingerprint", input.tasks().get(0).fingerprint)
                .put("nonEmptyPartitions", input.tasks().get(0).expected.nonEmptyPartitions())
                .put("committedBytes", wave.io.committedBytes)
                .put("dataBytes", dataBytes)
                .put("bytesWritten", wave.io.bytesWritten)
                .put("amplification", wave.io.amplification())
                .put("writeCalls", wave.io.writeCalls)
                .put("transferCalls", wave.io.transferCalls)
                .put("meanWriteCallBytes", wave.io.meanWriteCallBytes())
                .put("largestMemoryWriteBytes", wave.io.largestMemoryWrite)
                .put("writeSizeHistogram", wave.io.writeSizeHistogram())
                .put("filesCreated", wave.io.filesCreated)
                .put("peakOpenFiles", wave.io.peakOpenFiles)
                .put("spillFiles", wave.io.spillFiles)
                .put("filesDeleted", wave.io.filesDeleted)
                .put("filesLeft", filesLeft)
                .put("bytesRead", wave.io.bytesRead)
                .put("fsyncs", wave.io.fsyncs)
                .put("renames", wave.io.renames)
                .put("peakBufferedBytes", wave.peakBufferedBytes())
                .put("spilledBytes", wave.io.spilledBytes)
                .put("millis", round(millis))
                .put("sumTaskMillis", round(wave.sumTaskNanos() / 1e6))
                .put("slowestTaskMillis", round(wave.slowestTaskNanos() / 1e6))
                .put("queryReadMillis", round(readMillis))
                .put("queryTotalMillis", round(millis + readMillis))
                .put("inputMBPerSecond", millis == 0 ? null : input.bytes() / 1e6 / (millis / 1000))
                .put("peakDirtyBytes", wave.peakDirtyBytes < 0 ? null : wave.peakDirtyBytes)
                .put("procSelfIo", proc)
                .put("taskResults", tasks)
                .put("verified", ok)
                .put("verification", summary)
                .put("output", wave.outputs().stream().flatMap(o -> o.files().stream()).map(Path::toString)
                        .collect(Collectors.toList()));
    }

    private static double round(double millis) {
        return Math.round(millis * 1000) / 1000.0;
    }
}
