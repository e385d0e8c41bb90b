package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The GPU/NIC view of a PCI tree: every GPU and NIC with a label (GPU0…, NIC0…), and every pair's path in
 * nvidia-smi's and NCCL's vocabulary with the links it crosses and the narrowest of them. Derived from facts,
 * judging nothing.
 *
 * @param ncclVersion the NCCL version whose PATH_* numbering is used
 */
public record Topology(String ncclVersion, String ncclVersionSource, List<Endpoint> endpoints, List<Pair> pairs) {

    /**
     * @param name the RDMA device name for a NIC (mlx5_0) when known, else the PCI device name or ids
     */
    public record Endpoint(String label, String address, DeviceKind kind, String name, Fact<Integer> numaNode,
                           Fact<String> localCpus, Fact<LinkCeiling> link, PciLink linkState) {
    }

    /**
     * @param ncclPath   NCCL's type name (PIX, PXB, PHB, SYS)
     * @param ncclNumber its PATH_* number in {@link #ncclVersion()}
     * @param narrowest  the link that bounds a transfer between the two, by usable bandwidth
     */
    public record Pair(String a, String b, SmiPath smiPath, String ncclPath, int ncclNumber, List<LinkCeiling> links,
                       Fact<LinkCeiling> narrowest) {
    }

    /**
     * @param rdmaNames PCI address → RDMA device name. NIC endpoints are the NICs NCCL's IB/RoCE transport could
     *                  use (nvidia-smi lists the same): those with an RDMA device; when no NIC has one (the RDMA
     *                  driver is not loaded), InfiniBand-class functions and Mellanox/NVIDIA NICs (vendor 15b3).
     *                  A virtio or onboard management NIC is no endpoint.
     */
    public static Topology of(List<PciDevice> devices, Map<String, String> rdmaNames, String ncclVersion, String source) {
        PciTree tree = PciTree.of(devices);
        List<Endpoint> endpoints = new ArrayList<>();
        label(tree, devices, DeviceKind.GPU, "GPU", rdmaNames, endpoints);
        boolean rdma = devices.stream().anyMatch(d -> d.kind() == DeviceKind.NIC && rdmaNames.containsKey(d.address()));
        List<PciDevice> nics = devices.stream().filter(d -> d.kind() != DeviceKind.NIC
                || (rdma ? rdmaNames.containsKey(d.address()) : rdmaCapable(d))).toList();
        label(tree, nics, DeviceKind.NIC, "NIC", rdmaNames, endpoints);
        List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < endpoints.size(); i++) {
            for (int j = i + 1; j < endpoints.size(); j++) {
                pairs.add(pair(tree, endpoints.get(i), endpoints.get(j), ncclVersion));
            }
        }
        return new Topology(ncclVersion, source, endpoints, pairs);
    }

    /** InfiniBand class (0207) or a Mellanox/NVIDIA network function (15b3): RDMA-capable once its driver is loaded. */
    static boolean rdmaCapable(PciDevice d) {
        return d.classCode().startsWith("0207") || d.vendorId().equals("15b3");
    }

    private static void label(PciTree tree, List<PciDevice> devices, DeviceKind kind, String prefix,
                              Map<String, String> rdmaNames, List<Endpoint> out) {
        List<PciDevice> ofKind = devices.stream().filter(d -> d.kind() == kind)
                .sorted(Comparator.comparing(PciDevice::address)).toList();
        for (int i = 0; i < ofKind.size(); i++) {
            PciDevice d = ofKind.get(i);
            String name = rdmaNames.getOrDefault(d.address(), d.label());
            out.add(new Endpoint(prefix + i, d.address(), kind, name, tree.numaNode(d.address()), d.localCpus(),
                    ceiling(tree, d), d.link()));
        }
    }

    private static Pair pair(PciTree tree, Endpoint a, Endpoint b, String version) {
        SmiPath smi = tree.path(a.address(), b.address());
        String nccl = tree.ncclPath(a.address(), b.address());
        List<LinkCeiling> links = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String owner : tree.linkOwners(a.address(), b.address())) {
            tree.device(owner).map(d -> ceiling(tree, d)).ifPresentOrElse(c -> {
                if (c.isValue()) {
                    links.add(c.get());
                } else {
                    unknown.add(c.reason());
                }
            }, () -> unknown.add(owner + " is not in the inventory"));
        }
        Fact<LinkCeiling> narrowest = links.stream().min(Comparator.comparingDouble(LinkCeiling::bestGbps))
                .map(Fact::of).orElseGet(() -> Fact.absent(unknown.isEmpty() ? "no link on the path" : String.join("; ", unknown)));
        return new Pair(a.label(), b.label(), smi, nccl, NcclPathTypes.number(nccl, version), links, narrowest);
    }

    /**
     * A GPU below its maximum speed is idling (GPUs drop to 2.5 GT/s to save power and retrain under load), so its
     * ceiling is taken at the speed it returns to: the lower of its own and its port's maximum. Width never changes
     * at run time and is taken as it is.
     */
    static Fact<LinkCeiling> ceiling(PciTree tree, PciDevice d) {
        PciLink l = d.link();
        if (d.kind() != DeviceKind.GPU || !l.speedGTps().isValue() || !l.maxSpeedGTps().isValue()
                || l.speedGTps().get() >= l.maxSpeedGTps().get()) {
            return LinkCeiling.of(d);
        }
        double load = l.maxSpeedGTps().get();
        var port = tree.parent(d.address()).map(p -> p.link().maxSpeedGTps()).filter(Fact::isValue).map(Fact::get);
        if (port.isPresent()) {
            load = Math.min(load, port.get());
        }
        PciLink underLoad = new PciLink(Fact.of(load), l.width(), l.maxSpeedGTps(), l.maxWidth());
        return LinkCeiling.of(new PciDevice(d.address(), d.vendorId(), d.deviceId(), d.classCode(), d.kind(), d.names(),
                d.driver(), d.numaNode(), d.sysfsPath(), underLoad, d.config(), d.aer(), d.localCpus(), d.subsystem()));
    }

    public Endpoint endpoint(String label) {
        return endpoints.stream().filter(e -> e.label().equals(label)).findFirst().orElseThrow();
    }

    public Pair pair(String a, String b) {
        Pair p = index().get(a + "\u0000" + b);
        if (p == null) {
            throw new IllegalArgumentException("no pair " + a + "-" + b);
        }
        return p;
    }

    /**
     * Both orders of every pair, built once per topology (a 200-device node has 20,000 pairs, looked up by every
     * rule). A record cannot hold a cache, so the last topology's index is kept, matched by identity.
     */
    private java.util.Map<String, Pair> index() {
        Object[] last = lastIndex;
        if (last[0] == this) {
            @SuppressWarnings("unchecked")
            java.util.Map<String, Pair> m = (java.util.Map<String, Pair>) last[1];
            return m;
        }
        java.util.Map<String, Pair> m = new java.util.HashMap<>(pairs.size() * 3);
        for (Pair p : pairs) {
            m.putIfAbsent(p.a() + "\u0000" + p.b(), p);
            m.putIfAbsent(p.b() + "\u0000" + p.a(), p);
        }
        lastIndex = new Object[] {this, m};
        return m;
    }

    private static volatile Object[] lastIndex = {null, null};
}
