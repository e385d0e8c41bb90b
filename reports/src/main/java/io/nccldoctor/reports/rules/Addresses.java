package io.nccldoctor.reports.rules;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/** IP addresses and GIDs as bytes, for NCCL_IB_ADDR_RANGE: literals only, never a name lookup. */
final class Addresses {

    private Addresses() {
    }

    /** "10.0.0.0" (family 4) or "fd00::" (family 6) as 4 or 16 bytes; empty for anything else. */
    static Optional<byte[]> parse(String literal, int family) {
        boolean v4 = literal.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean v6 = literal.contains(":") && literal.matches("[0-9A-Fa-f:.]+");
        if (family == 4 ? !v4 : !v6) {
            return Optional.empty();
        }
        try {
            byte[] b = InetAddress.getByName(literal).getAddress(); // a literal: InetAddress parses it, no lookup
            return b.length == (family == 4 ? 4 : 16) ? Optional.of(b) : Optional.empty();
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** "fe80:0000:…:4db8" (eight groups of four hex digits, as sysfs prints a GID) as 16 bytes. */
    static byte[] gidBytes(String gid) {
        String[] groups = gid.split(":");
        byte[] out = new byte[16];
        for (int i = 0; i < 8 && i < groups.length; i++) {
            int v = groups[i].matches("[0-9a-fA-F]{1,4}") ? Integer.parseInt(groups[i], 16) : 0;
            out[2 * i] = (byte) (v >> 8);
            out[2 * i + 1] = (byte) v;
        }
        return out;
    }

    /** Whether the first {@code bits} bits of both agree. */
    static boolean samePrefix(byte[] a, byte[] b, int bits) {
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >> (i % 8);
            if ((a[i / 8] & mask) != (b[i / 8] & mask)) {
                return false;
            }
        }
        return true;
    }
}
