package dev.sluice.report;

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
     * value for a series are drawn as 0. A series gets whiskers only where each of its bars has a value and an error (NaN:
     * one measured run, no error): XChart draws a whisker at every bar of a series that has them, and one of zero
     * height would claim a precision nobody measured.
     */
    static void bars(Path png, String title, String yTitle, List<String> sizes, List<String> series,
                     double[][] values, double[][] errors) throws IOException {
        BitmapEncoder.saveBitmap(chart(title, yTitle, sizes, series, values, errors), png.toString(),
                BitmapEncoder.BitmapFormat.PNG);
    }

    /**
     * As {@link #bars}, for values that may be negative (improvements): the y axis runs from {@code min} to
     * {@code max} instead of from 0, and a whisker that passes them is cut at the chart's edge.
     */
    static void signedBars(Path png, String title, String yTitle, List<String> sizes, List<String> series,
                           double[][] values, double[][] errors, double min, double max) throws IOException {
        CategoryChart chart = chart(title, yTitle, sizes, series, values, errors);
        chart.getStyler().setYAxisMin(min);
        chart.getStyler().setYAxisMax(max);
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Whether series {@code s} is drawn with whiskers: every bar has a value and an error. */
    static boolean whiskers(double[][] values, double[][] errors, int s) {
        if (errors == null) {
            return false;
        }
        for (int i = 0; i < values[s].length; i++) {
            if (Double.isNaN(values[s][i]) || Double.isNaN(errors[s][i])) {
                return false;
            }
        }
        return true;
    }

    static CategoryChart chart(String title, String yTitle, List<String> sizes, List<String> series,
                               double[][] values, double[][] errors) {
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
                double err = errors == null ? Double.NaN : errors[s][i];
                e.add(Double.isNaN(err) ? 0.0 : err);
            }
            if (whiskers(values, errors, s)) {
                chart.addSeries(series.get(s), sizes, y, e);
            } else {
                chart.addSeries(series.get(s), sizes, y);
            }
        }
        return chart;
    }
}
