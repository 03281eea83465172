package dev.sluice.core.strategy;

import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.option.SpecParser;
import dev.sluice.spi.storage.CountedStorage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A strategy and the values of its options, written the same way on the command line and in JMH parameters:
 * {@code NAME} or {@code NAME:key=value:key=value}, e.g. {@code async:skipMerge=true}. Options not given take the
 * strategy's defaults, which are upstream's. A {@link Presets preset} name stands for a strategy with options.
 */
public final class StrategySpec {
    private final ShuffleWriterFactory factory;
    private final OptionValues options;
    private final String text;

    private StrategySpec(ShuffleWriterFactory factory, OptionValues options, String text) {
        this.factory = factory;
        this.options = options;
        this.text = text;
    }

    /** Parses a spec among the strategies on the class path; refuses with {@code parameter} named. */
    public static StrategySpec parse(String parameter, String text) {
        String trimmed = text == null ? "" : text.trim();
        List<String> pieces = Presets.expand(Arrays.asList(trimmed.split(":", -1)));
        ShuffleWriterFactory factory = ShuffleWriters.find(parameter, pieces.get(0));
        return new StrategySpec(factory, SpecParser.parse(parameter, trimmed, factory.name(), factory.options(),
                pieces.subList(1, pieces.size())), trimmed);
    }

    /** {@code factory} with the given {@code key=value} options (for tests and programs). */
    public static StrategySpec of(ShuffleWriterFactory factory, String... options) {
        String text = options.length == 0 ? factory.name() : factory.name() + ":" + String.join(":", options);
        return new StrategySpec(factory, SpecParser.parse("strategy", text, factory.name(), factory.options(),
                Arrays.asList(options)), text);
    }

    /**
     * This spec with {@code more} options ({@code key=value}, none of them given by its text) that a host of the
     * strategy adds (Spark's manager: Spark's checksum settings). Its text stays as written.
     */
    public StrategySpec withOptions(String parameter, List<String> more) {
        List<String> pieces = Presets.expand(Arrays.asList(text.split(":", -1)));
        List<String> options = new ArrayList<>(pieces.subList(1, pieces.size()));
        options.addAll(more);
        return new StrategySpec(factory, SpecParser.parse(parameter, text, factory.name(), factory.options(), options),
                text);
    }

    public ShuffleWriterFactory factory() {
        return factory;
    }

    public String name() {
        return factory.name();
    }

    /** The spec as written, e.g. {@code async:skipMerge=true}. */
    public String text() {
        return text;
    }

    public OptionValues options() {
        return options;
    }

    /** Every option of the strategy with its value, defaults included. */
    public Map<String, String> describeOptions() {
        return options.describe();
    }

    /**
     * Refuses a spec that cannot run with {@code config} (e.g. skip-merge without a memory limit), naming
     * {@code parameter}, before anything is created.
     */
    public void check(String parameter, WriterConfig config) {
        String problem = problem(config);
        if (problem != null) {
            throw new InvalidParameterException(parameter, text, problem);
        }
    }

    /** Why this spec cannot run with {@code config} (what is allowed, in words), or null if it can. */
    public String problem(WriterConfig config) {
        return factory.check(config, options);
    }

    /** What this spec will not do with {@code config} although it runs (see {@link ShuffleWriterFactory#warnings}). */
    public List<String> warnings(WriterConfig config) {
        return factory.warnings(config, options);
    }

    /** Adds what the map tasks of {@code shape}, written at once, need of the output directory's file system. */
    public void planStorage(StoragePlan plan, WriterConfig config, TaskShape shape) {
        factory.planStorage(plan, config, options, shape);
    }

    /** Adds what the map tasks of {@code shape}, written at once, hold in this strategy's writers. */
    public void planMemory(MemoryPlan plan, WriterConfig config, TaskShape shape) {
        factory.planMemory(plan, config, options, shape);
    }

    /** Checks the spec against {@code config}, then starts an executor of the strategy. */
    public ShuffleExecutor createExecutor(WriterConfig config, CountedStorage storage, HostAllocator allocator) {
        check("strategy", config);
        return factory.createExecutor(config, options, storage, allocator);
    }

    /** The same, its host memory from an Arrow allocator that the caller owns. */
    public ShuffleExecutor createExecutor(WriterConfig config, CountedStorage storage, BufferAllocator allocator) {
        return createExecutor(config, storage, ArrowHostAllocator.of(allocator));
    }

    @Override
    public String toString() {
        return text;
    }
}
