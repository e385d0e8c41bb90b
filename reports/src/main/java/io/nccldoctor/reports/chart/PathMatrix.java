package io.nccldoctor.reports.chart;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The path-type matrix of {@code nvidia-smi topo -m}: GPUs and NICs down and across, each cell the connection type
 * between the two, coloured from near (green) to far (red), with a legend of the types that occur. A GPU whose
 * nearest NIC is PHB or SYS, where its neighbours have PIX, stands out as the one warm cell in its row.
 *
 * @param cells one list per row, one string per column, as nvidia-smi prints them ("X", "NV12", "PIX", "SYS" …)
 */
public record PathMatrix(String title, List<String> rows, List<String> columns, List<List<String>> cells) implements Chart {

    public PathMatrix {
        rows = List.copyOf(rows);
        columns = List.copyOf(columns);
        cells = cells.stream().map(List::copyOf).toList();
        int perRow = columns.size();
        if (cells.size() != rows.size() || cells.stream().anyMatch(r -> r.size() != perRow)) {
            throw new IllegalArgumentException(rows.size() + " rows x " + columns.size() + " columns need a cell each");
        }
    }

    /** A square matrix, the same devices down and across, as nvidia-smi prints it. */
    public static PathMatrix square(String title, List<String> devices, List<List<String>> cells) {
        return new PathMatrix(title, devices, devices, cells);
    }

    @Override
    public byte[] render(Format format, int width, int height) {
        return Canvas.render(format, width, height, caption(), grid()::paint);
    }

    /** The path types present, nearest first. */
    Set<PathType> present() {
        Set<PathType> types = EnumSet.noneOf(PathType.class);
        cells.forEach(row -> row.forEach(c -> types.add(PathType.of(c))));
        return types;
    }

    Grid grid() {
        List<List<Grid.Cell>> grid = new ArrayList<>();
        for (List<String> row : cells) {
            grid.add(row.stream().map(PathMatrix::cell).toList());
        }
        List<Grid.Key> legend = present().stream()
                .<Grid.Key>map(t -> new Grid.Swatch(Grid.Fill.flat(t.colour()), t.code() + ": " + t.meaning()))
                .toList();
        return new Grid(Text.line(title, "GPU and NIC path types"), rows, columns, grid, legend);
    }

    static Grid.Cell cell(String text) {
        PathType t = PathType.of(text);
        return new Grid.Cell(Grid.Fill.flat(t.colour()), text.strip(), Palette.inkOn(t.colour()), t != PathType.SELF);
    }

    private Canvas.Caption caption() {
        StringBuilder d = new StringBuilder("Connection types between devices, as nvidia-smi topo -m prints them.");
        for (int r = 0; r < rows.size(); r++) {
            d.append('\n').append(rows.get(r)).append(": ");
            for (int c = 0; c < columns.size(); c++) {
                d.append(c == 0 ? "" : ", ").append(columns.get(c)).append(' ').append(cells.get(r).get(c));
            }
        }
        return new Canvas.Caption(Text.line(title, "GPU and NIC path types"), d.toString());
    }
}
