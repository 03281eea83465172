package dev.sluice.jmh.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** The report's charts, drawn by XChart: grouped bars per data size, one series per strategy. */
final class Charts {
    static final int WIDTH = 900;
    static final int HEIGHT = 500;

    private Charts() {}

    /**
     * A bar per size and series; {@code errors} (whiskers of plus and minus that much) may be null. Sizes with no
     * value for a series are drawn as 0.
     */
    static void bars(Path png, String title, String yTitle, List<String> sizes, List<String> series,
                     double[][] values, double[][] errors) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("data size per map task").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        // Times and counts are never negative; a wide error interval is cut at 0 rather than drawn below it.
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        chart.getStyler().setAvailableSpaceFill(0.8);
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        for (int s = 0; s < series.size(); s++) {
            List<Double> y = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            for (int i = 0; i < sizes.size(); i++) {
                double v = values[s][i];
                y.add(Double.isNaN(v) ? 0.0 : v);
                double err = errors == null ? 0 : errors[s][i];
                e.add(Double.isNaN(err) ? 0.0 : err);
            }
            if (errors == null) {
                chart.addSeries(series.get(s), sizes, y);
            } else {
                chart.addSeries(series.get(s), sizes, y, e);
            }
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
