package dev.sluice.spi;

import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.option.StrategyOptions;
import dev.sluice.spi.storage.CountedStorage;
import java.util.List;

/**
 * A writer strategy, found by {@link java.util.ServiceLoader} under a stable {@link #name()}. A third party's jar
 * adds one with a {@code META-INF/services/dev.sluice.spi.ShuffleWriterFactory} entry. Most callers reach it
 * through a strategy spec ({@code NAME:key=value}), which the engine parses and checks against its options.
 */
@WriterImplements
public interface ShuffleWriterFactory {
    /** Stable name used on the command line and in benchmark parameters, e.g. {@code per-batch}. */
    String name();

    /** One line on the mechanism it models. */
    String description();

    /** Where the design comes from (an upstream PR and commit), or empty for a strategy that models none. */
    default String upstream() {
        return "";
    }

    /** The options this strategy takes, each with its default, meaning and upstream source. */
    default StrategyOptions options() {
        return StrategyOptions.NONE;
    }

    /**
     * Why these option values cannot run with {@code config} (what is allowed, in words), or null if they can.
     * Called before anything is created.
     */
    default String check(WriterConfig config, OptionValues options) {
        return null;
    }

    /**
     * What these option values will not do with {@code config} although they run, as upstream warns in its log and
     * carries on (e.g. skip-merge without a memory limit merges): each a sentence for the user and the result.
     */
    default List<String> warnings(WriterConfig config, OptionValues options) {
        return List.of();
    }

    /**
     * Adds to {@code plan} the most memory the map tasks of {@code shape}, written at once, may hold in this
     * strategy's writers, beyond their input. A strategy that does not say adds nothing.
     */
    default void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {}

    /**
     * Adds to {@code plan} the most the map tasks of {@code shape}, written at once, may need of the output
     * directory's file system: bytes on it at once and files open at once. A strategy that does not say is assumed to
     * write every byte twice (a scratch file and the output) and to hold a few files per task open.
     */
    default void planStorage(StoragePlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        plan.bytes("map outputs and their scratch files (2 x the output of " + shape.tasksText() + ", assumed)",
                2 * shape.tasks * shape.serializedBytes());
        plan.openFiles("files of " + shape.tasksText() + " (4 each, assumed)", 4L * shape.tasks);
    }

    /**
     * Starts an executor for this strategy. All file I/O goes through {@code storage}; all off-heap memory comes from
     * {@code allocator} (the caller owns both).
     */
    ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                   HostAllocator allocator);
}
