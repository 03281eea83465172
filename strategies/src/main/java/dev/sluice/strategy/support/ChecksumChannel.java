package dev.sluice.strategy.support;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.zip.Checksum;

/**
 * Updates a checksum with every byte written through it, as Spark's {@code DiskBlockObjectWriter} does with its
 * {@code MutableCheckedOutputStream} when shuffle checksums are on. Closing it does not close the channel below.
 */
public final class ChecksumChannel implements WritableByteChannel {
    private final WritableByteChannel out;
    private final Checksum checksum;

    public ChecksumChannel(WritableByteChannel out, Checksum checksum) {
        this.out = out;
        this.checksum = checksum;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        ByteBuffer seen = src.duplicate();
        int n = out.write(src);
        seen.limit(seen.position() + n);
        checksum.update(seen);
        return n;
    }

    @Override
    public boolean isOpen() {
        return out.isOpen();
    }

    @Override
    public void close() {}
}
