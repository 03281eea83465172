package dev.sluice.jmh.write;

import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.device.FluidDisk;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.measure.ProcSelfStat;
import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.TaskInput;
import dev.sluice.core.run.Workload;
import dev.sluice.jmh.RunSettings;
import dev.sluice.jmh.profile.Figures;
import dev.sluice.jmh.state.GateState;
import dev.sluice.jmh.state.StorageState;
import dev.sluice.jmh.state.TrialDirectory;
import dev.sluice.jmh.state.WorkloadState;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.OwnedThreads;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.FilePurpose;
import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.spi.storage.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The storage's limit, measured in the same run: the wave's writes without any of its work. {@code tasks} threads
 * each write, at once, as many bytes as a map task's data file holds for the same input and codec, sequentially in
 * 4 MiB calls, to the same directory, with the same fsync choice, each from memory of its own larger than the
 * processor's caches. A strategy's wave time divided by this one's says how close it gets to what the storage does.
 */
public class RawWriteBenchmark extends RunSettings {
    static final int WRITE_SIZE = 4 << 20;
    /**
     * A paced write's calls: smaller, so that the last call, which cannot start before its last byte is made, adds
     * little after the pace's end (a 4 MiB call would add a whole write of a small size's file).
     */
    static final int PACED_WRITE_SIZE = 1 << 20;
    static final String COMPUTED = "computed";
    /** The default {@link RawWrites#sourceBytes}: twice this machine's kind of last-level cache (32 MiB here). */
    static final String SOURCE_BYTES = "67108864";
    static final String UNPACED = "none";

    /** The raw writes of one trial: their size, their threads, their files. */
    @State(Scope.Benchmark)
    public static class RawWrites {
        @Param({"false"})
        public boolean sync;

        /**
         * Bytes each thread writes: {@value #COMPUTED}, a map task's data file for this input and codec, computed by
         * generating and serializing task 0's input; or a count, e.g. the {@code wave.dataBytesPerTask} a strategy
         * committed for the same workload ({@code scripts/bench.sh} passes its baseline's, which saves generating the
         * input once more).
         */
        @Param({COMPUTED})
        public String fileBytes;

        /**
         * Bytes of memory each thread writes from, cycled, at least one write's: a writer's bytes come from memory, so
         * the default is larger than the last-level cache. Until 4 MiB of one buffer, shared, stayed in the cache and
         * the floor copied from it faster than any writer can (docs/limits.md measures the two).
         */
        @Param({SOURCE_BYTES})
        public long sourceBytes;

        /**
         * How fast each thread may write: {@value #UNPACED}, as fast as the storage takes it; or a byte rate per
         * thread ({@code 1000m}, {@code 1000m/s}: binary units, at least 1m), no write issued before its bytes would
         * have been made at that rate since the wave's start. A strategy's bytes come at the pace its compression
         * makes them, and on a device whose writeback starts only once its dirty cap is reached, that pace, not the
         * device alone, sets when the device's writers are throttled (docs/limits.md, "The paced write").
         */
        @Param({UNPACED})
        public String pace;

        private CountedStorage storage;
        private Path dir;
        private final List<ByteBuffer> sources = new ArrayList<>();
        private long bytes;
        private ExecutorService threads;
        private final List<Path> files = new ArrayList<>();
        private int tasks;
        private long inputBytes;
        private int batches;
        private EmulatedDevice device;
        /** {@link #pace} in bytes per second per thread; 0 when unpaced. */
        private long bytesPerSecond;
        /** What a fluid disk of the trial's emulated device takes for one wave's writes, ms; NaN on native storage. */
        private double fluidMillis;

        @Setup(Level.Trial)
        public void start(WorkloadState workloadState, StorageState storageState) throws Exception {
            if (sourceBytes < WRITE_SIZE) {
                throw new InvalidParameterException(BenchmarkParam.SOURCE_BYTES.key(), String.valueOf(sourceBytes),
                        "a byte count >= " + WRITE_SIZE + " (one write)");
            }
            bytesPerSecond = paceBytesPerSecond(pace);
            Workload workload = workloadState.workload();
            device = storageState.emulated();
            tasks = workload.tasks;
            inputBytes = workload.taskBytes();
            batches = workload.batchesPerTask();
            if (COMPUTED.equals(fileBytes)) {
                bytes = dataFileBytes(workload);
            } else {
                try {
                    bytes = Long.parseLong(fileBytes.trim());
                } catch (NumberFormatException e) {
                    bytes = -1;
                }
                if (bytes < 1) {
                    throw new InvalidParameterException(BenchmarkParam.FILE_BYTES.key(), fileBytes, COMPUTED + " or a byte count >= 1");
                }
            }
            fluidMillis = fluidMillis(device, tasks, bytes, bytesPerSecond);
            System.out.printf("sluice raw write: %d tasks x %d bytes (%s) in %d-byte writes, %s%n", tasks, bytes,
                    COMPUTED.equals(fileBytes) ? "a data file of this input, computed" : "given", writeSize(),
                    bytesPerSecond == 0 ? "unpaced" : "each thread paced at " + bytesPerSecond + " bytes/s");
            // Never more than a file's bytes (rounded up to a write): the rest would never be read.
            long fileInWrites = Math.max(WRITE_SIZE, (bytes + WRITE_SIZE - 1) / WRITE_SIZE * WRITE_SIZE);
            long perThread = Math.min(sourceBytes, fileInWrites);
            SplittableRandom random = new SplittableRandom(workload.inputSpec().seed);
            for (int t = 0; t < tasks; t++) {
                ByteBuffer source = ByteBuffer.allocateDirect(Math.toIntExact(perThread));
                while (source.remaining() >= Long.BYTES) {
                    source.putLong(random.nextLong());
                }
                sources.add(source.clear());
            }
            dir = storageState.newTrialDirectory("sluice-raw-");
            storage = new CountedStorage();
            threads = Executors.newFixedThreadPool(tasks, new OwnedThreads("sluice-raw"));
        }

