package io.github.limiter.charts;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.limiter.Algorithm;
import io.github.limiter.charts.BurstTrace.Call;

/**
 * Draws cumulative allowed calls over time, one line per algorithm, as SVG: plain text, so drawing
 * needs no fonts or graphics libraries on the machine.
 */
final class SvgChart {

    private static final int WIDTH = 1000;

    private static final int HEIGHT = 520;

    private static final int LEFT = 70;

    private static final int RIGHT = 330;

    private static final int TOP = 50;

    private static final int BOTTOM = 60;

    private static final Map<Algorithm, String> COLOURS = Map.of(Algorithm.FIXED_WINDOW, "#d62728",
            Algorithm.SLIDING_LOG, "#1f77b4", Algorithm.SLIDING_WINDOW, "#2ca02c", Algorithm.TOKEN_BUCKET,
            "#9467bd");

    private final StringBuilder svg = new StringBuilder();

    private final int yMax;

    private SvgChart(int yMax) {
        this.yMax = yMax;
    }

    static String draw(List<Long> requests, Map<Algorithm, List<Call>> results) {
        SvgChart chart = new SvgChart(roundUp(requests.size()));
        chart.frame();
        chart.steps(requests.stream().map(at -> new Call(at, true)).toList(), "#999999", "6 4");
        int row = 0;
        chart.legend(row++, "#999999", "6 4", "requests (" + requests.size() + ")");
        for (Algorithm algorithm : Algorithm.values()) {
            List<Call> calls = results.get(algorithm);
            chart.steps(calls, COLOURS.get(algorithm), null);
            long allowed = calls.stream().filter(Call::allowed).count();
            chart.legend(row++, COLOURS.get(algorithm), null, name(algorithm) + ": " + allowed + " allowed, at most "
                    + BurstTrace.mostInAnyWindow(calls) + " in 1 s");
        }
        return chart.svg.append("</svg>\n").toString();
    }

    private void frame() {
        this.svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
            .append(HEIGHT).append("\" font-family=\"sans-serif\" font-size=\"13\">\n")
            .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        text(LEFT, 28, "Allowed calls over time, same burst trace, max " + BurstTrace.MAX + " per "
                + BurstTrace.WINDOW.toSeconds() + " s (real run against Redis)", "start", 15);
        for (long t = 0; t <= BurstTrace.LENGTH_MS; t += 500) {
            double x = x(t);
            line(x, TOP, x, HEIGHT - BOTTOM, "#eeeeee");
            text(x, HEIGHT - BOTTOM + 18, String.format(Locale.ROOT, "%.1f s", t / 1000.0), "middle", 12);
        }
        for (int count = 0; count <= this.yMax; count += 10) {
            double y = y(count);
            line(LEFT, y, WIDTH - RIGHT, y, "#eeeeee");
            text(LEFT - 8, y + 4, Integer.toString(count), "end", 12);
        }
        line(x(1000), TOP, x(1000), HEIGHT - BOTTOM, "#bbbbbb");
        text(x(1000) + 4, TOP + 14, "window edge", "start", 11);
        line(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM, "#333333");
        line(LEFT, TOP, LEFT, HEIGHT - BOTTOM, "#333333");
        text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 15, "time since the first request", "middle", 12);
        this.svg.append("<text transform=\"translate(18,").append((TOP + HEIGHT - BOTTOM) / 2)
            .append(") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">cumulative calls</text>\n");
    }

    private void steps(List<Call> calls, String colour, String dash) {
        StringBuilder points = new StringBuilder();
        int count = 0;
        points.append(fmt(x(0))).append(',').append(fmt(y(0)));
        for (Call call : calls) {
            if (!call.allowed()) {
                continue;
            }
            double x = x(Math.min(call.atMs(), BurstTrace.LENGTH_MS));
            points.append(' ').append(fmt(x)).append(',').append(fmt(y(count)));
            count++;
            points.append(' ').append(fmt(x)).append(',').append(fmt(y(count)));
        }
        points.append(' ').append(fmt(x(BurstTrace.LENGTH_MS))).append(',').append(fmt(y(count)));
        this.svg.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\"");
        if (dash != null) {
            this.svg.append(" stroke-dasharray=\"").append(dash).append('"');
        }
        this.svg.append(" points=\"").append(points).append("\"/>\n");
    }

    private void legend(int row, String colour, String dash, String label) {
        double y = TOP + 20 + row * 24;
        double x = WIDTH - RIGHT + 15;
        this.svg.append("<line x1=\"").append(fmt(x)).append("\" y1=\"").append(fmt(y)).append("\" x2=\"")
            .append(fmt(x + 24)).append("\" y2=\"").append(fmt(y)).append("\" stroke=\"").append(colour)
            .append("\" stroke-width=\"2\"").append((dash != null) ? " stroke-dasharray=\"" + dash + "\"" : "")
            .append("/>\n");
        text(x + 30, y + 4, label, "start", 11);
    }

    private void line(double x1, double y1, double x2, double y2, String colour) {
        this.svg.append("<line x1=\"").append(fmt(x1)).append("\" y1=\"").append(fmt(y1)).append("\" x2=\"")
            .append(fmt(x2)).append("\" y2=\"").append(fmt(y2)).append("\" stroke=\"").append(colour)
            .append("\"/>\n");
    }

    private void text(double x, double y, String text, String anchor, int size) {
        this.svg.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" text-anchor=\"")
            .append(anchor).append("\" font-size=\"").append(size).append("\">").append(text).append("</text>\n");
    }

    private double x(long ms) {
        return LEFT + (WIDTH - LEFT - RIGHT) * ms / (double) BurstTrace.LENGTH_MS;
    }

    private double y(int count) {
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * count / (double) this.yMax;
    }

    private static String name(Algorithm algorithm) {
        return algorithm.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static int roundUp(int count) {
        return ((count + 9) / 10) * 10;
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

}
