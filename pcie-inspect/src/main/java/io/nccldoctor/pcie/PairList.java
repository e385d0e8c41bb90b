package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.RandomAccess;

/**
 * Every pair of a topology's endpoints, computed when read and never stored: n endpoints have n(n-1)/2 pairs, which a
 * synthetic 2,000-GPU topology turns into millions of objects, while a rule or the text output reads only a few per
 * GPU. Pair k is (i, j) with i &lt; j in endpoint order, the order the list always had. Each device's link ceiling is
 * computed once.
 */
final class PairList extends AbstractList<Topology.Pair> implements RandomAccess {

    private final PciTree tree;
    private final List<Topology.Endpoint> endpoints;
    private final String version;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Fact<LinkCeiling>> ceilings = new HashMap<>();
    /** PATH_* numbers by type name in this version, looked up once rather than once per pair. */
    private final Map<String, Integer> numbers = new HashMap<>();
    private NearestNics nearest;

    PairList(PciTree tree, List<Topology.Endpoint> endpoints, String version) {
        this.tree = tree;
        this.endpoints = List.copyOf(endpoints);
        this.version = version;
        for (int i = 0; i < endpoints.size(); i++) {
            index.put(endpoints.get(i).label(), i);
            ceilings.put(endpoints.get(i).address(), endpoints.get(i).link());
        }
    }

    /** The tree the pairs are read from, for what a pair's own fields do not carry (a bound on an unknown path). */
    PciTree tree() {
        return tree;
    }

    int index(String label) {
        Integer i = index.get(label);
        if (i == null) {
            throw new IllegalArgumentException("no endpoint " + label);
        }
        return i;
    }

    /** The GPU's nearest NICs as pairs, computed as they are read (the list can hold every NIC of a flat VM). */
    List<Topology.Pair> nearestNics(String gpuLabel) {
        int g = index(gpuLabel);
        if (!endpoints.get(g).kind().isGpu()) {
            throw new IllegalArgumentException(gpuLabel + " is not a GPU");
        }
        if (nearest == null) {
            nearest = new NearestNics(tree, endpoints);
        }
        List<Integer> nics = nearest.of(g);
        return new AbstractList<>() {
            @Override
            public Topology.Pair get(int k) {
                return compute(Math.min(g, nics.get(k)), Math.max(g, nics.get(k)));
            }

            @Override
            public int size() {
                return nics.size();
            }
        };
    }

    Topology.Pair pair(String a, String b) {
        int i = index(a);
        int j = index(b);
        if (i == j) {
            throw new IllegalArgumentException("no pair " + a + "-" + b);
        }
        return compute(Math.min(i, j), Math.max(i, j));
    }

    @Override
    public int size() {
        long n = endpoints.size();
        long pairs = n * (n - 1) / 2;
        return (int) Math.min(Integer.MAX_VALUE, pairs);
    }

    /** Row i holds n-1-i pairs; the row of k is found by walking rows (get is rare: iteration is the common read). */
    @Override
    public Topology.Pair get(int k) {
        int n = endpoints.size();
        if (k < 0 || k >= size()) {
            throw new IndexOutOfBoundsException(k);
        }
        int i = 0;
        int rest = k;
        while (rest >= n - 1 - i) {
            rest -= n - 1 - i;
            i++;
        }
        return compute(i, i + 1 + rest);
    }

    @Override
    public Iterator<Topology.Pair> iterator() {
        return new Iterator<>() {
            private int i = 0;
            private int j = 1;

            @Override
            public boolean hasNext() {
                return j < endpoints.size();
            }

            @Override
            public Topology.Pair next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Topology.Pair p = compute(i, j);
                if (++j >= endpoints.size()) {
                    i++;
                    j = i + 1;
                }
                return p;
            }
        };
    }

    private Topology.Pair compute(int i, int j) {
        Topology.Endpoint a = endpoints.get(i);
        Topology.Endpoint b = endpoints.get(j);
        SmiPath smi = tree.path(a.address(), b.address());
        String nccl = tree.ncclPath(a.address(), b.address());
        List<LinkCeiling> links = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String owner : tree.linkOwners(a.address(), b.address())) {
            Fact<LinkCeiling> c = ceiling(owner);
            if (c.isValue()) {
                links.add(c.get());
            } else {
                unknown.add(c.reason());
            }
        }
        Fact<LinkCeiling> narrowest = links.stream().min(Comparator.comparingDouble(LinkCeiling::bestGbps))
                .map(Fact::of).orElseGet(() -> Fact.absent(unknown.isEmpty() ? "no link on the path" : String.join("; ", unknown)));
        return new Topology.Pair(a.label(), b.label(), smi, nccl, numbers.computeIfAbsent(nccl, t -> NcclPathTypes.number(t, version)),
                List.copyOf(links), narrowest, tree.shown(a.address(), b.address()));
    }

    private Fact<LinkCeiling> ceiling(String owner) {
        return ceilings.computeIfAbsent(owner, o -> tree.device(o).map(d -> Topology.ceiling(tree, d))
                .orElseGet(() -> Fact.absent(o + " is not in the inventory")));
    }
}