        /** {@link #pace} read: 0 for {@value #UNPACED}; refused, naming the parameter, unless a rate of at least 1m. */
        static long paceBytesPerSecond(String pace) {
            String allowed = UNPACED + " or a byte rate per thread of at least 1m, such as 1000m or 1000m/s";
            if (pace == null) {
                throw new InvalidParameterException(BenchmarkParam.PACE.key(), "null", allowed);
            }
            if (pace.trim().equals(UNPACED)) {
                return 0;
            }
            long rate;
            try {
                rate = Bytes.parseRate(pace);
            } catch (NumberFormatException e) {
                throw new InvalidParameterException(BenchmarkParam.PACE.key(), pace, allowed);
            }
            if (rate < Bytes.MiB) {
                throw new InvalidParameterException(BenchmarkParam.PACE.key(), pace, allowed);
            }
            return rate;
        }

        /**
         * Bytes of map task 0's data file for this input and codec: every partition's stream, exactly. The records are
         * serialized in as many slices as there are processors, at once, which halves the fork's set-up time here.
         */
        private static long dataFileBytes(Workload workload) throws Exception {
            try (BufferAllocator allocator = new RootAllocator();
                 TaskInput input = TaskInput.prepare(workload.inputSpec(), workload.partitioning, workload.partitions,
                         0, 0, allocator, b -> {})) {
                List<ShuffleRecord> records = input.records(workload.codec);
                StreamFormat format = input.format(workload.codec);
                int slices = Math.max(1, Math.min(records.size(), Runtime.getRuntime().availableProcessors()));
                ExecutorService counters = Executors.newFixedThreadPool(slices);
                try {
                    List<Future<Long>> counts = new ArrayList<>();
                    HostAllocator scratch = ArrowHostAllocator.of(allocator);
                    for (int s = 0; s < slices; s++) {
                        List<ShuffleRecord> slice = records.subList(records.size() * s / slices,
                                records.size() * (s + 1) / slices);
                        counts.add(counters.submit(() -> {
                            Counting counting = new Counting();
                            for (ShuffleRecord record : slice) {
                                record.payload().writeTo(counting, scratch);
                            }
                            return counting.bytes;
                        }));
                    }
                    long total = 0;
                    for (Future<Long> count : counts) {
                        total += count.get(30, TimeUnit.MINUTES);
                    }
                    boolean[] started = new boolean[workload.partitions];
                    for (ShuffleRecord record : records) {
                        started[record.partitionId()] = true;
                    }
                    for (boolean s : started) {
                        total += s ? format.streamHeader().length + format.endOfStream().length : 0;
                    }
                    return total;
                } finally {
                    counters.shutdownNow();
                }
            }
        }

        /**
         * One task's file: {@code bytes} in 4 MiB calls from the task's source, forced if {@code sync}; paced, in 1 MiB
         * calls, each not before its last byte's time at the {@link #pace} from the wave's {@code start}.
         */
        private void writeOne(Path file, int task, long start) throws IOException, InterruptedException {
            ByteBuffer mine = sources.get(task).duplicate();
            int at = 0;
            long written = 0;
            try (WritableFile out = storage.create(file, FilePurpose.MAP_OUTPUT)) {
                while (written < bytes) {
                    if (bytesPerSecond > 0) {
                        // The write's bytes are whole only once its last byte is made.
                        long ready = Math.min(bytes, written + PACED_WRITE_SIZE);
                        awaitNanos(start + (long) (ready * 1e9 / bytesPerSecond));
                    }
                    if (at == mine.capacity()) {
                        at = 0;
                    }
                    int length = (int) Math.min(Math.min(writeSize(), mine.capacity() - at), bytes - written);
                    mine.limit(at + length).position(at);
                    while (mine.hasRemaining()) {
                        written += out.write(mine);
                    }
                    at += length;
                }
                if (sync) {
                    out.force();
                }
            }
            storage.commit(List.of(file));
        }

