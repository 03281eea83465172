package dev.sluice.jmh.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.jmh.noise.NoiseFloorBenchmark;
import dev.sluice.jmh.state.InputState;
import dev.sluice.jmh.state.StorageState;
import dev.sluice.jmh.state.WorkloadState;
import dev.sluice.jmh.state.WriterSettings;
import dev.sluice.jmh.state.WriterState;
import dev.sluice.jmh.write.PairedState;
import dev.sluice.jmh.write.RawWriteBenchmark;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/** Every parameter name the runner sets is a {@code @Param} of the benchmarks' classes. */
class ParamsTest {
    @Test
    void everyNameTheRunnerSetsIsABenchmarkParameter() throws Exception {
        Set<String> params = new HashSet<>();
        for (Class<?> c : List.of(WorkloadState.class, StorageState.class, WriterSettings.class, WriterState.class,
                InputState.class, PairedState.class, RawWriteBenchmark.class, NoiseFloorBenchmark.class)) {
            collect(c, params);
        }
        for (Field f : Params.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                String name = (String) f.get(null);
                assertTrue(params.contains(name), "Params." + f.getName() + " = " + name + " names no @Param of the "
                        + "benchmarks: " + params);
            }
        }
    }

    /** The {@code @Param} fields of {@code c}, its superclasses and its nested state classes. */
    private static void collect(Class<?> c, Set<String> params) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (f.isAnnotationPresent(Param.class)) {
                    params.add(f.getName());
                }
            }
            for (Class<?> nested : k.getDeclaredClasses()) {
                collect(nested, params);
            }
        }
    }
}
