package io.nccldoctor.reports.inputs;

import io.nccldoctor.collectives.parse.NcclTestsJson;
import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.inputs.Recognisers.Head;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells the kind of an input from its head, by asking every kind's parser: the kind whose parser takes most of the
 * lines wins (an nccl-tests table with a few NCCL INFO lines between its rows is nccl-tests; NCCL's initialisation
 * log with the table at its end is an NCCL log). A text no parser takes most of, such as a README that quotes one
 * line of a log, is refused with the kinds tried; a parser that took a few of its lines is named, never chosen.
 */
final class InputDetector {

    /** The kinds that have a JSON form; JSON is read whole (it is small, and a cut document does not parse). */
    private static final List<InputKind> JSON_KINDS = List.of(InputKind.NCCL_TESTS, InputKind.PERFTEST);

    private InputDetector() {
    }

    /**
     * The bytes every kind but the NCCL log is told from: 64 KiB, dozens of device blocks or table rows. An input
     * longer than that is most often a log; NCCL's log reader looks at its whole head.
     */
    static final int SHORT_HEAD_BYTES = 64 << 10;

    static Recognition detect(InputText in) {
        List<String> lines = in.headLines();
        Head head = Head.of(lines, in.source());
        boolean json = head.startsWith('{');
        if (json) {
            head = Head.of(in.text(), in.source());
        }
        if (head.nonBlank() == 0) {
            throw new InputException(in.source() + ": empty (no line that is not blank); give the output of one of: " + InputKind.keys());
        }
        Head shortHead = json ? head : Head.of(within(lines, SHORT_HEAD_BYTES), in.source());
        boolean cut = !json && (!in.whole() || shortHead.lines().size() < lines.size());
        List<Recognition> found = new ArrayList<>();
        for (InputKind k : json ? JSON_KINDS : List.of(InputKind.values())) {
            try {
                boolean log = k == InputKind.NCCL_LOG;
                Recognition r = Recognisers.read(k, log ? head : shortHead);
                found.add((log ? !in.whole() : cut) ? r.partial() : r);
            } catch (InputException notThisKind) {
                // the next kind is tried; the message names them all when none fits
            }
        }
        Recognition best = null;
        for (Recognition r : found) {
            if (r.plausible() && (best == null || r.understood() > best.understood())) {
                best = r;
            }
        }
        if (best == null) {
            throw refusal(in.source(), head, found, json);
        }
        return withOthers(best, found);
    }

    /** Lines another kind takes, at least this many, are named beside the kind chosen: a text can hold two. */
    static final int OTHER_KIND_LINES = 5;

    /**
     * The kind chosen, its evidence naming every other kind that took {@link #OTHER_KIND_LINES} lines or more of the text
     * (an nccl-tests table among an NCCL log's lines: `parse` shows the log, and says the table is there too).
     */
    private static Recognition withOthers(Recognition best, List<Recognition> found) {
        StringBuilder also = new StringBuilder();
        if (best.notUnderstood() > best.understood() && best.kind() != InputKind.NCCL_LOG) {
            // chosen on a line only its tool prints (its command line, its header): the rest is another tool's or prose;
            // every parser but the NCCL log's lists the lines it could not place (the log's are an application's output)
            also.append("; it took ").append(best.understood()).append(" of ").append(best.understood() + best.notUnderstood())
                    .append(" lines, the others are listed as not understood");
        }
        for (Recognition r : found) {
            if (r.kind() != best.kind() && r.understood() >= OTHER_KIND_LINES) {
                also.append("; ").append(r.kind().key()).append(" also took ").append(r.understood()).append(" lines, which `parse ")
                        .append(r.kind().key()).append(" FILE` reads");
            }
        }
        return also.isEmpty() ? best : best.withEvidence(best.evidence() + also);
    }

    /** The first lines, up to about this many bytes of UTF-8. */
    private static List<String> within(List<String> lines, int bytes) {
        int n = 0;
        long sum = 0;
        while (n < lines.size() && sum <= bytes) {
            sum += lines.get(n++).length() + 1;
        }
        return lines.subList(0, n);
    }

    private static InputException refusal(String source, Head head, List<Recognition> found, boolean json) {
        if (json) {
            return new InputException(source + ": JSON that is neither nccl-tests -J output nor perftest --out_json (the JSON kinds "
                    + "parse reads; `report` also reads nccl-doctor's own JSON)" + NcclTestsJson.otherFormat(head.text()));
        }
        Recognition closest = found.stream().max((a, b) -> Integer.compare(a.understood(), b.understood())).orElse(null);
        String first = head.lines().stream().filter(l -> !l.isBlank()).findFirst().orElse("").strip().replaceAll("\\p{Cntrl}", "?");
        String hint = head.text().contains("<graphs") && head.text().contains("<graph ")
                ? "; it is NCCL's graph file (NCCL_GRAPH_DUMP_FILE: channels, not the PCI topology): give the NCCL_TOPO_DUMP_FILE output" : "";
        return new InputException(source + ": none of the kinds nccl-doctor reads was recognised (tried " + InputKind.keys() + ")"
                + (closest == null || closest.understood() <= 0 ? "" : "; the closest, " + closest.kind().key() + ", " + closest.share())
                + hint + "; its first line: '" + (first.length() > 80 ? first.substring(0, 77) + "..." : first) + "'");
    }
}
