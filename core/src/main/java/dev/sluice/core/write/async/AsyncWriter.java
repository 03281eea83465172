package dev.sluice.core.write.async;

import dev.sluice.core.output.MapOutput;
import dev.sluice.core.write.consolidate.ConsolidatingWriter;
import dev.sluice.core.write.consolidate.PredictiveSizing;
import dev.sluice.core.write.consolidate.WriterContext;
import java.io.IOException;

/**
 * spark-rapids PR-14090 ("V2 phase 2", on top of PR-13724): the same pipeline, with partial buffers sized from the
 * partitions completed so far (average x partitions x 1.2, doubling until there is an average), and a commit that
 * skips the merge: each batch's segments are registered in a segment catalog and nothing is written. Storage is
 * touched only when memory pressure spills a partial. With {@code materialize}, the commit writes Spark's data and
 * index files instead, for comparison and for readers that need files.
 */
final class AsyncWriter extends ConsolidatingWriter {
    private final boolean materialize;

    AsyncWriter(WriterContext context) {
        super(context, new PredictiveSizing(context.config().partitions, initialPartialCapacity(context.config())));
        this.materialize = context.config().materialize;
    }

    @Override
    protected MapOutput publish() throws IOException {
        return materialize ? mergeIntoDataFile() : registerSegmentCatalog();
    }
}
