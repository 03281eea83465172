package dev.sluice.spark.bench;

import dev.sluice.core.device.RunDevice;
import dev.sluice.core.input.DataSize;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One shape of the seed job: the size (the seed's shuffle bytes per map task, times the scale), the map tasks, rows
 * per task (the size over what a row counts for, {@code sizing}), and the batch size Sluice's writers cut a task's
 * rows at ({@code spark.sluice.batchBytes}, a setting of the application, in serialized bytes). {@code
 * batchesPerTask} is what the batch size was chosen for (the seed preset's), or null where it was given as is.
 */
record Shape(String size, double scale, int tasks, long rowsPerTask, String batchBytes, Integer batchesPerTask,
             RowSizing sizing) {
    /** The seed report's shuffle bytes per mapper task, by configuration (its table in section 2.3). */
    static final Map<String, Long> SEED_TASK_BYTES = seedTaskBytes();

    /**
     * Bytes of one row as the shuffle serializes it: {@code UnsafeRowSerializer} writes a 4-byte size, then the row:
     * an 8-byte null bitset and four 8-byte fields.
     */
    static final int ROW_BYTES = 4 + 8 + 4 * 8;

    private static Map<String, Long> seedTaskBytes() {
        Map<String, Long> bytes = new LinkedHashMap<>();
        bytes.put("small", 402_000_000L);
        bytes.put("medium", 803_000_000L);
        bytes.put("large", 1_180_000_000L);
        bytes.put("xlarge", 1_570_000_000L);
        bytes.put("xxlarge", 1_950_000_000L);
        return Collections.unmodifiableMap(bytes);
    }

    /** {@code size} x {@code scale} with the batch size given. */
    static Shape of(String size, double scale, int tasks, String batchBytes, RowSizing sizing) {
        return new Shape(size, scale, tasks, rowsPerTask(size, scale, sizing), batchBytes, null, sizing);
    }

    /**
     * {@code size} x {@code scale} cut into the seed's batches per task for that size (1 for small to 5 for xxlarge,
     * the seed report's "GpuScan Batches/Task"): the batch size is the task's serialized bytes over its batch count,
     * rounded up, so that a task's rows reach it once per batch but the last.
     */
    static Shape seed(String size, double scale, int tasks, RowSizing sizing) {
        long rows = rowsPerTask(size, scale, sizing);
        int batches = seedBatches(size);
        long batchBytes = ceilDiv(rows * ROW_BYTES, batches);
        return new Shape(size, scale, tasks, rows, String.valueOf(batchBytes), batches, sizing);
    }

    /** The seed's batches per map task for {@code size}. */
    static int seedBatches(String size) {
        return DataSize.parse("--size", size).seedBatches();
    }

    /**
     * Rows per map task so that it shuffles the seed's bytes for {@code size} times {@code scale}, each row counted
     * as {@code sizing} says.
     */
    static long rowsPerTask(String size, double scale, RowSizing sizing) {
        return Math.max(1, (long) (seedBytes(size, scale) / sizing.bytesPerRow()));
    }

    /** The seed's shuffle bytes per map task for {@code size}, times {@code scale}. */
    static double seedBytes(String size, double scale) {
        Long bytes = SEED_TASK_BYTES.get(size);
        if (bytes == null) {
            throw new IllegalArgumentException("no seed size " + size + "; the sizes are "
                    + SEED_TASK_BYTES.keySet());
        }
        return bytes * scale;
    }

    /** A map task's rows as the shuffle serializes them. */
    long taskBytes() {
        return rowsPerTask * ROW_BYTES;
    }

    long rows() {
        return rowsPerTask * tasks;
    }

    /**
     * What Spark's local directory holds of a shuffle at once, in map outputs: Sluice's strategies' two
     * ({@link RunDevice#STRATEGY_COPIES}) and one more for Spark's own writers' spill files beside them (every
     * shuffle is removed before the next writer runs).
     */
    static final int SPARK_COPIES = RunDevice.STRATEGY_COPIES + 1;

    /** What the local directory holds at once ({@link RunDevice#plannedBytes}, the harnesses' one definition). */
    long plannedBytes() {
        return RunDevice.plannedBytes(tasks, taskBytes(), SPARK_COPIES);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
