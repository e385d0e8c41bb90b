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
    long[] pciBw = new long[4];
    int[] pciCount = new int[4];
    int pciKinds;
    long[] netBw = new long[4];
    int netKinds;
    int nvlinks;
    int c2c;
    /** Links of other types ({@link SystemDumps#OTHER_LINK}): their types' keys and counts, in the order first seen. */
    long[] otherType = new long[2];
    int[] otherCount = new int[2];
    int otherKinds;

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
        pciKinds = 0;
        netKinds = 0;
        nvlinks = 0;
        c2c = 0;
        otherKinds = 0;
        return this;
    }

    /**
     * The numbers its summary is made of, in {@code out} (grown when short): whether it closed, the node counts, the
     * NVLink and C2C links, the PCI bandwidth keys with their counts, the NET bandwidth keys, and the other link types'
     * keys with their counts, each in the order first seen. Returns the array and sets {@link #numbersLength}.
     */
    long[] numbers(long[] out, boolean complete) {
        int n = 11 + 2 * pciKinds + netKinds + 2 * otherKinds;
        long[] a = out.length >= n ? out : new long[2 * n];
        int k = 0;
        a[k++] = complete ? 1 : 0;
        for (int v : nodes) {
            a[k++] = v;
        }
        a[k++] = nvlinks;
        a[k++] = c2c;
        a[k++] = pciKinds;
        for (int i = 0; i < pciKinds; i++) {
            a[k++] = pciBw[i];
            a[k++] = pciCount[i];
        }
        a[k++] = netKinds;
        for (int i = 0; i < netKinds; i++) {
            a[k++] = netBw[i];
        }
        a[k++] = otherKinds;
        for (int i = 0; i < otherKinds; i++) {
            a[k++] = otherType[i];
            a[k++] = otherCount[i];
        }
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
            case 0 -> pci(bw);
            case 1 -> nvlinks++;
            case 2 -> c2c++;
            case 3 -> net(bw);
            default -> {
                if (link == SystemDumps.OTHER_LINK) {
                    other(typeKey);
                }
            }
        }
    }

    private void other(long typeKey) {
        for (int i = 0; i < otherKinds; i++) {
            if (otherType[i] == typeKey) {
                otherCount[i]++;
                return;
            }
        }
        if (otherKinds == otherType.length) {
            otherType = Arrays.copyOf(otherType, otherKinds * 2);
            otherCount = Arrays.copyOf(otherCount, otherKinds * 2);
        }
        otherType[otherKinds] = typeKey;
        otherCount[otherKinds++] = 1;
    }

    private void pci(long bw) {
        for (int i = 0; i < pciKinds; i++) {
            if (pciBw[i] == bw) {
                pciCount[i]++;
                return;
            }
        }
        if (pciKinds == pciBw.length) {
            pciBw = Arrays.copyOf(pciBw, pciKinds * 2);
            pciCount = Arrays.copyOf(pciCount, pciKinds * 2);
        }
        pciBw[pciKinds] = bw;
        pciCount[pciKinds++] = 1;
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
        Map<String, Integer> byBw = new TreeMap<>();
        for (int i = 0; i < pciKinds; i++) {
            byBw.merge(names.getOrDefault(pciBw[i], "?"), pciCount[i], Integer::sum);
        }
        List<String> net = new ArrayList<>();
        for (int i = 0; i < netKinds; i++) {
            net.add(names.getOrDefault(netBw[i], "?"));
        }
        Map<String, Integer> others = new TreeMap<>();
        for (int i = 0; i < otherKinds; i++) {
            others.merge(names.getOrDefault(otherType[i], "?"), otherCount[i], Integer::sum);
        }
        return new NcclLog.SystemDump(maxBw, totalBw, nodes[0], nodes[1], nodes[2], nodes[3], List.copyOf(net), nvlinks, nodes[4],
                Collections.unmodifiableMap(byBw), c2c, Collections.unmodifiableMap(others), complete);
    }
}
