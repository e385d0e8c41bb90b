package io.nccldoctor.reports.parsed;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.PerftestOutput;
import java.util.Locale;

/**
 * The human form of `parse perftest`: test and side, the command line, the GPU and how its memory was registered,
 * header, rows, warnings and errors.
 */
public final class PerftestText {

    private PerftestText() {
    }

    public static String render(PerftestOutput p, String file) {
        StringBuilder out = new StringBuilder(p.test().orElse("perftest (no title)") + " from " + file
                + p.role().fold(r -> ", " + r + " side", why -> ", side not known (" + why + ")")
                + (p.gpu().isValue() ? ", GPU memory of " + p.gpu().get() : ", memory: " + p.gpu().reason()) + "\n");
        out.append("  result: ").append(p.outcome()).append('\n');
        if (!p.commandLine().isEmpty()) {
            out.append("  command line:");
            p.commandLine().forEach((k, v) -> out.append(' ').append(k).append(v.equals("on") ? "" : "=" + v));
            out.append('\n');
        }
        if (p.gpu().isValue() || p.gpuMemoryRegistration().isValue() || p.gpuPciAddress().isValue()) {
            out.append("  GPU PCI address: ").append(p.gpuPciAddress().<String>fold(a -> a, why -> "not known (" + why + ")")).append('\n');
            out.append("  GPU memory registered as: ").append(p.gpuMemoryRegistration().<String>fold(PerftestText::registration, why -> why)).append('\n');
        }
        p.header().forEach((k, v) -> out.append("  ").append(k).append(": ").append(v).append('\n'));
        if (!p.rows().isEmpty()) {
            out.append(String.format(Locale.ROOT, "  %12s %12s %14s %14s %12s%n", "bytes", "iterations", "peak " + p.unit(), "average " + p.unit(),
                    "Mpps"));
            p.rows().forEach(r -> out.append(String.format(Locale.ROOT, "  %12d %12d %14.2f %14.2f %12s%s%n", r.bytes(), r.iterations(), r.peak(),
                    r.average(), r.msgRateMpps().fold(v -> String.format(Locale.ROOT, "%.6f", v), why -> "-"),
                    r.extra().isEmpty() ? "" : "  " + r.extra())));
        }
        if (!p.latencyRows().isEmpty()) {
            out.append(String.format(Locale.ROOT, "  %10s %10s %9s %9s %9s %9s %9s %9s %9s  (usec)%n", "bytes", "iterations", "t_min", "t_max",
                    "t_typical", "t_avg", "t_stdev", "99%", "99.9%"));
            p.latencyRows().forEach(r -> out.append(String.format(Locale.ROOT, "  %10d %10d %9s %9s %9s %9s %9s %9s %9s%s%n", r.bytes(), r.iterations(),
                    v(r.minUs()), v(r.maxUs()), v(r.typicalUs()), v(r.avgUs()), v(r.stdevUs()), v(r.p99Us()), v(r.p999Us()),
                    r.transactionsPerSecond().fold(t -> String.format(Locale.ROOT, "  %.2f tps", t), why -> ""))));
        }
        p.warnings().forEach(w -> out.append("warning: ").append(w).append('\n'));
        p.errors().forEach(e -> out.append("error: ").append(e).append('\n'));
        p.notUnderstood().forEach(s -> out.append("not understood: ").append(s).append('\n'));
        return out.toString();
    }

    private static String v(Fact<Double> f) {
        return f.fold(x -> String.format(Locale.ROOT, "%.2f", x), why -> "-");
    }

    private static String registration(String how) {
        return switch (how) {
            case "dma-buf" -> "DMA-BUF (ibv_reg_dmabuf_mr on an exported GPU buffer: no peer-memory client such as nvidia-peermem needed)";
            case "peer memory" -> "peer memory (ibv_reg_mr on the GPU address, which needs the GPU driver's peer-memory client, "
                    + "nvidia-peermem for CUDA; perftest printed no 'using DMA-BUF' line)";
            default -> how;
        };
    }
}
