package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;
import dev.sluice.spi.option.Choice;
import java.util.Locale;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * The algorithms of Spark's shuffle checksums ({@code spark.shuffle.checksum.algorithm}, Spark 3.2+: ADLER32, its
 * default, CRC32 or CRC32C, each the JDK's own, as {@code ShuffleChecksumHelper.getChecksumByAlgorithm} makes them).
 * The constant's name is Spark's, and the suffix of the checksum file Spark names after it; a strategy spec writes it in
 * lower case ({@code checksumAlgorithm=crc32c}).
 */
@WriterGiven
public enum ChecksumAlgorithm implements Choice {
    ADLER32 {
        @Override
        public Checksum newChecksum() {
            return new Adler32();
        }
    },
    CRC32 {
        @Override
        public Checksum newChecksum() {
            return new CRC32();
        }
    },
    CRC32C {
        @Override
        public Checksum newChecksum() {
            return new CRC32C();
        }
    };

    /** A fresh checksum of this algorithm, at its initial value (an empty partition's). */
    public abstract Checksum newChecksum();

    /**
     * The algorithm Spark names {@code text} (any case, as Spark's config upper-cases it).
     *
     * @throws IllegalArgumentException for a name Spark does not know, listing those it does
     */
    public static ChecksumAlgorithm ofSpark(String text) {
        String name = text.trim().toUpperCase(Locale.ROOT);
        for (ChecksumAlgorithm algorithm : values()) {
            if (algorithm.name().equals(name)) {
                return algorithm;
            }
        }
        throw new IllegalArgumentException("a shuffle checksum algorithm of Spark's: ADLER32, CRC32 or CRC32C (not '"
                + text + "')");
    }
}
