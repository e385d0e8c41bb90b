package io.nccldoctor.reports.inputs;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The third-party outputs `parse` reads and `report` judges, each by its key ("nccl-tests"), in the order they are tried. */
public enum InputKind {
    NVIDIA_SMI_TOPO("the matrix of `nvidia-smi topo -m` (and `topo -p2p`, read as the P2P status matrix it is)"),
    PERFTEST("ib_write_bw, ib_read_bw, ib_send_bw and the ib_*_lat tests, text or --out_json"),
    NCCL_TESTS("the output of all_reduce_perf and the other *_perf binaries, text or the -J JSON file"),
    NCCL_LOG("NCCL_DEBUG=INFO output, with or without NCCL's line prefix"),
    RDMA("pasted RDMA state: ibv_devinfo, ibstat, ibstatus, show_gids, ibdev2netdev, rdma link/dev, sysfs, mlnx_qos, ethtool -S"),
    LSPCI_TREE("`lspci -tv` / `lspci -tvnn`"),
    LSPCI_VERBOSE("`lspci -vvv` blocks, a plain `lspci` listing, or grep'd excerpts of either"),
    NCCL_TOPO_XML("NCCL's or RCCL's topology XML (NCCL_TOPO_FILE, NCCL_TOPO_DUMP_FILE), whole, cut off or a snippet");

    private final String what;

    InputKind(String what) {
        this.what = what;
    }

    /** "nvidia-smi-topo", as the command line and the JSON name it. */
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** What the kind is, for help and messages. */
    public String what() {
        return what;
    }

    /** The kind with this key, case-insensitively. */
    public static Optional<InputKind> of(String key) {
        for (InputKind k : values()) { // a loop: this runs at every parse, before the JIT, and a lambda is linked on first use
            if (k.key().equalsIgnoreCase(key)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /** "nvidia-smi-topo, perftest, …": every key, in order. */
    public static String keys() {
        return Arrays.stream(values()).map(InputKind::key).collect(Collectors.joining(", "));
    }
}
