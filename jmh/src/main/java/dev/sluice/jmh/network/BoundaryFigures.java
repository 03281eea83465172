package dev.sluice.jmh.network;

import static dev.sluice.jmh.profile.Figures.result;

import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.run.Metric;
import dev.sluice.jmh.profile.Figures;
import dev.sluice.network.NetworkBoundary;
import dev.sluice.spi.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.results.Result;

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
        out.add(result(Metric.NET_INPUT_BYTES, inputBytes));
        out.add(result(Metric.NET_MESSAGES, sent.messages));
        out.add(result(Metric.NET_WIRE_BYTES, sent.wireBytes));
        out.add(result(Metric.NET_MEAN_MESSAGE_BYTES,
                sent.messages == 0 ? 0 : (double) sent.wireBytes / sent.messages));
        out.add(result(Metric.NET_BYTES_COPIED, sent.bytesCopied()));
        out.add(result(Metric.NET_COALESCED_BYTES, sent.coalescedBytes));
        out.add(result(Metric.NET_SERIALIZED_BYTES, sent.serializedBytes));
        out.add(result(Metric.NET_BATCHES_RECEIVED, batchesReceived));
        out.add(result(Metric.NET_MEAN_BATCH_ROWS, batchesReceived == 0 ? 0 : (double) rowsReceived / batchesReceived));
        out.add(result(Metric.NET_SEND_MILLIS, sendNanos / 1e6));
        out.add(result(Metric.NET_LINK_WAIT_MILLIS, sent.waitedNanos / 1e6));
        out.add(result(Metric.QUERY_READ_MILLIS, readNanos / 1e6));
        out.add(result(Metric.QUERY_TOTAL_MILLIS, (sendNanos + readNanos) / 1e6));
        if (proc.isPresent()) {
            ProcSelfIo d = proc.get();
            out.add(result(Metric.NET_PROC_SYSCW, d.syscw));
            out.add(result(Metric.NET_PROC_SYSCW_PER_MIB, wireMiB == 0 ? 0 : d.syscw / wireMiB));
            out.add(result(Metric.NET_PROC_SYSCR, d.syscr));
            out.add(result(Metric.NET_PROC_WCHAR, d.wchar));
        } else {
            out.add(result(Metric.PROC_AVAILABLE, 0));
        }
        out.addAll(extra);
        return out;
    }

}
