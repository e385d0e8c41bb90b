package io.nccldoctor.reports.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.List;
import java.util.Optional;

/**
 * A titled grid of labelled cells, each a fill and a short text, with a legend beside it: the GPU × NIC heat map and
 * the path matrix. Plain Java2D, so the same drawing becomes PNG pixels or SVG text. Layout depends only on the size
 * and font metrics, never on the target, so tests can ask where a cell lands.
 *
 * @param cells one list per row, as many cells as columns
 */
record Grid(String title, List<String> rows, List<String> columns, List<List<Cell>> cells, List<Key> legend) {

    static {
        Headless.ensure();
    }

    Grid {
        rows = List.copyOf(rows);
        columns = List.copyOf(columns);
        cells = cells.stream().map(List::copyOf).toList();
        legend = List.copyOf(legend);
        int perRow = columns.size();
        if (cells.size() != rows.size() || cells.stream().anyMatch(r -> r.size() != perRow)) {
            throw new IllegalArgumentException("a " + rows.size() + "x" + columns.size() + " grid needs that many cells");
        }
    }

    /** A flat colour, or diagonal stripes over a base for states that must not read as a value on the scale. */
    record Fill(Color base, Optional<Color> stripes) {
        static Fill flat(Color c) {
            return new Fill(c, Optional.empty());
        }

        static Fill striped(Color base, Color stripes) {
            return new Fill(base, Optional.of(stripes));
        }
    }

    record Cell(Fill fill, String text, Color ink, boolean bold) {
    }

    /** A legend entry. */
    sealed interface Key permits Swatch, Ramp {
    }

    record Swatch(Fill fill, String label) implements Key {
    }

    /** The {@link Palette#ramp} colour scale from {@code low} to {@code high}. */
    record Ramp(String caption, String low, String high) implements Key {
    }

    /** Where everything goes at one size. */
    record Layout(double pad, Font titleFont, Font labelFont, Font cellFont, Font legendFont, double gridX, double gridY,
                  double cellW, double cellH, double rowLabelW, boolean rotateColumns, double legendX, double legendW) {

        Rectangle2D cell(int row, int column) {
            return new Rectangle2D.Double(gridX + column * cellW, gridY + row * cellH, cellW, cellH);
        }
    }

    Layout layout(int width, int height) {
        float base = AxesStyle.fontSize(width, height);
        double pad = base;
        double gap = base * 0.6;
        Font titleFont = new Font(Font.SANS_SERIF, Font.BOLD, Math.round(base * 1.3f));
        Font labelFont = new Font(Font.SANS_SERIF, Font.PLAIN, Math.round(base * 0.92f));
        Font legendFont = new Font(Font.SANS_SERIF, Font.PLAIN, Math.round(base * 0.85f));
        double rowLabelW = Math.min(width * 0.25, rows.stream().mapToDouble(r -> Measure.width(label(r), labelFont)).max().orElse(0));
        double columnLabelW = columns.stream().mapToDouble(c -> Measure.width(label(c), labelFont)).max().orElse(0);
        double legendW = Math.min(width * 0.35, legendWidth(legendFont, base));
        double top = pad + Measure.lineHeight(titleFont) + gap;
        double availW = width - 2 * pad - rowLabelW - gap - (legend.isEmpty() ? 0 : 2 * gap + legendW);
        double cellW = Math.max(1, Math.min(availW / Math.max(1, columns.size()), base * 9));
        boolean rotate = columnLabelW > cellW - 4;
        double header = (rotate ? Math.min(columnLabelW, height * 0.3) : Measure.lineHeight(labelFont)) + gap;
        double availH = height - top - header - pad;
        double cellH = Math.max(1, Math.min(availH / Math.max(1, rows.size()), base * 4.5));
        // Keep cells from turning into long bars when there is width to spare.
        cellW = Math.min(cellW, Math.max(cellH * 2.5, base * 4));
        Font cellFont = cellFont(Math.min(base, cellH * 0.38), cellW - 8);
        double gridX = pad + rowLabelW + gap;
        double legendX = gridX + cellW * columns.size() + 2 * gap;
        return new Layout(pad, titleFont, labelFont, cellFont, legendFont, gridX, top + header, cellW, cellH, rowLabelW,
                rotate, legendX, legendW);
    }

