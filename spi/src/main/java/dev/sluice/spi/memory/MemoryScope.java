package dev.sluice.spi.memory;

import dev.sluice.spi.WriterGiven;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Where several strategy executors of one process share their memory accounting: a host that starts more than one
 * executor (Spark's manager starts one per strategy and partition count, all in one executor JVM) gives each the same
 * scope, and a strategy keeps its executor-wide memory state in it, so that the writer configuration's
 * {@code memoryLimit} bounds them together, not each. Without a scope every executor has its own.
 */
@WriterGiven
public final class MemoryScope {
    private final Map<Class<?>, Object> shared = new ConcurrentHashMap<>();

    /** The scope's one {@code type}, made by {@code make} the first time it is asked for. */
    public <T> T shared(Class<T> type, Supplier<T> make) {
        return type.cast(shared.computeIfAbsent(type, t -> make.get()));
    }
}
