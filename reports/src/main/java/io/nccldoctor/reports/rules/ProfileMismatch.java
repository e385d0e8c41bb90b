package io.nccldoctor.reports.rules;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.LinkCeiling;
import io.nccldoctor.pcie.NcclPathTypes;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What a node profile requires beyond counts (links, MTU, NCCL range, NIC firmware) against what this node has. */
public final class ProfileMismatch implements Rule {

    static final RuleInfo INFO = new RuleInfo("PROFILE_MISMATCH", Severity.ERROR,
            "the node differs from its profile",
            "A profile (configs/profiles/*.yaml) states what a node of its kind has: the links its GPUs and NICs train "
                    + "at, the netdev MTU of its RoCE ports, the NCCL versions the site runs, its NIC firmware. Drift "
                    + "from it is what no datasheet warns about: in the field report, three firmware levels in one "
                    + "cluster, an MTU back at 1500 after a reboot, a card in a slot that trains at half width.",
            "the profile's require: map; the current PCIe links (sysfs), RDMA ports and their netdevs, the NCCL "
                    + "library on the loader path, the HCAs' firmware",
            "Bring the node back to its profile (reseat or move the card, restore the network configuration, align "
                    + "the firmware or the NCCL install), or change the profile if the kind itself changed.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        Map<String, String> req = ctx.expected().require();
        if (req.isEmpty()) {
            return Outcome.waived("no profile requirements (give --profile NAME with a require: map)");
        }
        List<io.nccldoctor.reports.Finding> out = new ArrayList<>();
        String origin = ctx.expected().origin();
        List<PciDevice> devices = NodeFacts.devices(s).orElse(List.of());
        Optional<RdmaDevices> rdma = Sections.rdma(s);
        if (req.containsKey("gpuLink")) {
            links(out, "GPU", NodeFacts.ofKind(devices, DeviceKind.GPU), req.get("gpuLink"), origin);
        }
        if (req.containsKey("nicLink")) {
            List<String> nicAddresses = rdma.flatMap(r -> r.devices().isValue() ? Optional.of(r.devices().get()) : Optional.empty())
                    .orElse(List.of()).stream().flatMap(d -> d.pciAddress().isValue() ? java.util.stream.Stream.of(d.pciAddress().get())
                            : java.util.stream.Stream.empty()).toList();
            links(out, "RDMA NIC", devices.stream().filter(d -> nicAddresses.contains(d.address())).toList(), req.get("nicLink"), origin);
        }
        if (req.containsKey("mtu") && rdma.isPresent() && rdma.get().devices().isValue()) {
            int want = Integer.parseInt(req.get("mtu"));
            for (RdmaDevices.RdmaDevice d : rdma.get().devices().get()) {
                for (RdmaDevices.RdmaPort p : d.ports().orElse(List.of())) {
                    if (!p.linkLayer().orElse("").equals("Ethernet")) {
                        continue;
                    }
                    for (RdmaDevices.Netdev n : p.netdevs().orElse(List.of())) {
                        if (n.mtu().isValue() && n.mtu().get() < want) {
                            out.add(finding(d.name() + "/" + p.number(), n.name() + " MTU " + n.mtu().get() + ", the profile requires "
                                    + want, List.of("required by " + origin, "/sys/class/net/" + n.name() + "/mtu: " + n.mtu().get())));
                        }
                    }
                }
            }
        }
        if (req.containsKey("ncclMin") || req.containsKey("ncclMax")) {
            var v = Sections.libraries(s).map(Libraries::nccl).map(n -> n.version());
            if (v.isPresent() && v.get().isValue()) {
                String have = v.get().get();
                String min = req.get("ncclMin");
                String max = req.get("ncclMax");
                if ((min != null && NcclPathTypes.compareVersions(have, min) < 0) || (max != null && NcclPathTypes.compareVersions(have, max) > 0)) {
                    out.add(finding("NCCL", "NCCL " + have + " is outside the profile's range " + (min == null ? "" : min) + " to "
                            + (max == null ? "" : max), List.of("required by " + origin, "ncclGetVersion of the libnccl.so.2 on the loader path")));
                }
            } else {
                out.add(finding("NCCL", "the profile requires an NCCL version range, and no NCCL version is known here",
                        List.of("required by " + origin, v.map(x -> x.reason()).orElse("libraries not probed"))));
            }
        }
        if (req.containsKey("nicFirmware") && rdma.isPresent() && rdma.get().devices().isValue()) {
            for (RdmaDevices.RdmaDevice d : rdma.get().devices().get()) {
                String fw = d.fwVersion().fold(v -> v, why -> "unknown (" + why + ")");
                if (!fw.equals(req.get("nicFirmware"))) {
                    out.add(finding(d.name(), d.name() + " firmware " + fw + ", the profile requires " + req.get("nicFirmware"),
                            List.of("required by " + origin, "/sys/class/infiniband/" + d.name() + "/fw_ver: " + fw)));
                }
            }
        }
        return out.isEmpty() ? Outcome.pass() : Outcome.flag(out);
    }

    private void links(List<io.nccldoctor.reports.Finding> out, String what, List<PciDevice> list, String want, String origin) {
        for (PciDevice d : list) {
            var c = LinkCeiling.of(d);
            String have = c.isValue() ? c.get().label() : "unknown (" + c.reason() + ")";
            if (!have.equals(want)) {
                out.add(finding(d.address(), what + " " + d.address() + " runs " + have + ", the profile requires " + want,
                        List.of("required by " + origin, "current link: " + have + " (sysfs current_link_speed/width)")));
            }
        }
    }
}
