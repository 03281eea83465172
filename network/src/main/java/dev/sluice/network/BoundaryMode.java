package dev.sluice.network;

import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.spi.InvalidParameterException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * How partitioned batches cross the network boundary, the three ways of datafusion-distributed's experiment (PR #407):
 * every partition slice as its own message, slices coalesced before sending, or input batches big enough that the
 * slices need no coalescing. Each mode says which input batches it partitions and how it sends their slices.
 */
public enum BoundaryMode {
    /** Every partition slice of every input batch is one message: the many tiny batches a wide fan-out makes. */
    PER_SLICE {
        @Override
        int inputBatchRows(BoundaryShape shape) {
            return shape.inputRows;
        }

        @Override
        void send(PartitionedInput slices, ArrowIpcFormat format, NetworkMapOutput out, BoundaryShape shape,
                  BufferAllocator allocator, SendCounters counters) throws IOException {
            sendSlices(slices, format, out, allocator);
        }
    },
    /**
     * Slices copied per partition into batches of {@code targetRows} before sending, as the
     * {@code CoalesceBatchesExec} that datafusion-distributed's {@code batch_coalescing_below_network_boundaries}
     * rule inserted did.
     */
    COALESCE {
        @Override
        int inputBatchRows(BoundaryShape shape) {
            return shape.inputRows;
        }

        @Override
        void send(PartitionedInput slices, ArrowIpcFormat format, NetworkMapOutput out, BoundaryShape shape,
                  BufferAllocator allocator, SendCounters counters) throws IOException {
            BatchCoalescer[] coalescers = new BatchCoalescer[slices.numPartitions()];
            try {
                for (int i = 0; i < slices.size(); i++) {
                    int p = slices.partitionOf(i);
                    if (coalescers[p] == null) {
                        coalescers[p] = new BatchCoalescer(format.schema(), shape.targetRows, allocator);
                    }
                    coalescers[p].append(slices.rowsOf(i), batch -> sendOwned(out, p, format, batch, allocator));
                }
                for (int p = 0; p < coalescers.length; p++) {
                    if (coalescers[p] != null) {
                        int partition = p;
                        coalescers[p].finish(batch -> sendOwned(out, partition, format, batch, allocator));
                    }
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            } finally {
                for (BatchCoalescer c : coalescers) {
                    if (c != null) {
                        counters.coalescedBytes += c.bytesCopied();
                        counters.coalescedRows += c.rowsCopied();
                        c.close();
                    }
                }
            }
        }
    },
    /**
     * Input batches of {@code targetRows x partitions} rows (the same rows, made outside the measurement), so that
     * a partition's slice of a batch already holds about {@code targetRows} rows: sent as they are, no copy, as
     * DataFusion does when the producer itself makes batches of the wire's size.
     */
    NATIVE {
        @Override
        int inputBatchRows(BoundaryShape shape) {
            return Math.toIntExact(Math.min(Integer.MAX_VALUE / 2, (long) shape.targetRows * shape.partitions));
        }

        @Override
        void send(PartitionedInput slices, ArrowIpcFormat format, NetworkMapOutput out, BoundaryShape shape,
                  BufferAllocator allocator, SendCounters counters) throws IOException {
            sendSlices(slices, format, out, allocator);
        }
    };

    /** Rows of the input batches this mode partitions. */
    abstract int inputBatchRows(BoundaryShape shape);

    /** Sends every row of {@code slices} to {@code out}, each partition's rows in input order. */
    abstract void send(PartitionedInput slices, ArrowIpcFormat format, NetworkMapOutput out, BoundaryShape shape,
                       BufferAllocator allocator, SendCounters counters) throws IOException;

    /** What sending copied besides serializing. */
    static final class SendCounters {
        long coalescedBytes;
        long coalescedRows;
    }

    private static void sendSlices(PartitionedInput slices, ArrowIpcFormat format, NetworkMapOutput out,
                                   BufferAllocator allocator) throws IOException {
        for (int i = 0; i < slices.size(); i++) {
            out.write(slices.partitionOf(i), format.payload(slices.rowsOf(i)), allocator);
        }
    }

    /** Sends a batch the coalescer handed over, and closes it. */
    private static void sendOwned(NetworkMapOutput out, int partition, ArrowIpcFormat format, VectorSchemaRoot batch,
                                  BufferAllocator allocator) {
        try (batch) {
            out.write(partition, format.payload(batch), allocator);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static BoundaryMode parse(String parameter, String value) {
        for (BoundaryMode mode : values()) {
            if (mode.label().equals(value)) {
                return mode;
            }
        }
        throw new InvalidParameterException(parameter, value, "one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(BoundaryMode::label).collect(Collectors.joining(", "));
    }
}
