package dev.sluice.core.input;

import java.util.Collections;
import java.util.List;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** The Arrow batches of one map task, generated once and owned here until {@link #close()}. */
public final class MapTaskInput implements AutoCloseable {
    private final InputSpec spec;
    private final Schema schema;
    private final List<VectorSchemaRoot> batches;
    private final long rows;
    private final long bytes;
    private final String fingerprint;

    MapTaskInput(InputSpec spec, Schema schema, List<VectorSchemaRoot> batches, long rows, long bytes, String fingerprint) {
        this.spec = spec;
        this.schema = schema;
        this.batches = Collections.unmodifiableList(batches);
        this.rows = rows;
        this.bytes = bytes;
        this.fingerprint = fingerprint;
    }

    public InputSpec spec() {
        return spec;
    }

    public Schema schema() {
        return schema;
    }

    public List<VectorSchemaRoot> batches() {
        return batches;
    }

    public long rows() {
        return rows;
    }

    /** Rows of the largest batch. */
    public int maxBatchRows() {
        int most = 0;
        for (VectorSchemaRoot batch : batches) {
            most = Math.max(most, batch.getRowCount());
        }
        return most;
    }

    /** Bytes of Arrow buffers in use (validity, offsets, values), summed over the batches. */
    public long bytes() {
        return bytes;
    }

    /** Digest of every row's values in order: equal fingerprints, equal input. */
    public String fingerprint() {
        return fingerprint;
    }

    @Override
    public void close() {
        AutoCloseables.closeNoChecked(() -> AutoCloseables.close(batches));
    }
}
