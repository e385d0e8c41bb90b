package io.nccldoctor.collectives.parse;

/**
 * What a message said, remembered by its bytes: an initialisation repeats the same messages in every process (the
 * version, the devices, the topology dump, each GPU's GDR decision), so each distinct text is read once and the next
 * ones cost a hash and a comparison of their words. Open addressing, at most {@link #MAX} texts; past that, new texts
 * are read every time.
 */
final class MessageMemo {

    private static final int SLOTS = 1 << 16;
    private static final int MAX = SLOTS / 4 * 3;
    private final long[] hash = new long[SLOTS];
    private final long[][] keys = new long[SLOTS][];
    private final int[] length = new int[SLOTS];
    private final Object[] value = new Object[SLOTS];
    private int size;
    private int slot;

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
        int i = (int) h & (SLOTS - 1);
        for (long[] w = keys[i]; w != null; w = keys[i]) {
            if (hash[i] == h && length[i] == n && b.sameWords(w, from, to)) {
                return value[i];
            }
            i = (i + 1) & (SLOTS - 1);
        }
        slot = i;
        hash[i] = h;
        return null;
    }

    /** Remembers what the text in [from, to), just looked up in vain with {@link #get}, said. */
    void put(ByteWords b, int from, int to, Object v) {
        if (size >= MAX) {
            return;
        }
        long[] w = new long[(to - from + 7) >>> 3];
        for (int k = from; k < to; k += 8) {
            w[(k - from) >>> 3] = b.textWord(k, to);
        }
        keys[slot] = w;
        length[slot] = to - from;
        value[slot] = v;
        size++;
    }
}
