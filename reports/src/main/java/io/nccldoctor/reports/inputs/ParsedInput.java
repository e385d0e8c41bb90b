package io.nccldoctor.reports.inputs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclLogSet;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.PerftestOutput;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.pcie.SmiTopoMatrix;
import io.nccldoctor.reports.parsed.GdrReading;
import io.nccldoctor.reports.parsed.NcclLogText;
import io.nccldoctor.reports.parsed.NcclTestsText;
import io.nccldoctor.reports.parsed.PciReadingText;
import io.nccldoctor.reports.parsed.PerftestText;
import io.nccldoctor.reports.parsed.RdmaJudgement;
import io.nccldoctor.reports.parsed.RdmaText;
import io.nccldoctor.reports.parsed.SmiTopoText;
import java.util.Iterator;
import java.util.Map;

/**
 * One input read as its kind: the parser's model, and its human and JSON forms. The JSON is the model's own, with
 * "schemaVersion" and "kind" first, for every kind.
 *
 * @param model    NcclTestsOutput, NcclLog or NcclLogSet, PerftestOutput, SmiTopoMatrix, RdmaJudgement or PciReading
 * @param evidence what showed the kind when it was detected ("its '#  size  count  type' header"); empty when named
 */
public record ParsedInput(InputKind kind, String source, Object model, String evidence) {

    /** True when the text records a failure: wrong elements, IB completion errors, a perftest error, a port not active. */
    public boolean failed() {
        if (model instanceof NcclTestsOutput o) {
            return !o.failures().isEmpty();
        } else if (model instanceof NcclLog l) {
            return failed(l);
        } else if (model instanceof NcclLogSet s) {
            return s.logs().values().stream().anyMatch(ParsedInput::failed);
        } else if (model instanceof PerftestOutput p) {
            return !p.errors().isEmpty();
        } else if (model instanceof RdmaJudgement j) {
            return j.exitCode() != 0;
        }
        return false;
    }

    private static boolean failed(NcclLog log) {
        return !log.ibErrors().isEmpty() || !log.watchdogTimeouts().isEmpty() || !log.watchdogHangs().isEmpty();
    }

    /** The human form: each kind's own renderer. */
    public String text() {
        if (model instanceof NcclTestsOutput o) {
            return NcclTestsText.render(o, source);
        } else if (model instanceof NcclLog l) {
            return NcclLogText.render(l, source);
        } else if (model instanceof NcclLogSet s) {
            return NcclLogText.renderSet(s);
        } else if (model instanceof PerftestOutput p) {
            return PerftestText.render(p, source);
        } else if (model instanceof SmiTopoMatrix m) {
            return SmiTopoText.render(m, source);
        } else if (model instanceof RdmaJudgement j) {
            return RdmaText.render(j);
        } else if (model instanceof PciReading r) {
            return PciReadingText.render(r, source);
        }
        throw new IllegalStateException("no renderer for " + model.getClass().getSimpleName());
    }

    /** {"schemaVersion": 1, "kind": "nccl-tests", …the model's fields}; an NCCL log adds "gdrReadings", a line per GDR line. */
    public ObjectNode json() {
        ObjectNode doc = Json.mapper().createObjectNode();
        doc.put("schemaVersion", Snapshot.SCHEMA_VERSION);
        doc.put("kind", kind.key());
        JsonNode body = Json.mapper().valueToTree(model);
        for (Iterator<Map.Entry<String, JsonNode>> it = body.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!doc.has(e.getKey())) { // PciReading's own "kind" says the same
                doc.set(e.getKey(), e.getValue());
            }
        }
        if (model instanceof NcclLog log) { // each GDR line's distances in path type names, as the text form gives them
            ArrayNode readings = doc.putArray("gdrReadings");
            log.gdr().forEach(g -> readings.add(GdrReading.of(g.distance(), g.relation(), g.threshold(), g.wording(), log)));
        }
        return doc;
    }
}
