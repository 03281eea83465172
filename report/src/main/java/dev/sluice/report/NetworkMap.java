package dev.sluice.report;

import dev.sluice.core.run.BenchmarkName;
import dev.sluice.core.run.Metric;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The link map of the network boundary (docs/network.md): {@code PairedBoundaryBenchmark} results over link rates,
 * batch shapes and codecs, read back into one row per configuration ({@link LinkMapPoint}): each mode's map outputs
 * dealt by their {@code pair.mode}, paired by {@code pair.round}, and coalesce's time over native's as a
 * {@link PairedRatio} with its 99% interval; the counters that explain it per mode (bytes copied, frames, write calls,
 * time waiting on the link, bytes on the wire); and per shape and codec the rate where the winner flips, or that none
 * was found in the range. Writes {@code map.md} and a chart per shape ({@code map-SHAPE.png}).
 */
final class NetworkMap {
    static final String BENCHMARK = BenchmarkName.PAIRED_BOUNDARY.simpleName();

    private NetworkMap() {}

    static String verdict(LinkMapPoint p) {
        if (p.ratio == null) {
            return "no pairs";
        }
        if (!p.ratio.hasInterval()) {
            return "one pair: no verdict";
        }
        String other = p.modes.get(1);
        String base = p.modes.get(0);
        if (p.ratio.slower()) {
            return base + " faster";
        }
        if (p.ratio.faster()) {
            return other + " faster";
        }
        return "no difference at 99%";
    }

    /**
     * What the results say of verification: each fork's {@code net.rowsVerified} (the rows its receiver read back and
     * checked against the input) counted, and any fork that verified none named, rather than a claim made for them.
     */
    static String verified(List<LinkMapPoint> points) {
        List<String> unverified = new ArrayList<>();
        for (LinkMapPoint p : points) {
            if (p.rows <= 0) {
                unverified.add(p.codec + " over " + p.link);
            }
        }
        return unverified.isEmpty()
                ? "In every fork the receiver read each map output back and verified it against the input (the rows "
                        + "column: `net.rowsVerified`, rows verified per map output)."
                : "No rows verified (`net.rowsVerified`) in " + unverified.size() + " of " + points.size() + " forks: "
                        + String.join(", ", unverified) + ".";
    }

