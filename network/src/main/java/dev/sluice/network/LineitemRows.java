package dev.sluice.network;

import dev.sluice.core.input.Mix;
import dev.sluice.core.input.RowDigest;
import dev.sluice.core.partition.Partitioner;
import dev.sluice.core.partition.SparkMurmur3;
import dev.sluice.core.verify.Expected;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * TPC-H {@code lineitem}-like rows, the table that dominates the bytes datafusion-distributed's TPC-H runs (PRs #242
 * and #407) move across network boundaries: the key columns as int64, the decimals as int64 hundredths (as an
 * unscaled {@code Decimal128(15, 2)} would hold them, in the 8 bytes a scaled int64 takes), the three dates as
 * {@code date32}, and the short strings (flags, ship instruction and mode) from TPC-H's own value lists. No
 * {@code l_comment}: its random text is what a reader of these columns would least often project. Orders have four
 * lines each; values follow TPC-H's domains (quantity 1 to 50, discount 0 to 0.10, tax 0 to 0.08, ship date
 * 1992-01-02 to 1998-12-01), drawn from a seeded mix of the row number, so the same rows come out every time.
 * Partitioned by hash of {@code l_orderkey} (Spark's Murmur3 stands in for DataFusion's hash: an even spread is
 * what the experiment needs).
 */
final class LineitemRows {
    /** Arrow buffer bytes per row: 7 int64, 1 int32, 3 date32, and the strings with their offsets (mean lengths). */
    static final double MEAN_BYTES_PER_ROW = 7 * 8 + 4 + 3 * 4 + 2 * (4 + 1) + (4 + 12.0) + (4 + 30.0 / 7);
    private static final int LINES_PER_ORDER = 4;
    private static final int FIRST_SHIP_DAY = 8036; // 1992-01-02 as days since 1970-01-01
    private static final int SHIP_DAYS = 2525; // to 1998-12-01
    private static final byte[][] RETURN_FLAGS = bytes("R", "A", "N");
    private static final byte[][] LINE_STATUS = bytes("O", "F");
    private static final byte[][] SHIP_INSTRUCT = bytes("DELIVER IN PERSON", "COLLECT COD", "NONE",
            "TAKE BACK RETURN");
    private static final byte[][] SHIP_MODE = bytes("REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB");

    static final Schema SCHEMA = new Schema(List.of(
            field("l_orderkey", new ArrowType.Int(64, true)),
            field("l_partkey", new ArrowType.Int(64, true)),
            field("l_suppkey", new ArrowType.Int(64, true)),
            field("l_linenumber", new ArrowType.Int(32, true)),
            field("l_quantity", new ArrowType.Int(64, true)),
            field("l_extendedprice", new ArrowType.Int(64, true)),
            field("l_discount", new ArrowType.Int(64, true)),
            field("l_tax", new ArrowType.Int(64, true)),
            field("l_returnflag", ArrowType.Utf8.INSTANCE),
            field("l_linestatus", ArrowType.Utf8.INSTANCE),
            field("l_shipdate", new ArrowType.Date(DateUnit.DAY)),
            field("l_commitdate", new ArrowType.Date(DateUnit.DAY)),
            field("l_receiptdate", new ArrowType.Date(DateUnit.DAY)),
            field("l_shipinstruct", ArrowType.Utf8.INSTANCE),
            field("l_shipmode", ArrowType.Utf8.INSTANCE)));

    private LineitemRows() {}

    private static Field field(String name, ArrowType type) {
        return new Field(name, FieldType.notNullable(type), null);
    }

