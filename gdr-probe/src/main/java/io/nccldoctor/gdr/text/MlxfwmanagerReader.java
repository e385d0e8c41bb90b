package io.nccldoctor.gdr.text;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `mlxfwmanager` (`--query`; Mellanox mstflint mlxfwupdate/mlxfwmanager.cpp, the device block it prints): "Device #1:",
 * a dashed line, then "  Key:   value" lines (Device Type, Part Number, Description, PSID, PCI Device Name, the port
 * MACs or GUIDs), "Versions: Current Available" and one row per image ("FW 2.42.5000 2.42.5000", "FW (Running) …",
 * "PXE …", "UEFI …"), and "Status:". The block names the adapter by PCI address or /dev/mst path, never by its RDMA
 * device name, so it is kept as an adapter of its own ({@link RdmaPaste.Adapter}), not merged into a device.
 */
final class MlxfwmanagerReader implements SectionReader {

    /** A device block, or the line mlxfwmanager prints before the first ("Querying Mellanox devices firmware ..."). */
    static final Pattern OPENS = Pattern.compile("^\\s*(?:Device #(\\d+):|Querying Mellanox devices firmware \\.\\.\\.)\\s*$");
    private static final Pattern KEY_VALUE = Pattern.compile("^\\s*(Device Type|Part Number|Description|PSID|PCI Device Name"
            + "|Base GUID|Base MAC|System GUID|Node GUID|Port[12] (?:MAC|GUID)|Status):\\s*(.*?)\\s*$");
    /** "FW             2.42.5000      2.42.5000" and "FW (Running)   22.43.1020     N/A": image, current, available. */
    private static final Pattern IMAGE = Pattern.compile("^\\s*(FW \\(Running\\)|FW|PXE|UEFI|FCODE|UEFI Virtio \\w+)\\s+(\\S+)(?:\\s+(\\S+))?\\s*$");

    private final PasteFacts facts;
    private PasteFacts.AdapterFacts adapter;
    private boolean afterDescription;

    MlxfwmanagerReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        String t = line.strip();
        boolean wrapped = afterDescription;
        afterDescription = false;
        Matcher open = OPENS.matcher(line);
        if (open.matches() && open.group(1) != null) {
            adapter = facts.adapter(Integer.parseInt(open.group(1)), at);
            return Verdict.FACT;
        }
        if (t.matches("-{4,}") || t.equals("Querying Mellanox devices firmware ...")) {
            return Verdict.KNOWN;
        }
        if (adapter == null) {
            return Verdict.FOREIGN;
        }
        Matcher kv = KEY_VALUE.matcher(line);
        if (kv.matches()) {
            return key(kv.group(1), kv.group(2), at);
        }
        if (t.matches("Versions:\\s+Current\\s+Available")) {
            return Verdict.KNOWN;
        }
        Matcher image = IMAGE.matcher(line);
        if (image.matches()) {
            return image(image.group(1), image.group(2), image.group(3), at);
        }
        // a Description longer than the page was wrapped onto the next line ("… QDR IB (40Gb" / "/s) and 10GigE; …")
        return wrapped ? Verdict.KNOWN : Verdict.FOREIGN;
    }

    private Verdict key(String key, String value, Slot.Line at) {
        switch (key) {
            case "Device Type" -> adapter.type.set(value, at, facts.notes);
            case "Part Number" -> adapter.partNumber.set(value, at, facts.notes);
            case "PSID" -> adapter.psid.set(value, at, facts.notes);
            case "PCI Device Name" -> adapter.pci.set(value, at, facts.notes);
            case "Status" -> adapter.status.set(value, at, facts.notes);
            case "Description" -> {
                afterDescription = true;
                return Verdict.KNOWN;
            }
            default -> {
                return Verdict.KNOWN;
            }
        }
        return Verdict.FACT;
    }

    private Verdict image(String image, String current, String available, Slot.Line at) {
        switch (image) {
            case "FW" -> {
                adapter.fw.set(current, at, facts.notes);
                if (available != null && !available.equals("N/A") && !available.equals("--")) {
                    adapter.fwAvailable.set(available, at, facts.notes);
                }
            }
            case "FW (Running)" -> adapter.fwRunning.set(current, at, facts.notes);
            default -> {
                return Verdict.KNOWN;
            }
        }
        return Verdict.FACT;
    }

    /** The block's facts in the paste's record. */
    static RdmaPaste.Adapter build(PasteFacts.AdapterFacts a) {
        String notShown = "not in this mlxfwmanager block";
        return new RdmaPaste.Adapter(a.number, a.from.number(), a.type.fact(notShown), a.partNumber.fact(notShown),
                a.psid.fact(notShown), a.pci.fact(notShown), a.fw.fact(notShown), a.fwRunning.fact(notShown
                + " (printed only when the running firmware differs from the burned one)"),
                a.fwAvailable.fact("no image to compare with (N/A)"), a.status.fact(notShown));
    }
}
