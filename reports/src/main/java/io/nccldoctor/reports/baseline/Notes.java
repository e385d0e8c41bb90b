package io.nccldoctor.reports.baseline;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.SmiTopoMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads {@link Note}s from each kind of input: a command line's environment, an NCCL log, nvidia-smi topo, lspci, a capture. */
public final class Notes {

    /** A network channel's whole transport: "NET/IB/0", "NET/IB/1/GDRDMA", "NET/AWS Libfabric/0/GDRDMA" (name, device index). */
    private static final Pattern WHOLE_NET = Pattern.compile("NET/[^/]+/\\d+(/.*)?");

    /** "[0]mlx5_0:1/IB" in "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE ; OOB …" (net_ib/init.cc). */
    private static final Pattern NET_DEVICE = Pattern.compile("\\[(\\d{1,9})\\]\\S+");

    private Notes() {
    }

    /**
     * NCCL_* settings that change the path (reference/nccl-internals.md §4-6): NCCL_P2P_DISABLE=1 and NCCL_P2P_LEVEL
     * LOC/0 turn peer-to-peer off; NCCL_NET=Socket and NCCL_IB_DISABLE=1 leave TCP; NCCL_NET_GDR_LEVEL LOC/0 turns GPU
     * Direct RDMA off; NCCL_ALGO and NCCL_PROTO pin the choice; NCCL_NVLS_ENABLE and NCCL_COLLNET_ENABLE switch the
     * in-switch and in-network reductions.
     */
    public static List<Note> fromEnv(Map<String, String> env, String source) {
        List<Note> out = new ArrayList<>();
        env.forEach((k, v) -> {
            String said = k + "=" + v + " on the command line";
            String value = v.strip();
            switch (k) {
                case "NCCL_P2P_DISABLE" -> {
                    if (value.equals("1")) {
                        out.add(new Note(Note.Kind.P2P_OFF, said, source));
                    }
                }
                case "NCCL_P2P_LEVEL" -> {
                    if (value.equals("LOC") || value.equals("0")) {
                        out.add(new Note(Note.Kind.P2P_OFF, said, source));
                    }
                }
                case "NCCL_NET" -> {
                    if (value.equalsIgnoreCase("Socket")) {
                        out.add(new Note(Note.Kind.SOCKET, said, source));
                    }
                }
                case "NCCL_IB_DISABLE" -> {
                    if (value.equals("1")) {
                        out.add(new Note(Note.Kind.SOCKET, said + " (without another network plugin NCCL falls back to sockets)", source));
                    }
                }
                case "NCCL_NET_GDR_LEVEL" -> {
                    if (value.equals("LOC") || value.equals("0")) {
                        out.add(new Note(Note.Kind.NO_GDR, said, source));
                    }
                }
                case "NCCL_ALGO", "NCCL_PROTO" -> out.add(new Note(Note.Kind.ALGORITHM, said, source));
                case "NCCL_NVLS_ENABLE" -> out.add(new Note(value.equals("0") ? Note.Kind.ALGORITHM : Note.Kind.NVLS, said, source));
                case "NCCL_COLLNET_ENABLE" -> {
                    if (value.equals("1")) {
                        out.add(new Note(Note.Kind.COLLNET, said, source));
                    }
                }
                default -> {
                }
            }
        });
        return out;
    }

