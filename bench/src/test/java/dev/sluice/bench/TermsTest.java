package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.run.BenchmarkName;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import dev.sluice.jmh.SluiceBenchmarks;
import dev.sluice.report.JmhResults;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The terms the benchmarks, the runner and the report share: every {@link Metric} the report reads is written by a
 * benchmark, every {@link BenchmarkName} names a benchmark class, and the {@code @Param} fields of the benchmarks are
 * the {@link BenchmarkParam}s, each of them at least one. Which metrics a module uses is read from its compiled
 * classes (each use of a {@code Metric} constant is a field reference in a class's constant pool), so that a key the
 * report starts to read, or one no benchmark writes any more, fails here rather than in a benchmark run.
 */
class TermsTest {
    private static final String METRIC = Metric.class.getName().replace('.', '/');

    @Test
    void everyMetricTheReportReadsIsWrittenByABenchmark() throws Exception {
        Set<Metric> read = metricsUsedBy(JmhResults.class);
        Set<Metric> written = metricsUsedBy(SluiceBenchmarks.class);
        assertFalse(read.isEmpty(), "the report's classes read no metric: the scan found none");
        Set<Metric> unwritten = EnumSet.copyOf(read);
        unwritten.removeAll(written);
        assertEquals(Set.of(), unwritten, "metrics the report reads that no benchmark writes");
    }

    @Test
    void everyMetricIsWrittenByABenchmark() throws Exception {
        Set<Metric> unwritten = EnumSet.allOf(Metric.class);
        unwritten.removeAll(metricsUsedBy(SluiceBenchmarks.class));
        assertEquals(Set.of(), unwritten, "metrics of the vocabulary no benchmark writes");
    }

    @Test
    void everyBenchmarkNameNamesABenchmarkClass() throws Exception {
        List<String> classes = classNames(SluiceBenchmarks.class);
        for (BenchmarkName name : BenchmarkName.values()) {
            List<String> matching = classes.stream().filter(c -> c.endsWith("." + name.simpleName())).toList();
            assertEquals(1, matching.size(), name + ": classes named " + name.simpleName() + ": " + matching);
            Class<?> type = Class.forName(matching.get(0));
            boolean benchmark = false;
            for (Method m : type.getMethods()) {
                benchmark |= m.isAnnotationPresent(Benchmark.class);
            }
            assertTrue(benchmark, matching.get(0) + " has no @Benchmark method");
        }
    }

    @Test
    void everyBenchmarkParameterIsAParamAndEveryParamABenchmarkParameter() throws Exception {
        Set<String> fields = new TreeSet<>();
        for (String name : classNames(SluiceBenchmarks.class)) {
            Class<?> type = Class.forName(name, false, SluiceBenchmarks.class.getClassLoader());
            if (!name.contains("jmh_generated")) {
                for (Field f : type.getDeclaredFields()) {
                    if (f.isAnnotationPresent(org.openjdk.jmh.annotations.Param.class)) {
                        fields.add(f.getName());
                    }
                }
            }
        }
        Set<String> params = new TreeSet<>();
        for (BenchmarkParam p : BenchmarkParam.values()) {
            params.add(p.key());
        }
        Set<String> notParams = new TreeSet<>(fields);
        notParams.removeAll(params);
        assertEquals(Set.of(), notParams, "@Param fields of the benchmarks that are no BenchmarkParam");
        Set<String> noField = new HashSet<>(params);
        noField.removeAll(fields);
        assertEquals(Set.of(), noField, "BenchmarkParams that name no @Param field of the benchmarks");
        assertEquals(BenchmarkParam.MEMORY_LIMIT, BenchmarkParam.of("memoryLimit").orElseThrow());
        assertTrue(BenchmarkParam.of("memory-limit").isEmpty());
    }

    /** The Metric constants referenced by the classes of the module (class directory or jar) that holds {@code in}. */
    private static Set<Metric> metricsUsedBy(Class<?> in) throws IOException, URISyntaxException {
        Set<String> names = new TreeSet<>();
        forEachClass(in, (name, bytes) -> {
            if (!name.equals(METRIC)) {
                names.addAll(fieldsOf(bytes, METRIC));
            }
        });
        Set<Metric> metrics = EnumSet.noneOf(Metric.class);
        for (Metric m : Metric.values()) {
            if (names.contains(m.name())) {
                metrics.add(m);
            }
        }
        return metrics;
    }

    private static List<String> classNames(Class<?> in) throws IOException, URISyntaxException {
        List<String> names = new ArrayList<>();
        forEachClass(in, (name, bytes) -> names.add(name.replace('/', '.')));
        return names;
    }

    private interface ClassVisitor {
        void visit(String internalName, byte[] bytes) throws IOException;
    }

    private static void forEachClass(Class<?> in, ClassVisitor visitor) throws IOException, URISyntaxException {
        Path root = Path.of(in.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(root)) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    String name = root.relativize(f).toString().replace('\\', '/');
                    visitor.visit(name.substring(0, name.length() - ".class".length()), Files.readAllBytes(f));
                }
            }
            return;
        }
        try (JarFile jar = new JarFile(root.toFile())) {
            for (var e : (Iterable<java.util.jar.JarEntry>) jar.stream()::iterator) {
                if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
                    try (InputStream s = jar.getInputStream(e)) {
                        visitor.visit(e.getName().substring(0, e.getName().length() - ".class".length()),
                                s.readAllBytes());
                    }
                }
            }
        }
    }

    /**
     * The names of the fields of class {@code owner} (internal name) that a class file refers to: its constant pool's
     * Fieldref entries (JVMS 4.4) whose class is {@code owner}.
     */
    static Set<String> fieldsOf(byte[] classFile, String owner) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNameIndex = new int[count];
        int[] refClass = new int[count];
        int[] refNameAndType = new int[count];
        int[] nameIndex = new int[count];
        boolean[] fieldref = new boolean[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++;
                }
                case 7 -> classNameIndex[i] = in.readUnsignedShort();
                case 8, 16, 19, 20 -> in.readUnsignedShort();
                case 9, 10, 11 -> {
                    fieldref[i] = tag == 9;
                    refClass[i] = in.readUnsignedShort();
                    refNameAndType[i] = in.readUnsignedShort();
                }
                case 12 -> {
                    nameIndex[i] = in.readUnsignedShort();
                    in.readUnsignedShort();
                }
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 17, 18 -> in.readInt();
                default -> throw new IOException("constant pool tag " + tag + " at entry " + i
                        + " is not one of JVMS 4.4's");
            }
        }
        Set<String> fields = new TreeSet<>();
        for (int i = 1; i < count; i++) {
            if (fieldref[i] && owner.equals(utf8[classNameIndex[refClass[i]]])) {
                fields.add(utf8[nameIndex[refNameAndType[i]]]);
            }
        }
        return fields;
    }
}
