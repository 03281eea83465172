package dev.sluice.spark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spark.bench.SqlExecutions.Execution;
import java.util.List;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.junit.jupiter.api.Test;
import scala.Option;

/** Which SQL execution is the measured write's, from the events Spark posts: no Spark running. */
class SqlExecutionsTest {
    private static final String WRITE_PLAN = "== Physical Plan ==\nExecute InsertIntoHadoopFsRelationCommand file:/x, "
            + "false, Parquet\n+- WriteFiles\n   +- Exchange RoundRobinPartitioning(200)";
    private static final String COUNT_PLAN = "== Physical Plan ==\nAdaptiveSparkPlan\n+- HashAggregate(count(1))";

    private static Execution ended(long id, long root, String plan, long startMillis, long endMillis) {
        return new Execution(id, root, "query " + id, plan, startMillis, endMillis, 0);
    }

    @Test
    void theWriteIsPickedOverALongerQueryThatWritesNothing() {
        Execution write = ended(4, 4, WRITE_PLAN, 1000, 3000);
        Execution check = ended(5, 5, COUNT_PLAN, 3000, 9000);
        assertEquals(write, SqlExecutions.measured(List.of(check, write)));
    }

    @Test
    void aNestedExecutionLosesToItsRoot() {
        Execution root = ended(7, 7, WRITE_PLAN, 1000, 5000);
        Execution nested = ended(8, 7, "== Physical Plan ==\nWriteFiles\n+- Exchange", 1100, 4900);
        assertEquals(root, SqlExecutions.measured(List.of(nested, root)));
    }

    @Test
    void withoutAWritePlanTheLongestRootExecutionIsTheQuery() {
        Execution shorter = ended(1, 1, COUNT_PLAN, 0, 100);
        Execution longer = ended(2, 2, null, 0, 2500);
        assertEquals(longer, SqlExecutions.measured(List.of(shorter, longer)));
    }

    @Test
    void anExecutionThatDidNotEndIsNeverTheQuery() {
        Execution running = new Execution(3, 3, "running", WRITE_PLAN, 0, -1, 0);
        Execution done = ended(2, 2, COUNT_PLAN, 0, 10);
        assertEquals(done, SqlExecutions.measured(List.of(running, done)));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SqlExecutions.measured(List.of(running)));
        assertTrue(e.getMessage().contains("execution 3"), e.getMessage());
    }

    @Test
    void sparksNanosecondDurationIsPreferredToTheWallClocks() {
        assertEquals(1234.5678, new Execution(1, 1, "", WRITE_PLAN, 0, 1300, 1_234_567_800L).millis(), 1e-9);
        assertEquals(1300, new Execution(1, 1, "", WRITE_PLAN, 0, 1300, 0).millis());
    }

    @Test
    void theListenerKeepsWhatStartedSinceTheResetWithItsEnd() {
        SqlExecutions listener = new SqlExecutions();
        listener.onOtherEvent(start(1, 1, COUNT_PLAN, 100));
        listener.reset();
        // The end of an execution that started before the reset is not kept.
        listener.onOtherEvent(end(1, 200));
        listener.onOtherEvent(start(2, 2, WRITE_PLAN, 300));
        listener.onOtherEvent(start(3, 2, WRITE_PLAN, 310));
        SparkListenerSQLExecutionEnd nestedEnd = end(3, 1200);
        listener.onOtherEvent(nestedEnd);
        SparkListenerSQLExecutionEnd end = end(2, 1300);
        end.duration_$eq(999_000_000L);
        listener.onOtherEvent(end);
        List<Execution> executions = listener.executions();
        assertEquals(List.of(2L, 3L), executions.stream().map(Execution::id).toList());
        Execution query = SqlExecutions.measured(executions);
        assertEquals(2, query.id());
        assertEquals(999.0, query.millis(), 1e-9);
    }

    private static SparkListenerSQLExecutionStart start(long id, long root, String plan, long time) {
        return event(SparkListenerSQLExecutionStart.class, id, Option.apply(root), "query " + id, "", plan, null, time);
    }

    private static SparkListenerSQLExecutionEnd end(long id, long time) {
        return event(SparkListenerSQLExecutionEnd.class, id, time);
    }

    /**
     * A SQL execution's event as Spark posts it, built through the event's widest constructor: Spark 4.2 added
     * trailing parameters to 4.1's (an {@code Option<UUID>}), and these tests run on both lines. {@code first} are its
     * leading arguments; the rest (maps, sets, options) are empty.
     */
    private static <T> T event(Class<T> type, Object... first) {
        java.lang.reflect.Constructor<?> widest = java.util.Arrays.stream(type.getConstructors())
                .max(java.util.Comparator.comparingInt(java.lang.reflect.Constructor::getParameterCount))
                .orElseThrow();
        Class<?>[] types = widest.getParameterTypes();
        Object[] args = java.util.Arrays.copyOf(first, types.length);
        for (int i = first.length; i < types.length; i++) {
            args[i] = types[i] == scala.collection.immutable.Map.class ? scala.collection.immutable.Map$.MODULE$.empty()
                    : types[i] == scala.collection.immutable.Set.class ? scala.collection.immutable.Set$.MODULE$.empty()
                    : Option.empty();
        }
        try {
            return type.cast(widest.newInstance(args));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Spark's " + type.getSimpleName() + java.util.Arrays.toString(types), e);
        }
    }
}
