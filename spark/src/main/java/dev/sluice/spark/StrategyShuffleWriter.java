package dev.sluice.spark;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.memory.TaskMemory;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.MapOutputFiles;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.Partitioner;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.scheduler.MapStatus$;
import org.apache.spark.shuffle.IndexShuffleBlockResolver;
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter;
import org.apache.spark.shuffle.ShuffleWriter;
import org.apache.spark.shuffle.api.SingleSpillShuffleMapOutputWriter;
import org.apache.spark.shuffle.checksum.RowBasedChecksum;
import org.apache.spark.storage.BlockManagerId;
import scala.Option;
import scala.Product2;
import scala.collection.Iterator;

/**
 * Spark's shuffle writer for one map task, writing through a Sluice strategy: rows become records batch by batch
 * ({@link RowBatches}), the strategy writes and commits its data file in Sluice's scratch directory, and Spark's own
 * single-file map output writer takes that file over (a rename) and writes the index and checksum files under the
 * names Spark chooses ({@code IndexShuffleBlockResolver.writeMetadataFileAndCommit}), as
 * {@code UnsafeShuffleWriter} does with a single spill file. A failure aborts the strategy's writer and removes what
 * it made; {@code stop(false)} after a commit removes the committed output. Spark's files under this map id are this
 * attempt's once its transfer went through, because map ids are task attempt ids: {@link Eligibility} sends
 * {@code spark.shuffle.useOldFetchProtocol=true}, where they are partition indices, to Spark's writers.
 *
 * <p>Where the shuffle asks for row-based checksums ({@code spark.sql.shuffle.orderIndependentChecksum.enabled}, on by
 * default from Spark 4.2), each row goes into its partition's checksum as Spark's own writers do it, and the
 * aggregated value into the MapStatus, where the scheduler compares attempts of one map
 * ({@code spark.sql.shuffle.orderIndependentChecksum.enableFullRetryOnMismatch}).
 *
 * <p>Task metrics: records, bytes written (the committed partitions' lengths) and write time as Spark defines it,
 * the time the task spent blocked on writes ({@code ShuffleWriteMetrics.writeTime}): Spark's own writers time their
 * writes and the merge or concatenation into the data file, on the task's thread; here the strategy writes on its own
 * threads, and the task's thread is blocked on them while it hands a batch's records over ({@code write}: the
 * strategy's in-flight limit waits for its writes) and while the strategy commits and Spark takes the data file over.
 * Serializing the rows and pulling them from the input are not write time, as in Spark's writers.
 */
final class StrategyShuffleWriter<K, V> extends ShuffleWriter<K, V> {
    /** Empty stream header and end: Spark's lz4 and zstd readers read concatenated pieces as one stream. */
    static final StreamFormat CONCATENATED = new StreamFormat() {
        private final byte[] none = new byte[0];

        @Override
        public byte[] streamHeader() {
            return none;
        }

        @Override
        public byte[] endOfStream() {
            return none;
        }
    };

    private final ShuffleDependency<K, V, ?> dependency;
    private final long mapId;
    private final ShuffleWriteMetricsReporter metrics;
    private final SluiceExecutors.Lease lease;
    private final TaskMemoryManager taskMemory;
    private final SluiceExecutors executors;
    private final CountedStorage storage;
    private final Path dir;
    private final PieceCompression compression;
    private final long batchBytes;
    /** Spark's checksum algorithm where its checksums are on, else null. */
    private final ChecksumAlgorithm checksums;
    /** Whether the strategy's memory for this task is a consumer of Spark's task memory manager. */
    private final boolean inSparksMemory;
    /** Spark's shuffle encryption, or null where it is off. */
    private final PartitionEncryption encryption;
    private final SingleSpillShuffleMapOutputWriter single;
    private final IndexShuffleBlockResolver resolver;
    private final BlockManagerId location;
    private final Committed onCommitted;
    private MapStatus status;
    private long[] partitionLengths;
    private boolean stopped;
    /** Whether Spark took this attempt's data file over (its index and data are under Spark's names since). */
    private boolean transferred;

