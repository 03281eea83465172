package dev.sluice.report;

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
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One size's chart of {@link AxisMap}: each strategy's mapper stage (its waves' mean, with JMH's error as whiskers)
 * against the axis, both logarithmic (partitions span 16 to 20,000, times an order of magnitude). An unlimited memory
 * limit is drawn at twice the largest limit.
 */
final class AxisChart {
    private AxisChart() {}

    static void write(Path png, String title, AxisMap.Axis axis, Map<String, Map<String, JmhResults.Row>> points,
                      List<String> strategies) throws IOException {
        double largest = 0;
        for (String point : points.keySet()) {
            double x = axis.position(point);
            if (x < Double.MAX_VALUE) {
                largest = Math.max(largest, x);
            }
        }
        boolean bytes = axis == AxisMap.Axis.MEMORY;
        XYChart chart = new XYChartBuilder().width(900).height(500).title(title)
                .xAxisTitle(bytes ? "memory limit (MiB; unlimited drawn at twice the largest)" : axis.words)
                .yAxisTitle("mapper stage (ms)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        chart.getStyler().setXAxisDecimalPattern("#,##0");
        Color[] colors = chart.getStyler().getSeriesColors();
        for (int s = 0; s < strategies.size(); s++) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> whiskers = new ArrayList<>();
            for (Map.Entry<String, Map<String, JmhResults.Row>> point : points.entrySet()) {
                JmhResults.Row row = point.getValue().get(strategies.get(s));
                if (row == null) {
                    continue;
                }
                double position = axis.position(point.getKey());
                position = position == Double.MAX_VALUE ? 2 * Math.max(largest, 1) : position;
                x.add(bytes ? position / (1 << 20) : position);
                y.add(row.score);
                // Whiskers on a logarithmic axis must stay above zero.
                whiskers.add(Double.isFinite(row.error) ? Math.min(row.error, 0.9 * row.score) : 0.0);
            }
            if (!x.isEmpty()) {
                XYSeries series = chart.addSeries(strategies.get(s), x, y, whiskers);
                Color color = colors[s % colors.length];
                series.setLineColor(color);
                series.setMarkerColor(color);
                series.setMarker(SeriesMarkers.CIRCLE);
            }
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
