package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.reports.ImportedSnapshot;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import picocli.CommandLine.Option;

/** The text inputs of topo: lspci output or an NCCL topology file instead of a host. */
final class TopoSources {

    /**
     * The most a text input may hold: 64 MiB. An NCCL topology dump of a 72-GPU rack or an `lspci -vvv` of a full
     * node is well under 1 MiB; a larger input is the wrong file (or /dev/zero), which would otherwise fill the heap.
     */
    static final int MAX_TEXT_BYTES = 64 << 20;

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
        return ImportedSnapshot.of(r.devices(), r.rdmaNames(), what + r.source(), argv, toolVersion, now);
    }

    /**
     * A text file, or standard input for "-", as UTF-8, at most {@link #MAX_TEXT_BYTES}; bytes that are not UTF-8 (a
     * log cut in the middle of a character, terminal escapes) become U+FFFD instead of failing the whole read.
     */
    static String read(Path file, String flag) {
        if (Files.isDirectory(file)) {
            throw new InputException(flag + " " + file + ": is a folder; give a file");
        }
        boolean stdin = STDIN.equals(file.toString());
        try (InputStream in = stdin ? nonClosing(System.in) : Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_TEXT_BYTES + 1);
            if (bytes.length > MAX_TEXT_BYTES) {
                throw new InputException(flag + " " + (stdin ? "(standard input)" : file) + ": more than "
                        + (MAX_TEXT_BYTES >> 20) + " MiB; topology files and pasted outputs are far smaller: give the "
                        + "right file, or cut it to the part that matters");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InputException(flag + " " + file + ": cannot read (" + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()) + ")");
        }
    }

    /** Standard input stays open for whoever reads after us. */
    private static InputStream nonClosing(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public void close() {
                // not ours to close
            }
        };
    }

    /** The file name that means standard input. */
    static final String STDIN = "-";
}
