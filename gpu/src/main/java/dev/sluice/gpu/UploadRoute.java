package dev.sluice.gpu;

import ai.rapids.cudf.ColumnVector;
import ai.rapids.cudf.DType;
import ai.rapids.cudf.HostColumnVector;
import dev.sluice.spi.InvalidParameterException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * How an Arrow batch becomes a cuDF table on the device. Input preparation, outside every timing; both routes give
 * the same rows, which the device tests check.
 */
public enum UploadRoute {
    /** {@code ColumnVector.fromArrow}: cuDF copies Arrow's buffers from pageable memory (2 GiB per buffer at most). */
    FROM_ARROW("from-arrow") {
        @Override
        ColumnVector[] upload(VectorSchemaRoot batch) {
            List<FieldVector> vectors = batch.getFieldVectors();
            ColumnVector[] device = new ColumnVector[vectors.size()];
            try {
                for (int c = 0; c < device.length; c++) {
                    device[c] = fromArrow(vectors.get(c), batch.getRowCount());
                }
                return device;
            } catch (RuntimeException | Error e) {
                CudfColumns.closeAll(device);
                throw e;
            }
        }
    },
    /** Copied into pinned host columns ({@link CudfColumns#toHost}), then {@code copyToDevice}. */
    PINNED_COPY("pinned-copy") {
        @Override
        ColumnVector[] upload(VectorSchemaRoot batch) {
            HostColumnVector[] host = CudfColumns.toHost(batch, HostMemory.pinned());
            ColumnVector[] device = new ColumnVector[host.length];
            try {
                for (int c = 0; c < host.length; c++) {
                    device[c] = host[c].copyToDevice();
                }
                return device;
            } catch (RuntimeException | Error e) {
                CudfColumns.closeAll(device);
                throw e;
            } finally {
                CudfColumns.closeAll(host);
            }
        }
    };

    private final String label;

    UploadRoute(String label) {
        this.label = label;
    }

    /** The batch's columns on the device; the caller closes them. */
    abstract ColumnVector[] upload(VectorSchemaRoot batch);

    private static ColumnVector fromArrow(FieldVector vector, int rows) {
        DType type = CudfColumns.dtypeOf(vector.getField());
        int nulls = vector.getNullCount();
        ByteBuffer validity = nulls > 0 ? view(vector.getValidityBuffer(), (rows + 7) / 8) : null;
        if (vector instanceof BaseVariableWidthVector) {
            ArrowBuf offsetBuffer = vector.getOffsetBuffer();
            int chars = rows == 0 ? 0 : offsetBuffer.getInt((long) rows * Integer.BYTES);
            return ColumnVector.fromArrow(type, rows, nulls, view(vector.getDataBuffer(), chars), validity,
                    view(offsetBuffer, (rows + 1L) * Integer.BYTES));
        }
        return ColumnVector.fromArrow(type, rows, nulls,
                view(vector.getDataBuffer(), (long) rows * type.getSizeInBytes()), validity, null);
    }

    private static ByteBuffer view(ArrowBuf buffer, long bytes) {
        return buffer.nioBuffer(0, Math.toIntExact(bytes));
    }

    public String label() {
        return label;
    }

    public static UploadRoute parse(String parameter, String value) {
        for (UploadRoute route : values()) {
            if (route.label.equals(value)) {
                return route;
            }
        }
        throw new InvalidParameterException(parameter, value, "from-arrow or pinned-copy");
    }
}
