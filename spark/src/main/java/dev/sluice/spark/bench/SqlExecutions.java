package dev.sluice.spark.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;

/**
 * SQL's executions from their start and end events on Spark's listener bus: the query total as Spark's SQL tab shows
 * it, not the driver's clock around the action. The caller empties the bus and {@link #reset}s before the measured
 * write and empties it again after the write returned, so that what is here started in between; {@link #measured}
 * picks the write's execution among them.
 */
final class SqlExecutions extends SparkListener {
    /** Words in a physical plan that mark a write of files (a v1 write command, or its {@code WriteFiles} node). */
    static final List<String> WRITE_PLAN_MARKS = List.of("InsertIntoHadoopFsRelationCommand", "WriteFiles");

    /**
     * One execution. {@code durationNanos} is what Spark measures around the execution with {@code System.nanoTime}
     * and hands to the driver's listeners with the end event (0 where it did not); the start and end times are
     * wall-clock milliseconds; {@code endMillis} is -1 until it ended.
     */
    record Execution(long id, long rootId, String description, String plan, long startMillis, long endMillis,
                     long durationNanos) {
        boolean ended() {
            return endMillis >= 0;
        }

        /** Not nested in another execution (a command's own query runs as a child of the command's execution). */
        boolean root() {
            return rootId == id;
        }

        boolean writesFiles() {
            return plan != null && WRITE_PLAN_MARKS.stream().anyMatch(plan::contains);
        }

        /** The execution's time: Spark's nanosecond measure where it gave one, else end less start. */
        double millis() {
            return durationNanos > 0 ? durationNanos / 1e6 : endMillis - startMillis;
        }

        @Override
        public String toString() {
            return "execution " + id + " (root " + rootId + ", '" + description + "', "
                    + (ended() ? String.format(java.util.Locale.ROOT, "%.1f ms", millis()) : "not ended")
                    + (writesFiles() ? ", writes files" : "") + ")";
        }

        Execution end(long endMillis, long durationNanos) {
            return new Execution(id, rootId, description, plan, startMillis, endMillis, durationNanos);
        }
    }

    private final Map<Long, Execution> executions = new ConcurrentHashMap<>();

    void reset() {
        executions.clear();
    }

    @Override
    public void onOtherEvent(SparkListenerEvent event) {
        if (event instanceof SparkListenerSQLExecutionStart start) {
            long root = start.rootExecutionId().isDefined() ? (Long) start.rootExecutionId().get()
                    : start.executionId();
            executions.put(start.executionId(), new Execution(start.executionId(), root, start.description(),
                    start.physicalPlanDescription(), start.time(), -1, 0));
        } else if (event instanceof SparkListenerSQLExecutionEnd end) {
            // Only executions that started since the reset.
            executions.computeIfPresent(end.executionId(), (id, e) -> e.end(end.time(), end.duration()));
        }
    }

    /** The executions that started since the reset, in order of their ids. */
    List<Execution> executions() {
        List<Execution> out = new ArrayList<>(executions.values());
        out.sort(Comparator.comparingLong(Execution::id));
        return out;
    }

    /**
     * The measured write's execution among {@code executions}: of those that ended, the root ones (a nested one lies
     * within its root), of those the ones whose plan writes files if any do, and of those the longest.
     *
     * @throws IllegalStateException when none ended, with what there was
     */
    static Execution measured(List<Execution> executions) {
        List<Execution> candidates = executions.stream().filter(Execution::ended).toList();
        List<Execution> roots = candidates.stream().filter(Execution::root).toList();
        if (!roots.isEmpty()) {
            candidates = roots;
        }
        List<Execution> writes = candidates.stream().filter(Execution::writesFiles).toList();
        if (!writes.isEmpty()) {
            candidates = writes;
        }
        return candidates.stream().max(Comparator.comparingDouble(Execution::millis)).orElseThrow(() ->
                new IllegalStateException("no SQL execution ended between the reset and the write's return; "
                        + "started: " + executions));
    }
}
