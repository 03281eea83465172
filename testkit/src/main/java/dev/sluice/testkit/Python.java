package dev.sluice.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The Python of the tests that hold Sluice's output against readers outside Java (pyarrow, zstandard):
 * {@code SLUICE_PYTHON} if set, else the repository's {@code .venv/bin/python} ({@code scripts/python-env} makes it,
 * and CI runs it first), else {@code python3}. A test is skipped only where {@code python3} itself is missing; an
 * interpreter without the modules fails the test, saying to run {@code scripts/python-env}.
 */
public final class Python {
    /** The variable that names another interpreter. */
    public static final String VARIABLE = "SLUICE_PYTHON";

    private Python() {}

    /** The interpreter to run, checked to import every one of {@code modules}. */
    public static String withModules(Path repositoryRoot, String... modules) throws InterruptedException {
        String named = System.getenv(VARIABLE);
        Path venv = repositoryRoot.resolve(".venv").resolve("bin").resolve("python");
        String python;
        String why;
        if (named != null && !named.isEmpty()) {
            python = named;
            why = VARIABLE;
        } else if (Files.isExecutable(venv)) {
            python = venv.toString();
            why = "the repository's .venv";
        } else {
            python = "python3";
            why = "no " + VARIABLE + " and no .venv";
        }
        String imports = "import " + String.join(", ", modules);
        Process probe;
        try {
            probe = new ProcessBuilder(python, "-c", imports).redirectErrorStream(true).start();
        } catch (IOException e) {
            if (python.equals("python3")) {
                Assumptions.abort("no python3 to run " + String.join(" and ", modules) + " (" + e.getMessage() + ")");
            }
            return fail(python + " (" + why + ") does not start: " + e.getMessage());
        }
        if (!probe.waitFor(60, TimeUnit.SECONDS)) {
            probe.destroyForcibly();
            return fail(python + " -c '" + imports + "' did not end in 60 s");
        }
        if (probe.exitValue() != 0) {
            String said = output(probe);
            return fail(python + " (" + why + ") cannot " + imports + ": run scripts/python-env from the repository "
                    + "root, which makes .venv with the pinned pyarrow and zstandard from PyPI (or set " + VARIABLE
                    + " to an interpreter that has them). It said: " + said.strip());
        }
        return python;
    }

    /** Runs {@code python script args...} from {@code directory}; its exit status, stdout and stderr. */
    public static Run run(String python, Path directory, Path script, String... args) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>(List.of(python, script.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("sluice-python", ".out");
        Path err = Files.createTempFile("sluice-python", ".err");
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                return fail(String.join(" ", command) + " did not end in 120 s");
            }
            return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String output(Process process) {
        try {
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(its output could not be read: " + e.getMessage() + ")";
        }
    }

    /** What a script run ended with. */
    public static final class Run {
        public final int status;
        public final String out;
        public final String err;

        Run(int status, String out, String err) {
            this.status = status;
            this.out = out;
            this.err = err;
        }

        @Override
        public String toString() {
            return "exit " + status + "\nstdout: " + out + "\nstderr: " + err;
        }
    }
}
