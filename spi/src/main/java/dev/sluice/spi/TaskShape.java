package dev.sluice.spi;

/** What a strategy's memory estimate needs to know of the map tasks it will write. */
@WriterGiven
public final class TaskShape {
    /**
     * Serialized bytes of a batch, as a share of its Arrow input: an upper bound for the generator's data (LZ4
     * compresses it to about 0.9; uncompressed IPC adds its metadata and padding). What memory plans assume.
     */
    public static final double SERIALIZED_PER_INPUT = 1.05;

    /** Map tasks written at once. */
    public final int tasks;
    /** Bytes of Arrow input per task. */
    public final long inputBytes;
    /** Input batches per task. */
    public final int batches;

    public TaskShape(int tasks, long inputBytes, int batches) {
        this.tasks = tasks;
        this.inputBytes = inputBytes;
        this.batches = Math.max(1, batches);
    }

    /** "1 task" or "N tasks", for plans' words. */
    public String tasksText() {
        return tasks + (tasks == 1 ? " task" : " tasks");
    }

    /**
     * What of an in-flight quota of {@code maxBytesInFlight} a task can fill: the quota counts its records'
     * uncompressed bytes, which are at most its input.
     */
    public long inFlightBytes(long maxBytesInFlight) {
        return Math.min(maxBytesInFlight, inputBytes);
    }

    /** What a task's records take serialized, at most ({@link #SERIALIZED_PER_INPUT} of the input). */
    public long serializedBytes() {
        return (long) Math.ceil(inputBytes * SERIALIZED_PER_INPUT);
    }
}
