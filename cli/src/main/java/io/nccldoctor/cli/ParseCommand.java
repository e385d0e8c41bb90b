package io.nccldoctor.cli;

import io.nccldoctor.core.Json;
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
            "Formats: nvidia-smi-topo (the matrix of `nvidia-smi topo -m`, old and new layouts)."},
        footer = {"", "Example:", "  nccl-doctor parse nvidia-smi-topo topo.txt --json"})
final class ParseCommand implements Callable<Integer> {

    enum Format { NVIDIA_SMI_TOPO }

    @Parameters(index = "0", paramLabel = "FORMAT", converter = FormatConverter.class,
            description = "nvidia-smi-topo")
    Format format;

    @Parameters(index = "1", paramLabel = "FILE", description = "The text to read.")
    Path file;

    @Option(names = "--json", description = "Print the parsed content as JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
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

    /** "nvidia-smi-topo" → NVIDIA_SMI_TOPO, with a message that lists the formats. */
    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            for (Format f : Format.values()) {
                if (f.name().replace('_', '-').equalsIgnoreCase(value)) {
                    return f;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("unknown format '" + value + "'; known: nvidia-smi-topo");
        }
    }
}
