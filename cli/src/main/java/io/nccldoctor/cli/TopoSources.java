package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.read.Inputs;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.reports.ImportedSnapshot;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import picocli.CommandLine.Option;

/** The text inputs of topo: lspci output or an NCCL topology file instead of a host. */
final class TopoSources {

    @Option(names = "--lspci-tree", paramLabel = "FILE", description = "Analyse `lspci -tvnn` (or -tv) output instead of this host.")
    Path lspciTree;

    @Option(names = "--lspci-verbose", paramLabel = "FILE",
            description = "Analyse `lspci -vvvnn` (or -vvv, a plain `lspci` listing, or grep'd excerpts) output; with --lspci-tree for the hierarchy.")
    Path lspciVerbose;

    @Option(names = "--nccl-topo-xml", paramLabel = "FILE",
            description = "Analyse an NCCL or RCCL topology file (NCCL_TOPO_FILE or NCCL_TOPO_DUMP_FILE; cut-off files and snippets too).")
    Path ncclXml;

    boolean given() {
        return lspciTree != null || lspciVerbose != null || ncclXml != null;
    }

    /** What the text inputs hold, with every line or element that was not read. */
    PciReading reading() {
        if (ncclXml != null) {
            if (lspciTree != null || lspciVerbose != null) {
                throw new InputException("--nccl-topo-xml cannot be combined with --lspci-tree or --lspci-verbose; give one source");
            }
            return PciReading.ncclTopoXml(read(ncclXml, "--nccl-topo-xml"), ncclXml.toString());
        }
        String tree = lspciTree == null ? null : read(lspciTree, "--lspci-tree");
        String verbose = lspciVerbose == null ? null : read(lspciVerbose, "--lspci-verbose");
        return PciReading.lspci(tree, String.valueOf(lspciTree), verbose, String.valueOf(lspciVerbose));
    }

    static Snapshot snapshot(PciReading r, List<String> argv, String toolVersion) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        String what = r.kind().equals("nccl-topo-xml") ? "NCCL topology XML " : "lspci text ";
        return ImportedSnapshot.of(r, what + r.source(), argv, toolVersion, now);
    }

    /**
     * A text file, or standard input for "-", through the one reader of every verb ({@link Inputs}): at most 64 MiB, bytes
     * that are not UTF-8 (a log cut in the middle of a character, terminal escapes) read as U+FFFD.
     */
    static String read(Path file, String flag) {
        return Inputs.text(file, flag).text();
    }

    /** The file name that means standard input. */
    static final String STDIN = Inputs.STDIN;
}
