package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXParseException;

/**
 * Reads NCCL's topology XML (NCCL_TOPO_FILE, NCCL_TOPO_DUMP_FILE; reference/nccl-internals.md §9): system &gt; cpu
 * &gt; pci (switches, nested) &gt; pci (GPU, NIC) &gt; gpu | nic &gt; net. Vendor files carry XML comments and
 * the "X.0 GT/s PCIe" speed form; both are handled. The hierarchy becomes PCI devices with sysfs-shaped paths, each
 * CPU element a root complex, so the same tree code computes the paths NCCL would.
 *
 * @param devices   every pci element as a device (ids, class, link, NUMA node of its cpu)
 * @param rdmaNames busid → net name (mlx5_0) for pci elements that hold a nic
 */
public record NcclTopoXml(List<PciDevice> devices, Map<String, String> rdmaNames) {

    public static NcclTopoXml parse(String xml, String source) {
        Document doc = document(xml, source);
        Element system = doc.getDocumentElement();
        if (!system.getTagName().equals("system")) {
            throw new InputException(source + ": the root element is <" + system.getTagName() + ">, NCCL topology files start with <system version=\"1\">");
        }
        List<PciDevice> devices = new ArrayList<>();
        Map<String, String> names = new LinkedHashMap<>();
        SyntheticPaths ports = new SyntheticPaths();
        int cpuIndex = 0;
        for (Element cpu : children(system, "cpu")) {
            String numaRaw = cpu.getAttribute("numaid");
            int numa = parseInt(numaRaw, cpuIndex);
            String root = String.format(Locale.ROOT, "pciffff:%02x", cpuIndex++ % 256);
            for (Element pci : children(cpu, "pci")) {
                walk(pci, root, List.of(), numa, ports, devices, names, source);
            }
        }
        if (devices.isEmpty()) {
            throw new InputException(source + ": no <pci> element under any <cpu>: nothing to analyse");
        }
        return new NcclTopoXml(devices, names);
    }

    private static void walk(Element pci, String root, List<String> above, int numa, SyntheticPaths ports,
                             List<PciDevice> out, Map<String, String> names, String source) {
        String busId = pci.getAttribute("busid").toLowerCase(Locale.ROOT);
        if (busId.isEmpty()) {
            throw new InputException(source + ": a <pci> element without busid");
        }
        List<String> chain = new ArrayList<>(above);
        chain.add(ports.port()); // the root or downstream port NCCL leaves out
        chain.add(busId);
        String vendor = hex(pci.getAttribute("vendor"), 4);
        String device = hex(pci.getAttribute("device"), 4);
        String cls = hex(pci.getAttribute("class"), 6);
        Fact<Double> speed = pci.hasAttribute("link_speed") ? PciLink.parseSpeed(pci.getAttribute("link_speed"))
                : Fact.absent("no link_speed attribute");
        Fact<Integer> width = pci.hasAttribute("link_width") ? PciLink.parseWidth(pci.getAttribute("link_width"))
                : Fact.absent("no link_width attribute");
        String why = "not in NCCL topology XML";
        PcieConfig config = new PcieConfig(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why));
        DeviceKind kind = DeviceKind.classify(vendor, cls);
        if (kind == DeviceKind.DISPLAY && vendor.equals("0000")) {
            kind = DeviceKind.GPU; // NCCL classifies by class alone; virtual topologies (Azure) omit the vendor
        }
        if (kind == DeviceKind.OTHER && !children(pci, "gpu").isEmpty()) {
            kind = DeviceKind.GPU; // a dump with class omitted still says what it is
        }
        if (kind == DeviceKind.OTHER && !children(pci, "nic").isEmpty()) {
            kind = DeviceKind.NIC;
        }
        out.add(new PciDevice(busId, vendor, device, cls, kind, Fact.absent(why), Fact.absent(why),
                numa < 0 ? Fact.absent("numaid -1 in the XML") : Fact.of(numa), Fact.of(SyntheticPaths.path(root, chain)),
                new PciLink(speed, width, speed, width), config, Fact.absent(why), Fact.absent(why), subsystem(pci)));
        for (Element nic : children(pci, "nic")) {
            for (Element net : children(nic, "net")) {
                if (net.hasAttribute("name")) {
                    names.putIfAbsent(busId, net.getAttribute("name"));
                }
            }
        }
        for (Element child : children(pci, "pci")) {
            walk(child, root, chain, numa, ports, out, names, source);
        }
    }

    private static Fact<String> subsystem(Element pci) {
        if (!pci.hasAttribute("subsystem_vendor") || !pci.hasAttribute("subsystem_device")) {
            return Fact.absent("no subsystem ids in the XML");
        }
        return Fact.of(hex(pci.getAttribute("subsystem_vendor"), 4) + ":" + hex(pci.getAttribute("subsystem_device"), 4));
    }

    private static Document document(String xml, String source) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            f.setIgnoringComments(true);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            return b.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        } catch (SAXParseException e) {
            throw new InputException(source + ":" + e.getLineNumber() + ": not well-formed XML (" + e.getMessage() + ")", e);
        } catch (Exception e) {
            throw new InputException(source + ": cannot read as XML (" + e.getMessage() + ")", e);
        }
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(tag)) {
                out.add(e);
            }
        }
        return out;
    }

    private static String hex(String raw, int digits) {
        String v = raw.strip().toLowerCase(Locale.ROOT);
        v = v.startsWith("0x") ? v.substring(2) : v;
        if (!v.matches("[0-9a-f]+")) {
            return "0".repeat(digits);
        }
        return v.length() >= digits ? v.substring(v.length() - digits) : "0".repeat(digits - v.length()) + v;
    }

    private static int parseInt(String s, int fallback) {
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
