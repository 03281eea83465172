package dev.sluice.core.partition;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Copies the rows {@code rowAt[0..n)} of one vector into a new one, in that order: the gather a GPU partition does.
 * Fixed-width and variable-width vectors are copied buffer to buffer (values, offsets, validity), much faster than
 * Arrow's row-by-row {@code copyFromSafe}, which other vector types still use. This is input preparation, outside
 * every measurement; it only has to be exact.
 */
final class Gather {
    private Gather() {}

    static void gather(FieldVector from, FieldVector to, int[] rowAt) {
        if (from instanceof BaseFixedWidthVector && ((BaseFixedWidthVector) from).getTypeWidth() > 0) {
            fixedWidth((BaseFixedWidthVector) from, (BaseFixedWidthVector) to, rowAt);
        } else if (from instanceof BaseVariableWidthVector) {
            variableWidth((BaseVariableWidthVector) from, (BaseVariableWidthVector) to, rowAt);
        } else {
            rowByRow(from, to, rowAt);
        }
    }

    private static void fixedWidth(BaseFixedWidthVector from, BaseFixedWidthVector to, int[] rowAt) {
        int rows = rowAt.length;
        int width = from.getTypeWidth();
        to.allocateNew(rows);
        ArrowBuf src = from.getDataBuffer();
        ArrowBuf dst = to.getDataBuffer();
        if (width == 8) {
            for (int i = 0; i < rows; i++) {
                dst.setLong((long) i * 8, src.getLong((long) rowAt[i] * 8));
            }
        } else if (width == 4) {
            for (int i = 0; i < rows; i++) {
                dst.setInt((long) i * 4, src.getInt((long) rowAt[i] * 4));
            }
        } else {
            for (int i = 0; i < rows; i++) {
                dst.setBytes((long) i * width, src, (long) rowAt[i] * width, width);
            }
        }
        validity(from, to.getValidityBuffer(), rowAt);
        to.setValueCount(rows);
    }

    private static void variableWidth(BaseVariableWidthVector from, BaseVariableWidthVector to, int[] rowAt) {
        int rows = rowAt.length;
        ArrowBuf srcOffsets = from.getOffsetBuffer();
        long bytes = 0;
        for (int row : rowAt) {
            bytes += srcOffsets.getInt((long) (row + 1) * 4) - srcOffsets.getInt((long) row * 4);
        }
        to.allocateNew(Math.max(1, bytes), rows);
        ArrowBuf srcData = from.getDataBuffer();
        ArrowBuf dstData = to.getDataBuffer();
        ArrowBuf dstOffsets = to.getOffsetBuffer();
        int at = 0;
        dstOffsets.setInt(0, 0);
        for (int i = 0; i < rows; i++) {
            int start = srcOffsets.getInt((long) rowAt[i] * 4);
            int length = srcOffsets.getInt((long) (rowAt[i] + 1) * 4) - start;
            if (length > 0) {
                dstData.setBytes(at, srcData, start, length);
            }
            at += length;
            dstOffsets.setInt((long) (i + 1) * 4, at);
        }
        validity(from, to.getValidityBuffer(), rowAt);
        to.setLastSet(rows - 1);
        to.setValueCount(rows);
    }

    private static void validity(FieldVector from, ArrowBuf validity, int[] rowAt) {
        for (int i = 0; i < rowAt.length; i++) {
            BitVectorHelper.setValidityBit(validity, i, from.isNull(rowAt[i]) ? 0 : 1);
        }
    }

    private static void rowByRow(FieldVector from, FieldVector to, int[] rowAt) {
        int rows = rowAt.length;
        to.setInitialCapacity(rows);
        to.allocateNew();
        for (int i = 0; i < rows; i++) {
            to.copyFromSafe(rowAt[i], i, from);
        }
        to.setValueCount(rows);
    }
}
