package io.nccldoctor.reports.chart;

import io.nccldoctor.reports.chart.GpuNicHeatMap.Direction;
import io.nccldoctor.reports.chart.GpuNicHeatMap.Failed;
import io.nccldoctor.reports.chart.GpuNicHeatMap.Measured;
import io.nccldoctor.reports.chart.GpuNicHeatMap.NotMeasured;
import io.nccldoctor.reports.chart.GpuNicHeatMap.Reading;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;

/** Realistic inputs for every chart type, with one host-supplied name that a test can set, and decoders. */
final class Samples {

    private Samples() {
    }

    /** all_reduce on 16 H100s: a ramp to 360 GB/s with a dip at 128–512 KiB, and all_gather below it. */
    static SizeSweep sweep(String seriesName) {
        List<SizeSweep.Point> ar = new ArrayList<>();
        List<SizeSweep.Point> ag = new ArrayList<>();
        for (int k = 3; k <= 33; k++) {
            long b = 1L << k;
            double bw = 360 * (1 - Math.exp(-(double) b / (1 << 22)));
            ar.add(new SizeSweep.Point(b, k >= 17 && k <= 19 ? bw * 0.45 : bw));
            ag.add(new SizeSweep.Point(b, 288 * (1 - Math.exp(-(double) b / (1 << 24)))));
        }
        return new SizeSweep("gpu-node-07: all_reduce_perf, 2 nodes x 8 H100", "bus bandwidth (GB/s)",
                List.of(new SizeSweep.Series(seriesName, ar), new SizeSweep.Series("all_gather", ag)),
                List.of(new SizeSweep.Ceiling("NVLink 4 per GPU", 450), new SizeSweep.Ceiling("4x NDR 400G", 200)),
                List.of(new SizeSweep.Region(128 << 10, 512 << 10, "dip: LL128 to Simple switch")));
    }

    /** Aligned against unaligned buffers: the same sweep, one variant 30% lower from 64 KiB on. */
    static SizeSweep aligned() {
        List<SizeSweep.Point> a = new ArrayList<>();
        List<SizeSweep.Point> u = new ArrayList<>();
        for (int k = 10; k <= 30; k++) {
            long b = 1L << k;
            double bw = 48 * (1 - Math.exp(-(double) b / (1 << 20)));
            a.add(new SizeSweep.Point(b, bw));
            u.add(new SizeSweep.Point(b + 4, k >= 16 ? bw * 0.7 : bw));
        }
        return new SizeSweep("gpu-node-07: sendrecv_perf GPU0 -> GPU1 over PCIe", "bus bandwidth (GB/s)",
                List.of(new SizeSweep.Series("aligned", a), new SizeSweep.Series("unaligned (+4 B)", u)),
                List.of(new SizeSweep.Ceiling("PCIe Gen5 x16", 63)), List.of());
    }

    /**
     * Eight GPUs by eight NICs: 390 Gbit/s on the local pair, 310 in the same half, 150 across; GPU5 reads at 8% (the
     * ACS pattern), GPU3/mlx5_3 failed, GPU6/mlx5_1 was not run.
     */
    static GpuNicHeatMap heatMap(String gpu0Name, Direction direction) {
        List<String> gpus = new ArrayList<>();
        List<String> nics = new ArrayList<>();
        List<List<Reading>> readings = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            gpus.add(g == 0 ? gpu0Name : "GPU" + g);
            nics.add("mlx5_" + g);
            List<Reading> row = new ArrayList<>();
            for (int n = 0; n < 8; n++) {
                double local = g == n ? 392.4 : g / 4 == n / 4 ? 310.5 : 148.2;
                if (g == 3 && n == 3) {
                    row.add(new Failed("ib_read_bw: timed out after 30 s"));
                } else if (g == 6 && n == 1) {
                    row.add(new NotMeasured());
                } else {
                    row.add(new Measured(g == 5 && direction == Direction.NIC_READS_GPU ? local * 0.08 : local));
                }
            }
            readings.add(row);
        }
        return GpuNicHeatMap.of("gpu-node-07", direction, gpus, nics, readings).withScaleMax(400);
    }

    /** A DGX-like box cut down: 8 GPUs on NVLink, 4 NICs, one GPU whose NIC sits behind the host bridge. */
    static PathMatrix paths(String nic0Name) {
        List<String> devices = new ArrayList<>(List.of("GPU0", "GPU1", "GPU2", "GPU3", "GPU4", "GPU5", "GPU6", "GPU7"));
        devices.addAll(List.of(nic0Name, "mlx5_1", "mlx5_2", "mlx5_3"));
        List<List<String>> cells = new ArrayList<>();
        for (int r = 0; r < devices.size(); r++) {
            List<String> row = new ArrayList<>();
            for (int c = 0; c < devices.size(); c++) {
                row.add(path(r, c));
            }
            cells.add(row);
        }
        return PathMatrix.square("gpu-node-07: GPU and NIC paths", devices, cells);
    }

    private static String path(int r, int c) {
        if (r == c) {
            return "X";
        }
        if (r < 8 && c < 8) {
            return "NV18";
        }
        if (r >= 8 && c >= 8) {
            return (r - 8) / 2 == (c - 8) / 2 ? "PIX" : "SYS";
        }
        int gpu = Math.min(r, c);
        int nic = Math.max(r, c) - 8;
        if (gpu == 5 && nic == 2) {
            return "PHB";
        }
        return gpu / 2 == nic ? "PIX" : gpu / 4 == nic / 2 ? "NODE" : "SYS";
    }

    /** Eight ports near 3.5 GiB each, one idle. */
    static PortBalance ports(String port0Name) {
        List<PortBalance.Port> ports = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ports.add(new PortBalance.Port(i == 0 ? port0Name : "mlx5_" + i + ":1", i == 5 ? 0 : (long) (3.5 * (1L << 30) * (1 + 0.03 * i))));
        }
        return new PortBalance("gpu-node-07 all_reduce_perf 8 GiB", ports);
    }

    static BufferedImage png(byte[] bytes) {
        try {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
            if (image == null) {
                throw new AssertionError("ImageIO found no image in " + bytes.length + " bytes");
            }
            return image;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses with a default factory: an SVG that pointed at an external DTD would make it go to the network. */
    static Document svg(byte[] bytes) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
    }

    static int rgb(BufferedImage image, double x, double y) {
        return image.getRGB((int) Math.round(x), (int) Math.round(y)) & 0xFFFFFF;
    }

    /** Euclidean distance in RGB. */
    static double distance(int a, int b) {
        int dr = (a >> 16 & 0xFF) - (b >> 16 & 0xFF);
        int dg = (a >> 8 & 0xFF) - (b >> 8 & 0xFF);
        int db = (a & 0xFF) - (b & 0xFF);
        return Math.sqrt(dr * dr + dg * dg + db * db);
    }
}
