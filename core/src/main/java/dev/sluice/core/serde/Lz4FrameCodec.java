package dev.sluice.core.serde;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow IPC's {@code LZ4_FRAME} buffer compression on lz4-java's native block compressor, in place of Arrow Java's own
 * codec (commons-compress, pure Java, copies through heap arrays). Compresses straight from the vector's memory into
 * the output buffer as one LZ4 frame (version 1, independent 64 KiB blocks, content size, no checksums), which Arrow's
 * readers in Java, C++ and Python decode.
 *
 * <p>Output buffers come from the allocator given at construction, not the one Arrow passes to {@code compress} (the
 * input vector's): compressed bytes belong to the writer that made them and count against its memory.
 */
public final class Lz4FrameCodec extends AbstractCompressionCodec {
    private static final int MAGIC = 0x184D2204;
    private static final int BLOCK_SIZE = 64 * 1024;
    /** Version 01, independent blocks, content size present. */
    private static final byte FLG = 0b0110_1000;
    /** Block maximum size 64 KiB. */
    private static final byte BD = 4 << 4;
    private static final int FLG_BLOCK_INDEPENDENT = 1 << 5;
    private static final int FLG_BLOCK_CHECKSUM = 1 << 4;
    private static final int FLG_CONTENT_SIZE = 1 << 3;
    private static final int FLG_DICT_ID = 1;
    private static final int HEADER = 4 + 2 + 8 + 1;
    private static final int UNCOMPRESSED_BLOCK = 0x8000_0000;

    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();
    private static final XXHash32 XXHASH32 = XXHashFactory.fastestInstance().hash32();

    private final BufferAllocator outputAllocator;

    public Lz4FrameCodec(BufferAllocator outputAllocator) {
        this.outputAllocator = outputAllocator;
    }

    /** The most bytes {@code compress} produces for {@code length} input bytes, length prefix included. */
    public static long maxFrameLength(long length) {
        long fullBlocks = length / BLOCK_SIZE;
        int rest = (int) (length % BLOCK_SIZE);
        return CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + HEADER
                + fullBlocks * (4 + COMPRESSOR.maxCompressedLength(BLOCK_SIZE))
                + (rest > 0 ? 4 + COMPRESSOR.maxCompressedLength(rest) : 0) + 4;
    }

    @Override
    public CompressionUtil.CodecType getCodecType() {
        return CompressionUtil.CodecType.LZ4_FRAME;
    }

    /**
     * As Arrow's, but the input buffer is released when compression fails too: Arrow's {@code VectorUnloader} retains
     * each buffer before compressing it and relies on the codec to release it.
     */
    @Override
    public ArrowBuf compress(BufferAllocator allocator, ArrowBuf uncompressed) {
        try {
            return super.compress(allocator, uncompressed);
        } catch (RuntimeException | Error e) {
            uncompressed.close();
            throw e;
        }
    }

    @Override
    protected ArrowBuf doCompress(BufferAllocator ignored, ArrowBuf uncompressed) {
        long length = uncompressed.writerIndex();
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("buffer of " + length + " bytes is over LZ4_FRAME's 2 GiB limit");
        }
        int srcLen = (int) length;
        long bound = Math.max(maxFrameLength(srcLen), CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + HEADER + 4 + 4 + 8);
        ArrowBuf out = outputAllocator.buffer(bound);
        try {
            ByteBuffer dst = out.nioBuffer(0, (int) bound).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer src = uncompressed.nioBuffer(0, srcLen);
            int pos = (int) CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
            dst.putInt(pos, MAGIC);
            dst.put(pos + 4, FLG);
            dst.put(pos + 5, BD);
            dst.putLong(pos + 6, srcLen);
            dst.put(pos + 14, (byte) ((XXHASH32.hash(dst, pos + 4, 10, 0) >>> 8) & 0xFF));
            pos += HEADER;
            for (int off = 0; off < srcLen; off += BLOCK_SIZE) {
                int blockLen = Math.min(BLOCK_SIZE, srcLen - off);
                int packed = COMPRESSOR.compress(src, off, blockLen, dst, pos + 4, COMPRESSOR.maxCompressedLength(blockLen));
                if (packed < blockLen) {
                    dst.putInt(pos, packed);
                    pos += 4 + packed;
                } else {
                    // Incompressible: LZ4 frames store such a block as is, flagged by the size's high bit.
                    dst.putInt(pos, UNCOMPRESSED_BLOCK | blockLen);
                    out.setBytes(pos + 4, uncompressed, off, blockLen);
                    pos += 4 + blockLen;
                }
            }
            dst.putInt(pos, 0);
            out.writerIndex(pos + 4);
            return out;
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
    }

    @Override
    protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
        long decompressedLength = readUncompressedLength(compressed);
        if (decompressedLength > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("LZ4 frame of " + decompressedLength + " bytes is over 2 GiB");
        }
        int total = (int) compressed.writerIndex();
        ByteBuffer src = compressed.nioBuffer(0, total).order(ByteOrder.LITTLE_ENDIAN);
        ArrowBuf out = allocator.buffer(decompressedLength);
        try {
            ByteBuffer dst = out.nioBuffer(0, (int) decompressedLength);
            int pos = (int) CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
            if (src.getInt(pos) != MAGIC) {
                throw new IllegalArgumentException("not an LZ4 frame: magic " + Integer.toHexString(src.getInt(pos)));
            }
            int flg = src.get(pos + 4);
            if ((flg & FLG_BLOCK_INDEPENDENT) == 0 || (flg & FLG_DICT_ID) != 0) {
                throw new IllegalArgumentException("LZ4 frames with linked blocks or a dictionary are not supported");
            }
            pos += 4 + 2 + ((flg & FLG_CONTENT_SIZE) != 0 ? 8 : 0) + 1;
            int written = 0;
            while (true) {
                int size = src.getInt(pos);
                pos += 4;
                if (size == 0) {
                    break;
                }
                if ((size & UNCOMPRESSED_BLOCK) != 0) {
                    int rawLen = size & ~UNCOMPRESSED_BLOCK;
                    out.setBytes(written, compressed, pos, rawLen);
                    written += rawLen;
                    pos += rawLen;
                } else {
                    written += DECOMPRESSOR.decompress(src, pos, size, dst, written, (int) decompressedLength - written);
                    pos += size;
                }
                pos += (flg & FLG_BLOCK_CHECKSUM) != 0 ? 4 : 0;
            }
            if (written != decompressedLength) {
                throw new IllegalArgumentException("LZ4 frame held " + written + " bytes, its header said " + decompressedLength);
            }
            out.writerIndex(decompressedLength);
            return out;
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
    }
}
