package dev.sluice.jmh.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;

class StraceProfilerTest {
    @Test
    void readsStracesSummaryTable() {
        List<String> summary = List.of(
                "% time     seconds  usecs/call     calls    errors syscall",
                "------ ----------- ----------- --------- --------- ----------------",
                " 61.02    0.012345          30       401           write",
                " 20.00    0.004000          10       400           sendfile",
                " 10.00    0.002000           5       409        12 openat",
                "  0.10    0.000020          10         2           rename",
                "------ ----------- ----------- --------- --------- ----------------",
                "100.00    0.018365                  1212        12 total");
        Map<String, Double> calls = StraceProfiler.parse(summary).stream()
                .collect(Collectors.toMap(Result::getLabel, Result::getScore));
        assertEquals(Map.of("strace.write", 401.0, "strace.sendfile", 400.0, "strace.openat", 409.0,
                "strace.rename", 2.0), calls);
    }
}
