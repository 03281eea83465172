package dev.sluice.jmh.profile;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.ExternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * {@code -prof dev.sluice.jmh.profile.StraceProfiler}: runs the forked JVM under {@code strace -f -c} and reports how many
 * times each file-writing system call was made, as {@code strace.<syscall>} (calls in the whole fork: the trial's
 * verification write, warm-up and measured map tasks, plus JMH's own socket writes to the host). For checking
 * counts, not for timing: strace slows every call down.
 */
public final class StraceProfiler implements ExternalProfiler {
    static final List<String> SYSCALLS = List.of("write", "pwrite64", "writev", "pwritev", "sendto", "sendmsg",
            "openat", "unlink",
            "unlinkat", "rename", "renameat", "renameat2", "fsync", "fdatasync", "sendfile", "copy_file_range");

    private final Path output;

    public StraceProfiler() throws ProfilerException {
        if (!onPath("strace")) {
            throw new ProfilerException("strace is not on PATH (Debian: apt-get install strace)");
        }
        try {
            output = Files.createTempFile("sluice-strace-", ".txt");
        } catch (IOException e) {
            throw new ProfilerException(e);
        }
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Collection<String> addJVMInvokeOptions(BenchmarkParams params) {
        return List.of("strace", "-f", "-c", "-o", output.toString(), "-e", "trace=" + String.join(",", SYSCALLS));
    }

    @Override
    public Collection<String> addJVMOptions(BenchmarkParams params) {
        return Collections.emptyList();
    }

    @Override
    public void beforeTrial(BenchmarkParams benchmarkParams) {}

    @Override
    public Collection<? extends Result> afterTrial(BenchmarkResult br, long pid, File stdOut, File stdErr) {
        try {
            return parse(Files.readAllLines(output));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read strace's summary " + output, e);
        } finally {
            output.toFile().delete();
        }
    }

    /** Rows of {@code strace -c}: {@code % time, seconds, usecs/call, calls, [errors], syscall}. */
    static List<Result> parse(List<String> summary) {
        List<Result> results = new ArrayList<>();
        for (String line : summary) {
            String[] cols = line.trim().split("\\s+");
            if (cols.length < 5 || !cols[0].matches("[0-9.]+") || !cols[3].matches("[0-9]+")) {
                continue;
            }
            String syscall = cols[cols.length - 1];
            if (syscall.equals("total")) {
                continue;
            }
            results.add(new ScalarResult("strace." + syscall, Long.parseLong(cols[3]), "calls", AggregationPolicy.SUM));
        }
        return results;
    }

    @Override
    public boolean allowPrintOut() {
        return true;
    }

    @Override
    public boolean allowPrintErr() {
        return false;
    }

    @Override
    public String getDescription() {
        return "Sluice: counts of file-writing system calls, from strace -f -c around the forked JVM";
    }
}
