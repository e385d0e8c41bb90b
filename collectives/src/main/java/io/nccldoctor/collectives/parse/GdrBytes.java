package io.nccldoctor.collectives.parse;

/**
 * A GPU Direct RDMA decision line read from a block's bytes, in the wording NCCL printed before 2.29 (src/graph/paths.cc:
 * "GPU Direct RDMA Enabled for GPU 5 / HCA 5 (distance 5 <= 5), read 1 mode Default"; "Disabled … (distance 7 > 4)" in
 * older releases). NCCL prints one per rank and NIC, each naming its rank, so no two lines of a job are alike and none is
 * remembered ({@link MessageMemo}): a job of 4,096 processes prints eight thousand of them for each communicator, and
 * read as strings they cost a tenth of a 1 GiB log's parse. Only the decision is read here (enabled, distance, comparison,
 * threshold), for the log's counts once its examples are kept; the lines are those {@link LogMessages#gdr} reads in the
 * same wording, with the same decision: "GPU Direct RDMA " and the rest of that shape from the message's start, no 'G'
 * before "NCCL" (so neither that text nor 2.29's "for GPU/" stands earlier in the line), and exactly one '/' in the
 * message (the one of " / HCA "; 2.29's wording holds two more). Any other line is left to the string reader.
 */
final class GdrBytes {

    boolean enabled;
    int distance;
    /** The comparison: one of {@link #RELATIONS}. */
    String relation;
    int threshold;

    static final String[] RELATIONS = {"<", "<=", ">", ">="};

    private static final long GPU_DIRE = ByteWords.word("GPU Dire");
    private static final long CT_RDMA = ByteWords.word("ct RDMA ");
    private static final long ENABLED = ByteWords.word("Enabled ") & 0xFF_FFFF_FFFF_FFFFL; // "Enabled"
    private static final long DISABLED = ByteWords.word("Disabled");
    private static final long FOR_GPU = ByteWords.word(" for GPU");
    private static final long SLASH_HCA = ByteWords.word("/ HCA \0\0") & 0xFFFF_FFFF_FFFFL;
    private static final long DISTANCE = ByteWords.word("distance");
    private static final long GS = 0x4747474747474747L;
    private static final long SLASHES = 0x2F2F2F2F2F2F2F2FL;

    /** Reads the message [msg, end) of the line that starts at {@code start} ("NCCL" at {@code nccl}); false: not this shape. */
    boolean read(ByteWords b, int start, int nccl, int msg, int end) {
        if (anyG(b, start, nccl) || count(b, msg, end, SLASHES) != 1) {
            return false;
        }
        if (b.bytesAt(msg) != GPU_DIRE || b.bytesAt(msg + 8) != CT_RDMA) {
            return false;
        }
        int p = msg + 16;
        long w = b.bytesAt(p);
        if ((w & 0xFF_FFFF_FFFF_FFFFL) == ENABLED) {
            enabled = true;
            p += 7;
        } else if (w == DISABLED) {
            enabled = false;
            p += 8;
        } else {
            return false;
        }
        if (b.bytesAt(p) != FOR_GPU || b.byteAt(p + 8) != ' ') {
            return false;
        }
        int gpu = p + 9;
        int gpuEnd = nonSpaceEnd(b, gpu, end);
        // " / HCA ": a blank, then the slash and "HCA " (the one '/' of the message)
        if (gpuEnd == gpu || gpuEnd + 7 > end || b.byteAt(gpuEnd) != ' ' || (b.bytesAt(gpuEnd + 1) & 0xFFFF_FFFF_FFFFL) != SLASH_HCA) {
            return false;
        }
        int hca = gpuEnd + 7;
        int hcaEnd = nonSpaceEnd(b, hca, end);
        if (hcaEnd == hca || hcaEnd + 11 > end || b.byteAt(hcaEnd) != ' ' || b.byteAt(hcaEnd + 1) != '('
                || b.bytesAt(hcaEnd + 2) != DISTANCE || b.byteAt(hcaEnd + 10) != ' ') {
            return false;
        }
        int d = hcaEnd + 11;
        int dEnd = ByteWords.digitsEnd(b, d, end);
        if (dEnd == d || dEnd - d > 9 || dEnd + 3 > end || b.byteAt(dEnd) != ' ') {
            return false;
        }
        int r = b.byteAt(dEnd + 1);
        if (r != '<' && r != '>') {
            return false;
        }
        int q = dEnd + 2;
        boolean orEqual = q < end && b.byteAt(q) == '=';
        q += orEqual ? 1 : 0;
        if (q >= end || b.byteAt(q) != ' ') {
            return false;
        }
        int t = q + 1;
        int tEnd = ByteWords.digitsEnd(b, t, end);
        if (tEnd == t || tEnd - t > 9 || tEnd >= end || b.byteAt(tEnd) != ')') {
            return false;
        }
        distance = ByteWords.number(b, d, dEnd);
        threshold = ByteWords.number(b, t, tEnd);
        relation = RELATIONS[(r == '<' ? 0 : 2) + (orEqual ? 1 : 0)];
        return true;
    }

    /** Whether [from, to) holds a 'G' (the first letter of "GPU Direct RDMA " and of "for GPU/"). */
    static boolean anyG(ByteWords b, int from, int to) {
        return count(b, from, to, GS) != 0;
    }

    /** How many bytes of [from, to) equal the byte repeated in {@code bytes}: its aligned words, the exact zero-byte mask. */
    private static int count(ByteWords b, int from, int to, long bytes) {
        if (from >= to) {
            return 0;
        }
        int n = 0;
        for (int j = from >>> 3, last = (to - 1) >>> 3; j <= last; j++) {
            long hit = ByteWords.zeroBytes(b.words[j] ^ bytes);
            if (j == from >>> 3) {
                hit &= -1L << ((from & 7) << 3);
            }
            if (j == last && (to & 7) != 0) {
                hit &= (1L << ((to & 7) << 3)) - 1;
            }
            n += Long.bitCount(hit);
        }
        return n;
    }

    private static int nonSpaceEnd(ByteWords b, int from, int end) {
        int k = from;
        while (k < end && !ByteWords.space(b.byteAt(k))) {
            k++;
        }
        return k;
    }


}
