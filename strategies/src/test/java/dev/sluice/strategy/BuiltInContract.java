package dev.sluice.strategy;

import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.testkit.Causes;
import dev.sluice.testkit.ShuffleWriterContract;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The kit's contract over a built-in strategy's code paths ({@link Strategies#codePaths}), with small file buffers and
 * a small in-flight quota so that task threads wait. What a built-in does with a memory limit follows from its
 * options: {@code memoryBound=exact} honours it; upstream's threshold may pass it.
 */
abstract class BuiltInContract extends ShuffleWriterContract {
    private final String name;

    BuiltInContract(String name) {
        this.name = name;
    }

    @Override
    protected String strategy() {
        return name;
    }

    @Override
    protected List<String> variants() {
        return Strategies.codePaths().filter(spec -> spec.name().equals(name)).map(Strategies::small)
                .map(StrategySpec::text).collect(Collectors.toList());
    }

    @Override
    protected MemoryLimit memoryLimit(String variant) {
        return "exact".equals(spec(variant).describeOptions().get("memoryBound")) ? MemoryLimit.HONOURED
                : MemoryLimit.ADVISORY;
    }

    /**
     * Blocking mergers on fixed slots (upstream's design at PR-13724) can wait on each other under a tight limit
     * (spark-rapids #15208): a task then fails, naming that cause, after its merger's bounded wait, and the rest
     * finish; none hangs.
     */
    @Override
    protected boolean mayFailUnderPressure(String variant, Throwable failure) {
        return "blocking".equals(spec(variant).describeOptions().get("merger")) && Causes.of(failure).contains("#15208");
    }
}
