package dev.sluice.spark;

import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.storage.IoSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.BaseShuffleHandle;
import org.apache.spark.shuffle.ShuffleDataIOUtils;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter;
import org.apache.spark.shuffle.ShuffleWriter;
import org.apache.spark.shuffle.api.ShuffleExecutorComponents;
import org.apache.spark.shuffle.api.SingleSpillShuffleMapOutputWriter;
import org.apache.spark.shuffle.sort.SortShuffleManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Spark shuffle manager that writes eligible shuffles through a Sluice strategy
 * ({@code spark.shuffle.manager=dev.sluice.spark.SluiceShuffleManager}, {@code spark.sluice.strategy=SPEC}) and
 * leaves everything else, and all reading, to Spark's {@link SortShuffleManager}. It extends that manager rather than
 * wrapping it: SQL's {@code ShuffleExchangeExec.needToCopyObjectsBeforeShuffle} copies every row first for any
 * manager that is not a {@code SortShuffleManager}, a cost stock Spark does not pay.
 *
 * <p>A shuffle is eligible when {@link Eligibility} says so; otherwise Spark's own writer runs and one line says why
 * (once per shuffle). One {@link SluiceExecutors} per executor JVM serves every map task, as spark-rapids' writer
 * pools are executor-wide. The strategy may be chosen per job with the local property {@code spark.sluice.strategy}
 * ({@value SluiceSparkConf#STOCK} for Spark's own writers).
 */
public class SluiceShuffleManager extends SortShuffleManager {
    private static final Logger LOG = LoggerFactory.getLogger(SluiceShuffleManager.class);

    private final SparkConf conf;
    private final SluiceSparkConf settings;
    /** The maps Sluice committed per registered shuffle; guarded, with {@link #unregistered}, by {@link #registry}. */
    private final Map<Integer, Set<Long>> sluiceMaps = new ConcurrentHashMap<>();
    /**
     * Shuffles Spark unregistered in this JVM (ids are never reused; a bit each): a map task still running then commits
     * into a shuffle nobody will remove again, so its output is removed at its commit instead.
     */
    private final java.util.BitSet unregistered = new java.util.BitSet();
    private final Object registry = new Object();
    private final Map<Integer, String> fallbacks = new ConcurrentHashMap<>();
    private final Map<String, StrategySpec> specs = new ConcurrentHashMap<>();
    private volatile SluiceExecutors executors;
    private volatile ShuffleExecutorComponents components;
    private volatile PieceCompression compression;

    /** Checks every {@code spark.sluice.*} setting now: a bad value stops the SparkContext with its reason. */
    public SluiceShuffleManager(SparkConf conf) {
        super(conf);
        this.conf = conf;
        this.settings = SluiceSparkConf.from(conf);
        LOG.info("Sluice shuffle manager: {}", settings);
    }

    /**
     * Spark's own handle for the shuffle inside Sluice's ({@link SluiceHandle}), with the driver's decision whether a
     * strategy may write it: an ineligible shuffle is logged here, on the driver, once, with the reason.
     */
    @Override
    public <K, V, C> ShuffleHandle registerShuffle(int shuffleId, ShuffleDependency<K, V, C> dependency) {
        ShuffleHandle spark = super.registerShuffle(shuffleId, dependency);
        String why = Eligibility.whyNot(dependency, conf, settings);
        if (why != null && fallbacks.putIfAbsent(shuffleId, why) == null) {
            LOG.info("Shuffle {} goes to Spark's own writer under any Sluice strategy: {}", shuffleId, why);
        }
        return new SluiceHandle<>(shuffleId, dependency, spark, why, MapFigures.register(dependency.rdd().context()));
    }

    @Override
    public <K, V> ShuffleWriter<K, V> getWriter(ShuffleHandle handle, long mapId, TaskContext context,
                                               ShuffleWriteMetricsReporter metrics) {
        SluiceHandle<?, ?, ?> sluice = (SluiceHandle<?, ?, ?>) handle;
        String local = context.getLocalProperty(SluiceSparkConf.STRATEGY);
        String text = local != null ? local.trim() : settings.strategy;
        if (text.equals(SluiceSparkConf.STOCK)) {
            return super.getWriter(sluice.spark(), mapId, context, metrics);
        }
        @SuppressWarnings("unchecked")
        ShuffleDependency<K, V, ?> dependency = ((BaseShuffleHandle<K, V, ?>) handle).dependency();
        String why = sluice.whyNot();
        if (why != null) {
            return fallBack(sluice, mapId, context, metrics, text, why);
        }
        StrategySpec spec = specs.computeIfAbsent(text, t -> settings.spec(
                local != null ? "local property " + SluiceSparkConf.STRATEGY : SluiceSparkConf.STRATEGY, t));
        SluiceExecutors shared = executors();
        Optional<SingleSpillShuffleMapOutputWriter> single;
        try {
            single = components.createSingleFileMapOutputWriter(handle.shuffleId(), mapId);
        } catch (IOException e) {
            throw new UncheckedIOException("the shuffle IO plugin's single-file map output writer for map " + mapId
                    + " of shuffle " + handle.shuffleId(), e);
        }
        why = Eligibility.whyNotPlugin(single, conf);
        if (why != null) {
            return fallBack(sluice, mapId, context, metrics, text, why);
        }
        PieceCompression compression = compression();
        SluiceExecutors.Lease lease;
        synchronized (registry) {
            lease = shared.lease(spec, dependency.partitioner().numPartitions(), handle.shuffleId(),
                    !unregistered.get(handle.shuffleId()));
        }
        try {
            // Released by the writer when it ends (write's end, stop), and here whatever the task's end: Spark's
            // ShuffleWriteProcessor calls stop(false) for an Exception only, so an Error thrown between getWriter
            // and write's end would otherwise keep the strategy executor leased, and never retired.
            context.addTaskCompletionListener(new org.apache.spark.util.TaskCompletionListener() {
                @Override
                public void onTaskCompletion(TaskContext ended) {
                    lease.release();
                }
            });
            return new StrategyShuffleWriter<>(dependency, mapId, metrics, context.taskMemoryManager(), lease, shared,
                    compression, settings,
                    PartitionEncryption.of(SparkEnv.get().serializerManager()), single.get(),
                    shuffleBlockResolver(), SparkEnv.get().blockManager().shuffleServerId(),
                    (batches, forMemory, spilled) -> {
                        shared.addBatches(batches, forMemory);
                        sluice.figures().mapOutputs.add(1);
                        sluice.figures().batches.add(batches);
                        sluice.figures().batchesForMemory.add(forMemory);
                        sluice.figures().spilledBytes.add(spilled);
                        committed(handle.shuffleId(), mapId);
                    });
        } catch (RuntimeException | Error e) {
            lease.release();
            throw e;
        }
    }

    /**
     * Records a map output Sluice committed, for {@link #unregisterShuffle} to remove; where Spark unregistered the
     * shuffle already (a task that outlived its stage), removes it now: nobody would later.
     */
    private void committed(int shuffleId, long mapId) {
        boolean late;
        synchronized (registry) {
            late = unregistered.get(shuffleId);
            if (!late) {
                sluiceMaps.computeIfAbsent(shuffleId, id -> ConcurrentHashMap.newKeySet()).add(mapId);
            }
        }
        if (late) {
            LOG.info("Map {} of shuffle {} committed after Spark unregistered the shuffle; its output is removed",
                    mapId, shuffleId);
            shuffleBlockResolver().removeDataByMap(shuffleId, mapId);
        }
    }

    /** How this application's pieces are compressed (its settings do not change); made once, on first use. */
    private PieceCompression compression() {
        PieceCompression made = compression;
        if (made == null) {
            made = PieceCompression.of(conf);
            if (made == null) {
                throw new IllegalStateException("no compression for an eligible shuffle: " + Eligibility.class);
            }
            LOG.info("Sluice compresses pieces with {}", made.describe());
            compression = made;
        }
        return made;
    }

    /** Spark's own writer for this map task, counted in the shuffle's figures, and one line (once per shuffle). */
    private <K, V> ShuffleWriter<K, V> fallBack(SluiceHandle<?, ?, ?> handle, long mapId, TaskContext context,
                                               ShuffleWriteMetricsReporter metrics, String strategy, String why) {
        handle.figures().fallbacks.add(1);
        if (fallbacks.putIfAbsent(handle.shuffleId(), why) == null) {
            LOG.info("Shuffle {} goes to Spark's own writer, not Sluice's {}: {}", handle.shuffleId(), strategy, why);
        }
        return super.getWriter(handle.spark(), mapId, context, metrics);
    }

    /**
     * This JVM's shared Sluice state, made on first use: on an executor, not the driver, and after
     * {@link SparkEnv} is up (the manager is built before the block manager).
     */
    private SluiceExecutors executors() {
        SluiceExecutors shared = executors;
        if (shared == null) {
            synchronized (this) {
                shared = executors;
                if (shared == null) {
                    SparkEnv env = SparkEnv.get();
                    java.io.File[] localDirs = env.blockManager().diskBlockManager().localDirs();
                    components = sparkComponents(env);
                    List<Path> dirs = new ArrayList<>();
                    for (java.io.File localDir : localDirs) {
                        dirs.add(localDir.toPath());
                    }
                    shared = new SluiceExecutors(settings, dirs);
                    executors = shared;
                }
            }
        }
        return shared;
    }

    /**
     * The shuffle IO plugin's executor components that Spark's own writers use: {@code SortShuffleManager}'s private
     * lazy {@code shuffleExecutorComponents}, made and initialized by Spark once per executor. A second instance,
     * initialized again, would run a plugin's executor set-up twice (a remote plugin's connections, registrations).
     * Where a Spark has no such member, Sluice makes and initializes its own as Spark's
     * {@code loadShuffleExecutorComponents} does, and says so.
     */
    private ShuffleExecutorComponents sparkComponents(SparkEnv env) {
        try {
            java.lang.reflect.Method spark = SortShuffleManager.class.getDeclaredMethod("shuffleExecutorComponents");
            spark.setAccessible(true);
            return (ShuffleExecutorComponents) spark.invoke(this);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("Spark's shuffle IO executor components are not reachable ({}); Sluice initializes its own "
                    + "instance of the plugin, which then runs its executor set-up twice", e.toString());
        }
        ShuffleExecutorComponents io = ShuffleDataIOUtils.loadShuffleDataIO(conf).executor();
        Map<String, String> extra = new java.util.HashMap<>();
        for (scala.Tuple2<String, String> entry : conf.getAllWithPrefix(ShuffleDataIOUtils.SHUFFLE_SPARK_CONF_PREFIX())) {
            extra.put(entry._1(), entry._2());
        }
        io.initializeExecutor(conf.getAppId(), env.executorId(), extra);
        return io;
    }

    /**
     * Removes the map outputs Sluice wrote for {@code shuffleId}, forgets why it fell back if it did, retires the
     * strategy executors no registered shuffle uses any more, then removes Spark's own outputs.
     */
    @Override
    public boolean unregisterShuffle(int shuffleId) {
        Set<Long> maps;
        synchronized (registry) {
            unregistered.set(shuffleId);
            maps = sluiceMaps.remove(shuffleId);
        }
        if (maps != null) {
            for (long mapId : maps) {
                shuffleBlockResolver().removeDataByMap(shuffleId, mapId);
            }
        }
        fallbacks.remove(shuffleId);
        SluiceExecutors shared = executors;
        if (shared != null) {
            shared.unregister(shuffleId);
        }
        return super.unregisterShuffle(shuffleId);
    }

    /**
     * Stops Sluice's executors and removes its scratch directories, then stops Spark's manager. Never throws:
     * {@code SparkEnv.stop} calls this with nothing around it, and what it would skip after a throw (the block manager's
     * and the RPC environment's shutdown) matters more than a strategy pool that did not stop in time or memory a
     * strategy did not give back; both are logged.
     */
    @Override
    public void stop() {
        SluiceExecutors shared = executors;
        executors = null;
        if (shared != null) {
            try {
                shared.close();
            } catch (RuntimeException e) {
                LOG.warn("Stopping Sluice's executors failed; Spark's shuffle manager stops anyway", e);
            }
        }
        super.stop();
    }

    /** This JVM's shared Sluice state, or null before its first Sluice map task (tests force a leak through it). */
    SluiceExecutors shared() {
        return executors;
    }

    /** Sluice's counted I/O in this JVM so far (all zero before the first Sluice map task here). */
    public IoSnapshot counters() {
        SluiceExecutors shared = executors;
        return shared == null ? new dev.sluice.spi.storage.IoCounters().snapshot() : shared.counters();
    }

    /** The shuffles of this JVM that went to Spark's own writer, each with the reason, in shuffle order. */
    public List<String> fallbacks() {
        return fallbacks(fallbacks.keySet());
    }

    /** Of {@code shuffleIds}, those that went to Spark's own writer in this JVM, each with the reason, in order. */
    public List<String> fallbacks(java.util.Collection<Integer> shuffleIds) {
        List<String> out = new ArrayList<>();
        new java.util.TreeSet<>(shuffleIds).forEach(id -> {
            String why = fallbacks.get(id);
            if (why != null) {
                out.add("shuffle " + id + ": " + why);
            }
        });
        return out;
    }

    /** The strategy executors running in this JVM (started, not retired), by spec and partition count. */
    public List<String> startedExecutors() {
        SluiceExecutors shared = executors;
        return shared == null ? List.of() : shared.started();
    }

    /** Batches this JVM's committed Sluice map tasks cut because Spark's memory manager asked for the rows' heap. */
    public long batchesCutForMemory() {
        SluiceExecutors shared = executors;
        return shared == null ? 0 : shared.batchesForMemory();
    }

    /** Strategy executors started in this JVM so far, retired ones included. */
    public long executorsStartedSoFar() {
        SluiceExecutors shared = executors;
        return shared == null ? 0 : shared.startedSoFar();
    }

    /** Batches cut by this JVM's committed Sluice map tasks so far (0 before the first). */
    public long batchesCut() {
        SluiceExecutors shared = executors;
        return shared == null ? 0 : shared.batches();
    }

    /**
     * Direct memory Sluice's strategies hold in this JVM now: their Arrow allocators (partials, merge buffers), all
     * strategies together; 0 before the first Sluice map task here.
     */
    public long offHeapBytes() {
        SluiceExecutors shared = executors;
        return shared == null ? 0 : shared.allocatedBytes();
    }

    /** The most direct memory Sluice's strategies held at once in this JVM so far (Arrow's peak; never reset). */
    public long offHeapPeakBytes() {
        SluiceExecutors shared = executors;
        return shared == null ? 0 : shared.peakAllocatedBytes();
    }

    /** Sluice's scratch directories in this JVM, one in each of Spark's local dirs; empty before its first map task. */
    public List<Path> scratchDirectories() {
        SluiceExecutors shared = executors;
        return shared == null ? List.of() : shared.dirs();
    }

    /**
     * Data files Spark took over from Sluice in this JVM by a rename (the file at Spark's name is the one Sluice wrote)
     * and not ({@code unix:ino}, where the file system has it), and from a scratch dir in another local dir than the
     * data file's: {@code {renames, copies, across local dirs}}.
     */
    public long[] transfers() {
        SluiceExecutors shared = executors;
        return shared == null ? new long[3] : new long[] {shared.transfersByRename(), shared.transfersByCopy(),
            shared.transfersAcrossLocalDirs()};
    }
}