    StrategyShuffleWriter(ShuffleDependency<K, V, ?> dependency, long mapId, ShuffleWriteMetricsReporter metrics,
                          TaskMemoryManager taskMemory, SluiceExecutors.Lease lease, SluiceExecutors executors,
                          PieceCompression compression, SluiceSparkConf settings, PartitionEncryption encryption,
                          SingleSpillShuffleMapOutputWriter single, IndexShuffleBlockResolver resolver,
                          BlockManagerId location, Committed onCommitted) {
        this.dependency = dependency;
        this.mapId = mapId;
        this.metrics = metrics;
        this.taskMemory = taskMemory;
        this.lease = lease;
        this.executors = executors;
        this.storage = executors.storage();
        this.dir = executors.scratchFor(resolver.getDataFile(dependency.shuffleId(), mapId));
        this.compression = compression;
        this.batchBytes = settings.batchBytes;
        this.checksums = settings.checksums;
        this.inSparksMemory = settings.taskMemory;
        this.encryption = encryption;
        this.single = single;
        this.resolver = resolver;
        this.location = location;
        this.onCommitted = onCommitted;
    }

    @Override
    public void write(Iterator<Product2<K, V>> input) throws IOException {
        int shuffleId = dependency.shuffleId();
        Partitioner partitioner = dependency.partitioner();
        RowBatches batches = new RowBatches(partitioner.numPartitions(), dependency.serializer().newInstance(),
                batchBytes, compression);
        MapOutput output = null;
        TaskRows rows = new TaskRows(taskMemory, batches);
        StrategyMemory strategyMemory = inSparksMemory ? new StrategyMemory(taskMemory) : null;
        RowBasedChecksum[] rowChecksums = dependency.rowBasedChecksums();
        long spilled = 0;
        long commitNanos = 0;
        long peakBytes = 0;
        try (dev.sluice.spi.ShuffleWriter writer = lease.executor().createMapOutputWriter(new MapTask(shuffleId, mapId,
                CONCATENATED, dir, strategyMemory != null ? strategyMemory : TaskMemory.UNBOUNDED))) {
            rows.open(writer);
            while (true) {
                boolean more = input.hasNext();
                Product2<K, V> record = more ? input.next() : null;
                if (!more) {
                    break;
                }
                int partition = partitioner.getPartition(record._1());
                if (rowChecksums.length > 0) {
                    // As Spark's own writers do (BypassMergeSortShuffleWriter.write; apache/spark #50230): each row's
                    // checksum into its partition's, before the row is serialized; the row may be reused after.
                    rowChecksums[partition].update(record._1(), record._2());
                }
                rows.add(partition, record._1(), record._2());
            }
            rows.finish();
            long commit = System.nanoTime();
            output = writer.commit();
            // Spark's peakExecutionMemory: "approximately the sum of the peak sizes" of a task's data structures, as
            // UnsafeShuffleWriter adds its sorter's (closeAndWriteOutput): the rows' heap and the strategy's buffers.
            peakBytes = rows.peak() + writer.peakBufferedBytes();
            spilled = writer.spilledBytes();
            partitionLengths = output.partitionLengths().clone();
            handOver(shuffleId, output, partitionLengths);
            commitNanos = System.nanoTime() - commit;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed(output, (IOException) new InterruptedIOException("map task " + mapId
                    + " was interrupted while Sluice wrote it").initCause(e));
        } catch (IOException e) {
            throw failed(output, e);
        } catch (RuntimeException e) {
            throw failed(output, e);
        } catch (Error e) {
            throw failed(output, e);
        } finally {
            rows.close();
            if (strategyMemory != null) {
                strategyMemory.close();
            }
            try {
                if (output != null) {
                    output.close();
                }
            } finally {
                lease.release();
            }
        }
        long bytes = 0;
        for (long length : partitionLengths) {
            bytes += length;
        }
        metrics.incRecordsWritten(batches.records());
        metrics.incBytesWritten(bytes);
        metrics.incWriteTime(batches.writeNanos() + commitNanos);
        org.apache.spark.TaskContext context = org.apache.spark.TaskContext.get();
        if (context != null) {
            context.taskMetrics().incPeakExecutionMemory(peakBytes);
            // Spark's "Spill (Memory)" and "Spill (Disk)": a partial's bytes are the same serialized bytes in memory
            // and in its file (the memory freed may be more, a buffer's unused capacity).
            context.taskMetrics().incMemoryBytesSpilled(spilled);
            context.taskMetrics().incDiskBytesSpilled(spilled);
        }
        status = MapStatus$.MODULE$.apply(location, partitionLengths, mapId,
                rowChecksums.length > 0 ? RowBasedChecksum.getAggregatedChecksumValue(rowChecksums) : 0L);
        onCommitted.committed(batches.batches(), rows.spills(), spilled);
    }

