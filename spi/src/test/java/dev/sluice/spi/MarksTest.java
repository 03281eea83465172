package dev.sluice.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every public type of the SPI says what it is to a writer: exactly one of the three marks. */
class MarksTest {
    private static final List<Class<? extends java.lang.annotation.Annotation>> MARKS =
            List.of(WriterImplements.class, WriterGiven.class, EngineOnly.class);

    @Test
    void everyPublicTypeCarriesExactlyOneMark() throws Exception {
        Map<String, List<String>> marksOf = new TreeMap<>();
        for (Class<?> type : publicTypes()) {
            if (MARKS.contains(type)) {
                continue;
            }
            marksOf.put(type.getName(), MARKS.stream().filter(type::isAnnotationPresent).map(Class::getSimpleName)
                    .collect(Collectors.toList()));
        }
        assertTrue(marksOf.size() > 40, "public types found: " + marksOf.keySet());
        Map<String, List<String>> wrong = new TreeMap<>(marksOf);
        wrong.values().removeIf(marks -> marks.size() == 1);
        assertEquals(Map.of(), wrong, "public types of the SPI with no mark or more than one");
    }

    @Test
    void aWriterImplementsTheFactoryTheExecutorAndTheWriter() throws Exception {
        List<String> implemented = new ArrayList<>();
        for (Class<?> type : publicTypes()) {
            if (type.isAnnotationPresent(WriterImplements.class)) {
                implemented.add(type.getSimpleName());
                assertTrue(type.isInterface(), type + " is marked as implemented by writers but is no interface");
            }
        }
        assertTrue(implemented.containsAll(List.of("ShuffleWriterFactory", "ShuffleExecutor", "ShuffleWriter")),
                String.valueOf(implemented));
    }

    /** The public top-level types compiled from this module's sources (its class directory). */
    private static List<Class<?>> publicTypes() throws Exception {
        Path classes = Path.of(ShuffleWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).collect(Collectors.toList())) {
                String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
                name = name.substring(0, name.length() - ".class".length());
                if (name.contains("$") || name.endsWith("package-info")) {
                    continue;
                }
                Class<?> type = Class.forName(name, false, MarksTest.class.getClassLoader());
                if (Modifier.isPublic(type.getModifiers())) {
                    types.add(type);
                }
            }
        }
        return types;
    }
}
