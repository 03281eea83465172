package dev.sluice.report;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.run.BenchmarkParam;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The crossover map's chart of one balance ({@link BalanceMap}): measured improvements and the fluid model's. */
final class BalanceChart {
    private BalanceChart() {}

    /**
     * One balance's chart: each strategy's measured improvement against the size (its 99% interval as whiskers, cut
     * at the chart's edge where a few noisy pairs make it wider than the chart) and the fluid model's as a dashed line
     * of the same colour.
     */
    static void write(Path png, String title, String baseline, List<String> sizes, List<String> strategies,
                              Map<String, BalanceMap.Cell[]> cells) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(500).title(title)
                .xAxisTitle("input per map task at full scale (GB)")
                .yAxisTitle("improvement over " + baseline + " (%)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        chart.getStyler().setXAxisDecimalPattern("0.0");
        double low = 0;
        double high = 0;
        for (BalanceMap.Cell[] row : cells.values()) {
            for (BalanceMap.Cell cell : row) {
                if (cell != null) {
                    low = Math.min(low, finite(100 * cell.improvement, low));
                    high = Math.max(high, Math.max(finite(100 * cell.improvement, high), finite(100 * cell.model,
                            high)));
                }
            }
        }
        // Room for the intervals of points near the edge; wider intervals are cut there.
        double margin = Math.max(25, (high - low) / 2);
        double top = high + margin;
        double bottom = low - margin;
        chart.getStyler().setYAxisMax(top);
        chart.getStyler().setYAxisMin(bottom);
        Color[] colors = chart.getStyler().getSeriesColors();
        for (int s = 0; s < strategies.size(); s++) {
            Color color = colors[s % colors.length];
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> whiskers = new ArrayList<>();
            List<Double> modelX = new ArrayList<>();
            List<Double> model = new ArrayList<>();
            BalanceMap.Cell[] row = cells.get(strategies.get(s));
            for (int i = 0; i < sizes.size(); i++) {
                BalanceMap.Cell cell = row[i];
                double gb = DataSize.parse(BenchmarkParam.SIZE.key(), sizes.get(i)).bytes() / 1e9;
                if (cell == null) {
                    continue;
                }
                double v = 100 * cell.improvement;
                x.add(gb);
                y.add(v);
                // XChart's whiskers are symmetric: the larger side of the interval, so none is understated, cut at
                // the chart's edge.
                double half = Math.max(Math.abs(100 * cell.high - v), Math.abs(v - 100 * cell.low));
                whiskers.add(Double.isFinite(half) ? Math.min(half, top - bottom) : 0.0);
                if (!Double.isNaN(cell.model)) {
                    modelX.add(gb);
                    model.add(100 * cell.model);
                }
            }
            if (!x.isEmpty()) {
                XYSeries measured = chart.addSeries(strategies.get(s), x, y, whiskers);
                measured.setLineColor(color);
                measured.setMarkerColor(color);
                measured.setMarker(SeriesMarkers.CIRCLE);
            }
            if (!model.isEmpty()) {
                XYSeries line = chart.addSeries(strategies.get(s) + ", fluid model", modelX, model);
                line.setLineColor(color);
                line.setLineStyle(SeriesLines.DASH_DASH);
                line.setMarker(SeriesMarkers.NONE);
            }
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static double finite(double value, double otherwise) {
        return Double.isFinite(value) ? value : otherwise;
    }
}
