package dev.sluice.core.input;

import dev.sluice.spi.InvalidParameterException;

/** What to generate for one map task. Validated on construction; same spec, same bytes. */
public final class InputSpec {
    public static final int DEFAULT_ROWS_PER_BATCH = 32768;
    /** The most rows a batch may hold: Arrow vectors index rows with an int, and their buffers grow by doubling. */
    public static final int MAX_ROWS_PER_BATCH = Integer.MAX_VALUE / 2;
    public static final long DEFAULT_SEED = 42;

    public final DataSize size;
    public final double scale;
    public final int rowsPerBatch;
    public final KeyDistribution keys;
    public final long seed;
    public final SchemaSpec schema;
    /** Exactly this many batches of about equal size, or 0: batches of {@link #rowsPerBatch} rows. */
    public final int batches;

    public InputSpec(DataSize size, double scale, int rowsPerBatch, KeyDistribution keys, long seed, SchemaSpec schema) {
        this(size, scale, rowsPerBatch, keys, seed, schema, 0);
    }

    private InputSpec(DataSize size, double scale, int rowsPerBatch, KeyDistribution keys, long seed, SchemaSpec schema,
                      int batches) {
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
        if (batches < 0) {
            throw new InvalidParameterException("batches", batches, "an integer >= 1, or 0 for batches of rows-per-batch rows");
        }
        if (batches > 0 && size.bytes() * scale / batches > MAX_ROWS_PER_BATCH * schema.meanBytesPerRow()) {
            throw new InvalidParameterException("batches", batches, "enough batches that none exceeds "
                    + MAX_ROWS_PER_BATCH + " rows");
        }
        this.batches = batches;
    }

    /** The largest scale at which {@code batches} batches of this size hold at most {@link #MAX_ROWS_PER_BATCH} rows. */
    public double largestScale(int batches) {
        return MAX_ROWS_PER_BATCH * schema.meanBytesPerRow() * batches / size.bytes();
    }

    public static InputSpec of(DataSize size, double scale) {
        return new InputSpec(size, scale, DEFAULT_ROWS_PER_BATCH, KeyDistribution.UNIFORM, DEFAULT_SEED, SchemaSpec.defaults());
    }

    public InputSpec withKeys(KeyDistribution k) {
        return new InputSpec(size, scale, rowsPerBatch, k, seed, schema, batches);
    }

    /** Batches of {@code rows} rows (the last one smaller). */
    public InputSpec withRowsPerBatch(int rows) {
        return new InputSpec(size, scale, rows, keys, seed, schema, 0);
    }

    /** Exactly {@code count} batches of about equal size, as the seed's map tasks had 1 to 5 GPU batches each. */
    public InputSpec withBatches(int count) {
        if (count < 1) {
            throw new InvalidParameterException("batches", count, "an integer >= 1");
        }
        return new InputSpec(size, scale, rowsPerBatch, keys, seed, schema, count);
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
        return new InputSpec(size, scale, rowsPerBatch, keys, s, schema, batches);
    }

    /** How many batches the input will have (exact with {@link #batches}, estimated from the schema otherwise). */
    public int estimatedBatches() {
        if (batches > 0) {
            return batches;
        }
        double rows = targetBytes() / schema.meanBytesPerRow();
        return (int) Math.max(1, Math.ceil(rows / rowsPerBatch));
    }

    /** Target bytes of Arrow input. */
    public long targetBytes() {
        return Math.round(size.bytes() * scale);
    }
}
