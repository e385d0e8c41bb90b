package io.nccldoctor.reports.inputs;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclTestsJson;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.InputException;
import io.nccldoctor.gdr.PerftestOutput;
import io.nccldoctor.gdr.text.RdmaKind;
import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.gdr.text.RdmaTextReader;
import io.nccldoctor.pcie.NcclTopoXml;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.pcie.SmiTopoMatrix;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Each kind read by its own parser, and what that parser's accounting says about the text: the lines it took, the
 * lines it could not place, and the evidence in words. A parser that refuses the text throws its own one-line
 * {@link InputException}, which is also the message when the kind was named.
 */
final class Recognisers {

    /**
     * A line as NCCL writes it: "host:pid:tid [dev] NCCL INFO", "… [dev] file.cc:123 NCCL WARN", after a launcher's or
     * a timestamp's prefix; or NCCL INFO/WARN at the start of a line whose prefix was cut. Not inside Markdown
     * backticks or after a tab, where prose or a table quotes it.
     */
    private static final Pattern NCCL_LINE = Pattern.compile(
            "^\\s*(?:[^`\\t]*?[^\\s`]+:\\d+:\\d+\\s+\\[\\d+\\]\\s+(?:[\\w./-]+:\\d+\\s+)?|(?:\\[\\d+,\\d+\\]<std\\w+>:|\\d+:\\s)?\\s*)"
                    + "NCCL (?:INFO|WARN)\\b");

    /**
     * A command line that runs the tool of a kind, after a shell prompt ("$ ", "[root@pod /]# ") or alone: a paste that
     * shows it holds that tool's output, whatever else the paste holds (an `ifconfig` after `ibdev2netdev`).
     */
    private static final String PROMPT = "^\\s*(?:\\(\\S+\\)\\s*)?(?:(?:\\[[^\\]]*\\]|[^\\s`]*)[$#]\\s*|\\+\\s)?(?:sudo\\s+)?";
    private static final Map<InputKind, Pattern> COMMANDS = Map.of(
            InputKind.NVIDIA_SMI_TOPO, Pattern.compile(PROMPT + "nvidia-smi\\s+topo\\b"),
            InputKind.PERFTEST, Pattern.compile(PROMPT + "ib_(?:write|read|send|atomic)_(?:bw|lat)\\b"),
            InputKind.RDMA, Pattern.compile(PROMPT + "(?:ibv_devinfo|ibv_devices|ibstat|ibstatus|show_gids|ibdev2netdev|rdma\\s+(?:link|dev|res)|mst\\s+status|mlnx_qos"
                    + "|ethtool\\s+-S|show_counters|mlxfwmanager)\\b"),
            InputKind.LSPCI_TREE, Pattern.compile(PROMPT + "lspci\\s+-\\S*t"),
            InputKind.LSPCI_VERBOSE, Pattern.compile(PROMPT + "lspci\\b(?!\\s+-\\S*t)"));

    /** The input as a kind's parser is handed it. */
    record Head(List<String> lines, String text, String source) {

        static Head of(List<String> lines, String source) {
            return new Head(lines, String.join("\n", lines) + "\n", source);
        }

        static Head of(String text, String source) {
            return new Head(text.lines().toList(), text, source);
        }

        int nonBlank() {
            return (int) lines.stream().filter(l -> !l.isBlank()).count();
        }

        /** True when the first character that is not white space or a byte-order mark is {@code c}. */
        boolean startsWith(char c) {
            for (int i = 0; i < text.length(); i++) {
                char x = text.charAt(i);
                if (x != '\uFEFF' && !Character.isWhitespace(x)) {
                    return x == c;
                }
            }
            return false;
        }
    }

    private Recognisers() {
    }

