package dev.sluice.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Sluice's wire format: a map output as a sequence of frames on one TCP connection, each partition's frames carrying
 * the bytes of one Arrow IPC stream, the same bytes a file strategy writes for that partition (schema message, one
 * record batch message per batch, end-of-stream marker, each framed by the codec). A frame, big-endian:
 *
 * <pre>
 *   int32 length     bytes after this field: 12 + payload
 *   int32 kind       {@link Kind#code}
 *   int32 partition  the partition whose stream the payload continues; -1 for map-output frames
 *   int32 rows       rows of a {@link Kind#BATCH}'s record batch; 0 otherwise
 *   payload
 * </pre>
 *
 * Concatenating one partition's payloads, in order, gives its Arrow IPC stream, which any Arrow reader reads
 * ({@code pyarrow.ipc.open_stream}; {@code scripts/pyarrow-receive.py} does it from the socket). Streams of different
 * partitions interleave, as datafusion-distributed's Flight streams do on one connection; the envelope is the
 * multiplexing Flight's descriptors would do, in 16 bytes, without gRPC.
 */
public final class Frame {
    /** Bytes before a frame's payload, its length field included. */
    public static final int HEADER_BYTES = 16;
    /** Bytes of a frame's header after the length field. */
    static final int HEADER_AFTER_LENGTH = HEADER_BYTES - 4;
    /** The largest frame a receiver accepts: one record batch message of up to 1 GiB. */
    public static final int MAX_FRAME_BYTES = 1 << 30;
    static final int NO_PARTITION = -1;

    /** What a frame carries. */
    public enum Kind {
        /** A map output begins; payload: int32 number of partitions. */
        MAP_OUTPUT_OPEN(0),
        /** A partition's stream begins; payload: the stream header (the Arrow schema message). */
        STREAM_OPEN(1),
        /** One record batch message of a partition; {@code rows} says how many rows it holds. */
        BATCH(2),
        /** A partition's stream ends; payload: the end-of-stream marker. */
        STREAM_END(3),
        /** The map output is complete; no payload. The receiver answers with {@link #ACK}. */
        MAP_OUTPUT_END(4),
        /** Receiver to sender: the map output ended by the last {@link #MAP_OUTPUT_END} is received whole. */
        ACK(5);

        public final int code;

        Kind(int code) {
            this.code = code;
        }

        static Kind of(int code) {
            Kind[] kinds = values();
            if (code < 0 || code >= kinds.length) {
                throw new IllegalArgumentException("frame kind " + code + " is not one of 0.." + (kinds.length - 1));
            }
            return kinds[code];
        }
    }

    private Frame() {}

    /** A frame's header for a payload of {@code payloadBytes}. */
    static ByteBuf header(ByteBufAllocator buffers, Kind kind, int partition, int rows, int payloadBytes) {
        ByteBuf header = buffers.directBuffer(HEADER_BYTES, HEADER_BYTES);
        header.writeInt(HEADER_AFTER_LENGTH + payloadBytes);
        header.writeInt(kind.code);
        header.writeInt(partition);
        header.writeInt(rows);
        return header;
    }
}