    /** What an NCCL log says about the path: the transports of its channels, the network, GDR, NVLS and CollNet. */
    public static List<Note> fromLog(NcclLog log, String source) {
        List<Note> out = new ArrayList<>();
        long socket = sum(log.transports(), t -> t.startsWith("NET/Socket"));
        if (socket > 0 || log.networks().stream().anyMatch(n -> n.equals("Using network Socket"))) {
            out.add(new Note(Note.Kind.SOCKET, socket > 0 ? socket + " channel connections via NET/Socket" : "NCCL: Using network Socket", source));
        }
        Predicate<String> plainNet = t -> WHOLE_NET.matcher(t).matches() && !t.startsWith("NET/Socket") && !t.contains("/GDRDMA");
        long plain = sum(log.transports(), plainNet);
        if (plain > 0) {
            out.add(new Note(Note.Kind.NO_GDR, plain + " network channel connections without /GDRDMA ("
                    + String.join(", ", keys(log.transports(), plainNet)) + ")", source));
        }
        List<String> cut = keys(log.transports(), t -> t.startsWith("NET/") && !WHOLE_NET.matcher(t).matches());
        if (!cut.isEmpty()) {
            out.add(new Note(Note.Kind.UNREAD, "network transport " + String.join(", ", cut) + " read without its device index and "
                    + "suffix (a plugin name with a space, \"NET/AWS Libfabric/0\"): whether it used GPU Direct RDMA is not judged",
                    source));
        }
        log.nicGdr().stream().filter(n -> !n.enabled() && !n.socket()).findFirst() // a socket NIC never does GDR
                .ifPresent(n -> out.add(new Note(Note.Kind.NO_GDR, "NCCL: " + n.line().strip(), source)));
        long shm = sum(log.transports(), t -> t.startsWith("SHM"));
        long p2p = sum(log.transports(), t -> t.startsWith("P2P"));
        if (shm > 0 && p2p == 0) {
            out.add(new Note(Note.Kind.P2P_OFF, shm + " intra-node channel connections via SHM and none via P2P", source));
        }
        List<String> nvls = keys(log.transports(), t -> t.contains("NVLS"));
        nvls.addAll(keys(log.algorithms(), a -> a.toUpperCase(Locale.ROOT).startsWith("NVLS")));
        if (!nvls.isEmpty()) {
            out.add(new Note(Note.Kind.NVLS, "NCCL used " + String.join(", ", nvls), source));
        }
        List<String> collnet = keys(log.algorithms(), a -> a.toUpperCase(Locale.ROOT).startsWith("COLLNET"));
        collnet.addAll(keys(log.transports(), t -> t.startsWith("COLLNET") || t.startsWith("CollNet")));
        if (!collnet.isEmpty()) {
            out.add(new Note(Note.Kind.COLLNET, "NCCL used " + String.join(", ", collnet), source));
        }
        return out;
    }

    /** The NET devices NCCL listed ("NET/IB : Using [0]mlx5_0:1/IB [1]…"): how many, not how fast. */
    public static Optional<Nics> nicsFromLog(NcclLog log, String source) {
        for (String n : log.networks()) {
            if (n.startsWith("NET/IB : Using ") || n.startsWith("NET/IB: Using ")) {
                String list = n.replaceFirst("\\s;.*$", "");
                TreeSet<Integer> indices = new TreeSet<>();
                Matcher m = NET_DEVICE.matcher(list);
                while (m.find()) {
                    indices.add(Integer.parseInt(m.group(1)));
                }
                if (!indices.isEmpty()) {
                    return Optional.of(new Nics(indices.size(), Fact.absent("NCCL's device line does not give the rate"),
                            source, "NCCL: " + n));
                }
            }
        }
        return Optional.empty();
    }

    /** nvidia-smi topo -m: GPU pairs joined by NVLink (NV#), or crossing sockets (SYS). */
    public static List<Note> fromSmiTopo(SmiTopoMatrix m, String source) {
        List<String> sys = new ArrayList<>();
        List<String> nv = new ArrayList<>();
        m.cells().forEach((row, cols) -> cols.forEach((col, v) -> {
            if (row.startsWith("GPU") && col.startsWith("GPU") && row.compareTo(col) < 0) {
                if (v.equals("SYS") || v.equals("SOC")) {
                    sys.add(row + "-" + col + " " + v);
                } else if (v.startsWith("NV")) {
                    nv.add(row + "-" + col + " " + v);
                }
            }
        }));
        List<Note> out = new ArrayList<>();
        if (!sys.isEmpty() && m.pciOnly()) { // PCIe paths only: NVLink, which would carry the pair's traffic, is not shown
            out.add(new Note(Note.Kind.UNREAD, "nvidia-smi topo -mp shows PCIe paths only, not NVLink: " + String.join(", ", first(sys))
                    + " (PCIe paths; whether NVLink joins these GPUs is not in the text)", source));
        } else if (!sys.isEmpty()) {
            out.add(new Note(Note.Kind.SYS_PATH, "nvidia-smi " + m.matrix() + ": " + String.join(", ", first(sys)), source));
        }
        if (!nv.isEmpty()) {
            out.add(new Note(Note.Kind.NVLINK, "nvidia-smi " + m.matrix() + ": " + String.join(", ", first(nv)), source));
        }
        return out;
    }

