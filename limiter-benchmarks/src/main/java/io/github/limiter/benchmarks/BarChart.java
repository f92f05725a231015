package io.github.limiter.benchmarks;

import java.util.List;
import java.util.Locale;

/**
 * Draws one figure per benchmark (decisions per second, CPU per decision) as horizontal bars, one
 * panel per workload, as SVG: plain text, so drawing needs no fonts or graphics libraries.
 */
final class BarChart {

    private static final int PANEL_WIDTH = 520;

    private static final int LABEL = 250;

    private static final int BAR_HEIGHT = 18;

    private static final int GAP = 6;

    private BarChart() {
    }

    /** A bar: its label, its value and whether it is the floor every other bar is compared with. */
    record Bar(String label, double value, boolean floor) {
    }

    /**
     * Draws the chart.
     * @param title the chart's title
     * @param valueFormat how a bar's value is written next to it, such as {@code "%,.0f/s"}
     * @param panelTitles the title of each panel
     * @param panels the bars of each panel, top to bottom
     */
    static String draw(String title, String valueFormat, List<String> panelTitles, List<List<Bar>> panels) {
        int rows = panels.stream().mapToInt(List::size).max().orElse(0);
        int height = 70 + rows * (BAR_HEIGHT + GAP) + 30;
        int width = panels.size() * (LABEL + PANEL_WIDTH) + 40;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
                width, height));
        svg.append(text(20, 25, title, 15, "start"));
        for (int p = 0; p < panels.size(); p++) {
            int left = 20 + p * (LABEL + PANEL_WIDTH);
            List<Bar> bars = panels.get(p);
            double max = bars.stream().mapToDouble(Bar::value).max().orElse(1);
            svg.append(text(left, 52, panelTitles.get(p), 13, "start"));
            for (int i = 0; i < bars.size(); i++) {
                Bar bar = bars.get(i);
                int y = 65 + i * (BAR_HEIGHT + GAP);
                double length = (PANEL_WIDTH - 120) * bar.value() / max;
                svg.append(text(left + LABEL - 8, y + 13, bar.label(), 12, "end"));
                svg.append(String.format(Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n", left + LABEL, y,
                        Math.max(length, 1), BAR_HEIGHT, bar.floor() ? "#999999" : "#1f77b4"));
                svg.append(text((int) (left + LABEL + Math.max(length, 1) + 6), y + 13,
                        String.format(Locale.ROOT, valueFormat, bar.value()), 11, "start"));
            }
        }
        return svg.append("</svg>\n").toString();
    }

    private static String text(int x, int y, String text, int size, String anchor) {
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"%s\">%s</text>%n", x,
                y, size, anchor, text);
    }

}
