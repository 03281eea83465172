package dev.sluice.core.write.consolidate;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.GatheringWriter;
import dev.sluice.core.output.DataFileCommit;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.output.SparkMapOutput;
import dev.sluice.core.serde.RecordSerializer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The commit of PR-13724: partition by partition, each batch's segment of it, in batch order, goes into the data file,
 * between the partition's stream header and end-of-stream marker. Segments of partials still in memory go out with
 * gathering writes (up to 1024 pieces a call), so one batch that stayed in memory is written in one or a few large
 * calls and every byte once; segments of spilled partials are copied file to file. Then the index and the renames.
 */
final class SparkLayoutMerge {
    private SparkLayoutMerge() {}

    static SparkMapOutput write(List<BatchMerger> batches, int partitions, RecordSerializer serializer,
                                CountedStorage storage, MapOutputFiles files, boolean fsync) throws IOException {
        byte[] header = serializer.streamHeader();
        byte[] endOfStream = serializer.endOfStream();
        long[] lengths = new long[partitions];
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            GatheringWriter out = new GatheringWriter(commit.data());
            for (int p = 0; p < partitions; p++) {
                long body = 0;
                for (BatchMerger batch : batches) {
                    body += batch.lengths[p];
                }
                if (body == 0) {
                    continue;
                }
                out.add(ByteBuffer.wrap(header));
                for (BatchMerger batch : batches) {
                    long length = batch.lengths[p];
                    if (length == 0) {
                        continue;
                    }
                    if (batch.partial.inMemory()) {
                        out.add(batch.partial.memorySlice(batch.offsets[p], length));
                    } else {
                        out.flush();
                        commit.data().transferFrom(batch.partial.file(), batch.offsets[p], length);
                    }
                }
                out.add(ByteBuffer.wrap(endOfStream));
                lengths[p] = header.length + body + endOfStream.length;
            }
            out.flush();
            return commit.commit(lengths, fsync);
        }
    }
}
