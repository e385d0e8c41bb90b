package io.nccldoctor.collectives.parse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The transports of channel lines read from bytes ("P2P/CUMEM/read", "NET/IB/0/GDRDMA"), each counted without a string
 * per line: found by its length and first two words in a small open-addressing table, compared a word at a time.
 */
final class TransportCounts {

    private static final int SLOTS = 64;
    /** The transports that get a slot (a log has a dozen); the rest are looked up one by one. */
    private static final int SLOTTED = 48;
    private byte[][] keys = new byte[8][];
    private long[][] words = new long[8][];
    private boolean[] net = new boolean[8];
    private long[] counts = new long[8];
    private int size;
    /** Per slot, the transport's index + 1; 0: free. */
    private final int[] index = new int[SLOTS];

    int size() {
        return size;
    }

    /** The transport as written (the log's bytes are UTF-8). */
    String name(int k) {
        return new String(keys[k], StandardCharsets.UTF_8);
    }

    long count(int k) {
        return counts[k];
    }

    /** A network transport ("NET/…"), whose channels a process's agreement looks at. */
    boolean isNet(int k) {
        return net[k];
    }

    /** Forgets the transports (once folded into the message half's map). */
    void clear() {
        size = 0;
        Arrays.fill(index, 0);
    }

    private static int slot(ByteWords b, int n, int from, int to) {
        long h = (b.textWord(from, to) * 0x9E3779B97F4A7C15L) ^ (n > 8 ? b.textWord(from + 8, to) * 0xC2B2AE3D27D4EB4FL : 0) ^ n;
        return (int) (h ^ h >>> 32 ^ h >>> 16) & (SLOTS - 1);
    }

    /** Counts the transport in [from, to) of the block; returns its index, -1 for an empty one. */
    int count(ByteWords b, int from, int to) {
        if (to <= from) {
            return -1;
        }
        int n = to - from;
        int s = slot(b, n, from, to);
        for (int k = index[s] - 1; k >= 0; k = index[s = (s + 1) & (SLOTS - 1)] - 1) {
            if (keys[k].length == n && b.sameWords(words[k], from, to)) {
                counts[k]++;
                return k;
            }
        }
        for (int k = SLOTTED; k < size; k++) {
            if (keys[k].length == n && b.sameWords(words[k], from, to)) {
                counts[k]++;
                return k;
            }
        }
        return add(b, from, to, s);
    }

    private int add(ByteWords b, int from, int to, int s) {
        int n = to - from;
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            words = Arrays.copyOf(words, size * 2);
            net = Arrays.copyOf(net, size * 2);
            counts = Arrays.copyOf(counts, size * 2);
        }
        byte[] key = new byte[n];
        b.buf.get(from, key);
        long[] w = new long[(n + 7) >>> 3];
        for (int k = from; k < to; k += 8) {
            w[(k - from) >>> 3] = b.textWord(k, to);
        }
        keys[size] = key;
        words[size] = w;
        net[size] = n > 4 && key[0] == 'N' && key[1] == 'E' && key[2] == 'T' && key[3] == '/';
        counts[size] = 1;
        if (size < SLOTTED) {
            index[s] = size + 1;
        }
        return size++;
    }
}
