package io.nccldoctor.reports.chart;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * GPUDirect RDMA bandwidth for every GPU–NIC pair in one direction (perftest with GPU buffers), GPUs down, NICs
 * across. Each cell shows its value; a pair that failed is striped red and says "failed", one that was not run is grey,
 * so neither can pass for a slow pair. Read and write come as two charts: a NIC that writes GPU memory at line rate
 * but cannot read it (ACS redirecting peer reads through the root complex, a missing peer-memory client) is the
 * pattern to see.
 *
 * @param subject   what was measured, e.g. the host name; "" leaves the title to the direction
 * @param readings  one list per GPU, one reading per NIC
 * @param scaleMax  the Gbit/s the brightest colour stands for (the NIC's line rate); empty: the highest reading
 */
public record GpuNicHeatMap(String subject, Direction direction, List<String> gpus, List<String> nics,
                            List<List<Reading>> readings, OptionalDouble scaleMax) implements Chart {

    static final Grid.Fill FAILED = Grid.Fill.striped(Palette.FAILED_BASE, Palette.FAILED_STRIPE);
    static final Grid.Fill NOT_RUN = Grid.Fill.flat(Palette.NOT_MEASURED);

    public GpuNicHeatMap {
        gpus = List.copyOf(gpus);
        nics = List.copyOf(nics);
        readings = readings.stream().map(List::copyOf).toList();
        int perRow = nics.size();
        if (readings.size() != gpus.size() || readings.stream().anyMatch(r -> r.size() != perRow)) {
            throw new IllegalArgumentException(gpus.size() + " GPUs x " + nics.size() + " NICs need a reading per pair");
        }
        if (scaleMax.isPresent() && !(scaleMax.getAsDouble() > 0 && Double.isFinite(scaleMax.getAsDouble()))) {
            throw new IllegalArgumentException("scale maximum must be a positive number of Gbit/s, got " + scaleMax.getAsDouble());
        }
    }

    /** Scaled to the highest reading. */
    public static GpuNicHeatMap of(String subject, Direction direction, List<String> gpus, List<String> nics,
                                   List<List<Reading>> readings) {
        return new GpuNicHeatMap(subject, direction, gpus, nics, readings, OptionalDouble.empty());
    }

    /** This map with the colour scale running up to {@code gbits}, e.g. 400 for NDR. */
    public GpuNicHeatMap withScaleMax(double gbits) {
        return new GpuNicHeatMap(subject, direction, gpus, nics, readings, OptionalDouble.of(gbits));
    }

    /** Which way the data moves; perftest's ib_read_bw has the NIC read GPU memory, ib_write_bw write it. */
    public enum Direction {
        NIC_READS_GPU("NIC reads GPU memory"),
        NIC_WRITES_GPU("NIC writes GPU memory");

        private final String title;

        Direction(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    /** What one GPU–NIC pair gave. */
    public sealed interface Reading permits Measured, Failed, NotMeasured {
    }

    /** Bandwidth in Gbit/s. */
    public record Measured(double gbits) implements Reading {
        public Measured {
            if (!(gbits >= 0) || !Double.isFinite(gbits)) {
                throw new IllegalArgumentException("bandwidth must be a finite number of Gbit/s, at least 0, got " + gbits);
            }
        }
    }

    /** The run did not produce a number; {@code reason} goes into the SVG description. */
    public record Failed(String reason) implements Reading {
    }

    /** The pair was not run (skipped, or out of scope). */
    public record NotMeasured() implements Reading {
    }

    public String title() {
        String s = Text.line(subject, "");
        return (s.isEmpty() ? "" : s + ": ") + direction.title() + " (Gbit/s)";
    }

    @Override
    public byte[] render(Format format, int width, int height) {
        return Canvas.render(format, width, height, caption(), grid()::paint);
    }

    /** The top of the colour scale. */
    double top() {
        if (scaleMax.isPresent()) {
            return scaleMax.getAsDouble();
        }
        double max = readings.stream().flatMap(List::stream).filter(Measured.class::isInstance)
                .mapToDouble(r -> ((Measured) r).gbits()).max().orElse(0);
        return max > 0 ? max : 1;
    }

    Grid grid() {
        double top = top();
        List<List<Grid.Cell>> cells = new ArrayList<>();
        for (List<Reading> row : readings) {
            cells.add(row.stream().map(r -> cell(r, top)).toList());
        }
        List<Grid.Key> legend = List.of(
                new Grid.Ramp("Gbit/s", "0", number(top)),
                new Grid.Swatch(FAILED, "failed"),
                new Grid.Swatch(NOT_RUN, "not measured"));
        return new Grid(title(), gpus, nics, cells, legend);
    }

    static Grid.Cell cell(Reading r, double top) {
        if (r instanceof Measured m) {
            Color fill = Palette.ramp(m.gbits() / top);
            return new Grid.Cell(Grid.Fill.flat(fill), number(m.gbits()), Palette.inkOn(fill), false);
        }
        if (r instanceof Failed) {
            return new Grid.Cell(FAILED, "failed", Palette.FAILED_TEXT, true);
        }
        return new Grid.Cell(NOT_RUN, "not run", Palette.MUTED, false);
    }

    /** "97.4", or "385" from 100 up: the precision perftest reports is not more than that. */
    static String number(double gbits) {
        return String.format(Locale.ROOT, gbits >= 100 ? "%.0f" : "%.1f", gbits);
    }

    private Canvas.Caption caption() {
        StringBuilder d = new StringBuilder(direction.title() + ", Gbit/s; rows are GPUs, columns NICs.");
        for (int g = 0; g < gpus.size(); g++) {
            for (int n = 0; n < nics.size(); n++) {
                d.append('\n').append(gpus.get(g)).append(" / ").append(nics.get(n)).append(": ").append(describe(readings.get(g).get(n)));
            }
        }
        return new Canvas.Caption(title(), d.toString());
    }

    private static String describe(Reading r) {
        if (r instanceof Measured m) {
            return number(m.gbits());
        }
        if (r instanceof Failed f) {
            return "failed (" + f.reason() + ")";
        }
        return "not measured";
    }
}
