package dev.sluice.core.verify;

import java.util.Optional;

/** Whether a map output matched its reference, and if not, the first partition that differed and how. */
public final class VerificationResult {
    private final int partitionsChecked;
    private final long rowsRead;
    private final String firstMismatch;

    public VerificationResult(int partitionsChecked, long rowsRead, String firstMismatch) {
        this.partitionsChecked = partitionsChecked;
        this.rowsRead = rowsRead;
        this.firstMismatch = firstMismatch;
    }

    public boolean ok() {
        return firstMismatch == null;
    }

    public int partitionsChecked() {
        return partitionsChecked;
    }

    public long rowsRead() {
        return rowsRead;
    }

    /** e.g. {@code partition 17: expected 1024 rows (digest ...), read 1000 rows (digest ...)}. */
    public Optional<String> firstMismatch() {
        return Optional.ofNullable(firstMismatch);
    }

    @Override
    public String toString() {
        return ok() ? "verified " + partitionsChecked + " partitions, " + rowsRead + " rows" : firstMismatch;
    }
}