    /**
     * Gives the committed data file to Spark's single-file map output writer with its lengths and the strategy's
     * checksums (when Spark's are on), then forgets it in Sluice's storage and removes the strategy's own index and
     * checksum files. {@code lengths} is what the MapStatus is built from, after this: where an earlier attempt of the
     * same map id already committed, {@code IndexShuffleBlockResolver.writeMetadataFileAndCommit} keeps that output,
     * deletes this one and copies the kept lengths into the array it was given, as {@code UnsafeShuffleWriter} relies
     * on (its {@code partitionLengths} is the array it passes), so the MapStatus describes what reducers will read.
     */
    private void handOver(int shuffleId, MapOutput output, long[] lengths) throws IOException {
        MapOutputFiles files = new MapOutputFiles(dir, shuffleId, mapId);
        if (!output.files().contains(files.dataFile())) {
            throw new IOException("the strategy committed map " + mapId + " of shuffle " + shuffleId + " as "
                    + output.files() + ", not as a data file " + files.dataFile() + " that Spark can take over; "
                    + "only strategies whose map output is a data file can run in Spark");
        }
        Path data = files.dataFile();
        long[] sums;
        if (encryption != null) {
            PartitionEncryption.Sealed sealed = encryption.seal(storage, data, lengths, checksums);
            data = sealed.file();
            sums = sealed.checksums();
        } else {
            sums = checksums != null ? checksums(files.checksumFile(checksums), output) : new long[0];
        }
        Object written = inode(data);
        try {
            single.transferMapSpillFile(data.toFile(), lengths, sums);
        } finally {
            if (encryption != null) {
                storage.delete(data); // moved away by Spark (then this only forgets it), or left by a failure
            }
        }
        transferred = true;
        java.io.File taken = resolver.getDataFile(shuffleId, mapId);
        Object now = inode(taken.toPath());
        executors.transferred(dir, taken, written != null && now != null ? written.equals(now) : null);
        for (Path file : output.files()) {
            // The data file is Spark's now (moved away): this only forgets it; encrypted, Spark took the encrypted
            // copy, and this removes the plain one.
            storage.delete(file);
        }
    }

    /** The file's inode where the file system says (Linux: {@code unix:ino}), else null. */
    private static Object inode(Path file) {
        try {
            return Files.getAttribute(file, "unix:ino");
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
            return null;
        }
    }

    /**
     * The strategy's own checksums, of Spark's algorithm: those of its checksum file when it wrote one (every built-in
     * strategy in Spark: {@link SluiceSparkConf#spec} asks for them), else none, so that Spark writes no checksum
     * file, as spark-rapids' multithreaded writer commits ({@code commitAllPartitions(writer, true)}: empty
     * checksums).
     */
    private static long[] checksums(Path written, MapOutput output) throws IOException {
        if (!output.files().contains(written)) {
            return new long[0];
        }
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(written));
        long[] sums = new long[output.numPartitions()];
        for (int p = 0; p < sums.length; p++) {
            sums[p] = bytes.getLong();
        }
        return sums;
    }

    /**
     * Removes what this map task committed or left, keeps the first failure, and returns it to throw. Spark's files of
     * this map id are removed only once this attempt's transfer went through: before it, any there are another
     * attempt's.
     */
    private <T extends Throwable> T failed(MapOutput output, T failure) {
        try {
            if (output != null) {
                output.delete(storage);
            }
            if (transferred) {
                resolver.removeDataByMap(dependency.shuffleId(), mapId);
            }
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
        return failure;
    }

    /**
     * What the manager records of a committed map task: its batches, of them those cut for Spark's memory, and the
     * bytes its strategy spilled.
     */
    interface Committed {
        void committed(long batches, long batchesForMemory, long spilledBytes);
    }

    @Override
    public Option<MapStatus> stop(boolean success) {
        if (stopped) {
            return Option.empty();
        }
        stopped = true;
        lease.release(); // write() released it, unless it never ran
        if (success) {
            if (status == null) {
                throw new IllegalStateException("stop(true) before write() committed map " + mapId);
            }
            return Option.apply(status);
        }
        if (status != null) {
            // Committed, but the task failed after: its output must not stay in the local directories.
            resolver.removeDataByMap(dependency.shuffleId(), mapId);
        }
        return Option.empty();
    }

    @Override
    public long[] getPartitionLengths() {
        return partitionLengths;
    }
}
