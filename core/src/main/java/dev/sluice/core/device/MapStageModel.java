package dev.sluice.core.device;

import java.util.List;

/**
 * A map stage on a {@link FluidDisk}: what the physics says a writer strategy's wave should take, from the figures a
 * run measures, with nothing fitted. {@code tasks} map tasks start together, each makes {@code S} bytes of map output
 * at its own rate {@code r} (the rate it makes output with the disk out of the way), and its writer puts {@code A} times
 * {@code S} bytes on the disk in two parts:
 * <ul>
 *   <li>the streamed part, written while the task makes its output and at its pace (per-batch's temporary files, an
 *       asynchronous writer's data file), at most as fast as the output is made;</li>
 *   <li>the commit part, {@link WriteShape#atCommitShare} of the bytes, written once the output is made, at once
 *       (buffered's whole output, which it held in memory; per-batch's copy of its temporary files into the data
 *       file).</li>
 * </ul>
 * A task's time is the time to make its output and stream its part, which the disk may hold back once the cache is
 * full, then the time for its commit part to fit into what is left of the cache while the disk drains it. The tasks are
 * alike, so they are one writer of their sum to the disk ({@link FluidDisk}'s max-min share gives each the same).
 *
 * <p>The two parts are the model's answer to what the plain fluid model (every byte written as it is made) left out:
 * docs/balance.md measured buffered writing at commit as the reason the harness and Spark stay short of the plain
 * model's improvement at xlarge and xxlarge. What it still leaves out is the CPU: the writers' own and the kernel's
 * writeback on the tasks' cores, which docs/balance.md measured at small and medium.
 */
public final class MapStageModel {
    /**
     * How a writer meets the disk: {@code amplification}, the bytes it writes per byte of map output (2 for
     * per-batch's two copies; {@code io.amplification}), and {@code atCommitShare}, the share of those it writes at
     * commit ({@code io.atCommitShare}).
     */
    public record WriteShape(double amplification, double atCommitShare) {
        public WriteShape {
            if (!(amplification >= 0) || Double.isInfinite(amplification)) {
                throw new IllegalArgumentException("amplification must be a finite ratio, 0 or more, not "
                        + amplification);
            }
            if (!(atCommitShare >= 0 && atCommitShare <= 1)) {
                throw new IllegalArgumentException("atCommitShare must be a share from 0 to 1, not " + atCommitShare);
            }
        }

        /** Every byte written once, as it is made: the plain fluid model of a writer. */
        public static WriteShape streamed() {
            return new WriteShape(1, 0);
        }
    }

    private final FluidDisk disk;
    private final int tasks;
    private final double taskBytesPerSecond;

    /**
     * Map stages of {@code tasks} tasks at once on {@code disk}, each task making its output at
     * {@code taskBytesPerSecond}.
     *
     * @throws IllegalArgumentException if tasks is below 1 or the rate is not positive and finite
     */
    public MapStageModel(FluidDisk disk, int tasks, double taskBytesPerSecond) {
        if (tasks < 1) {
            throw new IllegalArgumentException("tasks must be 1 or more, not " + tasks);
        }
        if (!(taskBytesPerSecond > 0) || Double.isInfinite(taskBytesPerSecond)) {
            throw new IllegalArgumentException("taskBytesPerSecond must be a positive finite rate, not "
                    + taskBytesPerSecond);
        }
        this.disk = disk;
        this.tasks = tasks;
        this.taskBytesPerSecond = taskBytesPerSecond;
    }

    /** The wave's time in seconds when each task makes {@code bytesPerTask} of map output and writes it as {@code shape}. */
    public double seconds(double bytesPerTask, WriteShape shape) {
        if (!(bytesPerTask >= 0) || Double.isInfinite(bytesPerTask)) {
            throw new IllegalArgumentException("bytesPerTask must be a finite number of bytes, 0 or more, not "
                    + bytesPerTask);
        }
        double making = bytesPerTask / taskBytesPerSecond;
        double written = tasks * shape.amplification() * bytesPerTask;
        double streamed = written * (1 - shape.atCommitShare());
        double atCommit = written - streamed;
        double rate = disk.writeBytesPerSecond();
        double cache = disk.dirtyBytes();
        // The streamed part at the pace the output is made, unless the disk holds it back; no streamed bytes: the
        // making alone.
        double first = streamed > 0 ? disk.seconds(List.of(new FluidDisk.Writer(streamed, streamed / making)))
                : making;
        // The cache then: what came in less what the disk took out since the first byte, never below empty (inflow
        // slower than the disk) nor above full (held back).
        double held = Math.min(cache, Math.max(0, streamed - rate * first));
        // The commit part goes in at once; whatever does not fit waits for the disk to make room.
        double commit = Math.max(0, (held + atCommit - cache) / rate);
        return first + commit;
    }
}
