package dev.sluice.strategy.support;

import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.option.StrategyOption;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.spi.storage.PartitionChecksums;

/**
 * The algorithm of the checksum file, an option of every strategy that writes one (its own {@code checksum} flag says
 * whether it does): Spark's {@code spark.shuffle.checksum.algorithm}, whose default the strategies keep.
 */
public final class ChecksumOptions {
    public static final StrategyOption<ChecksumAlgorithm> ALGORITHM = StrategyOption.choice("checksumAlgorithm",
            ChecksumAlgorithm.class, ChecksumAlgorithm.ADLER32, "the algorithm of each partition's checksum where "
                    + "checksum=true, naming the file .checksum.ADLER32, .CRC32 or .CRC32C",
            "spark.shuffle.checksum.algorithm = ADLER32 (Spark 3.2+; ShuffleChecksumHelper)");

    private ChecksumOptions() {}

    /** The algorithm where {@code enabled} is on in {@code options}, or null: no checksums. */
    public static ChecksumAlgorithm algorithm(OptionValues options, StrategyOption<Boolean> enabled) {
        return options.get(enabled) ? options.get(ALGORITHM) : null;
    }

    /** A partition checksum of {@code algorithm} for each of {@code partitions}, or null where it is null. */
    public static PartitionChecksums checksums(ChecksumAlgorithm algorithm, int partitions) {
        return algorithm == null ? null : new PartitionChecksums(partitions, algorithm);
    }
}
