package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The GPU/NIC view of a PCI tree: every GPU and NIC with a label (GPU0…, NIC0…), and every pair's path in
 * nvidia-smi's and NCCL's vocabulary with the links it crosses and the narrowest of them. Derived from facts,
 * judging nothing. Building it is linear in the devices: a pair is computed when it is asked for ({@link PairList}),
 * so a node with thousands of endpoints costs time only for the pairs a rule or a renderer reads.
 *
 * @param ncclVersion the NCCL version whose PATH_* numbering is used
 * @param pairs       every pair once, in endpoint order (GPU0-GPU1, GPU0-NIC0 …), computed as it is read
 * @param ncclNets    the nets and GPUDirect RDMA attributes of an NCCL topology file; none for other inputs
 */
public record Topology(String ncclVersion, String ncclVersionSource, List<Endpoint> endpoints, List<Pair> pairs,
                       NcclTopoNets ncclNets) {

    /**
     * @param kind GPU, AMD_GPU or NIC
     * @param name the RDMA device name for a NIC (mlx5_0) when known, else the PCI device name or ids
     */
    public record Endpoint(String label, String address, DeviceKind kind, String name, Fact<Integer> numaNode,
                           Fact<String> localCpus, Fact<LinkCeiling> link, PciLink linkState) {
    }

    /**
     * @param ncclPath   NCCL's type name (PIX, PXB, PHB, SYS)
     * @param ncclNumber its PATH_* number in {@link #ncclVersion()}
     * @param narrowest  the link that bounds a transfer between the two, by usable bandwidth
     * @param shown      true when the input shows where the two meet; absent, with the reason, when it does not (a
     *                   snippet's top elements): the path types are then a placeholder's and are not to be judged
     */
    public record Pair(String a, String b, SmiPath smiPath, String ncclPath, int ncclNumber, List<LinkCeiling> links,
                       Fact<LinkCeiling> narrowest, Fact<Boolean> shown) {
    }

    /**
     * NCCL's GPUDirect RDMA verdict for one GPU-NIC pair.
     *
     * @param on          on, off, or absent with the reason (the path is not in the text)
     * @param byAttribute true when a {@code gdr="0"} of the topology file decided, whatever the distance
     * @param why         what decided, in words
     * @param cause       the same in a few words: {@code gdr="0" on <net mlx5_5>}, {@code PHB (8) > P2C (6)}
     */
    public record GdrVerdict(Fact<Boolean> on, boolean byAttribute, String why, String cause) {
    }

    /**
     * @param rdmaNames PCI address → RDMA device name. NIC endpoints are the NICs NCCL's IB/RoCE transport (or an RDMA
     *                  network plugin) could use, as nvidia-smi lists them: those with an RDMA device; when no NIC has
     *                  one (the RDMA driver is not loaded, or the text names none), the functions of an RDMA NIC family
     *                  in {@link PciIds} and InfiniBand-class functions. A virtio, ENA or onboard management NIC is no
     *                  endpoint. GPUs of both vendors are labelled GPU0… in address order.
     */
    public static Topology of(List<PciDevice> devices, Map<String, String> rdmaNames, String ncclVersion, String source) {
        return of(devices, rdmaNames, ncclVersion, source, NcclTopoNets.none());
    }

    /** @param ncclNets what an NCCL topology file says of its nets and GPUs (GPUDirect RDMA attributes) */
    public static Topology of(List<PciDevice> devices, Map<String, String> rdmaNames, String ncclVersion, String source,
                              NcclTopoNets ncclNets) {
        PciTree tree = PciTree.of(devices);
        List<Endpoint> endpoints = new ArrayList<>();
        label(tree, devices.stream().filter(d -> d.kind().isGpu()).toList(), "GPU", rdmaNames, endpoints);
        label(tree, nicEndpoints(devices, rdmaNames), "NIC", rdmaNames, endpoints);
        return new Topology(ncclVersion, source, List.copyOf(endpoints), new PairList(tree, endpoints, ncclVersion), ncclNets);
    }

    /**
     * GPUDirect RDMA for a GPU-NIC pair as ncclTopoCheckGdr decides it (src/graph/paths.cc@v2.30.7-1 L485-486, L511-516):
     * off when every RDMA net of the NIC's function has {@code gdr="0"} in the topology file, or the GPU has; else on
     * when the path is at most the threshold (PATH_* number {@code threshold}, named {@code level}). The attributes are
     * checked first, so they decide even where the path is not in the text; the distance is judged only where it is.
     */
    public GdrVerdict gdr(Pair p, String level, int threshold) {
        Endpoint x = endpoint(p.a());
        Endpoint gpu = x.kind().isGpu() ? x : endpoint(p.b());
        Endpoint nic = x.kind().isGpu() ? endpoint(p.b()) : x;
        List<NcclTopoNets.Net> nets = ncclNets.netsOf(nic.address()).stream().filter(n -> n.role() == NcclTopoNets.Role.RDMA).toList();
        List<NcclTopoNets.Net> off = nets.stream().filter(n -> n.gdr().isValue() && n.gdr().get() == 0).toList();
        if (!nets.isEmpty() && off.size() == nets.size()) {
            return new GdrVerdict(Fact.of(false), true, "the topology file gives " + String.join(", ", off.stream()
                    .map(n -> "<net " + n.name() + "> gdr=\"0\" (line " + n.line() + ")").toList())
                    + ": NCCL found no GPUDirect RDMA support for this NIC, and ncclTopoCheckGdr stops there, whatever the distance",
                    "gdr=\"0\" on " + String.join(", ", off.stream().map(n -> "<net " + n.name() + ">").toList()));
        }
        Fact<Integer> gpuGdr = ncclNets.gpuGdr(gpu.address());
        if (gpuGdr.isValue() && gpuGdr.get() == 0) {
            return new GdrVerdict(Fact.of(false), true, "the topology file gives <gpu> of " + gpu.address() + " gdr=\"0\": NCCL "
                    + "found no way to register this GPU's memory (no peer-memory client, no DMA-BUF), and ncclTopoCheckGdr "
                    + "stops there, whatever the distance", "gdr=\"0\" on the <gpu>");
        }
        if (!off.isEmpty()) {
            String differ = "the nets of " + nic.address() + " differ in gdr; NCCL decides per net";
            return new GdrVerdict(Fact.absent(differ), false, differ, "nets differ in gdr");
        }
        if (!p.shown().isValue()) {
            return unknownPath(p, gpu, level, threshold);
        }
        boolean on = p.ncclNumber() <= threshold;
        String distance = p.ncclPath() + " (" + p.ncclNumber() + ")" + (on ? " <= " : " > ") + level + " (" + threshold + ")";
        return new GdrVerdict(Fact.of(on), false, distance, distance);
    }

    /**
     * The verdict for a pair whose path the text does not show. Where the text bounds it ({@link PciTree#atLeast}: two
     * root buses of a tree without NUMA nodes, PHB or SYS) the bound decides when it is past the threshold (off
     * whichever the type: NCCL's default PXB or P2C) or SYS is within it (on whichever); a threshold of PHB needs the
     * exact type. A GPU below an NVIDIA bridge may reach the NIC over a Grace CPU's C2C link (P2C), so it gets no bound.
     */
    private GdrVerdict unknownPath(Pair p, Endpoint gpu, String level, int threshold) {
        String why = p.shown().reason();
        PciTree tree = pairs instanceof PairList l ? l.tree() : null;
        Endpoint nic = endpoint(p.a().equals(gpu.label()) ? p.b() : p.a());
        var floor = tree == null ? Optional.<SmiPath>empty() : tree.atLeast(gpu.address(), nic.address());
        if (floor.isEmpty() || tree.belowNvidiaBridge(gpu.address())) {
            String grace = floor.isEmpty() ? "" : "; " + gpu.address() + " is below an NVIDIA bridge, so it may reach the NIC "
                    + "through a Grace CPU's C2C link (P2C), which the tree cannot show";
            return new GdrVerdict(Fact.absent(why + grace), false, why + grace, "path not in the text");
        }
        String low = NcclPathTypes.ofSmi(floor.get());
        int lo = NcclPathTypes.number(low, ncclVersion);
        int sys = NcclPathTypes.number("SYS", ncclVersion);
        String bound = "at least " + low + " (" + lo + ")";
        if (lo > threshold) {
            String cause = bound + " > " + level + " (" + threshold + ")";
            return new GdrVerdict(Fact.of(false), false, why + ": the exact type is unknown, but " + cause + " turns it off "
                    + "whichever it is", cause);
        }
        if (sys <= threshold) {
            String cause = low + " (" + lo + ") or SYS (" + sys + ") <= " + level + " (" + threshold + ")";
            return new GdrVerdict(Fact.of(true), false, why + ": the exact type is unknown, but " + cause + " lets it through "
                    + "whichever it is", cause);
        }
        String undecided = why + ": " + bound + " is within " + level + " (" + threshold + ") and SYS (" + sys
                + ") is not, so only the exact type decides";
        return new GdrVerdict(Fact.absent(undecided), false, undecided, bound + ", exact type not in the text");
    }

    /** The NIC functions that are matrix endpoints (see {@link #of}). */
    public static List<PciDevice> nicEndpoints(List<PciDevice> devices, Map<String, String> rdmaNames) {
        boolean named = devices.stream().anyMatch(d -> d.kind() == DeviceKind.NIC && rdmaNames.containsKey(d.address()));
        return devices.stream().filter(d -> d.kind() == DeviceKind.NIC)
                .filter(d -> named ? rdmaNames.containsKey(d.address()) : PciIds.rdmaCapable(d)).toList();
    }

    private static void label(PciTree tree, List<PciDevice> ofKind, String prefix, Map<String, String> rdmaNames,
                              List<Endpoint> out) {
        List<PciDevice> sorted = ofKind.stream().sorted(Comparator.comparing(PciDevice::address)).toList();
        for (int i = 0; i < sorted.size(); i++) {
            PciDevice d = sorted.get(i);
            String name = rdmaNames.getOrDefault(d.address(), d.label());
            out.add(new Endpoint(prefix + i, d.address(), d.kind(), name, tree.numaNode(d.address()), d.localCpus(),
                    ceiling(tree, d), d.link()));
        }
    }

    /**
     * A GPU below its maximum speed is idling (GPUs drop to 2.5 GT/s to save power and retrain under load), so its
     * ceiling is taken at the speed it returns to: the lower of its own and its port's maximum. Width never changes
     * at run time and is taken as it is.
     */
    static Fact<LinkCeiling> ceiling(PciTree tree, PciDevice d) {
        PciLink l = d.link();
        if (!d.kind().isGpu() || !l.speedGTps().isValue() || !l.maxSpeedGTps().isValue()
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
        if (pairs instanceof PairList p) {
            return endpoints.get(p.index(label));
        }
        return endpoints.stream().filter(e -> e.label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no endpoint " + label));
    }

    /**
     * The NICs nearest to a GPU (all NICs at its smallest path type), as pairs in NIC order: what sorting every pair of
     * the GPU by path and keeping the first path type gives, without computing the other pairs.
     */
    public List<Pair> nearestNics(String gpuLabel) {
        if (pairs instanceof PairList p) {
            return p.nearestNics(gpuLabel);
        }
        List<Pair> mine = endpoints.stream().filter(e -> e.kind() == DeviceKind.NIC).map(n -> pair(gpuLabel, n.label()))
                .sorted(Comparator.comparing(Pair::smiPath)).toList();
        return mine.isEmpty() ? mine : mine.stream().filter(x -> x.smiPath() == mine.get(0).smiPath()).toList();
    }

    /** The pair of two endpoints, in either order. */
    public Pair pair(String a, String b) {
        if (pairs instanceof PairList p) {
            return p.pair(a, b);
        }
        return pairs.stream().filter(p -> p.a().equals(a) && p.b().equals(b) || p.a().equals(b) && p.b().equals(a))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no pair " + a + "-" + b));
    }
}
