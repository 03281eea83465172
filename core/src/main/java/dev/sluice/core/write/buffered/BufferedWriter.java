package dev.sluice.core.write.buffered;

import dev.sluice.core.output.MapOutput;
import dev.sluice.core.write.consolidate.ConsolidatingWriter;
import dev.sluice.core.write.consolidate.PartialSizing;
import dev.sluice.core.write.consolidate.WriterContext;
import java.io.IOException;

/**
 * spark-rapids PR-13724 ("V2 phase 1": the writer uses as much memory as allowed, and writes in a pipeline): the
 * writer pool compresses records into buffers, each batch's merger appends them in partition order to a partial handle
 * that starts at a fixed size and doubles, and the commit merges the partials into Spark's data file. With one batch
 * that stayed in memory, every byte reaches storage once, in a few large writes, and no scratch file is created.
 */
final class BufferedWriter extends ConsolidatingWriter {
    BufferedWriter(WriterContext context) {
        super(context, PartialSizing.doubling(initialPartialCapacity(context.config())));
    }

    @Override
    protected MapOutput publish() throws IOException {
        return mergeIntoDataFile();
    }
}
