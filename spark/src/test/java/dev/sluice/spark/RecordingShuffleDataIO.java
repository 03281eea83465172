package dev.sluice.spark;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.SparkConf;
import org.apache.spark.shuffle.api.ShuffleDataIO;
import org.apache.spark.shuffle.api.ShuffleDriverComponents;
import org.apache.spark.shuffle.api.ShuffleExecutorComponents;
import org.apache.spark.shuffle.api.ShuffleMapOutputWriter;
import org.apache.spark.shuffle.api.SingleSpillShuffleMapOutputWriter;
import org.apache.spark.shuffle.sort.io.LocalDiskShuffleDataIO;

/**
 * A shuffle IO plugin ({@code spark.shuffle.sort.io.plugin.class}) for tests: Spark's local-disk one, except that it
 * records the settings every executor instance is initialized with, and gives no single-file map output writer for
 * the shuffles a test names, as a plugin without one would.
 */
public final class RecordingShuffleDataIO implements ShuffleDataIO {
    /** The extra settings of every {@code initializeExecutor} call in this JVM, in order. */
    static final List<Map<String, String>> INITIALIZED = new CopyOnWriteArrayList<>();
    /** Shuffles for which no single-file map output writer is given. */
    static final Set<Integer> NO_SINGLE_FILE = ConcurrentHashMap.newKeySet();

    private final LocalDiskShuffleDataIO local;

    public RecordingShuffleDataIO(SparkConf conf) {
        this.local = new LocalDiskShuffleDataIO(conf);
    }

    @Override
    public ShuffleDriverComponents driver() {
        return local.driver();
    }

    @Override
    public ShuffleExecutorComponents executor() {
        ShuffleExecutorComponents inner = local.executor();
        return new ShuffleExecutorComponents() {
            @Override
            public void initializeExecutor(String appId, String execId, Map<String, String> extraConfigs) {
                INITIALIZED.add(Map.copyOf(extraConfigs));
                inner.initializeExecutor(appId, execId, extraConfigs);
            }

            @Override
            public ShuffleMapOutputWriter createMapOutputWriter(int shuffleId, long mapTaskId, int numPartitions)
                    throws IOException {
                return inner.createMapOutputWriter(shuffleId, mapTaskId, numPartitions);
            }

            @Override
            public Optional<SingleSpillShuffleMapOutputWriter> createSingleFileMapOutputWriter(int shuffleId,
                                                                                              long mapId)
                    throws IOException {
                return NO_SINGLE_FILE.contains(shuffleId) ? Optional.empty()
                        : inner.createSingleFileMapOutputWriter(shuffleId, mapId);
            }
        };
    }
}
