package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.gdr.RdmaDevices;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The node has a different number of GPUs, NICs or RDMA devices than expected. One class, three codes: the
 * counting differs, the judgement does not.
 */
public final class CountMismatch implements Rule {

    static final RuleInfo GPUS = new RuleInfo("GPU_COUNT_MISMATCH", Severity.ERROR,
            "NVIDIA GPU count differs from the expected node shape",
            "A node with fewer GPUs than its siblings still starts jobs, and the job then fails or runs with a smaller "
                    + "world size. A GPU that drops off the bus after an Xid error or a failed reset disappears from lspci "
                    + "and sysfs. More GPUs than expected usually means the wrong profile.",
            "NVIDIA display-class functions in /sys/bus/pci/devices, against --expect gpus=N or the profile",
            "Compare `lspci -d 10de: -nn` and `nvidia-smi -L` with the node's inventory; drain the node until the "
                    + "missing GPU is back after a reset or reseat.");
    static final RuleInfo NICS = new RuleInfo("NIC_COUNT_MISMATCH", Severity.ERROR,
            "network function count differs from the expected node shape",
            "NICs are counted as lspci counts them: every PCI function of class Ethernet, InfiniBand or other network "
                    + "controller, so a dual-port card is two and onboard management ports count too. A missing function "
                    + "means a card that did not train its link, a port split that changed, or firmware that hides a port.",
            "class 0x02xx functions in /sys/bus/pci/devices, against --expect nics=N or the profile",
            "Compare `lspci -d ::0200 -d ::0207` with the inventory; check the slot, the card's firmware and the BIOS "
                    + "bifurcation settings.");
    static final RuleInfo RDMA = new RuleInfo("RDMA_DEVICE_COUNT_MISMATCH", Severity.ERROR,
            "RDMA device count differs from the expected node shape",
            "NCCL's IB/RoCE transport uses the devices in /sys/class/infiniband. When a driver (mlx5_ib, bnxt_re, "
                    + "irdma) is not loaded or a device failed to probe, NCCL falls back to sockets, and collectives run "
                    + "at a fraction of the fabric's speed without an error.",
            "entries of /sys/class/infiniband, against --expect rdma=N or the profile",
            "Check `ibv_devices` and `rdma link`; load the RDMA driver (modprobe mlx5_ib) or reinstall the "
                    + "driver stack; set NCCL_IB_HCA only to devices that exist.");

    private final RuleInfo info;
    private final String key;
    private final String noun;
    private final Function<Snapshot, Optional<Integer>> count;
    private final Function<Snapshot, String> whyUncounted;

    private CountMismatch(RuleInfo info, String key, String noun, Function<Snapshot, Optional<Integer>> count,
                          Function<Snapshot, String> whyUncounted) {
        this.info = info;
        this.key = key;
        this.noun = noun;
        this.count = count;
        this.whyUncounted = whyUncounted;
    }

    public static CountMismatch gpus() {
        return new CountMismatch(GPUS, "gpus", "NVIDIA GPUs", s -> pciCount(s, DeviceKind.GPU), NodeFacts::pciUnreadable);
    }

    public static CountMismatch nics() {
        return new CountMismatch(NICS, "nics", "network functions", s -> pciCount(s, DeviceKind.NIC), NodeFacts::pciUnreadable);
    }

    public static CountMismatch rdma() {
        return new CountMismatch(RDMA, "rdma", "RDMA devices", s -> Sections.rdma(s).map(RdmaDevices::count),
                s -> "the RDMA devices were not probed");
    }

    private static Optional<Integer> pciCount(Snapshot s, DeviceKind kind) {
        return NodeFacts.devices(s).map(d -> NodeFacts.ofKind(d, kind).size());
    }

    @Override
    public RuleInfo info() {
        return info;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var expected = ctx.expected().expected(key);
        if (expected.isEmpty()) {
            return Outcome.waived("no expected " + key + " count (give --expect " + key + "=N or --profile NAME)");
        }
        Optional<Integer> found = count.apply(s);
        if (found.isEmpty()) {
            return Outcome.waived(whyUncounted.apply(s));
        }
        int want = expected.getAsInt();
        int have = found.get();
        // Zero GPUs is NO_NVIDIA_GPU's finding; counting it twice would not add information.
        if (have == want || (key.equals("gpus") && have == 0)) {
            return Outcome.pass();
        }
        List<String> evidence = new ArrayList<>();
        evidence.add("found " + have + ", expected " + want + " (" + ctx.expected().origin() + ")");
        if (!key.equals("rdma")) {
            DeviceKind kind = key.equals("gpus") ? DeviceKind.GPU : DeviceKind.NIC;
            List<PciDevice> devices = NodeFacts.ofKind(NodeFacts.devices(s).orElse(List.of()), kind);
            NodeFacts.describe(devices).forEach(evidence::add);
        }
        return Outcome.flag(finding("node", have + " " + noun + " found, " + want + " expected", evidence));
    }
}