    private static double mean(Map<Integer, Double> times) {
        return times.values().stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** Writes map.md and the charts into {@code out}; returns map.md. */
    static Path write(List<Path> jsons, Path out) throws IOException {
        List<LinkMapPoint> points = LinkMapPoint.read(jsons);
        if (points.isEmpty()) {
            throw new IOException("no " + BENCHMARK + " results in " + jsons);
        }
        Files.createDirectories(out);
        StringBuilder md = new StringBuilder();
        md.append("# The network boundary over links of set bandwidth\n\n");
        md.append("Made by `ReportTools net-map` from ").append(jsons.size())
                .append(" JMH result file(s). Each row is ")
                .append("one fork in which the modes took turns map output by map output; the ratio is the second ")
                .append("mode's time over the first's, pair by pair (the two map outputs of one round), as a ")
                .append("geometric mean with its 99% interval (Student's t on the log ratios). A ratio above 1: the ")
                .append("first mode is faster. ").append(verified(points)).append("\n\n");
        Map<String, List<LinkMapPoint>> byShape = new LinkedHashMap<>();
        for (LinkMapPoint p : points) {
            byShape.computeIfAbsent(p.shape(), k -> new ArrayList<>()).add(p);
        }
        int chart = 0;
        for (Map.Entry<String, List<LinkMapPoint>> shape : byShape.entrySet()) {
            List<LinkMapPoint> rows = shape.getValue();
            String m0 = rows.get(0).modes.get(0);
            String m1 = rows.get(0).modes.get(1);
            md.append("## Input batches of ").append(shape.getKey()).append("\n\n");
            md.append("| codec | link | set Mbit/s | measured Mbit/s | rows | pairs | ").append(m0).append(" ms | ")
                    .append(m1).append(" ms | ").append(m1).append(" / ").append(m0)
                    .append(" [99% interval] | verdict |\n|---|---|---|---|---|---|---|---|---|---|\n");
            for (LinkMapPoint p : rows) {
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f | %,d | %d | %.1f | %.1f | %s | %s |%n",
                        p.codec, p.link, p.rateMbit == 0 ? "-" : String.format(Locale.ROOT, "%.0f", p.rateMbit),
                        p.measuredMbit, p.rows, p.ratio == null ? 0 : p.ratio.pairs(), mean(p.times.get(0)),
                        mean(p.times.get(1)), ratio(p.ratio), verdict(p)));
            }
            md.append("\nWhat each mode did per map output (means over its measured map outputs): bytes the sender ")
                    .append("copied (coalescing plus serializing), frames, batches the receiver got, write-family ")
                    .append("system calls of the process, time the sending thread waited on the connection, bytes on ")
                    .append("the wire, the reduce side's read.\n\n");
            md.append("| codec | link | mode | MB copied | frames | batches | write calls | waiting on the link ms | "
                    + "wire MB | read ms |\n|---|---|---|---|---|---|---|---|---|---|\n");
            for (LinkMapPoint p : rows) {
                for (Map.Entry<Integer, Map<Metric, Double>> e : p.counters.entrySet()) {
                    Map<Metric, Double> c = e.getValue();
                    md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f | %.0f | %.0f | %.0f | %.1f | %.1f | "
                                    + "%.1f |%n", p.codec, p.link, p.modes.get(e.getKey()),
                            c.getOrDefault(Metric.NET_BYTES_COPIED, Double.NaN) / 1e6,
                            c.getOrDefault(Metric.NET_MESSAGES, Double.NaN), c.getOrDefault(Metric.NET_BATCHES_RECEIVED,
                                    Double.NaN), c.getOrDefault(Metric.NET_PROC_SYSCW, Double.NaN),
                            c.getOrDefault(Metric.NET_LINK_WAIT_MILLIS, Double.NaN),
                            c.getOrDefault(Metric.NET_WIRE_BYTES, Double.NaN) / 1e6,
                            c.getOrDefault(Metric.QUERY_READ_MILLIS, Double.NaN)));
                }
            }
            md.append("\n### Where the winner flips\n\n");
            Map<String, List<LinkMapPoint>> byCodec = new LinkedHashMap<>();
            for (LinkMapPoint p : rows) {
                byCodec.computeIfAbsent(p.codec, k -> new ArrayList<>()).add(p);
            }
            for (Map.Entry<String, List<LinkMapPoint>> codec : byCodec.entrySet()) {
                md.append("- codec ").append(codec.getKey()).append(": ").append(flip(codec.getValue())).append('\n');
            }
            String file = "map-" + (++chart) + ".png";
            chart(out.resolve(file), "Input batches of " + shape.getKey() + ": " + m1 + " / " + m0, byCodec);
            md.append("\n![").append(m1).append(" over ").append(m0).append(", ").append(shape.getKey()).append("](")
                    .append(file).append(")\n\n");
        }
        Path map = out.resolve("map.md");
        Files.writeString(map, md.toString(), StandardCharsets.UTF_8);
        return map;
    }

    static String ratio(PairedRatio r) {
        if (r == null) {
            return "-";
        }
        return r.hasInterval() ? String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", r.ratio, r.low, r.high)
                : String.format(Locale.ROOT, "%.3f (one pair: no interval)", r.ratio);
    }

    /**
     * The flip, in order of measured link rate: between two neighbouring rates whose verdicts are opposite (each
     * interval wholly on its side of 1), the rate where the log ratio, straight between them in log rate, is 0.
     */
    static String flip(List<LinkMapPoint> points) {
        List<LinkMapPoint> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingDouble(p -> p.measuredMbit));
        List<String> flips = new ArrayList<>();
        for (int i = 0; i + 1 < sorted.size(); i++) {
            LinkMapPoint a = sorted.get(i);
            LinkMapPoint b = sorted.get(i + 1);
            if (a.ratio == null || b.ratio == null) {
                continue;
            }
            boolean opposite = (a.ratio.slower() && b.ratio.faster()) || (a.ratio.faster() && b.ratio.slower());
            boolean crosses = (a.ratio.ratio - 1) * (b.ratio.ratio - 1) < 0;
            if (crosses) {
                double la = Math.log(a.measuredMbit);
                double lb = Math.log(b.measuredMbit);
                double ra = Math.log(a.ratio.ratio);
                double rb = Math.log(b.ratio.ratio);
                double at = Math.exp(la + (lb - la) * ra / (ra - rb));
                flips.add(String.format(Locale.ROOT, "%s between %.0f Mbit/s (%s: %s) and %.0f Mbit/s (%s: %s); "
                                + "straight in log rate, the ratio is 1 at about %.0f Mbit/s",
                        opposite ? "flips" : "the mean ratio crosses 1, but not both intervals (no flip at 99%)",
                        a.measuredMbit, a.link, ratio(a.ratio), b.measuredMbit, b.link, ratio(b.ratio), at));
            }
        }
        if (flips.isEmpty()) {
            List<String> verdicts = new ArrayList<>();
            for (LinkMapPoint p : sorted) {
                verdicts.add(String.format(Locale.ROOT, "%s at %.0f Mbit/s", verdict(p), p.measuredMbit));
            }
            return "no flip found from " + String.format(Locale.ROOT, "%.0f to %.0f Mbit/s",
                    sorted.get(0).measuredMbit, sorted.get(sorted.size() - 1).measuredMbit) + ": "
                    + String.join(", ", verdicts);
        }
        return String.join("; ", flips);
    }

    private static void chart(Path png, String title, Map<String, List<LinkMapPoint>> byCodec) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(500).title(title)
                .xAxisTitle("link throughput measured through it, Mbit/s (log)").yAxisTitle("time ratio").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        double minX = Double.MAX_VALUE;
        double maxX = 0;
        for (Map.Entry<String, List<LinkMapPoint>> codec : byCodec.entrySet()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> lo = new ArrayList<>();
            List<Double> hi = new ArrayList<>();
            List<LinkMapPoint> sorted = new ArrayList<>(codec.getValue());
            sorted.sort(Comparator.comparingDouble(p -> p.measuredMbit));
            for (LinkMapPoint p : sorted) {
                if (p.ratio == null) {
                    continue;
                }
                x.add(p.measuredMbit);
                y.add(p.ratio.ratio);
                lo.add(p.ratio.hasInterval() ? p.ratio.low : p.ratio.ratio);
                hi.add(p.ratio.hasInterval() ? p.ratio.high : p.ratio.ratio);
                minX = Math.min(minX, p.measuredMbit);
                maxX = Math.max(maxX, p.measuredMbit);
            }
            if (x.isEmpty()) {
                continue;
            }
            chart.addSeries("codec " + codec.getKey(), x, y).setMarker(SeriesMarkers.CIRCLE);
            XYSeries low = chart.addSeries("codec " + codec.getKey() + " 99% low", x, lo);
            low.setMarker(SeriesMarkers.NONE);
            low.setLineStyle(new java.awt.BasicStroke(1f, java.awt.BasicStroke.CAP_BUTT,
                    java.awt.BasicStroke.JOIN_MITER, 10f, new float[] {4f, 4f}, 0f));
            XYSeries high = chart.addSeries("codec " + codec.getKey() + " 99% high", x, hi);
            high.setMarker(SeriesMarkers.NONE);
            high.setLineStyle(low.getLineStyle());
        }
        if (maxX > 0) {
            XYSeries one = chart.addSeries("1 (no difference)", List.of(minX, maxX), List.of(1.0, 1.0));
            one.setMarker(SeriesMarkers.NONE);
            one.setLineColor(java.awt.Color.GRAY);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
