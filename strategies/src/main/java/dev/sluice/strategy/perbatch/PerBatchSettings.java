package dev.sluice.strategy.perbatch;

import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.strategy.support.ChecksumOptions;
import dev.sluice.strategy.support.MergeCopy;

/** The per-batch strategy's option values, resolved once per executor. */
final class PerBatchSettings {
    final int fileBuffer;
    final long maxBytesInFlight;
    final MergeCopy mergeCopy;
    /** The checksum file's algorithm, or null: none. */
    final ChecksumAlgorithm checksum;

    PerBatchSettings(OptionValues options) {
        this.fileBuffer = Math.toIntExact(options.get(PerBatchWriterFactory.FILE_BUFFER));
        this.maxBytesInFlight = options.get(PerBatchWriterFactory.MAX_BYTES_IN_FLIGHT);
        this.mergeCopy = options.get(PerBatchWriterFactory.MERGE_COPY);
        this.checksum = ChecksumOptions.algorithm(options, PerBatchWriterFactory.CHECKSUM);
    }
}
