package io.nccldoctor.gdr.text;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `ethtool -i IFACE` (ethtool.c dump_drvinfo): "driver: mlx5_core", "version:", "firmware-version: 14.23.1020
 * (MT_2420110034)", "expansion-rom-version:", "bus-info: 0000:af:00.0", then five "supports-…: yes|no" lines, each
 * unindented. "driver:" opens a block; the interface comes from the command line before it, if the input shows one.
 * The firmware and PCI function are kept per block ({@link RdmaPaste.DriverInfo}) and given to the RDMA device the
 * input places at that PCI function ({@link PasteFacts#tieDriverInfo}).
 */
final class EthtoolInfoReader implements SectionReader {

    static final Pattern OPENS = Pattern.compile("^driver: \\S+\\s*$");
    private static final Pattern KEY_VALUE = Pattern.compile("^(driver|version|firmware-version|expansion-rom-version|bus-info"
            + "|supports-statistics|supports-test|supports-eeprom-access|supports-register-dump|supports-priv-flags):\\s*(.*?)\\s*$");
    /** "14.23.1020 (MT_2420110034)": mlx5's "%d.%d.%04d (%.16s)", firmware then PSID (en_ethtool.c mlx5e_ethtool_get_drvinfo). */
    private static final Pattern FW_PSID = Pattern.compile("^(\\S+)\\s+\\(([^)]*)\\)$");

    private final PasteFacts facts;
    private final String netdev;
    private PasteFacts.DriverFacts block;

    EthtoolInfoReader(PasteFacts facts, Optional<Command> before) {
        this.facts = facts;
        this.netdev = before.filter(c -> c.tool().equals("ethtool")).flatMap(c -> c.option("-i", "--driver")).orElse(RdmaPaste.UNNAMED);
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        Matcher kv = KEY_VALUE.matcher(line);
        if (!kv.matches()) {
            return Verdict.FOREIGN;
        }
        String value = kv.group(2);
        if (kv.group(1).equals("driver")) {
            block = facts.driverInfo(netdev, at);
        }
        if (block == null || value.isEmpty()) {
            // an empty value is what the driver left empty (a veth has no firmware and no bus)
            return block == null ? Verdict.FOREIGN : Verdict.KNOWN;
        }
        switch (kv.group(1)) {
            case "driver" -> block.driver.set(value, at, facts.notes);
            case "firmware-version" -> {
                Matcher fw = FW_PSID.matcher(value);
                block.firmware.set(fw.matches() ? fw.group(1) : value, at, facts.notes);
                if (fw.matches()) {
                    block.psid.set(fw.group(2), at, facts.notes);
                }
            }
            case "bus-info" -> block.busInfo.set(value, at, facts.notes);
            default -> {
                return Verdict.KNOWN;
            }
        }
        return Verdict.FACT;
    }
}
