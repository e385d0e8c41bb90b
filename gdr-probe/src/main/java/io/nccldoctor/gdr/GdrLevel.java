package io.nccldoctor.gdr;

import io.nccldoctor.pcie.NcclPathTypes;
import java.util.List;
import java.util.Locale;

/**
 * NCCL_NET_GDR_LEVEL read exactly as NCCL's ncclGetLevel does (src/graph/paths.cc; reference/nccl-internals.md
 * §4.1): a path type name compared case-sensitively (strcmp) with every name up to SYS, else a legacy number
 * parsed with strtol(str, NULL, 0) and mapped 0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 and above SYS; anything else is
 * silently ignored and the default applies. The default is NCCL's for the version ({@link NcclPathTypes#defaultGdrLevel}):
 * PXB, or P2C from 2.29 on while NCCL_NET_GDR_C2C is on.
 *
 * @param raw      the variable's value, or null when unset
 * @param name     the level NCCL uses (by default PXB, or P2C from 2.29 with NCCL_NET_GDR_C2C on)
 * @param number   its PATH_* number in the version
 * @param ignored  why NCCL ignores the value, when it does ("phb": names are case-sensitive)
 */
public record GdrLevel(String raw, String name, int number, String source, String ignored) {

    private static final List<String> LEGACY = List.of("LOC", "PIX", "PXB", "PHB", "SYS", "SYS");

    /** With NCCL_NET_GDR_C2C unset (on, NCCL's default since 2.27). */
    public static GdrLevel parse(String raw, String version) {
        return parse(raw, version, null);
    }

    /**
     * @param c2cRaw NCCL_NET_GDR_C2C, or null when unset: an NCCL_PARAM read with strtoll, so only a number that is 0
     *               turns it off; anything else that is not a number leaves NCCL's default (1)
     */
    public static GdrLevel parse(String raw, String version, String c2cRaw) {
        boolean c2c = c2cRaw == null || c2cRaw.isBlank() || !Character.isDigit(c2cRaw.strip().charAt(0)) || strtol(c2cRaw.strip()) != 0;
        String fallback = NcclPathTypes.defaultGdrLevel(version, c2c);
        String byDefault = "NCCL's default (" + fallback + (fallback.equals("P2C") ? " while NCCL_NET_GDR_C2C is on" : "") + ")";
        if (raw == null) {
            return new GdrLevel(null, fallback, NcclPathTypes.number(fallback, version), byDefault, null);
        }
        int sys = NcclPathTypes.number("SYS", version);
        for (int i = 0; i <= sys; i++) {
            if (NcclPathTypes.name(i, version).equals(raw)) {
                return new GdrLevel(raw, raw, i, "NCCL_NET_GDR_LEVEL=" + raw, null);
            }
        }
        if (!raw.isEmpty() && Character.isDigit(raw.charAt(0))) {
            long old = strtol(raw);
            String name = LEGACY.get((int) Math.min(old, LEGACY.size() - 1));
            return new GdrLevel(raw, name, NcclPathTypes.number(name, version), "NCCL_NET_GDR_LEVEL=" + raw + " (legacy number " + old + " = " + name + ")", null);
        }
        String why = raw.equalsIgnoreCase("PHB") || raw.equalsIgnoreCase("PXB") || raw.equalsIgnoreCase("SYS")
                || raw.equalsIgnoreCase("PIX") || raw.equalsIgnoreCase("LOC") || raw.equalsIgnoreCase("NVL")
                ? "names are compared case-sensitively: '" + raw + "' is not '" + raw.toUpperCase(Locale.ROOT) + "'"
                : "'" + raw + "' is neither a path type name up to SYS nor a number";
        return new GdrLevel(raw, fallback, NcclPathTypes.number(fallback, version),
                byDefault + ": NCCL_NET_GDR_LEVEL=" + raw + " is silently ignored", why);
    }

    /** C's strtol(s, NULL, 0): optional 0x (hex) or leading 0 (octal), digits until the first that does not fit. */
    static long strtol(String s) {
        int base = 10;
        int i = 0;
        if (s.startsWith("0x") || s.startsWith("0X")) {
            base = 16;
            i = 2;
        } else if (s.startsWith("0") && s.length() > 1) {
            base = 8;
            i = 1;
        }
        long v = 0;
        for (; i < s.length(); i++) {
            int d = Character.digit(s.charAt(i), base);
            if (d < 0) {
                break;
            }
            v = Math.min(v * base + d, Integer.MAX_VALUE);
        }
        return v;
    }
}
