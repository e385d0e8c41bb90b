package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A dump being read for one process ({@link SystemDumps}): per node type the distinct nodes, per bandwidth the PCI
 * links, as keys; reused for the next dump once this one closed.
 */
final class OpenDump {
    String maxBw;
    String totalBw;
    final int[] nodes = new int[SystemDumps.NODES.size()];
    /** The (type, id) hashes seen, open addressing (0: free); grown when half full. */
    long[] seen = new long[32];
    int seenCount;
    /** PCI links by their bandwidth's key. */
    final KeyCounts pci = new KeyCounts();
    long[] netBw = new long[4];
    int netKinds;
    int nvlinks;
    int c2c;
    /** Links of other types ({@link SystemDumps#OTHER_LINK}) by their type's key. */
    final KeyCounts others = new KeyCounts();

    /** Keys (a bandwidth's, a link type's) with how often each came, in the order first seen. */
    static final class KeyCounts {
        long[] keys = new long[4];
        int[] counts = new int[4];
        int size;

        void add(long key) {
            for (int i = 0; i < size; i++) {
                if (keys[i] == key) {
                    counts[i]++;
                    return;
                }
            }
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                counts = Arrays.copyOf(counts, size * 2);
            }
            keys[size] = key;
            counts[size++] = 1;
        }

        /** Each key's text ("?" when none) with its count, counts of one text summed. */
        Map<String, Integer> byName(Map<Long, String> names) {
            Map<String, Integer> out = new TreeMap<>();
            for (int i = 0; i < size; i++) {
                String name = names.getOrDefault(keys[i], "?");
                Integer before = out.get(name); // not merge with Integer::sum: no lambda to link before the JIT
                out.put(name, before == null ? counts[i] : before + counts[i]);
            }
            return Collections.unmodifiableMap(out);
        }

        /** Whether every key has its text. */
        boolean named(Map<Long, String> names) {
            for (int i = 0; i < size; i++) {
                if (!names.containsKey(keys[i])) {
                    return false;
                }
            }
            return true;
        }

        /** The size, then each key and its count, into {@code a} from {@code k}; returns where it stopped. */
        int write(long[] a, int k) {
            a[k++] = size;
            for (int i = 0; i < size; i++) {
                a[k++] = keys[i];
                a[k++] = counts[i];
            }
            return k;
        }
    }

    OpenDump(String maxBw, String totalBw) {
        this.maxBw = maxBw;
        this.totalBw = totalBw;
    }

    /** Starts over for another dump, keeping the arrays. */
    OpenDump reset(String max, String total) {
        maxBw = max;
        totalBw = total;
        Arrays.fill(nodes, 0);
        Arrays.fill(seen, 0);
        seenCount = 0;
        pci.size = 0;
        netKinds = 0;
        nvlinks = 0;
        c2c = 0;
        others.size = 0;
        return this;
    }

    /**
     * The numbers its summary is made of, in {@code out} (grown when short): whether it closed, the node counts, the
     * NVLink and C2C links, the PCI bandwidth keys with their counts, the NET bandwidth keys, and the other link types'
     * keys with their counts, each in the order first seen. Returns the array and sets {@link #numbersLength}.
     */
    long[] numbers(long[] out, boolean complete) {
        int n = 11 + 2 * pci.size + netKinds + 2 * others.size;
        long[] a = out.length >= n ? out : new long[2 * n];
        int k = 0;
        a[k++] = complete ? 1 : 0;
        for (int v : nodes) {
            a[k++] = v;
        }
        a[k++] = nvlinks;
        a[k++] = c2c;
        k = pci.write(a, k);
        a[k++] = netKinds;
        for (int i = 0; i < netKinds; i++) {
            a[k++] = netBw[i];
        }
        k = others.write(a, k);
        numbersLength = k;
        return a;
    }

    int numbersLength;

    void add(int link, long typeKey, long bw, int node, long id) {
        // the node type in the top bits: "NIC/0" and "NET/0" (one id, types 2 and 3) are two nodes; 0 marks a free slot
        long key = id ^ (long) (node + 1) << 58;
        if (node >= 0 && firstSight(key == 0 ? 1 : key)) {
            nodes[node]++;
        }
        switch (link) {
            case 0 -> pci.add(bw);
            case 1 -> nvlinks++;
            case 2 -> c2c++;
            case 3 -> net(bw);
            default -> {
                if (link == SystemDumps.OTHER_LINK) {
                    others.add(typeKey);
                }
            }
        }
    }

    private void net(long bw) {
        for (int i = 0; i < netKinds; i++) {
            if (netBw[i] == bw) {
                return;
            }
        }
        if (netKinds == netBw.length) {
            netBw = Arrays.copyOf(netBw, netKinds * 2);
        }
        netBw[netKinds++] = bw;
    }

    private boolean firstSight(long key) {
        int mask = seen.length - 1;
        int i = (int) (key ^ key >>> 32) * 0x9E3779B9 >>> 16 & mask;
        for (; seen[i] != 0; i = (i + 1) & mask) {
            if (seen[i] == key) {
                return false;
            }
        }
        seen[i] = key;
        if (++seenCount * 2 > seen.length) {
            long[] old = seen;
            seen = new long[old.length * 2];
            seenCount = 0;
            for (long v : old) {
                if (v != 0) {
                    firstSight(v);
                }
            }
        }
        return true;
    }

    NcclLog.SystemDump close(boolean complete, Map<Long, String> names) {
        return close(complete, names, false);
    }

    /** {@code headerless}: the dump's "=== System" line is not in the log (its maxBw and totalBw are then ""). */
    NcclLog.SystemDump close(boolean complete, Map<Long, String> names, boolean headerless) {
        List<String> net = new ArrayList<>();
        for (int i = 0; i < netKinds; i++) {
            net.add(names.getOrDefault(netBw[i], "?"));
        }
        return new NcclLog.SystemDump(maxBw, totalBw, nodes[0], nodes[1], nodes[2], nodes[3], List.copyOf(net), nvlinks, nodes[4],
                pci.byName(names), c2c, others.byName(names), complete, headerless);
    }
}
