package dev.sluice.spark.bench;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.executor.ShuffleWriteMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;

/**
 * The seed's figures from Spark's own events: for every stage that wrote shuffle output (the mapper stage), its time
 * from submission to completion, the sum of its tasks' durations, and the shuffle bytes, records and write time its
 * tasks reported; for the stages that ran tasks and wrote none (the reducer stage: the shuffle read and the parquet
 * write), the same times; for both, the tasks' {@code jvmGCTime} summed (each task counts the JVM's collections
 * while it ran, so concurrent tasks in one JVM can each count the same collection). The caller empties Spark's
 * listener bus and {@link #reset}s before a measured query, and empties the bus again before reading, so that no
 * other query's stages mix in.
 */
final class StageFigures extends SparkListener {
    /** One stage's figures. */
    static final class Stage {
        long taskMillis;
        long shuffleBytes;
        long shuffleRecords;
        long shuffleWriteNanos;
        long gcMillis;
        long tasks;
        /** Task attempts that did not succeed (failed, killed, lost with their executor). */
        long unsuccessful;
        /** Speculative task attempts. */
        long speculative;
        long stageMillis = -1;
        /** Bytes the stage's tasks spilled ({@code diskBytesSpilled}, summed). */
        long spilledBytes;
        /**
         * The most execution memory Spark's memory manager granted one of the stage's tasks at once (its
         * {@code peakOnHeapExecutionMemory} plus {@code peakOffHeapExecutionMemory}): every consumer of the task,
         * Sluice's rows and partials among them.
         */
        long peakExecutionBytes;
        /**
         * Sluice's accumulators of the stage's tasks (dev.sluice.spark.MapFigures), summed, by name without their
         * common prefix: any master mode.
         */
        private final Map<String, Long> sluice = new java.util.TreeMap<>();

        /** The stage's Sluice accumulators, summed over its tasks ({@code mapOutputs}, {@code fallbacks}, ...). */
        Map<String, Long> sluiceTasks() {
            return new java.util.TreeMap<>(sluice);
        }

        private void add(Stage stage) {
            taskMillis += stage.taskMillis;
            shuffleBytes += stage.shuffleBytes;
            shuffleRecords += stage.shuffleRecords;
            shuffleWriteNanos += stage.shuffleWriteNanos;
            gcMillis += stage.gcMillis;
            tasks += stage.tasks;
            unsuccessful += stage.unsuccessful;
            speculative += stage.speculative;
            stageMillis += Math.max(0, stage.stageMillis);
            spilledBytes += stage.spilledBytes;
            peakExecutionBytes = Math.max(peakExecutionBytes, stage.peakExecutionBytes);
            stage.sluice.forEach((name, n) -> sluice.merge(name, n, Long::sum));
        }
    }

    /** The prefix of Sluice's accumulators' names. */
    private static final String SLUICE = "sluice.";

    private final Map<Integer, Stage> stages = new ConcurrentHashMap<>();
    /** Shuffles written since the caller last took them, measured or not. */
    private final java.util.Set<Integer> shuffles = ConcurrentHashMap.newKeySet();

    void reset() {
        stages.clear();
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
        Stage stage = stages.computeIfAbsent(end.stageId(), id -> new Stage());
        synchronized (stage) {
            stage.taskMillis += end.taskInfo().duration();
            stage.tasks++;
            if (!(end.reason() instanceof org.apache.spark.Success$)) {
                stage.unsuccessful++;
            }
            if (end.taskInfo().speculative()) {
                stage.speculative++;
            }
            if (end.taskMetrics() != null) {
                stage.gcMillis += end.taskMetrics().jvmGCTime();
                ShuffleWriteMetrics write = end.taskMetrics().shuffleWriteMetrics();
                stage.shuffleBytes += write.bytesWritten();
                stage.shuffleRecords += write.recordsWritten();
                stage.shuffleWriteNanos += write.writeTime();
                stage.spilledBytes += end.taskMetrics().diskBytesSpilled();
                stage.peakExecutionBytes = Math.max(stage.peakExecutionBytes,
                        end.taskMetrics().peakOnHeapExecutionMemory() + end.taskMetrics().peakOffHeapExecutionMemory());
            }
            for (org.apache.spark.scheduler.AccumulableInfo accumulable
                    : scala.jdk.javaapi.CollectionConverters.asJava(end.taskInfo().accumulables())) {
                String name = accumulable.name().isDefined() ? accumulable.name().get() : "";
                if (name.startsWith(SLUICE) && accumulable.update().isDefined()
                        && accumulable.update().get() instanceof Long update) {
                    stage.sluice.merge(name.substring(SLUICE.length()), update, Long::sum);
                }
            }
        }
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted completed) {
        StageInfo info = completed.stageInfo();
        if (info.shuffleDepId().isDefined()) {
            shuffles.add((Integer) info.shuffleDepId().get());
        }
        Stage stage = stages.computeIfAbsent(info.stageId(), id -> new Stage());
        synchronized (stage) {
            if (info.submissionTime().isDefined() && info.completionTime().isDefined()) {
                stage.stageMillis = (Long) info.completionTime().get() - (Long) info.submissionTime().get();
            }
        }
    }

    /** The shuffles written since {@link #takeShuffles} last took them, left for it. */
    java.util.List<Integer> shuffles() {
        return new java.util.ArrayList<>(shuffles);
    }

    /** The shuffles written since the last call. */
    java.util.List<Integer> takeShuffles() {
        java.util.List<Integer> out = new java.util.ArrayList<>(shuffles);
        shuffles.removeAll(out);
        return out;
    }

    /** The stages that wrote shuffle output, summed: the seed's mapper stage. */
    Stage mapper() {
        return sum(true);
    }

    /** The stages that ran tasks and wrote no shuffle output, summed: the reducer stage (shuffle read, parquet). */
    Stage reducer() {
        return sum(false);
    }

    private Stage sum(boolean wroteShuffle) {
        Stage total = new Stage();
        total.stageMillis = 0;
        for (Stage stage : stages.values()) {
            synchronized (stage) {
                if (wroteShuffle ? stage.shuffleBytes > 0 : stage.shuffleBytes == 0 && stage.tasks > 0) {
                    total.add(stage);
                }
            }
        }
        return total;
    }
}
