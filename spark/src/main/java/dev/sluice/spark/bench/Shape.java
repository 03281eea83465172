package dev.sluice.spark.bench;

import dev.sluice.core.input.DataSize;

/**
 * One shape of the seed job: the size (the seed's shuffle bytes per map task, times the scale), the map tasks, rows
 * per task, and the batch size Sluice's writers cut a task's rows at ({@code spark.sluice.batchBytes}, a setting of
 * the application). {@code batchesPerTask} is what the batch size was chosen for (the seed preset's), or null where
 * it was given as is.
 */
record Shape(String size, double scale, int tasks, long rowsPerTask, String batchBytes, Integer batchesPerTask) {

    /** {@code size} x {@code scale} with the batch size given. */
    static Shape of(String size, double scale, int tasks, String batchBytes) {
        return new Shape(size, scale, tasks, rowsPerTask(size, scale), batchBytes, null);
    }

    /**
     * {@code size} x {@code scale} cut into the seed's batches per task for that size (1 for small to 5 for xxlarge,
     * the seed report's "GpuScan Batches/Task"): the batch size is the task's serialized bytes over its batch count,
     * rounded up, so that a task's rows reach it once per batch but the last.
     */
    static Shape seed(String size, double scale, int tasks) {
        long rows = rowsPerTask(size, scale);
        int batches = seedBatches(size);
        long batchBytes = ceilDiv(rows * SparkBench.ROW_BYTES, batches);
        return new Shape(size, scale, tasks, rows, String.valueOf(batchBytes), batches);
    }

    /** The seed's batches per map task for {@code size}. */
    static int seedBatches(String size) {
        return DataSize.parse("--size", size).seedBatches();
    }

    /** Rows per map task so that it shuffles the seed's bytes for {@code size} times {@code scale}. */
    static long rowsPerTask(String size, double scale) {
        Long bytes = SparkBench.SEED_TASK_BYTES.get(size);
        if (bytes == null) {
            throw new IllegalArgumentException("no seed size " + size + "; the sizes are "
                    + SparkBench.SEED_TASK_BYTES.keySet());
        }
        return Math.max(1, (long) (bytes * scale / SparkBench.ROW_BYTES));
    }

    /** A map task's rows as the shuffle serializes them. */
    long taskBytes() {
        return rowsPerTask * SparkBench.ROW_BYTES;
    }

    long rows() {
        return rowsPerTask * tasks;
    }

    /**
     * What the local directory holds at once: a query's map outputs and the per-batch strategies' scratch copies of
     * them (every shuffle is removed before the next writer runs).
     */
    long plannedBytes() {
        return 3 * taskBytes() * tasks;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
