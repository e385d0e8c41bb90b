package io.nccldoctor.collectives.sweep;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.util.List;
import java.util.Map;

/**
 * One line of a sweep's JSONL result file: a finished point (one collective over all sizes, in one child) or a failed
 * one, with everything needed to compare it later without the plan.
 *
 * @param type        "point" or "failure"
 * @param ncclLibrary the libnccl.so the child really loaded (its path), and {@code ncclVersion} what it reported
 * @param failure     hang, crash, exit, garbage, invalid-result or no-result; null for a point
 * @param outputTail  the last lines of the child's stdout and stderr (failures only)
 * @param ncclLogTail the last lines of the child's NCCL log (failures only)
 * @param transports  what NCCL decided in the child, from its NCCL_DEBUG=INFO log: channel connections per transport
 *                    ("NET/IB/0/GDRDMA", "P2P/IPC" …); null when there was no log
 * @param algorithms  algorithm/protocol choices counted from tuning lines (NCCL_DEBUG_SUBSYS=TUNING); null likewise
 */
public record SweepRecord(String type, String plan, String child, String arm, String library, Map<String, String> env, String envLabel,
                          int repeat, String collective, String ncclVersion, String ncclLibrary, Integer worldSize,
                          List<NcclTestsOutput.Row> rows, String failure, String detail, List<String> outputTail,
                          List<String> ncclLogTail, long durationMs, Map<String, Long> transports, Map<String, Long> algorithms) {

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isPoint() {
        return "point".equals(type);
    }
}
