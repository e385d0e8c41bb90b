package io.nccldoctor.gdr.text;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.RdmaDevices;
import java.util.ArrayList;
import java.util.List;

/**
 * One `mlnx_qos -i NAME` output read by the same reader `parse rdma` uses ({@link MlnxQosReader}), for the live
 * probe, which runs the command itself and so knows the net device.
 */
public final class QosText {

    private QosText() {
    }

    /**
     * The trust mode, PFC table and DSCP mapping; an error naming what was not understood when the text holds neither
     * a trust state nor a PFC table (an mlnx_qos that printed only an error or a usage text).
     */
    public static Fact<RdmaDevices.Qos> parse(String netdev, List<String> lines) {
        PasteFacts facts = new PasteFacts();
        MlnxQosReader reader = new MlnxQosReader(facts, Command.of("$ mlnx_qos -i " + netdev));
        List<String> foreign = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceFirst("\\s+$", "");
            if (!line.isBlank() && reader.read(line, new Slot.Line(RdmaKind.MLNX_QOS, i + 1)) == SectionReader.Verdict.FOREIGN) {
                foreign.add(line.strip());
            }
        }
        RdmaDevices.Qos qos = facts.netdev(netdev).qos;
        if (qos == null || (!qos.trust().isValue() && !qos.pfcPriorities().isValue())) {
            return Fact.error("mlnx_qos -i " + netdev + " printed no trust state and no PFC table"
                    + (foreign.isEmpty() ? "" : " (first line not understood: '" + foreign.get(0) + "')"));
        }
        return Fact.of(qos);
    }
}
