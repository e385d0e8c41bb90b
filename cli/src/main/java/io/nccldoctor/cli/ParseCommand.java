package io.nccldoctor.cli;

import io.nccldoctor.core.Json;
import io.nccldoctor.gdr.PerftestOutput;
import io.nccldoctor.pcie.SmiTopoMatrix;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "parse", mixinStandardHelpOptions = true,
        description = {"Reads a third-party tool's output and prints what it says, structured.",
            "",
            "Formats: nvidia-smi-topo (the matrix of `nvidia-smi topo -m`, old and new layouts); perftest (the output "
                + "of ib_write_bw, ib_read_bw, ib_send_bw and the latency tests, client or server side, MB/sec or Gb/sec, "
                + "size sweeps, --use_cuda runs, warnings and errors with their meaning)."},
        footer = {"", "Examples:", "  nccl-doctor parse nvidia-smi-topo topo.txt --json", "  nccl-doctor parse perftest ib_write_bw.log"})
final class ParseCommand implements Callable<Integer> {

    enum Format { NVIDIA_SMI_TOPO, PERFTEST }

    @Parameters(index = "0", paramLabel = "FORMAT", converter = FormatConverter.class,
            description = "nvidia-smi-topo or perftest")
    Format format;

    @Parameters(index = "1", paramLabel = "FILE", description = "The text to read.")
    Path file;

    @Option(names = "--json", description = "Print the parsed content as JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (format == Format.PERFTEST) {
            return perftest();
        }
        SmiTopoMatrix m = SmiTopoMatrix.parse(TopoSources.read(file, "parse").lines().toList(), file.toString());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.print(Json.write(m));
        } else {
            out.println("nvidia-smi topo -m from " + file + ": " + m.devices().size() + " devices");
            for (String d : m.devices()) {
                out.println("  " + d + (m.name(d).equals(d) ? "" : " = " + m.name(d))
                        + (m.cpuAffinity().containsKey(d) ? "  CPU affinity " + m.cpuAffinity().get(d) : "")
                        + (m.numaAffinity().containsKey(d) ? "  NUMA " + m.numaAffinity().get(d) : ""));
            }
            out.println("Pairs:");
            for (int i = 0; i < m.devices().size(); i++) {
                for (int j = i + 1; j < m.devices().size(); j++) {
                    String a = m.devices().get(i);
                    String b = m.devices().get(j);
                    out.println("  " + a + "-" + b + "  " + m.cells().getOrDefault(a, java.util.Map.of()).getOrDefault(b, "?"));
                }
            }
            m.skipped().forEach(s -> out.println("not understood: line " + s));
        }
        out.flush();
        return 0;
    }

    private int perftest() {
        PerftestOutput p = PerftestOutput.parse(TopoSources.read(file, "parse").lines().toList(), file.toString());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.print(Json.write(p));
        } else {
            out.println(p.test().orElse("perftest (no title)") + " from " + file + (p.gpu().isValue() ? ", GPU memory of " + p.gpu().get() : ", host memory"));
            p.header().forEach((k, v) -> out.println("  " + k + ": " + v));
            if (!p.rows().isEmpty()) {
                out.printf(java.util.Locale.ROOT, "  %12s %12s %14s %14s%n", "bytes", "iterations", "peak " + p.unit(), "average " + p.unit());
                p.rows().forEach(r -> out.printf(java.util.Locale.ROOT, "  %12d %12d %14.2f %14.2f%n", r.bytes(), r.iterations(), r.peak(), r.average()));
            }
            p.warnings().forEach(w -> out.println("warning: " + w));
            p.errors().forEach(e -> out.println("error: " + e));
        }
        out.flush();
        return 0;
    }

    /** "nvidia-smi-topo" → NVIDIA_SMI_TOPO, with a message that lists the formats. */
    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            for (Format f : Format.values()) {
                if (f.name().replace('_', '-').equalsIgnoreCase(value)) {
                    return f;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("unknown format '" + value + "'; known: nvidia-smi-topo, perftest");
        }
    }
}
