package io.nccldoctor.pcie;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a PCI tree in NCCL's topology XML (reference/nccl-internals.md §9), for NCCL_TOPO_FILE on machines whose
 * virtualisation hides the real hierarchy (nccl-tests#256: a VM shows every GPU on its own root port). One
 * {@code <cpu>} per NUMA node; switches as nested {@code <pci>} elements keyed by their upstream port, as NCCL's own
 * dump does; GPUs and NICs as leaf {@code <pci>} elements. GPU and NIC attributes (dev, sm, net names, speeds) are
 * left to NCCL, which fills them in from the devices when it loads the file.
 */
public final class NcclTopoXmlWriter {

    private NcclTopoXmlWriter() {
    }

    public static String write(List<PciDevice> devices, Platform.Cpu cpu) {
        PciTree tree = PciTree.of(devices);
        Map<Integer, List<PciDevice>> byNuma = new TreeMap<>();
        for (PciDevice d : devices) {
            if (d.kind().isGpu() || d.kind() == DeviceKind.NIC || d.kind() == DeviceKind.NVSWITCH) {
                byNuma.computeIfAbsent(tree.numaNode(d.address()).orElse(0), k -> new ArrayList<>()).add(d);
            }
        }
        StringBuilder out = new StringBuilder("<system version=\"1\">\n");
        for (Map.Entry<Integer, List<PciDevice>> numa : byNuma.entrySet()) {
            out.append("  <cpu numaid=\"").append(numa.getKey()).append('"');
            cpu.vendor().map(v -> out.append(" vendor=\"").append(escape(v)).append('"'));
            cpu.family().map(f -> out.append(" familyid=\"").append(f).append('"'));
            cpu.model().map(m -> out.append(" modelid=\"").append(m).append('"'));
            out.append(" arch=\"x86_64\">\n");
            Node root = new Node(null);
            for (PciDevice d : numa.getValue()) {
                Node at = root;
                List<String> switches = new ArrayList<>(tree.switches(d.address()));
                Collections.reverse(switches);
                for (String s : switches) {
                    at = at.children.computeIfAbsent(s, Node::new);
                }
                at.children.put(d.address(), new Node(d.address()));
            }
            for (Node n : root.children.values()) {
                emit(n, tree, out, 2);
            }
            out.append("  </cpu>\n");
        }
        return out.append("</system>\n").toString();
    }

    private static final class Node {
        final String address;
        final Map<String, Node> children = new LinkedHashMap<>();

        Node(String address) {
            this.address = address;
        }
    }

    /** Open a node's tag, or (close) write its end tag once its children are written. */
    private record Step(Node node, int depth, boolean close) {
    }

    /** Depth-first with an explicit stack: a deep hierarchy from a text input cannot overflow the Java stack. */
    private static void emit(Node top, PciTree tree, StringBuilder out, int topDepth) {
        Deque<Step> work = new ArrayDeque<>();
        work.push(new Step(top, topDepth, false));
        while (!work.isEmpty()) {
            Step step = work.pop();
            Node n = step.node();
            int depth = step.depth();
            String indent = "  ".repeat(depth);
            if (step.close()) {
                out.append(indent).append("</pci>\n");
                continue;
            }
            openTag(n, tree, out, indent);
            if (n.children.isEmpty()) {
                out.append("/>\n");
                continue;
            }
            out.append(">\n");
            work.push(new Step(n, depth, true));
            List<Node> children = new ArrayList<>(n.children.values());
            Collections.reverse(children);
            children.forEach(c -> work.push(new Step(c, depth + 1, false)));
        }
    }

    private static void openTag(Node n, PciTree tree, StringBuilder out, String indent) {
        PciDevice d = tree.device(n.address).orElse(null);
        out.append(indent).append("<pci busid=\"").append(n.address).append('"');
        if (d != null) {
            out.append(" class=\"0x").append(d.classCode()).append("\" vendor=\"0x").append(d.vendorId())
                    .append("\" device=\"0x").append(d.deviceId()).append('"');
            d.link().maxSpeedGTps().map(s -> out.append(String.format(Locale.ROOT, " link_speed=\"%.1f GT/s PCIe\"", s)));
            d.link().maxWidth().map(w -> out.append(" link_width=\"").append(w).append('"'));
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }
}