    /** nvidia-smi topo -p2p: GPU pairs without peer-to-peer support. */
    static List<Note> fromP2p(P2pMatrix m, String source) {
        List<String> bad = m.unsupported();
        return bad.isEmpty() ? List.of() : List.of(new Note(Note.Kind.P2P_OFF, "nvidia-smi topo -p2p: " + String.join(", ", first(bad))
                + " (NS not supported, CNS chipset, GNS GPU, TNS topology, DR disabled by regkey)", source));
    }

    /** lspci -tv or -vvv text: a hypervisor's devices. */
    public static List<Note> fromLspci(List<String> lines, String source) {
        List<String> vm = VmMarkers.lines(lines);
        return vm.isEmpty() ? List.of() : List.of(new Note(Note.Kind.VM, "lspci: " + String.join("; ", first(vm)), source));
    }

    /** A capture or preflight/topo/gdr snapshot: a hypervisor's PCI devices. */
    public static List<Note> fromSnapshot(Snapshot s, String source) {
        PciInventory pci = s.section(PciInventoryProbe.KEY, PciInventory.class);
        if (pci == null || !pci.devices().isValue()) {
            return List.of();
        }
        List<String> vm = new ArrayList<>();
        for (PciDevice d : pci.devices().get()) {
            if (VmMarkers.vendor(d.vendorId())) {
                vm.add(d.address() + " " + d.ids() + " " + VmMarkers.VENDORS.get(d.vendorId().toLowerCase(Locale.ROOT)));
            }
        }
        return vm.isEmpty() ? List.of() : List.of(new Note(Note.Kind.VM, "PCI devices of a hypervisor: " + String.join("; ", first(vm)), source));
    }

    /** A capture's ACTIVE RDMA ports: how many, and their rate when they agree. */
    public static Optional<Nics> nicsFromSnapshot(Snapshot s, String source) {
        RdmaDevices rdma = s.section(RdmaProbe.KEY, RdmaDevices.class);
        if (rdma == null || !rdma.devices().isValue()) {
            return Optional.empty();
        }
        List<Double> rates = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (RdmaDevices.RdmaDevice d : rdma.devices().get()) {
            for (RdmaDevices.RdmaPort p : d.ports().orElse(List.of())) {
                if (p.state().orElse("").equals("ACTIVE") && p.rateGbps().isValue()) {
                    rates.add(p.rateGbps().get());
                    names.add(d.name() + "/" + p.number());
                }
            }
        }
        if (rates.isEmpty()) {
            return Optional.empty();
        }
        boolean same = rates.stream().distinct().count() == 1;
        return Optional.of(new Nics(rates.size(), same ? Fact.of(rates.get(0))
                : Fact.absent("the ports run at different rates " + rates), source,
                s.hostName() + ": ACTIVE RDMA ports " + String.join(", ", names) + " at " + rates + " Gbit/s (sysfs)"));
    }

    private static long sum(Map<String, Long> m, Predicate<String> which) {
        return m.entrySet().stream().filter(e -> which.test(e.getKey())).mapToLong(Map.Entry::getValue).sum();
    }

    private static List<String> keys(Map<String, Long> m, Predicate<String> which) {
        return new ArrayList<>(m.keySet().stream().filter(which).toList());
    }

    /** The first four, and how many more: evidence lines stay readable for 72 GPUs. */
    private static List<String> first(List<String> all) {
        if (all.size() <= 4) {
            return all;
        }
        List<String> out = new ArrayList<>(all.subList(0, 4));
        out.add("… " + (all.size() - 4) + " more");
        return out;
    }
}
