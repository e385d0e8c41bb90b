package io.nccldoctor.pcie;

import io.nccldoctor.core.InputException;
import java.util.List;
import java.util.Map;

/**
 * Reads NCCL's topology XML (NCCL_TOPO_FILE, NCCL_TOPO_DUMP_FILE; reference/nccl-internals.md §9), and RCCL's, which
 * has the same shape: system &gt; cpu &gt; pci (switches, nested) &gt; pci (GPU, NIC) &gt; gpu | nic &gt; net. The
 * hierarchy becomes PCI devices with sysfs-shaped paths, each CPU element a root complex, so the same tree code
 * computes the paths NCCL would. Pasted files are often cut off or are snippets; the reader ({@link NcclTopoReader})
 * keeps everything up to the cut and says where the text ended and what was not read.
 *
 * @param devices   every pci element as a device (ids, class, link, NUMA node of its cpu)
 * @param rdmaNames busid → net name (mlx5_0) for pci elements that hold a nic
 * @param notRead   what was not read, each with its line: the cut, unclosed or unopened elements, unknown elements
 */
public record NcclTopoXml(List<PciDevice> devices, Map<String, String> rdmaNames, List<String> notRead) {

    public static NcclTopoXml parse(String xml, String source) {
        NcclTopoReader r = new NcclTopoReader(source);
        r.read(new XmlTags(xml));
        if (r.devices().isEmpty()) {
            List<String> why = r.notRead();
            throw new InputException(source + ": no <pci> element with a busid: not an NCCL topology file"
                    + (why.isEmpty() ? "" : " (" + why.get(0) + (why.size() > 1 ? "; " + (why.size() - 1) + " more" : "") + ")"));
        }
        return new NcclTopoXml(r.devices(), r.rdmaNames(), r.notRead());
    }
}
