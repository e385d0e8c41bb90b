package io.nccldoctor.collectives.parse;

/**
 * A dump link line ("+ PCI[48.0] - GPU/0-68000 (8)") read from a block's bytes into the numbers {@link SystemDumps}
 * counts: the link and node types as codes, the bandwidth and node id as 64-bit FNV-1a hashes of their bytes. Accepts
 * exactly the lines {@link SystemDumps#link(String)} accepts (past the indentation, which the caller skipped), and
 * gives the same numbers.
 */
final class DumpLinkBytes {

    int link;
    long bw;
    int bwFrom;
    int bwTo;
    int node;
    long id;

    private static final int PCI = code("PCI");
    private static final int NVL = code("NVL");
    private static final int C2C = code("C2C");
    private static final int NET = code("NET");
    private static final int CPU = code("CPU");
    private static final int GPU = code("GPU");
    private static final int NIC = code("NIC");
    private static final int NVS = code("NVS");

    private static int code(String three) {
        return three.charAt(0) | three.charAt(1) << 8 | three.charAt(2) << 16;
    }

    /** {@code \+ (\w+)\[([\d.]+)\] - (\w+)/(\S+)} at {@code p}, within [p, end); false when the line is not one. */
    boolean read(ByteWords b, int p, int end) {
        if (p + 2 > end || b.byteAt(p) != '+' || b.byteAt(p + 1) != ' ') {
            return false;
        }
        int type = p + 2;
        int typeEnd = wordEnd(b, type, end);
        if (typeEnd == type || typeEnd >= end || b.byteAt(typeEnd) != '[') {
            return false;
        }
        bwFrom = typeEnd + 1;
        bwTo = bwFrom;
        long h = SystemDumps.FNV_BASIS;
        for (int c; bwTo < end && (MessageKinds.digit(c = b.byteAt(bwTo)) || c == '.'); bwTo++) {
            h = (h ^ c) * SystemDumps.FNV_PRIME;
        }
        if (bwTo == bwFrom || bwTo + 4 > end || (b.bytesAt(bwTo) & 0xFFFF_FFFFL) != CLOSE_DASH) {
            return false;
        }
        bw = h;
        int target = bwTo + 4;
        int targetEnd = wordEnd(b, target, end);
        if (targetEnd == target || targetEnd >= end || b.byteAt(targetEnd) != '/') {
            return false;
        }
        h = SystemDumps.FNV_BASIS;
        int q = targetEnd + 1;
        for (int c; q < end && !BlockScanner.space(c = b.byteAt(q)); q++) {
            h = (h ^ (c & 0xFF)) * SystemDumps.FNV_PRIME;
        }
        if (q == targetEnd + 1) {
            return false;
        }
        id = h;
        link = typeEnd - type != 3 ? -1 : linkCode(three(b, type));
        node = targetEnd - target != 3 ? -1 : nodeCode(three(b, target));
        return true;
    }

    /** "] - " as a little-endian int. */
    private static final long CLOSE_DASH = ']' | ' ' << 8 | '-' << 16 | (long) ' ' << 24;

    private static int three(ByteWords b, int at) {
        return (int) (b.bytesAt(at) & 0xFFFFFF);
    }

    private static int linkCode(int t) {
        return t == PCI ? 0 : t == NVL ? 1 : t == C2C ? 2 : t == NET ? 3 : -1;
    }

    private static int nodeCode(int t) {
        return t == CPU ? 0 : t == GPU ? 1 : t == NIC ? 2 : t == NET ? 3 : t == NVS ? 4 : -1;
    }

    private static int wordEnd(ByteWords b, int from, int end) {
        int k = from;
        while (k < end && SystemDumps.wordChar(b.byteAt(k))) {
            k++;
        }
        return k;
    }
}
