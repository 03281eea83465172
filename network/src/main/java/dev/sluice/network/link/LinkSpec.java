package dev.sluice.network.link;

import dev.sluice.spi.InvalidParameterException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The link a network boundary run crosses, parsed in one place for {@code scripts/net-send --link}, JMH's
 * {@code -p link=...} and the bench scripts: {@code native} (the machine's own loopback, nothing emulated),
 * {@code emulated:rate=RATE[:burst=SIZE]} (the loopback of a network namespace made for the run, rate-limited by a
 * {@code tbf} qdisc), or a {@link LinkProfile} name (a published node bandwidth divided by its cores). A rate is
 * written as {@code tc} writes one, decimal bits per second: {@code 200mbit}, {@code 1.5gbit}, {@code 800kbit}. A
 * burst is a byte size ({@code 256k}, {@code 4m}).
 *
 * <p>No delay: per-packet delay needs the {@code netem} qdisc, which this project's kernels do not have ({@code tc}
 * answers "Specified qdisc kind is unknown"), so {@code delay=} is refused with that reason rather than ignored.
 */
public final class LinkSpec {
    public static final String NATIVE = "native";
    public static final String EMULATED = "emulated";
    /** The slowest and fastest rates allowed: below 1 Mbit/s a 64 KiB loopback packet takes half a second. */
    public static final long MIN_RATE_BITS = 1_000_000L;
    public static final long MAX_RATE_BITS = 400_000_000_000L;
    /**
     * The smallest burst: the namespace's loopback has a 65,536-byte MTU, and {@code tbf} drops a packet larger than
     * its bucket, so a smaller burst would stop every full-sized segment.
     */
    public static final long MIN_BURST_BYTES = 64 * 1024;
    public static final long MAX_BURST_BYTES = 1L << 30;
    /** The default burst: 256 KiB as the measured example, or 10 ms at the rate where that is larger. */
    public static final long DEFAULT_BURST_BYTES = 256 * 1024;
    /** How long a packet may wait in {@code tbf}'s queue before it is dropped. */
    public static final int LATENCY_MS = 50;

    private static final Pattern RATE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(bit|kbit|mbit|gbit)");

    private final String text;
    private final long rateBits;
    private final long burstBytes;
    private final LinkProfile profile;

    private LinkSpec(String text, long rateBits, long burstBytes, LinkProfile profile) {
        this.text = text;
        this.rateBits = rateBits;
        this.burstBytes = burstBytes;
        this.profile = profile;
    }

    public static LinkSpec nativeLink() {
        return new LinkSpec(NATIVE, 0, 0, null);
    }

    /** What {@code parameter} accepts, for messages. */
    public static String allowed() {
        return NATIVE + ", " + EMULATED + ":rate=RATE[:burst=SIZE] (RATE in bit, kbit, mbit or gbit, from 1mbit to "
                + "400gbit; SIZE a byte size from 64k to 1g) or a profile: " + LinkProfile.names();
    }

    public static LinkSpec parse(String parameter, String value) {
        if (value == null) {
            throw new InvalidParameterException(parameter, null, allowed());
        }
        String text = value.trim().toLowerCase(Locale.ROOT);
        if (text.equals(NATIVE)) {
            return nativeLink();
        }
        LinkProfile profile = LinkProfile.byName(text);
        if (profile != null) {
            long rate = profile.bitsPerCore();
            return new LinkSpec(profile.name, rate, defaultBurst(rate), profile);
        }
        if (!text.startsWith(EMULATED + ":")) {
            throw new InvalidParameterException(parameter, value, allowed());
        }
        long rate = -1;
        long burst = -1;
        for (String part : text.substring(EMULATED.length() + 1).split(":", -1)) {
            int eq = part.indexOf('=');
            String key = eq < 0 ? part : part.substring(0, eq);
            String given = eq < 0 ? "" : part.substring(eq + 1);
            switch (key) {
                case "rate":
                    if (rate >= 0) {
                        throw new InvalidParameterException(parameter, value, "rate given once: " + allowed());
                    }
                    rate = rate(parameter, value, given);
                    break;
                case "burst":
                    if (burst >= 0) {
                        throw new InvalidParameterException(parameter, value, "burst given once: " + allowed());
                    }
                    burst = burst(parameter, value, given);
                    break;
                case "delay":
                case "latency":
                case "loss":
                    throw new InvalidParameterException(parameter, value, "no " + key + ": per-packet " + key
                            + " needs the netem qdisc, which this kernel does not have (tc answers 'Specified qdisc "
                            + "kind is unknown'); only rate and burst are emulated, with tbf");
                default:
                    throw new InvalidParameterException(parameter, value, "parameters rate and burst only ('" + part
                            + "' is neither): " + allowed());
            }
        }
        if (rate < 0) {
            throw new InvalidParameterException(parameter, value, "a rate: " + allowed());
        }
        return new LinkSpec(text, rate, burst < 0 ? defaultBurst(rate) : burst, null);
    }