    /** One size for every cell: the largest up to {@code size} at which the widest text fits, but not below 7. */
    private Font cellFont(double size, double room) {
        Font probe = new Font(Font.SANS_SERIF, Font.BOLD, 1).deriveFont(100f);
        double widest = cells.stream().flatMap(List::stream).mapToDouble(c -> Measure.width(label(c.text()), probe)).max().orElse(0);
        double fits = widest == 0 ? size : room / widest * 100;
        return new Font(Font.SANS_SERIF, Font.PLAIN, 1).deriveFont((float) Math.max(7, Math.min(size, fits)));
    }

    void paint(Graphics2D g, int width, int height) {
        Layout l = layout(width, height);
        g.setColor(Palette.TEXT);
        g.setFont(l.titleFont());
        String t = Measure.fit(label(title), l.titleFont(), width - 2 * l.pad());
        g.drawString(t, (float) ((width - Measure.width(t, l.titleFont())) / 2), (float) (l.pad() + Measure.ascent(l.titleFont())));
        for (int r = 0; r < rows.size(); r++) {
            for (int c = 0; c < columns.size(); c++) {
                paintCell(g, l.cell(r, c), cells.get(r).get(c), l.cellFont());
            }
        }
        paintRowLabels(g, l);
        paintColumnLabels(g, l);
        paintLegend(g, l);
    }

    private void paintCell(Graphics2D g, Rectangle2D area, Cell cell, Font font) {
        // A 1 px white seam on each side keeps neighbouring cells of similar colour apart.
        Rectangle2D box = new Rectangle2D.Double(area.getX() + 1, area.getY() + 1, area.getWidth() - 2, area.getHeight() - 2);
        paintFill(g, box, cell.fill());
        Font f = cell.bold() ? font.deriveFont(Font.BOLD) : font;
        String text = Measure.fit(label(cell.text()), f, box.getWidth() - 4);
        if (text.isEmpty()) {
            return;
        }
        double w = Measure.width(text, f);
        double x = box.getCenterX() - w / 2;
        double y = box.getCenterY() + (Measure.ascent(f) - Measure.descent(f)) / 2;
        if (cell.fill().stripes().isPresent()) {
            // Stripes behind text hurt legibility: a plate of the base colour under it.
            g.setColor(cell.fill().base());
            double m = f.getSize2D() * 0.25;
            g.fill(new Rectangle2D.Double(x - m, y - Measure.ascent(f) - m / 2, w + 2 * m, Measure.ascent(f) + Measure.descent(f) + m));
        }
        g.setColor(cell.ink());
        g.setFont(f);
        g.drawString(text, (float) x, (float) y);
    }

    static void paintFill(Graphics2D g, Rectangle2D box, Fill fill) {
        g.setColor(fill.base());
        g.fill(box);
        if (fill.stripes().isEmpty()) {
            return;
        }
        Shape clip = g.getClip();
        g.clip(box);
        g.setColor(fill.stripes().get());
        double step = Math.max(6, Math.min(box.getWidth(), box.getHeight()) / 5);
        g.setStroke(new BasicStroke((float) Math.max(1.5, step / 4)));
        for (double d = -box.getHeight(); d < box.getWidth(); d += step) {
            g.draw(new Line2D.Double(box.getX() + d, box.getMaxY(), box.getX() + d + box.getHeight(), box.getY()));
        }
        g.setClip(clip);
        g.setStroke(new BasicStroke(1f));
    }

    private void paintRowLabels(Graphics2D g, Layout l) {
        g.setFont(l.labelFont());
        g.setColor(Palette.TEXT);
        for (int r = 0; r < rows.size(); r++) {
            String s = Measure.fit(label(rows.get(r)), l.labelFont(), l.rowLabelW());
            Rectangle2D cell = l.cell(r, 0);
            double y = cell.getCenterY() + (Measure.ascent(l.labelFont()) - Measure.descent(l.labelFont())) / 2;
            g.drawString(s, (float) (l.gridX() - l.pad() * 0.6 - Measure.width(s, l.labelFont())), (float) y);
        }
    }

