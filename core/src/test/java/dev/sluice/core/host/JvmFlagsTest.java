package dev.sluice.core.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The copies of {@link JvmFlags} that cannot call Java: the build's test JVMs (the parent pom's
 * {@code sluice.test.argLine} and its JDK 24 profile), the scripts ({@code set_java_flags} in {@code scripts/lib.sh})
 * and the example outside the build ({@code examples/external-writer}, which inherits nothing), each checked on the
 * JDK this test runs on.
 */
class JvmFlagsTest {
    private static final int FEATURE = Runtime.version().feature();
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void theBuildsTestJvmsGetTheFlagsOfThisJdkAndTheHeap() {
        List<String> given = ManagementFactory.getRuntimeMXBean().getInputArguments();
        assertEquals(JvmFlags.required(FEATURE), given.stream().filter(JvmFlagsTest::isJdkFlag)
                .collect(Collectors.toList()), "the JDK flags of the test argLine, on JDK " + FEATURE);
        assertTrue(given.contains(JvmFlags.HEAP_MAX), "the test argLine's heap: " + given);
    }

    @Test
    void theScriptsGiveTheFlagsOfThisJdk() throws Exception {
        Path lib = ROOT.resolve("scripts/lib.sh");
        assertTrue(Files.isRegularFile(lib), lib + " is missing");
        Process bash = new ProcessBuilder("bash", "-c",
                "source \"$1\"; java=\"$2\"; set_java_flags; printf '%s\\n' \"${java_flags[@]}\"", "lib.sh",
                lib.toString(), Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .redirectErrorStream(true).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(bash.waitFor(60, TimeUnit.SECONDS), "set_java_flags did not end");
        assertEquals(0, bash.exitValue(), out);
        assertEquals(JvmFlags.required(FEATURE), Arrays.asList(out.strip().split("\n")),
                "set_java_flags in " + lib + ", on JDK " + FEATURE);
    }

    @Test
    void theExampleOutsideTheBuildNamesTheFlagsEveryJdkNeedsAndTheHeap() throws Exception {
        String pom = Files.readString(ROOT.resolve("examples/external-writer/pom.xml"));
        String argLine = pom.substring(pom.indexOf("<test.argLine>"), pom.indexOf("</test.argLine>"));
        assertTrue(argLine.contains(JvmFlags.ADD_OPENS) && argLine.contains(JvmFlags.HEAP_MAX), argLine);
    }

    private static boolean isJdkFlag(String flag) {
        return flag.startsWith("--add-opens") || flag.startsWith("--sun-misc-unsafe-memory-access")
                || flag.startsWith("--enable-native-access");
    }
}
