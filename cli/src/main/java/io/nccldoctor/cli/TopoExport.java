package io.nccldoctor.cli;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.NcclTopoXmlWriter;
import io.nccldoctor.pcie.Platform;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.TopologyView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --emit-nccl-topo-xml FILE}: the tree in NCCL's topology format, never over an existing file without --force. */
final class TopoExport {

    @Option(names = "--emit-nccl-topo-xml", paramLabel = "FILE",
            description = "Write the PCI tree as an NCCL topology file (for NCCL_TOPO_FILE where a VM hides the real topology).")
    Path file;

    @Option(names = "--force", description = "Replace an existing --emit-nccl-topo-xml file.")
    boolean force;

    /** Writes the file when asked; returns a line for the user, or null. */
    String write(Snapshot s) {
        if (file == null) {
            return null;
        }
        if (Files.exists(file) && !force) {
            throw new InputException("--emit-nccl-topo-xml " + file + ": the file exists; choose another name or add --force");
        }
        var devices = TopologyView.devices(s).orElseThrow(() -> new InputException("--emit-nccl-topo-xml: the PCI bus could not be read"));
        String why = "not in this source";
        Platform.Cpu cpu = Sections.platform(s).map(Platform::cpu).orElse(new Platform.Cpu(Fact.absent(why), Fact.absent(why),
                Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why)));
        try {
            Files.writeString(file, NcclTopoXmlWriter.write(devices, cpu), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InputException("--emit-nccl-topo-xml " + file + ": cannot write (" + e.getMessage() + ")", e);
        }
        return "wrote NCCL topology file " + file + " (use it with NCCL_TOPO_FILE=" + file.toAbsolutePath() + ")";
    }
}
