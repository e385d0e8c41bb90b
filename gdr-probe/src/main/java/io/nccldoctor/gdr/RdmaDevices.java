package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;

/** RDMA devices of /sys/class/infiniband (InfiniBand and RoCE alike: mlx5_0, bnxt_re0, irdma0 …). */
public record RdmaDevices(Fact<List<RdmaDevice>> devices) {

    /**
     * @param pciAddress the PCI function behind the device (realpath of its {@code device} link)
     * @param fwVersion  fw_ver, e.g. 28.39.1002
     * @param nodeGuid   node_guid, e.g. a088:c203:0052:d4a2
     */
    public record RdmaDevice(String name, Fact<String> pciAddress, Fact<String> fwVersion, Fact<String> nodeGuid,
                             Fact<List<RdmaPort>> ports) {

        public RdmaDevice(String name, Fact<String> pciAddress, Fact<List<Integer>> portNumbers) {
            this(name, pciAddress, Fact.absent("not read"), Fact.absent("not read"),
                    portNumbers.map(l -> l.stream().map(n -> RdmaPort.numberOnly(n)).toList()));
        }
    }

    /**
     * One port (drivers/infiniband/core/sysfs.c formats; reference/peers-and-platform.md B4).
     *
     * @param state      "4: ACTIVE" → ACTIVE
     * @param physState  "5: LinkUp" → LinkUp
     * @param rateGbps   "400 Gb/sec (4X NDR)" → 400
     * @param rate       the rate line as the kernel prints it
     * @param linkLayer  InfiniBand or Ethernet (RoCE)
     * @param gids       the non-zero GIDs among the first {@link #GIDS_READ} indexes
     * @param netdevs    net devices of this port (RoCE), with MTU, IPv4 addresses and ARP settings
     */
    public record RdmaPort(int number, Fact<String> state, Fact<String> physState, Fact<Double> rateGbps, Fact<String> rate,
                           Fact<String> linkLayer, Fact<List<Gid>> gids, Fact<List<Netdev>> netdevs) {

        public static final int GIDS_READ = 32;

        static RdmaPort numberOnly(int n) {
            Fact<String> s = Fact.absent("not read");
            return new RdmaPort(n, s, s, Fact.absent("not read"), s, s, Fact.absent("not read"), Fact.absent("not read"));
        }
    }

    /** @param type "RoCE v2", "IB/RoCE v1"; absent for InfiniBand ports without gid_attrs */
    public record Gid(int index, String gid, Fact<String> type, Fact<String> netdev) {
    }

    /**
     * @param ipv4 addresses in CIDR form (10.0.0.5/24), from `ip -o -4 addr show`
     * @param arpIgnore   /proc/sys/net/ipv4/conf/NAME/arp_ignore (1 needed with several NICs in one subnet)
     * @param arpAnnounce /proc/sys/net/ipv4/conf/NAME/arp_announce (2 needed likewise)
     */
    public record Netdev(String name, Fact<Integer> mtu, Fact<List<String>> ipv4, Fact<Integer> arpIgnore,
                         Fact<Integer> arpAnnounce) {
    }

    public int count() {
        return devices.orElse(List.of()).size();
    }
}