    /** The kind's parser on the text; throws its {@link InputException} when the text is not of the kind. */
    static Recognition read(InputKind kind, Head h) {
        Recognition r = parse(kind, h);
        Pattern command = COMMANDS.get(kind);
        if (r.sure() || r.understood() <= 0 || command == null || h.lines().stream().noneMatch(l -> command.matcher(l).find())) {
            return r;
        }
        return new Recognition(kind, r.model(), r.understood(), r.notUnderstood(), true, r.evidence() + " after its command line");
    }

    private static Recognition parse(InputKind kind, Head h) {
        return switch (kind) {
            case NVIDIA_SMI_TOPO -> smiTopo(h);
            case PERFTEST -> perftest(h);
            case NCCL_TESTS -> ncclTests(h);
            case NCCL_LOG -> ncclLog(h);
            case RDMA -> rdma(h);
            case LSPCI_TREE -> lspci(kind, PciReading.lspciTree(h.text(), h.source()), h);
            case LSPCI_VERBOSE -> lspci(kind, PciReading.lspciVerbose(h.text(), h.source()), h);
            case NCCL_TOPO_XML -> topoXml(h);
        };
    }

    private static Recognition smiTopo(Head h) {
        SmiTopoMatrix m = SmiTopoMatrix.parse(h.lines(), h.source());
        int unread = distinctLines(m.skipped(), Pattern.compile("^(\\d+):"));
        String what = m.p2p() ? "a P2P status matrix (`nvidia-smi topo -p2p`: OK, NS …)"
                : m.headerless() ? "its " + m.cells().size() + " matrix rows, without their header line"
                : "its GPU0 … header and " + m.cells().size() + " matrix rows";
        return new Recognition(InputKind.NVIDIA_SMI_TOPO, m, h.nonBlank() - unread, unread, false, what);
    }

    private static Recognition perftest(Head h) {
        PerftestOutput p = PerftestOutput.parse(h.lines(), h.source());
        int unread = p.notUnderstood().size();
        String what = h.startsWith('{') ? "its --out_json sections (test_info, results)"
                : p.test().isValue() ? "its '" + p.test().get() + "' title"
                : !p.columns().isEmpty() ? "its '" + String.join(" ", p.columns()) + "' table"
                : !p.errors().isEmpty() ? "perftest's error lines"
                : p.outcome().contains("waited for a client") ? "its 'Waiting for client to connect' banner"
                : "its " + p.commandLine().getOrDefault("program", "perftest") + " command line and the lines perftest printed after it";
        return new Recognition(InputKind.PERFTEST, p, h.nonBlank() - unread, unread, false, what);
    }

    private static Recognition ncclTests(Head h) {
        if (h.startsWith('{') || NcclTestsJson.looksLikeJson(h.text())) {
            NcclTestsOutput j = NcclTestsJson.parse(h.text(), h.source());
            return new Recognition(InputKind.NCCL_TESTS, j, h.nonBlank(), 0, false, j.tool().equals("rccl-tests")
                    ? "its rccl-tests --output_file JSON (name, inPlace, busBw)" : "its -J JSON (results, config)");
        }
        NcclTestsOutput o = NcclTestsOutput.parse(h.lines(), h.source());
        int unread = o.notUnderstood().size();
        String what = o.testsVersion().isValue() ? "its '# " + o.tool() + " version " + o.testsVersion().get() + "' header"
                : !o.columns().isEmpty() ? "its '" + String.join("  ", o.columns().subList(0, Math.min(3, o.columns().size()))) + "' table header"
                : !o.rows().isEmpty() ? "its " + o.rows().size() + " table rows"
                : !o.parameters().isEmpty() ? "its '# nThread …' parameters line" : "its 'Out of bounds values' footer";
        return new Recognition(InputKind.NCCL_TESTS, o, h.nonBlank() - unread - o.ncclInfoLines(), unread, false, what);
    }

