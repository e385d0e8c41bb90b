package io.nccldoctor.gdr.text;

import com.fasterxml.jackson.annotation.JsonValue;

/** The RDMA state texts `parse rdma` reads, each recognised by its shape, never by a file name. */
public enum RdmaKind {
    IBV_DEVINFO("ibv_devinfo", "ibv_devinfo, also -v and -l"),
    IBSTAT("ibstat", "ibstat"),
    IBSTATUS("ibstatus", "ibstatus"),
    SYSFS("sysfs", "sysfs files printed with their path (grep . /sys/class/infiniband/*/ports/*/…, "
            + "for f in …; do echo $f $(cat $f); done, or === FILE === blocks; also rdma_cm's configfs defaults)"),
    LS("ls", "ls or ls -l of /sys/class/infiniband"),
    SHOW_GIDS("show_gids", "show_gids"),
    IBDEV2NETDEV("ibdev2netdev", "ibdev2netdev"),
    RDMA_LINK("rdma link", "rdma link (iproute2)"),
    RDMA_DEV("rdma dev", "rdma dev (iproute2)"),
    RDMA_RES("rdma res", "rdma res (iproute2: QPs, CQs, MRs, CM IDs per device; known, not read)"),
    SHOW_COUNTERS("show_counters", "show_counters (hw_counters per port)"),
    MLNX_QOS("mlnx_qos", "mlnx_qos -i IFACE"),
    ETHTOOL("ethtool -S", "ethtool -S IFACE"),
    MLXFWMANAGER("mlxfwmanager", "mlxfwmanager --query (firmware and PSID per adapter)"),
    ETHTOOL_INFO("ethtool -i", "ethtool -i IFACE (driver, firmware and PSID, PCI address)"),
    ETHTOOL_LINK("ethtool IFACE", "ethtool IFACE (link settings: speed, duplex, port type, link detected)"),
    IBPORTSTATE("ibportstate", "ibportstate LID PORT (a port's PortInfo: link state, width, speed, LIDs)"),
    IBV_DEVICES("ibv_devices", "ibv_devices (device names and node GUIDs; no port state)"),
    MST_STATUS("mst status", "mst status -v (per PCI function: device type, PCI address, RDMA device, net devices; no port state)"),
    IP("ip", "ip addr or ip link (each net device's MTU and state)");

    private final String key;
    private final String description;

    RdmaKind(String key, String description) {
        this.key = key;
        this.description = description;
    }

    /** How the tool is called on the command line and in messages: "ibv_devinfo", "ethtool -S". */
    @JsonValue
    public String key() {
        return key;
    }

    public String description() {
        return description;
    }
}
