package dev.sluice.jmh.network;

import static dev.sluice.jmh.profile.Figures.result;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import dev.sluice.network.link.EmulatedLink;
import dev.sluice.network.link.LinkProbe;
import dev.sluice.network.link.LinkSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.Result;

/**
 * A trial's link: the fork's loopback set to its {@code link} parameter (inside the run's namespace, which
 * {@code SluiceBenchmarks} made; an emulated link outside one is refused), and the raw throughput measured through it
 * before the trial, which every iteration's results carry: {@code link.rateMbit} (0 for native), {@code
 * link.measuredMbit}, {@code link.netns} (1 where the fork runs in the run's namespace) and {@code link.tbf}.
 */
final class LinkTrial {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(120);

    final LinkSpec spec;
    final boolean inNamespace;
    final LinkProbe.Measured measured;

    private LinkTrial(LinkSpec spec, boolean inNamespace, LinkProbe.Measured measured) {
        this.spec = spec;
        this.inNamespace = inNamespace;
        this.measured = measured;
    }

    static LinkTrial open(String link) throws IOException {
        LinkSpec spec = LinkSpec.parse(BenchmarkParam.LINK.key(), link);
        boolean inside = EmulatedLink.insideNamespace() != null;
        if (!spec.isNative() || inside) {
            if (!inside) {
                throw new IllegalStateException("link=" + link + " needs this fork inside a namespace the run made: "
                        + "run benchmarks.jar's own main (dev.sluice.jmh.SluiceBenchmarks), as root");
            }
            EmulatedLink.setInside(spec);
        }
        // A second of the rate (at least 16 MiB; 256 MiB on native loopback): many tbf buckets long.
        LinkProbe.Measured measured = LinkProbe.measure(LinkProbe.bytesFor(spec, 1.0), PROBE_TIMEOUT);
        System.out.printf(Locale.ROOT, "%nsluice link: %s%s; measured through it: %s%n", spec.describe(),
                inside ? " (in namespace " + EmulatedLink.insideNamespace() + ")" : "", measured);
        return new LinkTrial(spec, inside, measured);
    }

    List<Result> results() {
        return List.of(result(Metric.LINK_RATE_MBIT, spec.rateBits() / 1e6),
                result(Metric.LINK_MEASURED_MBIT, measured.bitsPerSecond() / 1e6),
                result(Metric.LINK_NETNS, inNamespace ? 1 : 0),
                result(Metric.LINK_TBF, spec.isNative() ? 0 : 1));
    }
}
