package io.nccldoctor.pcie;

import java.util.List;
import java.util.Map;

/**
 * What one topology text gave, for {@code topo} and for reading a pasted file as a kind of its own: the PCI
 * functions, the RDMA names the text gave, the header-less lspci fragments, every line or element that was not
 * read, and the census of the functions. Pure: text in, model out.
 *
 * @param kind      "lspci-tree", "lspci-verbose", "lspci" (both) or "nccl-topo-xml"
 * @param rdmaNames PCI address → the RDMA device name the text gives it (the first, where it gives several)
 * @param rdmaNets  PCI address → every RDMA name the text gives it (NCCL's XML: one per port of a merged NIC)
 * @param ncclNets  an NCCL topology file's nets and GPUDirect RDMA attributes; none for lspci
 */
public record PciReading(String kind, String source, List<PciDevice> devices, Map<String, String> rdmaNames,
                         Map<String, List<String>> rdmaNets, List<LspciFragment> fragments, List<String> notUnderstood,
                         PciCensus census, NcclTopoNets ncclNets) {

    /** {@code lspci -tv} / {@code -tvnn} text. */
    public static PciReading lspciTree(String text, String source) {
        return lspci(text, source, null, null);
    }

    /** {@code lspci -vvv} blocks, a plain {@code lspci} listing, or grep'd excerpts of either. */
    public static PciReading lspciVerbose(String text, String source) {
        return lspci(null, null, text, source);
    }

    /** Either text may be null; both together give the hierarchy of one and the details of the other. */
    public static PciReading lspci(String tree, String treeSource, String verbose, String verboseSource) {
        LspciText t = LspciText.parse(tree == null ? null : tree.lines().toList(), treeSource,
                verbose == null ? null : verbose.lines().toList(), verboseSource);
        String kind = tree != null && verbose != null ? "lspci" : tree != null ? "lspci-tree" : "lspci-verbose";
        String source = tree != null && verbose != null ? treeSource + " + " + verboseSource : tree != null ? treeSource : verboseSource;
        List<PciDevice> devices = t.devices();
        return new PciReading(kind, source, devices, Map.of(), Map.of(), t.fragments(), t.problems(), PciCensus.of(devices, Map.of()),
                NcclTopoNets.none());
    }

    /** NCCL's or RCCL's topology XML, whole, cut off, or a snippet. */
    public static PciReading ncclTopoXml(String text, String source) {
        NcclTopoXml x = NcclTopoXml.parse(text, source);
        return new PciReading("nccl-topo-xml", source, x.devices(), x.rdmaNames(), x.nets(), List.of(), x.notRead(),
                PciCensus.of(x.devices(), x.rdmaNames()), x.ncclNets());
    }
}
