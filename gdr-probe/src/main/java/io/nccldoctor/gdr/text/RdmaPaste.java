package io.nccldoctor.gdr.text;

import io.nccldoctor.gdr.CounterSnapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.core.Fact;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a paste of RDMA state text says, in the live probes' records, and how much of it was read.
 *
 * @param source        the file it came from
 * @param sections      each tool output recognised, in order
 * @param rdma          devices, ports, GIDs, net devices and their QoS: the facts the live RDMA probe records
 * @param counters      per port, the counters printed (sysfs counters and hw_counters, `show_counters`, the port's
 *                      net devices' `ethtool -S`): one reading, cumulative since the driver loaded
 * @param otherEthtool  `ethtool -S` of interfaces the paste ties to no port
 * @param lines         how every line of the input was taken
 * @param notUnderstood the lines no reader took, with their line numbers: never dropped silently
 * @param notes         what a reader of the facts must know: sections that disagree, counts that do not add up
 * @param adapters      mlxfwmanager's device blocks: firmware per adapter, named by PCI address, not by RDMA device
 * @param rdmaCm        rdma_cm's per-port defaults read from configfs (default_roce_mode, default_roce_tos), each the
 *                      last value the input read
 * @param driverInfo    `ethtool -i` blocks: driver, firmware, PSID and PCI function of a net device
 * @param unopened      ibv_devinfo's "Failed to open device" (or "Failed to query device props") lines: devices the
 *                      host lists that the tool could not open (rdma-core libibverbs/examples/devinfo.c print_hca_cap,
 *                      which names no device then); their ports are not in the input
 * @param fabric        ports `ibportstate` printed, per node address ("Lid 1"): ports of the fabric (a switch's, a
 *                      peer's), not this host's RDMA devices, so kept apart from {@code rdma} and not judged by its rules
 * @param withoutGid    devices a complete show_gids listing covers with no GID on any port, none of whose ports the input
 *                      gives otherwise: device → where the listing is ("show_gids, line 4")
 * @param linkSettings  plain `ethtool IFACE` outputs: a net device's speed, duplex, port type and link detected
 */
public record RdmaPaste(String source, List<Section> sections, RdmaDevices rdma, List<CounterSnapshot.Port> counters,
                        List<CounterSnapshot.Netdev> otherEthtool, Lines lines, List<Unread> notUnderstood, List<String> notes,
                        List<Adapter> adapters, List<RdmaCmDefault> rdmaCm, List<DriverInfo> driverInfo, int unopened,
                        List<RdmaDevices.RdmaDevice> fabric, Map<String, String> withoutGid,
                        List<LinkSettings> linkSettings) {

    /** The name a device or interface gets when the paste does not say which one a listing belongs to. */
    public static final String UNNAMED = "(not named in the input)";

    public RdmaPaste {
        sections = List.copyOf(sections);
        counters = List.copyOf(counters);
        otherEthtool = List.copyOf(otherEthtool);
        notUnderstood = List.copyOf(notUnderstood);
        notes = List.copyOf(notes);
        adapters = List.copyOf(adapters);
        rdmaCm = List.copyOf(rdmaCm);
        driverInfo = List.copyOf(driverInfo);
        fabric = List.copyOf(fabric);
        withoutGid = Map.copyOf(withoutGid);
        linkSettings = List.copyOf(linkSettings);
    }

    /**
     * One `ethtool IFACE` output (ethtool.c dump_link_usettings and do_gset).
     *
     * @param netdev       the interface of its "Settings for IFACE:" line
     * @param line         the line of "Settings for"
     * @param speedMbps    "Speed: 100000Mb/s"; an error when ethtool printed "Unknown!" (no link, or not reported)
     * @param duplex       "Full", "Half" or "Unknown! (255)"
     * @param port         the connector: "Direct Attach Copper", "FIBRE", "Twisted Pair", "Other" …
     * @param linkDetected "Link detected: yes|no": the kernel's netif_running && carrier (ETHTOOL_GLINK)
     * @param rdmaPort     the RDMA port the input maps the interface to ("mlx5_0 port 1"), if any
     * @param refused      ethtool's "Cannot get …: …" lines: settings the kernel refused to give
     */
    public record LinkSettings(String netdev, int line, Fact<Integer> speedMbps, Fact<String> duplex, Fact<String> port,
                               Fact<Boolean> linkDetected, Fact<String> rdmaPort, List<String> refused) {

        public LinkSettings {
            refused = List.copyOf(refused);
        }
    }

    /**
     * One `ethtool -i` block (ethtool's dump_drvinfo prints what the driver's get_drvinfo fills in).
     *
     * @param netdev     the interface its command line named, or {@link #UNNAMED}
     * @param line       the line of "driver:"
     * @param firmware   firmware-version up to the parenthesis: mlx5 prints "%d.%d.%04d (%.16s)", the firmware and
     *                   the board's PSID (drivers/net/ethernet/mellanox/mlx5/core/en_ethtool.c,
     *                   mlx5e_ethtool_get_drvinfo), the version sysfs fw_ver gives without the PSID
     * @param psid       the part in parentheses (MT_2420110034)
     * @param busInfo    bus-info: the PCI function of a PCI NIC ("0000:af:00.0"); empty for a virtual one (veth)
     * @param rdmaDevice the RDMA device the input places at that PCI function, which then takes the firmware
     */
    public record DriverInfo(String netdev, int line, Fact<String> driver, Fact<String> firmware, Fact<String> psid,
                             Fact<String> busInfo, Fact<String> rdmaDevice) {
    }

    /**
     * One rdma_cm default of a port (drivers/infiniband/core/cma_configfs.c): the GID type rdma_cm gives the
     * connections it makes on the port unless they choose one ("RoCE v2"; "IB/RoCE v1", which a RHEL 7 guide prints as
     * "RoCE v1"), or the ToS of their packets.
     *
     * @param setting "default_roce_mode" or "default_roce_tos"
     * @param value   as the input printed it, the last reading
     * @param line    where it was read
     */
    public record RdmaCmDefault(String device, int port, String setting, String value, int line) {
    }

    /**
     * One tool's output.
     *
     * @param firstLine first line of the section, counting from 1
     * @param lastLine  last line read into it
     * @param factLines lines a fact was taken from
     */
    public record Section(RdmaKind kind, int firstLine, int lastLine, int factLines) {
    }

    /**
     * @param total         every line of the input
     * @param facts         lines a fact was taken from
     * @param known         lines of a recognised tool's output that the facts do not need (ibv_devinfo -v's max_qp …)
     * @param skipped       blank lines, Markdown fences, and command lines with their prompts
     * @param notUnderstood lines no reader took
     */
    public record Lines(int total, int facts, int known, int skipped, int notUnderstood) {
    }

    /** @param line counting from 1 */
    public record Unread(int line, String text) {
    }

    /**
     * One mlxfwmanager device block.
     *
     * @param number      its "Device #N"
     * @param line        the line of "Device #N:"
     * @param pci         "PCI Device Name": a PCI address ("42:00.0") or an mst device ("/dev/mst/mt4099_pci_cr0")
     * @param fw          the burned firmware ("Current" of the FW row)
     * @param fwRunning   "FW (Running)", printed when it differs from the burned firmware (a reset is pending)
     * @param fwAvailable the firmware of the image mlxfwmanager compared with ("Available")
     */
    public record Adapter(int number, int line, Fact<String> type, Fact<String> partNumber, Fact<String> psid, Fact<String> pci,
                          Fact<String> fw, Fact<String> fwRunning, Fact<String> fwAvailable, Fact<String> status) {
    }

    /**
     * Whether a section opened with a line only its tool prints ("hca_id:", "CA '…'", "Infiniband device '…' port N
     * status:", show_gids', ibv_devices' or mst status -v's header): the text holds that tool's output, whatever else surrounds it.
     */
    public boolean headed() {
        return sections.stream().anyMatch(s -> HEADED.contains(s.kind()));
    }

    private static final Set<RdmaKind> HEADED = EnumSet.of(RdmaKind.IBV_DEVINFO, RdmaKind.IBSTAT, RdmaKind.IBSTATUS,
            RdmaKind.SHOW_GIDS, RdmaKind.IBV_DEVICES, RdmaKind.MST_STATUS);

    /** The tools whose output was recognised, each once, in order of first appearance. */
    public List<RdmaKind> kinds() {
        return sections.stream().map(Section::kind).distinct().toList();
    }
}
