import java.nio.ByteBuffer;
import java.util.Random;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * lz4-java's fastest compressor and hash on one 64 KiB block, from a writable heap buffer and from a read-only view of
 * it (which lz4-java's native code cannot read: it falls back to Java), 3000 times each, three rounds; microseconds
 * a block. From the repository's root after 'mvn -B -DskipTests install', nothing else running:
 *   java -cp ~/.m2/repository/at/yawk/lz4/lz4-java/1.10.4/lz4-java-1.10.4.jar docs/runs/spark/seed-ssd-output/Lz4ReadOnly.java
 */
public class Lz4ReadOnly {
    public static void main(String[] args) {
        LZ4Compressor compressor = LZ4Factory.fastestInstance().fastCompressor();
        XXHash32 hash = XXHashFactory.fastestInstance().hash32();
        byte[] data = new byte[1 << 16];
        Random random = new Random(1);
        for (int i = 0; i < data.length; i += 8) {
            data[i] = (byte) random.nextInt(4);
        }
        ByteBuffer writable = ByteBuffer.wrap(data);
        ByteBuffer readOnly = writable.asReadOnlyBuffer();
        ByteBuffer out = ByteBuffer.allocate(compressor.maxCompressedLength(data.length));
        System.out.println(LZ4Factory.fastestInstance() + ", " + XXHashFactory.fastestInstance());
        for (int round = 0; round < 3; round++) {
            for (ByteBuffer src : new ByteBuffer[] {writable, readOnly}) {
                long start = System.nanoTime();
                int n = 0;
                for (int i = 0; i < 3000; i++) {
                    n = compressor.compress(src, 0, data.length, out, 0, out.capacity());
                    hash.hash(src, 0, data.length, 0);
                }
                System.out.printf("%s %.1f us a 64 KiB block, %d bytes%n", src.isReadOnly() ? "read-only" : "writable ",
                        (System.nanoTime() - start) / 3000 / 1000.0, n);
            }
        }
    }
}
