package dev.sluice.spark;

import java.io.Serializable;
import org.apache.spark.SparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * A shuffle's map tasks as Sluice saw them, as Spark accumulators registered on the driver with the shuffle and
 * carried to every map task in its {@link SluiceHandle}: each task's updates come back with its end (the listener
 * bus's task-end events, {@code taskInfo.accumulables}, and the UI's stage page), in local mode and on a cluster
 * alike. A fallback is otherwise seen only in an executor's log, and Spark's own writer's shuffle metrics look the
 * same as a strategy's.
 */
final class MapFigures implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Map outputs a Sluice strategy committed. */
    static final String MAP_OUTPUTS = "sluice.mapOutputs";
    /** Map tasks asked to write with a Sluice strategy that went to Spark's own writer (the reason is logged). */
    static final String FALLBACKS = "sluice.fallbacks";
    /** Batches the committed map tasks cut. */
    static final String BATCHES = "sluice.batches";
    /** Of those, batches cut because Spark's memory manager asked for the rows' heap. */
    static final String BATCHES_FOR_MEMORY = "sluice.batchesForMemory";
    /** Bytes the committed map tasks' strategies moved from memory to files (their spills; Spark's task metrics too). */
    static final String SPILLED_BYTES = "sluice.spilledBytes";

    final LongAccumulator mapOutputs;
    final LongAccumulator fallbacks;
    final LongAccumulator batches;
    final LongAccumulator batchesForMemory;
    final LongAccumulator spilledBytes;

    private MapFigures(LongAccumulator mapOutputs, LongAccumulator fallbacks, LongAccumulator batches,
                       LongAccumulator batchesForMemory, LongAccumulator spilledBytes) {
        this.mapOutputs = mapOutputs;
        this.fallbacks = fallbacks;
        this.batches = batches;
        this.batchesForMemory = batchesForMemory;
        this.spilledBytes = spilledBytes;
    }

    /** A shuffle's figures, registered with the driver's context. */
    static MapFigures register(SparkContext context) {
        return new MapFigures(context.longAccumulator(MAP_OUTPUTS), context.longAccumulator(FALLBACKS),
                context.longAccumulator(BATCHES), context.longAccumulator(BATCHES_FOR_MEMORY),
                context.longAccumulator(SPILLED_BYTES));
    }
}
