package io.nccldoctor.reports.parsed;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.gdr.text.RdmaPasteGaps;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.rules.Registry;
import java.util.List;
import java.util.Map;

/**
 * Pasted RDMA state text and what the RDMA rules make of it: the facts go into a snapshot's RDMA section, as the live
 * probe would have written them, and {@link Registry#rdmaRules()} judge that snapshot. This is `parse rdma --json`.
 */
public record RdmaJudgement(@JsonUnwrapped RdmaPaste paste, Evaluation evaluation) {

    public static RdmaJudgement of(RdmaPaste paste, RuleContext context) {
        return new RdmaJudgement(paste, Evaluation.of(snapshot(paste), Registry.rdmaRules(), context));
    }

    /**
     * The paste's facts as a snapshot's RDMA section, as the live probe would have written them, with what the paste
     * leaves out beside it ({@link RdmaPasteGaps}: its notes, the devices not opened); `report` judges it too.
     */
    public static Snapshot snapshot(RdmaPaste paste) {
        return new Snapshot(Snapshot.SCHEMA_VERSION, "parse rdma", "unknown (" + paste.source() + ")", "not recorded",
                paste.source(), List.of(), Map.of(), Map.of(RdmaProbe.KEY, paste.rdma(), RdmaPasteGaps.KEY, RdmaPasteGaps.of(paste)));
    }

    /** 1 when a finding is at error level (a port not ACTIVE), else 0: as `report` and `preflight` decide. */
    public int exitCode() {
        return evaluation.exitCode();
    }
}
