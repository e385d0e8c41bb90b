package io.nccldoctor.reports.inputs;

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

    static Recognition detect(InputText in) {
        Head head = Head.of(in.headLines(), in.source());
        boolean json = head.startsWith('{');
        if (json) {
            head = Head.of(in.text(), in.source());
        }
        if (head.nonBlank() == 0) {
            throw new InputException(in.source() + ": empty (no line that is not blank); give the output of one of: " + InputKind.keys());
        }
        List<Recognition> found = new ArrayList<>();
        for (InputKind k : json ? JSON_KINDS : List.of(InputKind.values())) {
            try {
                found.add(Recognisers.read(k, head));
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
        return best;
    }

    private static InputException refusal(String source, Head head, List<Recognition> found, boolean json) {
        if (json) {
            return new InputException(source + ": JSON that is neither nccl-tests -J output nor perftest --out_json (the JSON kinds "
                    + "parse reads; `report` also reads nccl-doctor's own JSON)");
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
