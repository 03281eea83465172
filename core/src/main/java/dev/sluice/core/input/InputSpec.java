package dev.sluice.core.input;

import dev.sluice.core.InvalidParameterException;

/** What to generate for one map task. Validated on construction; same spec, same bytes. */
public final class InputSpec {
    public static final int DEFAULT_ROWS_PER_BATCH = 32768;
    public static final long DEFAULT_SEED = 42;

    public final DataSize size;
    public final double scale;
    public final int rowsPerBatch;
    public final KeyDistribution keys;
    public final long seed;
    public final SchemaSpec schema;

    public InputSpec(DataSize size, double scale, int rowsPerBatch, KeyDistribution keys, long seed, SchemaSpec schema) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new InvalidParameterException("scale", scale, "a finite number > 0");
        }
        if (rowsPerBatch < 1) {
            throw new InvalidParameterException("rows-per-batch", rowsPerBatch, "an integer >= 1");
        }
        if (size.bytes() * scale < 1) {
            throw new InvalidParameterException("scale", scale, "a factor that leaves at least 1 byte of " + size.label() + " input");
        }
        if (size.bytes() * scale > Long.MAX_VALUE / 2) {
            throw new InvalidParameterException("scale", scale, "a factor below " + (Long.MAX_VALUE / 2 / size.bytes()));
        }
        this.size = size;
        this.scale = scale;
        this.rowsPerBatch = rowsPerBatch;
        this.keys = keys;
        this.seed = seed;
        this.schema = schema;
    }

    public static InputSpec of(DataSize size, double scale) {
        return new InputSpec(size, scale, DEFAULT_ROWS_PER_BATCH, KeyDistribution.UNIFORM, DEFAULT_SEED, SchemaSpec.defaults());
    }

    public InputSpec withKeys(KeyDistribution k) {
        return new InputSpec(size, scale, rowsPerBatch, k, seed, schema);
    }

    public InputSpec withRowsPerBatch(int rows) {
        return new InputSpec(size, scale, rows, keys, seed, schema);
    }

    /**
     * Rows per batch such that a batch holds about {@code bytes} of Arrow buffers (from the schema's mean row size),
     * as a GPU batch of a given size does; the last batch holds what is left.
     */
    public InputSpec withBatchBytes(long bytes) {
        if (bytes < 1) {
            throw new InvalidParameterException("batch-bytes", bytes, "a size >= 1 byte");
        }
        long rows = Math.max(1, Math.round(bytes / schema.meanBytesPerRow()));
        if (rows > Integer.MAX_VALUE / 2) {
            throw new InvalidParameterException("batch-bytes", bytes, "a size of at most "
                    + (long) (Integer.MAX_VALUE / 2 * schema.meanBytesPerRow()) + " bytes");
        }
        return withRowsPerBatch((int) rows);
    }

    public InputSpec withSeed(long s) {
        return new InputSpec(size, scale, rowsPerBatch, keys, s, schema);
    }

    /** Target bytes of Arrow input. */
    public long targetBytes() {
        return Math.round(size.bytes() * scale);
    }
}
