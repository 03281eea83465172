package dev.sluice.strategy.consolidating;

/**
 * What a batch's merger tells the map task's writer, and the one thing it asks of it: the only way back from a
 * merger to its writer, so that the merger knows nothing else of it. The writer hands its records to the merger
 * ({@link BatchMerger#enqueue}, {@link BatchMerger#recordReady}, {@link BatchMerger#seal}); the merger answers here,
 * from its merger thread.
 */
interface MergeEvents {
    /** Whether the writer has failed, so that the merger stops appending: its first failure, or null. */
    Throwable firstFailure();

    /** The merger failed: the writer fails with {@code cause}. */
    void failWith(Throwable cause);

    /**
     * A record was appended (or dropped): its quota goes back, and its memory too unless the partial adopted its
     * buffer ({@code adopted}, with {@code partial=records}).
     */
    void recordMerged(PendingRecord record, boolean adopted);

    /** The batch is finished: sealed, every record appended and its partial complete. */
    void batchFinished();
}
