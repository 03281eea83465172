package dev.sluice.jmh.network;

import dev.sluice.spi.Bytes;
import org.openjdk.jmh.results.Result;
import java.util.List;
import java.util.ArrayList;
import dev.sluice.jmh.profile.Figures;
import static dev.sluice.jmh.profile.Figures.avg;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.network.NetworkBoundary;
import java.util.Optional;

/**
 * What one network boundary iteration measured besides its time, handed from {@link BoundaryIteration} to
 * {@link ShuffleIoProfiler} the way {@link WaveFigures} hands a wave's (JMH gives a benchmark no averaged
 * per-iteration figure of its own).
 */
final class BoundaryFigures implements Figures {
    final NetworkBoundary.Sent sent;
    final long batchesReceived;
    final long rowsReceived;
    final long wireBytesReceived;
    final long sendNanos;
    final long readNanos;
    /** The kernel's counters over the iteration's setup and measured map output (the whole process). */
    final Optional<ProcSelfIo> proc;
    final long inputBytes;
    /** The link's results, and a paired run's mode and round. */
    final List<Result> extra;

    BoundaryFigures(NetworkBoundary.Sent sent, long batchesReceived, long rowsReceived, long wireBytesReceived,
                  long sendNanos, long readNanos, Optional<ProcSelfIo> proc, long inputBytes, List<Result> extra) {
        this.extra = extra;
        this.sent = sent;
        this.batchesReceived = batchesReceived;
        this.rowsReceived = rowsReceived;
        this.wireBytesReceived = wireBytesReceived;
        this.sendNanos = sendNanos;
        this.readNanos = readNanos;
        this.proc = proc;
        this.inputBytes = inputBytes;
    }



    /** What the sender sent and copied, what the receiver got. */
    @Override
    public List<Result> results() {
        List<Result> out = new ArrayList<>();
        double wireMiB = (double) sent.wireBytes / Bytes.MiB;
        out.add(avg("net.inputBytes", inputBytes, "B"));
        out.add(avg("net.messages", sent.messages, "messages"));
        out.add(avg("net.wireBytes", sent.wireBytes, "B"));
        out.add(avg("net.meanMessageBytes", sent.messages == 0 ? 0 : (double) sent.wireBytes / sent.messages,
                "B"));
        out.add(avg("net.bytesCopied", sent.bytesCopied(), "B"));
        out.add(avg("net.coalescedBytes", sent.coalescedBytes, "B"));
        out.add(avg("net.serializedBytes", sent.serializedBytes, "B"));
        out.add(avg("net.batchesReceived", batchesReceived, "batches"));
        out.add(avg("net.meanBatchRows", batchesReceived == 0 ? 0 : (double) rowsReceived / batchesReceived,
                "rows"));
        out.add(avg("net.sendMillis", sendNanos / 1e6, "ms"));
        out.add(avg("net.linkWaitMillis", sent.waitedNanos / 1e6, "ms"));
        out.add(avg("query.readMillis", readNanos / 1e6, "ms"));
        out.add(avg("query.totalMillis", (sendNanos + readNanos) / 1e6, "ms"));
        if (proc.isPresent()) {
            ProcSelfIo d = proc.get();
            out.add(avg("proc.syscw", d.syscw, "calls"));
            out.add(avg("proc.syscwPerMiB", wireMiB == 0 ? 0 : d.syscw / wireMiB, "calls/MiB"));
            out.add(avg("proc.syscr", d.syscr, "calls"));
            out.add(avg("proc.wchar", d.wchar, "B"));
        } else {
            out.add(avg("proc.available", 0, "bool"));
        }
        out.addAll(extra);
        return out;
    }

}
