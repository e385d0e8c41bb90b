package io.nccldoctor.reports.baseline;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Why a busbw may pass a link's rate with nothing wrong: busbw applies the ring formula to the time whatever algorithm
 * ran (docs/baselines-research.md 1.5; the sources are in configs/baselines.yaml, one per id).
 */
public enum Mechanism {

    /**
     * NVLink SHARP on NVLink 4 and 5 (NVSwitch) systems, allreduce: the printed busbw can reach the wire's rate times
     * 2(n-1)/(n+1) (algbw = busbw_wire x n / (n+1), NVIDIA/nccl-tests pull 239). NVLS needs at least 5 GPUs of one node
     * in the measured cases (stas00/ml-engineering, SHARP section); it is the default when available.
     */
    NVLS("nvls"),
    /** Two nodes, allreduce: NCCL picks the tree, which can pass the network's rate (nccl-tests#196). */
    TWO_NODE_TREE("two-node-tree"),
    /** IB SHARP / CollNet: N+1 sends instead of 2N, up to about twice the network's rate. */
    COLLNET("collnet"),
    /** alltoall averages point-to-point transfers, some on NVLink: the network does not bound it. */
    ALLTOALL("alltoall");

    private final String id;

    Mechanism(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    static Optional<Mechanism> byId(String id) {
        return Arrays.stream(values()).filter(m -> m.id.equals(id)).findFirst();
    }

    static List<String> ids() {
        return Arrays.stream(values()).map(Mechanism::id).toList();
    }

    /** How far NVLS lifts an allreduce's printed busbw above the per-GPU link: 2(n-1)/(n+1) for n GPUs of one node. */
    static double nvlsLift(int gpusPerNode) {
        return 2.0 * (gpusPerNode - 1) / (gpusPerNode + 1);
    }
}