    private static Recognition ncclLog(Head h) {
        NcclLog log;
        try {
            log = NcclLog.parse(new ByteArrayInputStream(h.text().getBytes(StandardCharsets.UTF_8)), h.source());
        } catch (IOException e) {
            throw new InputException(h.source() + ": cannot read (" + e.getMessage() + ")", e);
        }
        int nccl = (int) Math.min(log.ncclLines(), h.nonBlank());
        boolean prefixed = h.lines().stream().anyMatch(l -> NCCL_LINE.matcher(l).find());
        boolean watchdog = !log.watchdogTimeouts().isEmpty() || !log.watchdogHangs().isEmpty() || log.torchErrors().count() > 0;
        String what = nccl > 0 ? (nccl == 1 ? "its NCCL line" : "its " + nccl + " NCCL lines") + (prefixed ? "" : " (without NCCL's line prefix)")
                : log.torchErrors().count() > 0 ? (log.torchErrors().errors().stream().allMatch(e -> "XLA".equals(e.framework()))
                        ? "XLA's 'NCCL operation … failed:' line" : "PyTorch's 'NCCL error in:' line (DistBackendError)")
                : log.watchdogTimeouts().isEmpty() ? "PyTorch's NCCL watchdog stuck" : "a PyTorch NCCL watchdog timeout";
        return new Recognition(InputKind.NCCL_LOG, log, nccl, h.nonBlank() - nccl, prefixed || watchdog, what);
    }

    private static Recognition rdma(Head h) {
        RdmaPaste p = RdmaTextReader.parse(h.lines(), h.source());
        String kinds = p.kinds().stream().map(RdmaKind::key).collect(Collectors.joining(", "));
        // a tool's own header line (hca_id:, CA '…', ibstatus' "Infiniband device … status:") shows the kind however
        // much unknown text surrounds it; that text is listed as not understood. The command lines that run an RDMA tool
        // count as taken, as perftest's own command line does: else a paste of `ibv_devices` and `ibv_devinfo`'s "Failed
        // to open device" above one perftest error line went to perftest, which took the prompts
        Pattern tool = COMMANDS.get(InputKind.RDMA);
        int commands = (int) h.lines().stream().filter(l -> tool.matcher(l).find()).count();
        return new Recognition(InputKind.RDMA, p, p.lines().facts() + p.lines().known() + commands, p.lines().notUnderstood(), p.headed(),
                "its " + kinds + " output");
    }

    private static Recognition lspci(InputKind kind, PciReading r, Head h) {
        int unread = Math.min(h.nonBlank(), distinctLines(r.notUnderstood(), Pattern.compile("^" + Pattern.quote(h.source()) + ":(\\d+):")));
        String what = kind == InputKind.LSPCI_TREE ? r.census().functions() + " PCI functions in its tree"
                : r.devices().size() + " device blocks" + (r.fragments().isEmpty() ? "" : " and " + r.fragments().size() + " excerpts without a header");
        return new Recognition(kind, r, h.nonBlank() - unread, unread, false, what);
    }

    /**
     * XML only: a text that holds pci elements, after the lines a paste adds (a fence, a prompt), which count as not
     * understood; NCCL's graph file has none and is refused.
     */
    private static Recognition topoXml(Head h) {
        if (!NcclTopoXml.holdsXml(h.text())) {
            throw new InputException(h.source() + ": not XML (it does not start with '<'); give NCCL's or RCCL's topology file");
        }
        PciReading r = PciReading.ncclTopoXml(h.text(), h.source());
        int unread = distinctLines(r.notUnderstood().stream().filter(l -> l.startsWith(h.source() + ":")).toList(),
                Pattern.compile("^" + Pattern.quote(h.source()) + ":(\\d+):"));
        return new Recognition(InputKind.NCCL_TOPO_XML, r, h.nonBlank() - unread, unread, false, "its XML with " + r.census().functions() + " <pci> elements");
    }

    /** How many input lines the entries name (an entry per cell or per problem can name one line several times). */
    private static int distinctLines(Collection<String> entries, Pattern number) {
        Set<String> lines = new HashSet<>();
        for (String e : entries) {
            Matcher m = number.matcher(e);
            lines.add(m.find() ? m.group(1) : e);
        }
        return lines.size();
    }
}
