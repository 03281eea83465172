package dev.sluice.spark;

import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;

/**
 * Whether a shuffle can go through a Sluice strategy and still be read by Spark's own reader
 * ({@code BlockStoreShuffleReader}: decryption, then decompression by {@code spark.io.compression.codec}, then the
 * dependency's serializer). A strategy writes a partition as independently made pieces, one per batch, concatenated;
 * that reads as one stream only when each condition below holds. Anything else goes to Spark's own writers, per
 * shuffle, with the reason; so does a shuffle whose IO plugin gives no single-file map output writer
 * ({@link #whyNotPlugin}), which is how Sluice hands its data file to Spark.
 */
public final class Eligibility {
    private Eligibility() {}

    /** Why {@code dependency}'s shuffle cannot go through a strategy, in one sentence, or null when it can. */
    public static String whyNot(ShuffleDependency<?, ?, ?> dependency, SparkConf conf, SluiceSparkConf settings) {
        int partitions = dependency.partitioner().numPartitions();
        if (partitions > settings.maxPartitions) {
            return "it has " + partitions + " partitions, more than " + SluiceSparkConf.MAX_PARTITIONS + "="
                    + settings.maxPartitions + " (a serialization stream and buffers per partition in every map task, "
                    + "and per-batch a file per partition: what Spark bounds its bypass writer by)";
        }
        if (!dependency.serializer().supportsRelocationOfSerializedObjects()) {
            return "its serializer " + dependency.serializer().getClass().getName() + " does not support relocation "
                    + "of serialized objects, so batches serialized apart cannot be concatenated";
        }
        if (dependency.mapSideCombine()) {
            return "it combines on the map side (an aggregator), which Spark's sort-based writer does";
        }
        if (conf.getBoolean("spark.shuffle.useOldFetchProtocol", false)) {
            return "spark.shuffle.useOldFetchProtocol is true: map ids are then partition indices (ShuffleMapTask), "
                    + "so two attempts of one map would share Sluice's scratch names and Spark's output names";
        }
        return whyNotCodec(conf);
    }

    /**
     * Why a shuffle cannot go through a strategy with the map output writer that {@code components} (the shuffle IO
     * plugin, {@code spark.shuffle.sort.io.plugin.class}) gave for it, or null when it gave a single-file one.
     */
    public static String whyNotPlugin(java.util.Optional<?> singleFileWriter, SparkConf conf) {
        if (singleFileWriter.isEmpty()) {
            return "the shuffle IO plugin " + conf.get("spark.shuffle.sort.io.plugin.class",
                    "org.apache.spark.shuffle.sort.io.LocalDiskShuffleDataIO") + " gives no single-file map output "
                    + "writer (createSingleFileMapOutputWriter), which Sluice hands its data file to";
        }
        return null;
    }

    private static String whyNotCodec(SparkConf conf) {
        if (PieceCompression.of(conf) == null) {
            return "spark.io.compression.codec is " + conf.get("spark.io.compression.codec", "lz4") + ", whose "
                    + "streams Spark does not concatenate (CompressionCodec.supportsConcatenationOfSerializedStreams), "
                    + "and a strategy writes a partition as pieces compressed apart, concatenated";
        }
        return null;
    }
}
