package io.nccldoctor.gdr.text;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Port states in the kernel's words (drivers/infiniband/core/sysfs.c, what the live probe records), from the numbers
 * and words each tool prints: ibv_devinfo "PORT_ACTIVE (4)" / "LINK_UP (5)" (rdma-core libibverbs/examples/devinfo.c),
 * ibstat "Active" / "LinkUp" (infiniband-diags/ibstat.c), rdma link "ACTIVE" / "LINK_UP" (iproute2 rdma/link.c),
 * ibstatus and sysfs "4: ACTIVE" / "5: LinkUp", ibportstate "Initialize" / "NoChange" (libibmad dump.c mad_dump_portstate).
 */
final class PortStates {

    /** IBA PortState 0..5, as sysfs names them. */
    static final List<String> STATES = List.of("NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER");
    /** IBA PortPhysicalState 0..7, as sysfs names them (0 is "no state change" in ibstat). */
    static final List<String> PHYS = List.of("NOP", "Sleep", "Polling", "Disabled", "PortConfigurationTraining", "LinkUp",
            "LinkErrorRecovery", "Phy Test");

    /** Every tool's word for a state, upper-cased, → the state's number. */
    private static final Map<String, Integer> STATE_WORDS = Map.ofEntries(Map.entry("NOP", 0), Map.entry("NOCHANGE", 0), Map.entry("DOWN", 1),
            Map.entry("INIT", 2), Map.entry("INITIALIZE", 2), Map.entry("INITIALIZING", 2), Map.entry("ARMED", 3), Map.entry("ACTIVE", 4),
            Map.entry("ACTIVE_DEFER", 5), Map.entry("PORT_DOWN", 1), Map.entry("PORT_INIT", 2), Map.entry("PORT_ARMED", 3),
            Map.entry("PORT_ACTIVE", 4), Map.entry("PORT_ACTIVE_DEFER", 5));

    /**
     * Every tool's word for a physical state → its number. rdma link prints "ARMED" for 4 (iproute2 rdma/link.c
     * phys_state_str), so the word is read in the tool's own table, never in the other one's.
     */
    private static final Map<String, Integer> PHYS_WORDS = Map.ofEntries(Map.entry("NO STATE CHANGE", 0), Map.entry("NOP", 0),
            Map.entry("NOCHANGE", 0),
            Map.entry("SLEEP", 1), Map.entry("POLLING", 2), Map.entry("DISABLED", 3),
            Map.entry("PORTCONFIGURATIONTRAINING", 4), Map.entry("PORT_CONFIGURATION TRAINNING", 4), Map.entry("LINKUP", 5),
            Map.entry("LINK_UP", 5), Map.entry("LINKERRORRECOVERY", 6), Map.entry("LINK_ERROR_RECOVERY", 6),
            Map.entry("LINK_ERROR_RECOVER", 6), Map.entry("PHYTEST", 7), Map.entry("PHY TEST", 7), Map.entry("PHY_TEST", 7));

    private static final Pattern IN_PARENS = Pattern.compile("\\((\\d+)\\)\\s*$");
    private static final Pattern LEADING = Pattern.compile("^(\\d+):");

    private PortStates() {
    }

    /** "PORT_ACTIVE (4)", "Active", "4: ACTIVE", "ACTIVE" → "ACTIVE"; the number wins where both are printed. */
    static Optional<String> state(String printed) {
        return name(printed, STATES, STATE_WORDS);
    }

    /** "LINK_UP (5)", "LinkUp", "5: LinkUp" → "LinkUp". */
    static Optional<String> phys(String printed) {
        return name(printed, PHYS, PHYS_WORDS);
    }

    /** rdma link's physical_state words, whose 4 is "ARMED" (port configuration training). */
    static Optional<String> rdmaToolPhys(String word) {
        return word.equals("ARMED") ? Optional.of(PHYS.get(4)) : phys(word);
    }

    private static Optional<String> name(String printed, List<String> names, Map<String, Integer> words) {
        String s = printed.strip();
        Integer n = number(s);
        if (n == null) {
            n = words.get(s.replaceAll("\\s*\\(.*$", "").replaceFirst("^\\d+:\\s*", "").toUpperCase(Locale.ROOT));
        }
        return n == null || n < 0 || n >= names.size() ? Optional.empty() : Optional.of(names.get(n));
    }

    /** The number in "PORT_ACTIVE (4)" or "4: ACTIVE", else null. */
    private static Integer number(String s) {
        Matcher paren = IN_PARENS.matcher(s);
        if (paren.find()) {
            return Integer.valueOf(paren.group(1));
        }
        Matcher lead = LEADING.matcher(s);
        return lead.find() ? Integer.valueOf(lead.group(1)) : null;
    }
}
