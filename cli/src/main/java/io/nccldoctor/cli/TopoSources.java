package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.LspciText;
import io.nccldoctor.pcie.NcclTopoXml;
import io.nccldoctor.reports.ImportedSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The text inputs of topo: lspci output or an NCCL topology file instead of a host. */
final class TopoSources {

    @Option(names = "--lspci-tree", paramLabel = "FILE", description = "Analyse `lspci -tvnn` (or -tv) output instead of this host.")
    Path lspciTree;

    @Option(names = "--lspci-verbose", paramLabel = "FILE",
            description = "Analyse `lspci -vvvnn` (or -vvv, also excerpts) output; with --lspci-tree for the hierarchy.")
    Path lspciVerbose;

    @Option(names = "--nccl-topo-xml", paramLabel = "FILE", description = "Analyse an NCCL topology file (NCCL_TOPO_FILE or NCCL_TOPO_DUMP_FILE).")
    Path ncclXml;

    boolean given() {
        return lspciTree != null || lspciVerbose != null || ncclXml != null;
    }

    /** The snapshot the text describes, and the lines that were not understood. */
    Snapshot snapshot(List<String> argv, String toolVersion, List<String> problems) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        if (ncclXml != null) {
            if (lspciTree != null || lspciVerbose != null) {
                throw new InputException("--nccl-topo-xml cannot be combined with --lspci-tree or --lspci-verbose; give one source");
            }
            NcclTopoXml xml = NcclTopoXml.parse(read(ncclXml, "--nccl-topo-xml"), ncclXml.toString());
            return ImportedSnapshot.of(xml.devices(), xml.rdmaNames(), "NCCL topology XML " + ncclXml, argv, toolVersion, now);
        }
        List<String> tree = lspciTree == null ? null : read(lspciTree, "--lspci-tree").lines().toList();
        List<String> verbose = lspciVerbose == null ? null : read(lspciVerbose, "--lspci-verbose").lines().toList();
        LspciText text = LspciText.parse(tree, String.valueOf(lspciTree), verbose, String.valueOf(lspciVerbose));
        problems.addAll(text.problems());
        String source = "lspci text " + (lspciTree != null ? lspciTree : "") + (lspciTree != null && lspciVerbose != null ? " + " : "")
                + (lspciVerbose != null ? lspciVerbose : "");
        return ImportedSnapshot.of(text.devices(), Map.of(), source, argv, toolVersion, now);
    }

    /**
     * A text file, or standard input for "-", as UTF-8; bytes that are not UTF-8 (a log cut in the middle of a
     * character, terminal escapes) become U+FFFD instead of failing the whole read.
     */
    static String read(Path file, String flag) {
        if (Files.isDirectory(file)) {
            throw new InputException(flag + " " + file + ": is a folder; give a file");
        }
        try {
            byte[] bytes = STDIN.equals(file.toString()) ? System.in.readAllBytes() : Files.readAllBytes(file);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InputException(flag + " " + file + ": cannot read (" + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()) + ")");
        }
    }

    /** The file name that means standard input. */
    static final String STDIN = "-";
}