    private static byte[][] bytes(String... values) {
        byte[][] out = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i].getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }

    /** Hash of {@code l_orderkey} (column 0) into {@code n} partitions. */
    static Partitioner partitioner(int n) {
        return new Partitioner() {
            @Override
            public int numPartitions() {
                return n;
            }

            @Override
            public void assign(VectorSchemaRoot batch, int[] out) {
                BigIntVector keys = (BigIntVector) batch.getVector(0);
                int rows = batch.getRowCount();
                for (int i = 0; i < rows; i++) {
                    out[i] = SparkMurmur3.partitionOf(keys.get(i), n);
                }
            }
        };
    }

    /** What {@link #generate} made. */
    static final class Generated {
        final List<VectorSchemaRoot> batches;
        final long rows;
        final long bytes;
        final String fingerprint;

        Generated(List<VectorSchemaRoot> batches, long rows, long bytes, String fingerprint) {
            this.batches = batches;
            this.rows = rows;
            this.bytes = bytes;
            this.fingerprint = fingerprint;
        }
    }

    /** {@code rows} rows in batches of {@code batchRows}, each seen by {@code expected}; the caller owns the batches. */
    static Generated generate(long rows, int batchRows, long seed, Expected.Builder expected,
                              BufferAllocator allocator) {
        List<VectorSchemaRoot> batches = new ArrayList<>();
        long[] hashes = new long[batchRows];
        long digest = 0;
        long bytes = 0;
        try {
            for (long first = 0; first < rows; first += batchRows) {
                int n = (int) Math.min(batchRows, rows - first);
                VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
                batches.add(root);
                fill(root, first, n, seed);
                for (var v : root.getFieldVectors()) {
                    bytes += v.getBufferSize();
                }
                RowDigest.rowHashes(root, hashes);
                for (int i = 0; i < n; i++) {
                    digest = RowDigest.fold(digest, hashes[i]);
                }
                expected.batch(root, hashes);
            }
        } catch (RuntimeException | Error e) {
            batches.forEach(VectorSchemaRoot::close);
            throw e;
        }
        return new Generated(batches, rows, bytes, String.format("%016x", RowDigest.fold(digest, rows)));
    }

    private static void fill(VectorSchemaRoot root, long first, int n, long seed) {
        BigIntVector orderkey = (BigIntVector) root.getVector(0);
        BigIntVector partkey = (BigIntVector) root.getVector(1);
        BigIntVector suppkey = (BigIntVector) root.getVector(2);
        IntVector linenumber = (IntVector) root.getVector(3);
        BigIntVector quantity = (BigIntVector) root.getVector(4);
        BigIntVector price = (BigIntVector) root.getVector(5);
        BigIntVector discount = (BigIntVector) root.getVector(6);
        BigIntVector tax = (BigIntVector) root.getVector(7);
        VarCharVector returnflag = (VarCharVector) root.getVector(8);
        VarCharVector linestatus = (VarCharVector) root.getVector(9);
        DateDayVector shipdate = (DateDayVector) root.getVector(10);
        DateDayVector commitdate = (DateDayVector) root.getVector(11);
        DateDayVector receiptdate = (DateDayVector) root.getVector(12);
        VarCharVector shipinstruct = (VarCharVector) root.getVector(13);
        VarCharVector shipmode = (VarCharVector) root.getVector(14);
        root.getFieldVectors().forEach(v -> v.setInitialCapacity(n));
        returnflag.allocateNew((long) n, n);
        linestatus.allocateNew((long) n, n);
        shipinstruct.allocateNew(n * 13L, n);
        shipmode.allocateNew(n * 5L, n);
        for (var v : List.of(orderkey, partkey, suppkey, linenumber, quantity, price, discount, tax, shipdate,
                commitdate, receiptdate)) {
            v.allocateNew();
        }
        for (int i = 0; i < n; i++) {
            long row = first + i;
            long r = Mix.mix64(seed * 0x9e3779b97f4a7c15L + row);
            long r2 = Mix.mix64(r);
            long order = row / LINES_PER_ORDER;
            // TPC-H order keys are sparse: 8 of every 32 are used.
            orderkey.set(i, (order / 8) * 32 + order % 8 + 1);
            partkey.set(i, 1 + Long.remainderUnsigned(r, 2_000_000));
            suppkey.set(i, 1 + Long.remainderUnsigned(r >>> 21, 100_000));
            linenumber.set(i, (int) (row % LINES_PER_ORDER) + 1);
            long qty = 1 + Long.remainderUnsigned(r >>> 13, 50);
            quantity.set(i, qty * 100);
            price.set(i, qty * (90_000 + Long.remainderUnsigned(r2, 110_001)));
            discount.set(i, Long.remainderUnsigned(r2 >>> 17, 11));
            tax.set(i, Long.remainderUnsigned(r2 >>> 23, 9));
            int ship = FIRST_SHIP_DAY + (int) Long.remainderUnsigned(r2 >>> 29, SHIP_DAYS);
            shipdate.set(i, ship);
            commitdate.set(i, ship - 30 + (int) Long.remainderUnsigned(r >>> 37, 61));
            receiptdate.set(i, ship + 1 + (int) Long.remainderUnsigned(r >>> 43, 30));
            returnflag.setSafe(i, RETURN_FLAGS[(int) Long.remainderUnsigned(r2 >>> 41, 3)]);
            linestatus.setSafe(i, LINE_STATUS[(int) ((r2 >>> 47) & 1)]);
            shipinstruct.setSafe(i, SHIP_INSTRUCT[(int) ((r2 >>> 51) & 3)]);
            shipmode.setSafe(i, SHIP_MODE[(int) Long.remainderUnsigned(r2 >>> 55, 7)]);
        }
        root.setRowCount(n);
    }
}
