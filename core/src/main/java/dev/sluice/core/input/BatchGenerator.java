package dev.sluice.core.input;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Generates a map task's Arrow batches from an {@link InputSpec}. Batch {@code b} depends only on the seed, the schema,
 * the key distribution, its own index and its row count, so the same spec always yields the same rows. Batches are
 * full ({@code rowsPerBatch} rows) except the last, which is sized so that the input lands on the target byte count;
 * or, with {@code batches}, exactly that many batches of about equal size (the input then lands within the
 * estimate's error of the target).
 */
public final class BatchGenerator {
    private static final int NULL_ONE_IN = 10;
    private static final int MIN_STRING = 4;
    private static final int MAX_STRING = 32;
    /**
     * Values look like a fact table's, compressible as real shuffle data is rather than random noise: counts below a
     * million, prices in cents, timestamps within a year, strings from a vocabulary of 4096 words.
     */
    private static final int INT_RANGE = 1_000_000;
    private static final int PRICE_CENTS = 100_000_000;
    private static final long EPOCH_MICROS = 1_767_225_600_000_000L;
    private static final long YEAR_MICROS = 365L * 24 * 3600 * 1_000_000;
    private static final byte[][] WORDS = vocabulary(4096);

    private BatchGenerator() {}

    public static MapTaskInput generate(InputSpec spec, BufferAllocator allocator) {
        return generate(spec, allocator, bytes -> {});
    }

    /** Sees each batch as it is made, with the hash of each of its rows ({@link RowDigest}); for one pass over rows. */
    public interface BatchListener {
        void batch(VectorSchemaRoot batch, long[] rowHashes);
    }

    /** As {@link #generate(InputSpec, BufferAllocator)}, reporting bytes generated so far after each batch. */
    public static MapTaskInput generate(InputSpec spec, BufferAllocator allocator, LongConsumer progress) {
        return generate(spec, allocator, progress, (batch, hashes) -> {});
    }

    /** As {@link #generate(InputSpec, BufferAllocator, LongConsumer)}, handing each batch to {@code listener}. */
    public static MapTaskInput generate(InputSpec spec, BufferAllocator allocator, LongConsumer progress,
                                        BatchListener listener) {
        Schema schema = spec.schema.arrowSchema();
        List<VectorSchemaRoot> batches = new ArrayList<>();
        long target = spec.targetBytes();
        long bytes = 0;
        long rows = 0;
        long digest = 0;
        long[] rowHashes = new long[0];
        try {
            for (int b = 0; spec.batches > 0 ? b < spec.batches : bytes < target; b++) {
                long left = Math.max(0, target - bytes);
                long rowsLeft = Math.max(1, (long) Math.ceil(left / spec.schema.meanBytesPerRow()));
                int batchRows = spec.batches > 0
                        ? (int) Math.max(1, (rowsLeft + spec.batches - b - 1) / (spec.batches - b))
                        : (int) Math.min(spec.rowsPerBatch, rowsLeft);
                if (rowHashes.length < batchRows) {
                    rowHashes = new long[batchRows];
                }
                VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                batches.add(root);
                fill(root, spec, b, batchRows);
                bytes += usedBytes(root);
                rows += batchRows;
                RowDigest.rowHashes(root, rowHashes);
                for (int i = 0; i < batchRows; i++) {
                    digest = RowDigest.fold(digest, rowHashes[i]);
                }
                listener.batch(root, rowHashes);
                progress.accept(bytes);
            }
        } catch (RuntimeException | Error e) {
            batches.forEach(VectorSchemaRoot::close);
            throw e;
        }
        String fingerprint = String.format("%016x", RowDigest.fold(digest, rows));
        return new MapTaskInput(spec, schema, batches, rows, bytes, fingerprint);
    }

    private static void fill(VectorSchemaRoot root, InputSpec spec, int batchIndex, int rows) {
        List<FieldVector> vectors = root.getFieldVectors();
        for (int c = 0; c < vectors.size(); c++) {
            SplittableRandom random = new SplittableRandom(Mix.mix64(spec.seed) ^ Mix.mix64(((long) batchIndex << 16) | c));
            FieldVector vector = vectors.get(c);
            SchemaSpec.Column column = spec.schema.columns().get(c);
            if (c == 0) {
                fillKeys((BigIntVector) vector, spec.keys.sampler(random), rows);
            } else {
                fillColumn(vector, column, random, rows);
            }
        }
        root.setRowCount(rows);
    }

    private static void fillKeys(BigIntVector keys, KeyDistribution.KeySampler sampler, int rows) {
        keys.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            keys.set(i, sampler.next());
        }
        keys.setValueCount(rows);
    }

    private static void fillColumn(FieldVector vector, SchemaSpec.Column column, SplittableRandom random, int rows) {
        switch (column.type) {
            case INT64: {
                BigIntVector v = (BigIntVector) vector;
                v.allocateNew(rows);
                for (int i = 0; i < rows; i++) {
                    if (isNull(column, random)) {
                        v.setNull(i);
                    } else {
                        v.set(i, EPOCH_MICROS + random.nextLong(YEAR_MICROS));
                    }
                }
                break;
            }
            case INT32: {
                IntVector v = (IntVector) vector;
                v.allocateNew(rows);
                for (int i = 0; i < rows; i++) {
                    if (isNull(column, random)) {
                        v.setNull(i);
                    } else {
                        v.set(i, random.nextInt(INT_RANGE));
                    }
                }
                break;
            }
            case FLOAT64: {
                Float8Vector v = (Float8Vector) vector;
                v.allocateNew(rows);
                for (int i = 0; i < rows; i++) {
                    if (isNull(column, random)) {
                        v.setNull(i);
                    } else {
                        v.set(i, random.nextInt(PRICE_CENTS) / 100.0);
                    }
                }
                break;
            }
            case UTF8: {
                VarCharVector v = (VarCharVector) vector;
                v.allocateNew((long) rows * (MIN_STRING + MAX_STRING) / 2, rows);
                for (int i = 0; i < rows; i++) {
                    if (isNull(column, random)) {
                        v.setNull(i);
                    } else {
                        byte[] word = WORDS[random.nextInt(WORDS.length)];
                        v.setSafe(i, word, 0, word.length);
                    }
                }
                break;
            }
            default:
                throw new IllegalStateException("no generator for " + column.type);
        }
        vector.setValueCount(rows);
    }

    private static byte[][] vocabulary(int size) {
        SplittableRandom random = new SplittableRandom(0x5eed_ab1eL);
        byte[][] words = new byte[size][];
        for (int w = 0; w < size; w++) {
            words[w] = new byte[MIN_STRING + random.nextInt(MAX_STRING - MIN_STRING + 1)];
            for (int k = 0; k < words[w].length; k++) {
                words[w][k] = (byte) ('a' + random.nextInt(26));
            }
        }
        return words;
    }

    private static boolean isNull(SchemaSpec.Column column, SplittableRandom random) {
        return column.nullable && random.nextInt(NULL_ONE_IN) == 0;
    }

    /** Bytes of Arrow buffers a batch uses (Arrow's {@code getBufferSize}: validity, offsets, values, no slack). */
    static long usedBytes(VectorSchemaRoot root) {
        long total = 0;
        for (FieldVector v : root.getFieldVectors()) {
            total += v.getBufferSize();
        }
        return total;
    }
}
