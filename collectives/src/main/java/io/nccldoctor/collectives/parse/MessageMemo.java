package io.nccldoctor.collectives.parse;

/**
 * What a message said, remembered by its bytes: an initialisation repeats the same messages in every process (the
 * version, the devices, the topology dump, each GPU's GDR decision), so each distinct text is read once and the next
 * ones cost a hash and a comparison of their words. Open addressing, at most {@link #MAX} texts; past that, new texts
 * are read every time. Each slot's hash, length and words are one array ({hash, length, words…}), so that a probe
 * touches one array and, on a hit, the value: a table this size is mostly outside the cache, and each array a probe
 * reads is a cache miss. The table starts small and doubles as it fills (at its full size its two arrays are 0.5 MB,
 * which a short log would allocate, and touch, for nothing: 2 ms of every range's start).
 */
final class MessageMemo {

    private static final int SLOTS = 1 << 16;
    private static final int MAX = SLOTS / 4 * 3;
    private long[][] keys = new long[1 << 8][];
    private Object[] value = new Object[1 << 8];
    private int size;
    private int slot;
    private int hit;
    private long missHash;

    /** What the text in [from, to) of the block said when it was last remembered, or null (and the slot where it would go). */
    Object get(ByteWords b, int from, int to) {
        int n = to - from;
        long h = n;
        int k = from;
        for (; k + 8 <= to; k += 8) {
            h = (h ^ b.bytesAt(k)) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
        }
        if (k < to) {
            h = (h ^ b.textWord(k, to)) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
        }
        int mask = keys.length - 1;
        int i = (int) h & mask;
        for (long[] w = keys[i]; w != null; w = keys[i]) {
            if (w[0] == h && w[1] == n && same(b, w, from, to)) {
                hit = i;
                return value[i];
            }
            i = (i + 1) & mask;
        }
        slot = i;
        missHash = h;
        return null;
    }

    /** The words of [from, to) against the key's words (from index 2), the last one zero-padded. */
    private static boolean same(ByteWords b, long[] w, int from, int to) {
        int k = from;
        int i = 2;
        for (; k + 8 <= to; k += 8, i++) {
            if (w[i] != b.bytesAt(k)) {
                return false;
            }
        }
        return k >= to || w[i] == b.textWord(k, to);
    }

    /** Replaces what the text last found with {@link #get} said. */
    void replace(Object v) {
        value[hit] = v;
    }

    /** Remembers what the text in [from, to), just looked up in vain with {@link #get}, said. */
    void put(ByteWords b, int from, int to, Object v) {
        if (size >= MAX) {
            return;
        }
        if (size >= keys.length / 4 * 3) {
            grow();
        }
        long[] w = new long[2 + ((to - from + 7) >>> 3)];
        w[0] = missHash;
        w[1] = to - from;
        for (int k = from; k < to; k += 8) {
            w[2 + ((k - from) >>> 3)] = b.textWord(k, to);
        }
        keys[slot] = w;
        value[slot] = v;
        size++;
    }

    /** The table at twice its size, each text placed again by its hash; the slot of the text looked up last moves too. */
    private void grow() {
        long[][] oldKeys = keys;
        Object[] oldValues = value;
        int mask = oldKeys.length * 2 - 1;
        keys = new long[mask + 1][];
        value = new Object[mask + 1];
        for (int k = 0; k < oldKeys.length; k++) {
            if (oldKeys[k] != null) {
                int i = (int) oldKeys[k][0] & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[k];
                value[i] = oldValues[k];
            }
        }
        int i = (int) missHash & mask;
        while (keys[i] != null) {
            i = (i + 1) & mask;
        }
        slot = i;
    }
}