    private void paintColumnLabels(Graphics2D g, Layout l) {
        g.setFont(l.labelFont());
        g.setColor(Palette.TEXT);
        double bottom = l.gridY() - l.pad() * 0.6;
        for (int c = 0; c < columns.size(); c++) {
            Rectangle2D cell = l.cell(0, c);
            if (!l.rotateColumns()) {
                String s = Measure.fit(label(columns.get(c)), l.labelFont(), l.cellW() - 4);
                g.drawString(s, (float) (cell.getCenterX() - Measure.width(s, l.labelFont()) / 2), (float) (bottom - Measure.descent(l.labelFont())));
                continue;
            }
            String s = Measure.fit(label(columns.get(c)), l.labelFont(), bottom - l.pad() - Measure.lineHeight(l.titleFont()));
            AffineTransform before = g.getTransform();
            // Reads bottom to top, its baseline just right of the cell's centre line.
            g.translate(cell.getCenterX() + (Measure.ascent(l.labelFont()) - Measure.descent(l.labelFont())) / 2, bottom);
            g.rotate(-Math.PI / 2);
            g.drawString(s, 0f, 0f);
            g.setTransform(before);
        }
    }

    private void paintLegend(Graphics2D g, Layout l) {
        double y = l.gridY();
        double box = l.legendFont().getSize2D() * 1.4;
        for (Key key : legend) {
            g.setFont(l.legendFont());
            if (key instanceof Swatch s) {
                paintFill(g, new Rectangle2D.Double(l.legendX(), y, box, box), s.fill());
                g.setColor(Palette.MUTED);
                g.draw(new Rectangle2D.Double(l.legendX(), y, box, box));
                g.setColor(Palette.TEXT);
                String text = Measure.fit(label(s.label()), l.legendFont(), l.legendW() - box * 1.5);
                g.drawString(text, (float) (l.legendX() + box * 1.5), (float) (y + box / 2 + (Measure.ascent(l.legendFont()) - Measure.descent(l.legendFont())) / 2));
                y += box * 1.5;
            } else if (key instanceof Ramp r) {
                y = paintRamp(g, l, r, y, box);
            }
        }
    }

    private static double paintRamp(Graphics2D g, Layout l, Ramp r, double y, double box) {
        Font f = l.legendFont();
        g.setColor(Palette.TEXT);
        g.drawString(Measure.fit(label(r.caption()), f, l.legendW()), (float) l.legendX(), (float) (y + Measure.ascent(f)));
        y += Measure.lineHeight(f) + 4;
        // Narrow flat strips rather than a gradient paint, which SVG writers render unevenly.
        // Strips on whole pixels, so antialiasing leaves no seams between them.
        int steps = 48;
        double w = l.legendW();
        for (int i = 0; i < steps; i++) {
            long x0 = Math.round(l.legendX() + w * i / steps);
            long x1 = Math.round(l.legendX() + w * (i + 1) / steps);
            g.setColor(Palette.ramp(i / (steps - 1.0)));
            g.fill(new Rectangle2D.Double(x0, Math.round(y), x1 - x0, Math.round(box)));
        }
        y += box + 2;
        g.setColor(Palette.TEXT);
        g.drawString(r.low(), (float) l.legendX(), (float) (y + Measure.ascent(f)));
        g.drawString(r.high(), (float) (l.legendX() + w - Measure.width(r.high(), f)), (float) (y + Measure.ascent(f)));
        return y + Measure.lineHeight(f) * 1.8;
    }

    private double legendWidth(Font f, float base) {
        double w = 0;
        for (Key key : legend) {
            if (key instanceof Swatch s) {
                w = Math.max(w, f.getSize2D() * 1.4 * 1.5 + Measure.width(label(s.label()), f));
            } else if (key instanceof Ramp r) {
                w = Math.max(w, Math.max(Measure.width(label(r.caption()), f), Math.max(base * 10, Measure.width(r.low() + "  " + r.high(), f))));
            }
        }
        return w;
    }

    /** Host text as one line; an empty label stays empty (a cell may have no text). */
    static String label(String s) {
        return Text.line(s, "");
    }
}
