package dev.sluice.core.memory;

/** What a strategy's memory estimate needs to know of the map tasks it will write. */
public final class TaskShape {
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
}
