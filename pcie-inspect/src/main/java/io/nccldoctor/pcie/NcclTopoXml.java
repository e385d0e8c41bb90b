package io.nccldoctor.pcie;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads NCCL's topology XML (NCCL_TOPO_FILE, NCCL_TOPO_DUMP_FILE; reference/nccl-internals.md §9), and RCCL's, which
 * has the same shape: system &gt; cpu &gt; pci (switches, nested) &gt; pci (GPU, NIC) &gt; gpu | nic &gt; net. The
 * hierarchy becomes PCI devices with sysfs-shaped paths, each CPU element a root complex, so the same tree code
 * computes the paths NCCL would. Pasted files are often cut off or are snippets; the reader ({@link NcclTopoReader})
 * keeps everything up to the cut and says where the text ended and what was not read.
 *
 * @param devices   every pci element as a device (ids, class, link, NUMA node of its cpu)
 * @param rdmaNames busid → the first net name (mlx5_0) of a pci element that holds a nic: the RDMA device the
 *                  function is shown as
 * @param nets      busid → every net name of that nic, in order: NCCL merges the functions of a multi-port NIC into one
 *                  pci element, function 0, with one {@code <net>} per port (src/transport/net_ib/init.cc
 *                  ncclIbGetPciPath, "Merge multi-port NICs into the same PCI device": the last digit of the path set
 *                  to '0'), so mlx5_4 (port 1) and mlx5_5 (port 2) share a busid; which function each was, the file
 *                  does not say
 * @param ncclNets  every {@code <net>} (RDMA, socket or plugin, or not a NET node) and the {@code gdr} attributes of
 *                  nets and GPUs, which decide GPUDirect RDMA before the distance does
 * @param notRead   what was not read, each with its line: the cut, unclosed or unopened elements, unknown elements,
 *                  and the lines before and after the XML ("SOURCE:N: …") that a paste adds
 */
public record NcclTopoXml(List<PciDevice> devices, Map<String, String> rdmaNames, Map<String, List<String>> nets,
                          NcclTopoNets ncclNets, List<String> notRead) {

    /** A Markdown fence, alone or with its language ("```xml"): pastes put the file between two. */
    private static final Pattern FENCE = Pattern.compile("^\\s*(?:```|~~~)\\S*\\s*$");

    public static NcclTopoXml parse(String xml, String source) {
        List<String> skipped = new ArrayList<>();
        String text = withoutPasteLines(xml, source, skipped);
        NcclTopoReader r = new NcclTopoReader(source);
        r.read(new XmlTags(text));
        if (r.devices().isEmpty()) {
            List<String> why = r.notRead();
            throw new InputException(source + ": no <pci> element with a busid: not an NCCL topology file"
                    + (why.isEmpty() ? "" : " (" + why.get(0) + (why.size() > 1 ? "; " + (why.size() - 1) + " more" : "") + ")"));
        }
        List<String> notRead = new ArrayList<>(skipped);
        notRead.addAll(r.notRead());
        return new NcclTopoXml(r.devices(), r.rdmaNames(), r.nets(), r.ncclNets(), List.copyOf(notRead));
    }

    /**
     * True when the text holds XML after at most the lines a paste adds before it: some line starts with '&lt;' (a
     * Markdown fence, a shell prompt with `cat topo.xml`, a sentence may come first).
     */
    public static boolean holdsXml(String text) {
        return text.lines().anyMatch(l -> l.stripLeading().startsWith("<"));
    }

    /**
     * The text with the lines before its first tag line and a closing fence after its last one blanked (so every
     * line keeps its number), each listed as skipped. A line between tags stays: what is inside the XML is the
     * reader's to judge.
     */
    private static String withoutPasteLines(String xml, String source, List<String> skipped) {
        List<String> lines = new ArrayList<>(xml.lines().toList());
        int first = 0;
        while (first < lines.size() && !lines.get(first).stripLeading().startsWith("<")) {
            skip(lines, first++, source, skipped);
        }
        for (int n = lines.size() - 1; n > first && !lines.get(n).strip().endsWith(">"); n--) {
            if (FENCE.matcher(lines.get(n)).matches() || lines.get(n).isBlank()) {
                skip(lines, n, source, skipped);
            } else {
                break;
            }
        }
        return skipped.isEmpty() ? xml : String.join("\n", lines) + "\n";
    }

    private static void skip(List<String> lines, int n, String source, List<String> skipped) {
        if (!lines.get(n).isBlank()) {
            skipped.add(source + ":" + (n + 1) + ": not XML (a line the paste adds around the file), skipped: " + lines.get(n).strip());
        }
        lines.set(n, "");
    }
}
