package dev.sluice.spark;

import org.apache.spark.ShuffleDependency;
import org.apache.spark.shuffle.BaseShuffleHandle;
import org.apache.spark.shuffle.ShuffleHandle;

/**
 * Sluice's handle of a shuffle, made on the driver when Spark registers the shuffle: Spark's own handle (what
 * {@code SortShuffleManager.registerShuffle} chose: bypass, serialized or sort-based, for Spark's writers and for every
 * reader), the driver's decision whether a strategy may write it ({@link Eligibility}, once for the shuffle, instead
 * of once per map task on each executor), and the shuffle's figures ({@link MapFigures}), which reach the driver with
 * each map task's end in any master mode. Celeborn's manager decides in {@code registerShuffle} the same way.
 */
final class SluiceHandle<K, V, C> extends BaseShuffleHandle<K, V, C> {
    private static final long serialVersionUID = 1L;

    private final ShuffleHandle spark;
    private final String whyNot;
    private final MapFigures figures;

    SluiceHandle(int shuffleId, ShuffleDependency<K, V, C> dependency, ShuffleHandle spark, String whyNot,
                 MapFigures figures) {
        super(shuffleId, dependency);
        this.spark = spark;
        this.whyNot = whyNot;
        this.figures = figures;
    }

    /** The handle Spark's own manager made: its writers and its reader take this one. */
    ShuffleHandle spark() {
        return spark;
    }

    /** Why no strategy may write this shuffle, decided on the driver, or null when one may. */
    String whyNot() {
        return whyNot;
    }

    MapFigures figures() {
        return figures;
    }
}