    private static long rate(String parameter, String value, String given) {
        Matcher m = RATE.matcher(given);
        if (!m.matches()) {
            throw new InvalidParameterException(parameter, value, "rate=RATE with RATE a number and one of bit, kbit, "
                    + "mbit, gbit, as tc writes it (e.g. 200mbit; '" + given + "' is not)");
        }
        double multiplier;
        switch (m.group(2)) {
            case "gbit": multiplier = 1e9; break;
            case "mbit": multiplier = 1e6; break;
            case "kbit": multiplier = 1e3; break;
            default: multiplier = 1; break;
        }
        double bits = Double.parseDouble(m.group(1)) * multiplier;
        if (!(bits >= MIN_RATE_BITS) || bits > MAX_RATE_BITS) {
            throw new InvalidParameterException(parameter, value, "a rate from 1mbit to 400gbit (not " + given + ")");
        }
        return Math.round(bits);
    }

    private static long burst(String parameter, String value, String given) {
        long bytes;
        try {
            bytes = dev.sluice.spi.Bytes.parse(given);
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(parameter, value, "burst=SIZE with SIZE a byte size such as 256k or 4m ("
                    + e.getMessage() + ")");
        }
        if (bytes < MIN_BURST_BYTES || bytes > MAX_BURST_BYTES) {
            throw new InvalidParameterException(parameter, value, "a burst from 64k (the loopback's 64 KiB packets "
                    + "must fit the bucket) to 1g (not " + given + ")");
        }
        return bytes;
    }

    /** 256 KiB, or 10 ms of the rate where that is more: tbf needs a bucket of at least a timer tick's bytes. */
    static long defaultBurst(long rateBits) {
        return Math.max(DEFAULT_BURST_BYTES, rateBits / 8 / 100);
    }

    public boolean isNative() {
        return rateBits == 0;
    }

    /** The rate in bits per second; 0 for native. */
    public long rateBits() {
        return rateBits;
    }

    public long burstBytes() {
        return burstBytes;
    }

    /** The profile it was named by, or null. */
    public LinkProfile profile() {
        return profile;
    }

    /** The mechanism that makes it: {@code loopback} (native) or {@code netns+tbf}. */
    public String mechanism() {
        return isNative() ? "loopback" : "netns+tbf";
    }

    /** {@code tc}'s arguments after {@code tc qdisc replace dev lo root}. */
    public String[] tbfArguments() {
        if (isNative()) {
            throw new IllegalStateException("a native link has no qdisc");
        }
        return new String[] {"tbf", "rate", rateBits + "bit", "burst", Long.toString(burstBytes), "latency",
                LATENCY_MS + "ms"};
    }

    /** As given (lower case), e.g. {@code emulated:rate=200mbit} or {@code t3.xlarge}. */
    public String text() {
        return text;
    }

    /** The figures, for a record: mechanism, rate, burst. */
    public String describe() {
        if (isNative()) {
            return "native: the machine's loopback, nothing emulated";
        }
        return String.format(Locale.ROOT, "%s: %s, rate %.1f Mbit/s, burst %d bytes, latency %d ms%s", text,
                mechanism(), rateBits / 1e6, burstBytes, LATENCY_MS,
                profile == null ? "" : " (" + profile.derivation() + ")");
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LinkSpec && ((LinkSpec) o).rateBits == rateBits && ((LinkSpec) o).burstBytes == burstBytes;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(rateBits * 31 + burstBytes);
    }
}
