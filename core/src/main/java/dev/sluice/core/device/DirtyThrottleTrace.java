package dev.sluice.core.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel's dirty throttle on one device, traced: the tracepoints {@code writeback:balance_dirty_pages} (each time
 * a writer is paced: its pause and the device's {@code dirty_ratelimit}) and {@code writeback:bdi_dirty_ratelimit}
 * (each update of the device's bandwidth estimate and rate limit), filtered to the device's bdi, through tracefs at
 * {@code /sys/kernel/tracing}. Starting clears the trace buffer; stopping turns the events back on or off as they were and clears their filters.
 * For checks and diagnosis ({@code scripts/sluice device check --trace}), not for measured runs.
 */
public final class DirtyThrottleTrace {
    static final Path TRACING = Path.of("/sys/kernel/tracing");
    private static final List<String> EVENTS = List.of("balance_dirty_pages", "bdi_dirty_ratelimit");
    private static final Pattern FIELD = Pattern.compile("(\\w+)=(-?\\d+)");

    private final String majMin;
    private final Map<String, String> before = new LinkedHashMap<>();

    private DirtyThrottleTrace(String majMin) {
        this.majMin = majMin;
    }

    /** Starts tracing device {@code majMin}; throws if tracefs is not mounted or the events are missing. */
    public static DirtyThrottleTrace start(String majMin) throws IOException {
        if (!Files.isWritable(TRACING.resolve("trace"))) {
            throw new IOException("tracing the dirty throttle needs tracefs at " + TRACING + " (mount -t tracefs "
                    + "nodev " + TRACING + ")");
        }
        DirtyThrottleTrace trace = new DirtyThrottleTrace(majMin);
        for (String event : EVENTS) {
            Path dir = TRACING.resolve("events/writeback").resolve(event);
            trace.before.put(event + "/enable", Host.read(dir.resolve("enable")));
        }
        Host.write(TRACING.resolve("trace"), "");
        try {
            for (String event : EVENTS) {
                Path dir = TRACING.resolve("events/writeback").resolve(event);
                Host.write(dir.resolve("filter"), "bdi == \"" + majMin + "\"");
                Host.write(dir.resolve("enable"), "1");
            }
        } catch (IOException e) {
            trace.restore();
            throw e;
        }
        return trace;
    }

    /** Stops, restores the events' settings, and sums up what was traced. */
    public Summary stop() throws IOException {
        try {
            for (String event : EVENTS) {
                Host.write(TRACING.resolve("events/writeback").resolve(event).resolve("enable"), "0");
            }
            return Summary.of(Files.readAllLines(TRACING.resolve("trace")), majMin);
        } finally {
            restore();
        }
    }

    private void restore() throws IOException {
        for (String event : EVENTS) {
            Path dir = TRACING.resolve("events/writeback").resolve(event);
            Host.write(dir.resolve("enable"), before.getOrDefault(event + "/enable", "0"));
            Host.write(dir.resolve("filter"), "0"); // cleared: a filter the kernel refused cannot be written back
        }
    }

    /**
     * What the throttle did: how often writers were paced and slept, how long the sleeps were, and the rate limit and
     * bandwidth estimate it paced them by (KB/s, as the kernel prints them).
     */
    public record Summary(int paced, int sleeps, int longSleeps, double sleepMillisTotal, List<Long> sleepMillis,
                          List<Long> dirtyRatelimitKBps, List<Long> writeBandwidthKBps) {
        /** A sleep this long or longer is one of the throttle's longest (its cap is 200 ms). */
        static final long LONG_SLEEP_MILLIS = 150;

        static Summary of(List<String> lines, String majMin) {
            int paced = 0;
            int sleeps = 0;
            int longSleeps = 0;
            double total = 0;
            List<Long> pauses = new ArrayList<>();
            List<Long> ratelimits = new ArrayList<>();
            List<Long> bandwidths = new ArrayList<>();
            String tag = "bdi " + majMin + ":";
            for (String line : lines) {
                if (!line.contains(tag)) {
                    continue;
                }
                Map<String, Long> f = fields(line);
                if (line.contains("balance_dirty_pages:")) {
                    paced++;
                    ratelimits.add(f.getOrDefault("dirty_ratelimit", 0L));
                    long pause = f.getOrDefault("pause", 0L);
                    if (pause > 0) {
                        sleeps++;
                        total += pause;
                        pauses.add(pause);
                        if (pause >= LONG_SLEEP_MILLIS) {
                            longSleeps++;
                        }
                    }
                } else if (line.contains("bdi_dirty_ratelimit:")) {
                    bandwidths.add(f.getOrDefault("write_bw", 0L));
                }
            }
            return new Summary(paced, sleeps, longSleeps, total, pauses, ratelimits, bandwidths);
        }

        private static Map<String, Long> fields(String line) {
            Map<String, Long> f = new LinkedHashMap<>();
            Matcher m = FIELD.matcher(line);
            while (m.find()) {
                f.put(m.group(1), Long.parseLong(m.group(2)));
            }
            return f;
        }

        /** For JSON: counts, and min, median and max of each series. */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("paced", paced);
            m.put("sleeps", sleeps);
            m.put("sleepsOf150MsOrMore", longSleeps);
            m.put("sleepMillisTotal", sleepMillisTotal);
            m.put("sleepMillis", spread(sleepMillis));
            m.put("dirtyRatelimitKBps", spread(dirtyRatelimitKBps));
            m.put("writeBandwidthKBps", spread(writeBandwidthKBps));
            return m;
        }

        private static Map<String, Object> spread(List<Long> values) {
            Map<String, Object> m = new LinkedHashMap<>();
            if (values.isEmpty()) {
                return m;
            }
            List<Long> sorted = new ArrayList<>(values);
            Collections.sort(sorted);
            m.put("min", sorted.get(0));
            m.put("median", sorted.get(sorted.size() / 2));
            m.put("max", sorted.get(sorted.size() - 1));
            return m;
        }
    }
}
