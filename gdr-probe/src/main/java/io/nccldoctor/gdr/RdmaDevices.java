package io.nccldoctor.gdr;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.nccldoctor.core.Fact;
import java.util.List;
import java.util.Map;

/**
 * RDMA devices of /sys/class/infiniband (InfiniBand and RoCE alike: mlx5_0, bnxt_re0, irdma0 …), as the live probe
 * reads them or as pasted tool output states them (io.nccldoctor.gdr.text).
 *
 * <p>Fields added after the first snapshots were written read back as absent ({@link #NOT_RECORDED}), so older
 * snapshots still load.
 *
 * @param otherNetdevs net devices the input describes without tying them to an RDMA port: an `mlnx_qos -i eth4`
 *                     output in a paste that names eth4 nowhere else. The live probe always ties them to a port.
 */
public record RdmaDevices(Fact<List<RdmaDevice>> devices, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Netdev> otherNetdevs) {

    /** The reason a field reads as absent in a snapshot written before the field existed. */
    public static final String NOT_RECORDED = "not recorded in this snapshot";

    public RdmaDevices {
        otherNetdevs = otherNetdevs == null ? List.of() : List.copyOf(otherNetdevs);
    }

    public RdmaDevices(Fact<List<RdmaDevice>> devices) {
        this(devices, List.of());
    }

    /**
     * @param pciAddress the PCI function behind the device (realpath of its {@code device} link)
     * @param fwVersion  fw_ver, e.g. 28.39.1002
     * @param nodeGuid   node_guid, e.g. a088:c203:0052:d4a2
     * @param partId     the adapter's part number as ibv_devinfo's vendor_part_id prints it (4129 = PCI device 0x1021,
     *                   ConnectX-7); ibstat's "CA type: MT4129" and mlx5's sysfs hca_type carry the same number. Two
     *                   HCAs with one part id are one model, whose firmware should match.
     */
    public record RdmaDevice(String name, Fact<String> pciAddress, Fact<String> fwVersion, Fact<String> nodeGuid,
                             Fact<List<RdmaPort>> ports, Fact<Integer> partId) {

        public RdmaDevice {
            partId = partId == null ? Fact.absent(NOT_RECORDED) : partId;
        }

        public RdmaDevice(String name, Fact<String> pciAddress, Fact<String> fwVersion, Fact<String> nodeGuid,
                          Fact<List<RdmaPort>> ports) {
            this(name, pciAddress, fwVersion, nodeGuid, ports, Fact.absent("not read"));
        }

        public RdmaDevice(String name, Fact<String> pciAddress, Fact<List<Integer>> portNumbers) {
            this(name, pciAddress, Fact.absent("not read"), Fact.absent("not read"),
                    portNumbers.map(l -> l.stream().map(n -> RdmaPort.numberOnly(n)).toList()));
        }
    }

    /**
     * One port (drivers/infiniband/core/sysfs.c formats; reference/peers-and-platform.md B4). States use the kernel's
     * names whatever tool printed them: ACTIVE, INIT, DOWN, ARMED; LinkUp, Polling, Disabled.
     *
     * @param state        "4: ACTIVE" → ACTIVE
     * @param physState    "5: LinkUp" → LinkUp
     * @param rateGbps     "400 Gb/sec (4X NDR)" → 400
     * @param rate         the rate line as the tool printed it
     * @param linkLayer    InfiniBand or Ethernet (RoCE)
     * @param gids         the non-zero GIDs among the first {@link #GIDS_READ} indexes
     * @param netdevs      net devices of this port (RoCE), with MTU, IPv4 addresses and ARP settings
     * @param activeMtu    the port's active MTU in bytes (ibv_devinfo active_mtu). NCCL's RDMA path MTU is the smaller
     *                     of both ends' active MTUs (NVIDIA/nccl src/transport/net_ib/connect.cc, rtrAttr->mtu). sysfs
     *                     has no such file, so the live probe leaves it absent
     * @param maxMtu       the largest MTU the port supports (ibv_devinfo max_mtu)
     * @param lid          the port's LID; 65535 (0xffff) means none assigned, which a subnet manager does
     * @param smLid        the LID of the subnet manager that configured the port; 0 means none has
     * @param trafficClass MLNX_OFED's per-port default traffic class (/sys/class/infiniband/DEV/tc/PORT/traffic_class,
     *                     "Global tclass=106"), which the driver applies to every QP in place of the class the
     *                     application asked for
     */
    public record RdmaPort(int number, Fact<String> state, Fact<String> physState, Fact<Double> rateGbps, Fact<String> rate,
                           Fact<String> linkLayer, Fact<List<Gid>> gids, Fact<List<Netdev>> netdevs, Fact<Integer> activeMtu,
                           Fact<Integer> maxMtu, Fact<Integer> lid, Fact<Integer> smLid, Fact<Integer> trafficClass) {

        public static final int GIDS_READ = 32;

        public RdmaPort {
            activeMtu = activeMtu == null ? Fact.absent(NOT_RECORDED) : activeMtu;
            maxMtu = maxMtu == null ? Fact.absent(NOT_RECORDED) : maxMtu;
            lid = lid == null ? Fact.absent(NOT_RECORDED) : lid;
            smLid = smLid == null ? Fact.absent(NOT_RECORDED) : smLid;
            trafficClass = trafficClass == null ? Fact.absent(NOT_RECORDED) : trafficClass;
        }

        public RdmaPort(int number, Fact<String> state, Fact<String> physState, Fact<Double> rateGbps, Fact<String> rate,
                        Fact<String> linkLayer, Fact<List<Gid>> gids, Fact<List<Netdev>> netdevs) {
            this(number, state, physState, rateGbps, rate, linkLayer, gids, netdevs, Fact.absent("not read"),
                    Fact.absent("not read"), Fact.absent("not read"), Fact.absent("not read"), Fact.absent("not read"));
        }

        static RdmaPort numberOnly(int n) {
            Fact<String> s = Fact.absent("not read");
            return new RdmaPort(n, s, s, Fact.absent("not read"), s, s, Fact.absent("not read"), Fact.absent("not read"));
        }
    }