        /**
         * On an emulated device, what a fluid disk of its rate and cache takes for this write ({@link FluidDisk}): one
         * writer a thread, each at its pace, or unbounded where unpaced (its own rate is not measured here, so below the
         * cache the model says 0: the disk holds nobody back); NaN on native storage. The same for every wave of the
         * trial, so computed once.
         */
        private static double fluidMillis(EmulatedDevice device, int tasks, long bytes, long bytesPerSecond) {
            if (device == null) {
                return Double.NaN;
            }
            List<FluidDisk.Writer> writers = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                writers.add(bytesPerSecond > 0 ? new FluidDisk.Writer(bytes, bytesPerSecond)
                        : FluidDisk.Writer.unpaced(bytes));
            }
            return new FluidDisk(device.figures().writeBytesPerSecond, device.figures().dirtyBytes).seconds(writers)
                    * 1e3;
        }

        /** Bytes of each write call: {@link #PACED_WRITE_SIZE} where paced, else {@link #WRITE_SIZE}. */
        int writeSize() {
            return bytesPerSecond > 0 ? PACED_WRITE_SIZE : WRITE_SIZE;
        }

        private static void awaitNanos(long deadline) throws InterruptedException {
            for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
        }

        /** Last before each wave: the gate's prefault of the bytes the wave writes ({@link GateState#prefault}). */
        @Setup(Level.Iteration)
        public void prefault(GateState gate) throws IOException {
            gate.prefault(bytes * tasks);
        }

        @TearDown(Level.Iteration)
        public void remove() throws IOException {
            for (Path file : files) {
                storage.delete(file);
            }
            files.clear();
        }

        @TearDown(Level.Trial)
        public void stop() throws IOException {
            threads.shutdownNow();
            TrialDirectory.remove(dir);
        }
    }

    @Benchmark
    public long writeSequentially(RawWrites raw, GateState gate) throws Exception {
        IoSnapshot before = raw.storage.counters().snapshot();
        Optional<ProcSelfIo> procBefore = ProcSelfIo.read();
        Optional<ProcSelfStat> cpuBefore = ProcSelfStat.read();
        DirtyPages.Sampler sampler = gate.dirty().available() ? gate.dirty().sample() : null;
        long start = System.nanoTime();
        List<Future<Long>> writes = new ArrayList<>();
        for (int t = 0; t < raw.tasks; t++) {
            Path file = raw.dir.resolve("raw-" + t + "-" + System.nanoTime());
            raw.files.add(file);
            int task = t;
            writes.add(raw.threads.submit(() -> {
                long taskStart = System.nanoTime();
                raw.writeOne(file, task, start);
                return System.nanoTime() - taskStart;
            }));
        }
        long sum = 0;
        long slowest = 0;
        for (Future<Long> write : writes) {
            long nanos = write.get(30, TimeUnit.MINUTES);
            sum += nanos;
            slowest = Math.max(slowest, nanos);
        }
        long wall = System.nanoTime() - start;
        long peakDirty = -1;
        if (sampler != null) {
            sampler.close();
            peakDirty = sampler.peak();
        }
        Optional<ProcSelfIo> procAfter = ProcSelfIo.read();
        Optional<ProcSelfStat> cpuAfter = ProcSelfStat.read();
        // The write's CPU time beside its wall time: through the page cache the copy is CPU on the cores that
        // compression also needs, which is why the floors' sum, not the slower floor, bounds a compressing wave here.
        Figures.publish(new WaveFigures(raw.tasks, raw.inputBytes, raw.batches, raw.bytes * raw.tasks, wall, sum, slowest, 0,
                raw.storage.counters().snapshot().since(before),
                procBefore.flatMap(b -> procAfter.map(a -> a.since(b))),
                cpuBefore.flatMap(b -> cpuAfter.map(a -> a.since(b))), raw.writeSize(), peakDirty, gate.settled(), raw.device, -1, -1)
                .fluid(raw.fluidMillis));
        double departure = FluidDisk.departure(wall / 1e9, raw.fluidMillis / 1e3);
        if (Double.isFinite(departure) && Math.abs(departure) > FluidDisk.WARN_DEPARTURE) {
            System.out.printf(Locale.ROOT, "sluice: warning: this %s write took %.0f ms on the emulated "
                    + "device, a fluid disk of its rate and cache %.0f ms (%+.0f%%): the emulation departs from its "
                    + "model (docs/balance.md)%n", raw.bytesPerSecond > 0 ? "paced" : "raw", wall / 1e6,
                    raw.fluidMillis, departure * 100);
        }
        return wall;
    }

    private static final class Counting implements WritableByteChannel {
        long bytes;

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            bytes += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
