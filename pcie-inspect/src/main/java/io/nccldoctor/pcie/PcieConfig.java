package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.List;

/**
 * What the PCI Express capability and the ACS extended capability of a device's config space say, read from
 * the sysfs {@code config} file. Unprivileged readers get only the first 64 bytes, where no capability lives, so
 * these facts need root (lspci says "Capabilities: &lt;access denied&gt;" in the same case).
 *
 * @param portType           PCIe device/port type: endpoint, root port, upstream port, downstream port …
 * @param maxPayloadSupported bytes (DevCap), the most the device can do
 * @param maxPayload          bytes (DevCtl), what it was programmed to use: the whole path runs at the smallest
 * @param maxReadRequest      bytes (DevCtl)
 * @param acsControl          enabled ACS features (lspci names: SrcValid, TransBlk, ReqRedir, CmpltRedir,
 *                            UpstreamFwd, EgressCtrl, DirectTrans); absent when the device has no ACS capability
 * @param atsEnabled          the ATS capability's Enable bit (lspci "ATSCtl: Enable+"): a device that caches IOMMU
 *                            translations may send peer-to-peer traffic marked translated, which ACS DirectTrans
 *                            lets pass the switch; absent when the device has no ATS capability
 */
public record PcieConfig(Fact<String> portType, Fact<Integer> maxPayloadSupported, Fact<Integer> maxPayload,
                         Fact<Integer> maxReadRequest, Fact<List<String>> acsControl, Fact<Boolean> atsEnabled) {

    /** A snapshot written before ATS was read has no atsEnabled field: absent, never null. */
    public PcieConfig {
        atsEnabled = atsEnabled != null ? atsEnabled : Fact.absent("not recorded (written by an older version)");
    }

    /** Without ATS: sources that do not show it. */
    public PcieConfig(Fact<String> portType, Fact<Integer> maxPayloadSupported, Fact<Integer> maxPayload,
                      Fact<Integer> maxReadRequest, Fact<List<String>> acsControl) {
        this(portType, maxPayloadSupported, maxPayload, maxReadRequest, acsControl, Fact.absent("not read from this source"));
    }

    private static final int PCIE_CAP_ID = 0x10;
    private static final int ACS_EXT_CAP_ID = 0x000d;
    /** linux/include/uapi/linux/pci_regs.h: PCI_EXT_CAP_ID_ATS 0x0f, PCI_ATS_CTRL 0x06, PCI_ATS_CTRL_ENABLE 0x8000. */
    private static final int ATS_EXT_CAP_ID = 0x000f;
    private static final String[] PORT_TYPES = {"endpoint", "legacy endpoint", "2", "3", "root port", "upstream port",
        "downstream port", "pcie-to-pci bridge", "pci-to-pcie bridge", "root complex integrated endpoint", "root complex event collector"};
    private static final String[] ACS_BITS = {"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd", "EgressCtrl", "DirectTrans"};

    /** Parses a config space image; {@code bytes.length} is 64 for unprivileged readers, 256 or 4096 for root. */
    public static PcieConfig parse(byte[] b) {
        if (b.length < 64) {
            return unreadable(Fact.error("config space is " + b.length + " bytes, a header needs 64"));
        }
        boolean hasCaps = (u16(b, 0x06) & 0x10) != 0;
        int pointer = u8(b, 0x34) & 0xfc;
        if (!hasCaps) {
            return unreadable(Fact.absent("the device lists no capabilities"));
        }
        if (pointer >= b.length) {
            return unreadable(Fact.absent("capabilities beyond the first " + b.length
                    + " bytes of config space are readable by root only (run as root, or capture as root)"));
        }
        int pcie = findCapability(b, pointer);
        if (pcie < 0) {
            return unreadable(Fact.absent("no PCI Express capability (a conventional PCI device)"));
        }
        int type = (u16(b, pcie + 2) >> 4) & 0xf;
        int devCap = u32(b, pcie + 4);
        int devCtl = u16(b, pcie + 8);
        return new PcieConfig(
                Fact.of(type < PORT_TYPES.length ? PORT_TYPES[type] : "type " + type),
                Fact.of(128 << (devCap & 0x7)),
                Fact.of(128 << ((devCtl >> 5) & 0x7)),
                Fact.of(128 << ((devCtl >> 12) & 0x7)),
                acs(b), ats(b));
    }

    private static PcieConfig unreadable(Fact<?> why) {
        Fact<String> s = why.isError() ? Fact.error(why.reason()) : Fact.absent(why.reason());
        Fact<Integer> i = why.isError() ? Fact.error(why.reason()) : Fact.absent(why.reason());
        Fact<List<String>> l = why.isError() ? Fact.error(why.reason()) : Fact.absent(why.reason());
        Fact<Boolean> z = why.isError() ? Fact.error(why.reason()) : Fact.absent(why.reason());
        return new PcieConfig(s, i, i, i, l, z);
    }

    private static int findCapability(byte[] b, int pointer) {
        for (int hops = 0; pointer >= 0x40 && pointer + 1 < b.length && hops < 48; hops++) {
            if (u8(b, pointer) == PCIE_CAP_ID) {
                return pointer;
            }
            pointer = u8(b, pointer + 1) & 0xfc;
        }
        return -1;
    }

    private static Fact<List<String>> acs(byte[] b) {
        Fact<Integer> at = extendedCapability(b, ACS_EXT_CAP_ID, "ACS");
        return at.map(offset -> {
            int control = u16(b, offset + 6);
            List<String> on = new ArrayList<>();
            for (int bit = 0; bit < ACS_BITS.length; bit++) {
                if ((control & (1 << bit)) != 0) {
                    on.add(ACS_BITS[bit]);
                }
            }
            return on;
        });
    }

    private static Fact<Boolean> ats(byte[] b) {
        return extendedCapability(b, ATS_EXT_CAP_ID, "ATS").map(offset -> (u16(b, offset + 6) & 0x8000) != 0);
    }

    /** The offset of an extended capability; the list starts at 0x100 and each header holds the next offset. */
    private static Fact<Integer> extendedCapability(byte[] b, int id, String name) {
        if (b.length < 0x104) {
            return Fact.absent("extended capabilities need the 4096-byte config space (root)");
        }
        int offset = 0x100;
        for (int hops = 0; offset >= 0x100 && offset + 8 <= b.length && hops < 96; hops++) {
            int header = u32(b, offset);
            if (header == 0 || header == -1) {
                break;
            }
            if ((header & 0xffff) == id) {
                return Fact.of(offset);
            }
            offset = (header >>> 20) & 0xffc;
        }
        return Fact.absent("no " + name + " capability");
    }

    private static int u8(byte[] b, int i) {
        return b[i] & 0xff;
    }

    private static int u16(byte[] b, int i) {
        return u8(b, i) | u8(b, i + 1) << 8;
    }

    private static int u32(byte[] b, int i) {
        return u16(b, i) | u16(b, i + 2) << 16;
    }
}