    /** @param type "RoCE v2", "IB/RoCE v1"; absent for InfiniBand ports without gid_attrs */
    public record Gid(int index, String gid, Fact<String> type, Fact<String> netdev) {
    }

    /**
     * @param ipv4        addresses in CIDR form (10.0.0.5/24), from `ip -o -4 addr show`
     * @param arpIgnore   /proc/sys/net/ipv4/conf/NAME/arp_ignore (1 needed with several NICs in one subnet)
     * @param arpAnnounce /proc/sys/net/ipv4/conf/NAME/arp_announce (2 needed likewise)
     * @param link        whether the net device's link is up, as printed: /sys/class/net/NAME/operstate ("up", "down")
     *                    or ibdev2netdev's "(Up)" / "(Down)"
     * @param qos         the NIC's priority settings (`mlnx_qos -i NAME`)
     * @param bond        the bonding driver's settings when the net device is a bond (RoCE LAG: mlx5_bond_0's GIDs
     *                    name bond0); absent with the reason for any other net device
     * @param dcqcn       the priorities on which DCQCN's notification and reaction points are enabled
     */
    public record Netdev(String name, Fact<Integer> mtu, Fact<List<String>> ipv4, Fact<Integer> arpIgnore,
                         Fact<Integer> arpAnnounce, Fact<String> link, Fact<Qos> qos, Fact<Bond> bond, Fact<Dcqcn> dcqcn) {

        public Netdev {
            link = link == null ? Fact.absent(NOT_RECORDED) : link;
            qos = qos == null ? Fact.absent(NOT_RECORDED) : qos;
            bond = bond == null ? Fact.absent(NOT_RECORDED) : bond;
            dcqcn = dcqcn == null ? Fact.absent(NOT_RECORDED) : dcqcn;
        }

        public Netdev(String name, Fact<Integer> mtu, Fact<List<String>> ipv4, Fact<Integer> arpIgnore, Fact<Integer> arpAnnounce,
                      Fact<String> link, Fact<Qos> qos) {
            this(name, mtu, ipv4, arpIgnore, arpAnnounce, link, qos, Fact.absent("not read"), Fact.absent("not read"));
        }

        public Netdev(String name, Fact<Integer> mtu, Fact<List<String>> ipv4, Fact<Integer> arpIgnore, Fact<Integer> arpAnnounce) {
            this(name, mtu, ipv4, arpIgnore, arpAnnounce, Fact.absent("not read"), Fact.absent("not read"));
        }
    }

    /**
     * What decides whether RoCE traffic is lossless on this NIC: which header field picks the priority, and on which
     * priorities Priority Flow Control pauses instead of dropping.
     *
     * @param trust         "pcp" (the VLAN tag's priority bits pick the priority) or "dscp" (the IP header's DSCP does)
     * @param pfcPriorities the priorities with PFC enabled, ascending; empty when PFC is off on all eight
     * @param dscpPriority  DSCP → priority, as mlnx_qos prints it with trust dscp ("prio:3 dscp:31,30,…,24,")
     * @param dcbx          who owns the settings: "OS controlled" or "Firmware controlled" (then the switch's DCBX may
     *                      change them)
     */
    public record Qos(Fact<String> trust, Fact<List<Integer>> pfcPriorities, Fact<Map<Integer, Integer>> dscpPriority,
                      Fact<String> dcbx) {
    }

    /**
     * A bonding master (drivers/net/bonding/bond_sysfs.c; Documentation/networking/bonding.rst).
     *
     * @param mode           bonding/mode without its number: "802.3ad" (LACP), "balance-xor", "active-backup" …
     * @param xmitHashPolicy bonding/xmit_hash_policy without its number: "layer2", "layer2+3", "layer3+4",
     *                       "encap2+3", "encap3+4", "vlan+srcmac"; the kernel uses it in balance-xor, 802.3ad and tlb
     * @param slaves         bonding/slaves: the member net devices
     */
    public record Bond(String mode, Fact<String> xmitHashPolicy, Fact<List<String>> slaves) {
    }

    /**
     * DCQCN, RoCE's congestion control, per priority as MLNX_OFED's mlx5 exposes it:
     * /sys/class/net/NAME/ecn/roce_np/enable/0..7 (notification point: answer ECN-marked packets with CNPs) and
     * ecn/roce_rp/enable/0..7 (reaction point: slow down on a CNP), "1" enabled (NVIDIA MLNX_OFED documentation,
     * "Explicit Congestion Notification (ECN)"; the same text in DOCA's documentation).
     *
     * @param notificationPoint priorities whose roce_np/enable/N reads 1, ascending
     * @param reactionPoint     priorities whose roce_rp/enable/N reads 1, ascending
     */
    public record Dcqcn(Fact<List<Integer>> notificationPoint, Fact<List<Integer>> reactionPoint) {
    }

    public int count() {
        return devices.orElse(List.of()).size();
    }
}
