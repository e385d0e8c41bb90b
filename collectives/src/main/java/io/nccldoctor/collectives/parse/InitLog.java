package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the initialisations say besides the network: the CUDA driver each process found, the communicators started and
 * their node counts, the GPUs' bus ids, the NCCL_* variables NCCL read from the environment, and verbs symbols it could
 * not find (an rdma-core older than the NCCL build expects: "dlvsym failed on ibv_reg_dmabuf_mr … version IBVERBS_1.12",
 * no DMA-BUF then).
 *
 * <p>Every rank prints its communicator's Init lines, so a communicator of 16 ranks is 16 "Init START" lines. Where the
 * line prints the communicator's id ("commId 0x6e99db63b024eb76", a hash of its unique id, the same on every rank: on
 * Init COMPLETE from 2.16.2, on Init START from 2.18.3, src/init.cc), a communicator is counted once per id; an older
 * line, or a split's (which prints its parent instead), is counted as a line.
 */
final class InitLog {

    private static final int BUS_IDS = 1024;
    private static final int VALUES = 8;
    private final Set<String> drivers = new LinkedHashSet<>();
    private final Set<String> gitVersions = new LinkedHashSet<>();
    private final IntCounts started = new IntCounts();
    private final IntCounts nodes = new IntCounts();
    private final Set<String> busIds = new LinkedHashSet<>();
    private final Map<String, List<String>> environment = new LinkedHashMap<>();
    private final List<String> symbolFailures = new ArrayList<>();
    private long symbolFailureCount;
    /** Per commId: its size, its Init START lines and its Init COMPLETE lines; the last one looked up kept at hand. */
    private final Map<Long, long[]> byId = new HashMap<>();
    private long lastId = NO_COMM_ID;
    private long[] lastCounts;
    /** Communicators told apart by id, at most: a line of a new id beyond them is counted as a line. */
    private static final int COMM_IDS = 1 << 16;
    /** No id on the line (an id of 0 is a 1 in 2^64 hash, read as none). */
    static final long NO_COMM_ID = 0;

    void driver(String version) {
        drivers.add(version);
    }

    void gitVersion(String build) {
        gitVersions.add(build);
    }

    /** An Init START or COMPLETE line: its size, its GPU, and its communicator's id ({@link #NO_COMM_ID}: none printed). */
    void communicator(int nranks, String busId, boolean complete, long commId) {
        long[] c = commId == NO_COMM_ID ? null : commId == lastId ? lastCounts : counts(commId, nranks);
        if (c != null) {
            c[complete ? 2 : 1]++;
        } else if (!complete) {
            started.add(nranks);
        }
        if (busIds.size() < BUS_IDS) {
            busIds.add(busId);
        }
    }

    /** The counts of a communicator by its id, made on its first line; null when {@link #COMM_IDS} ids are known. */
    private long[] counts(long commId, int nranks) {
        long[] c = byId.get(commId);
        if (c == null && byId.size() < COMM_IDS) {
            c = new long[] {nranks, 0, 0};
            byId.put(commId, c);
        }
        if (c != null) {
            lastId = commId;
            lastCounts = c;
        }
        return c;
    }

    /**
     * "commId 0x6e99db63b024eb76" in the Init line's message (from {@code msg}): its value, or {@link #NO_COMM_ID} when the
     * line prints none (or not 1 to 16 hex digits after "0x").
     */
    static long commId(String line, int msg) {
        int at = line.indexOf(" commId 0x", msg);
        if (at < 0) {
            return NO_COMM_ID;
        }
        int from = at + " commId 0x".length();
        int to = from;
        while (to < line.length() && Character.digit(line.charAt(to), 16) >= 0) {
            to++;
        }
        return to == from || to - from > 16 ? NO_COMM_ID : Long.parseUnsignedLong(line.substring(from, to), 16);
    }

    /**
     * The communicators completed, by size, from the Init COMPLETE lines counted ({@code lines}): those of one id counted
     * once. A size whose lines are fewer than those read here with an id (another reader declined one) keeps its lines.
     */
    Map<Integer, Long> completed(IntCounts lines) {
        Map<Integer, Long> out = lines.toMap();
        Map<Integer, long[]> withId = new HashMap<>(); // size -> {lines with an id, ids}
        // loops, here and in absorb and build: they run once per parse, before the JIT, where a lambda is linked at its first use
        for (long[] c : byId.values()) {
            if (c[2] > 0) {
                long[] w = withId.get((int) c[0]);
                if (w == null) {
                    w = new long[2];
                    withId.put((int) c[0], w);
                }
                w[0] += c[2];
                w[1]++;
            }
        }
        for (Map.Entry<Integer, long[]> e : withId.entrySet()) {
            long[] w = e.getValue();
            Long n = out.get(e.getKey());
            if (n != null && n >= w[0]) {
                out.put(e.getKey(), n - w[0] + w[1]);
            }
        }
        return out;
    }

    void nodes(int n) {
        nodes.add(n);
    }

    void environment(String variable, String value) {
        List<String> values = environment.computeIfAbsent(variable, k -> new ArrayList<>());
        if (!values.contains(value) && values.size() < VALUES) {
            values.add(value);
        }
    }

    void symbolFailure(String line) {
        symbolFailureCount++;
        if (symbolFailures.size() < NcclLog.KEEP && !symbolFailures.contains(line)) {
            symbolFailures.add(line);
        }
    }

    void absorb(InitLog o) {
        drivers.addAll(o.drivers);
        gitVersions.addAll(o.gitVersions);
        started.absorb(o.started);
        nodes.absorb(o.nodes);
        for (String b : o.busIds) {
            if (busIds.size() < BUS_IDS) {
                busIds.add(b);
            }
        }
        for (Map.Entry<String, List<String>> e : o.environment.entrySet()) {
            for (String v : e.getValue()) {
                environment(e.getKey(), v);
            }
        }
        for (Map.Entry<Long, long[]> e : o.byId.entrySet()) {
            Long id = e.getKey();
            long[] oc = e.getValue();
            long[] c = byId.get(id);
            if (c == null && byId.size() < COMM_IDS) {
                c = new long[] {oc[0], 0, 0};
                byId.put(id, c);
            }
            if (c != null) {
                c[1] += oc[1];
                c[2] += oc[2];
            } else if (oc[1] > 0) {
                started.add((int) oc[0], oc[1]); // beyond the ids told apart: its START lines count as lines
            }
        }
        long before = symbolFailureCount;
        for (String f : o.symbolFailures) {
            symbolFailure(f);
        }
        symbolFailureCount = before + o.symbolFailureCount;
    }

    NcclLog.Init build() {
        Map<String, List<String>> env = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : environment.entrySet()) {
            env.put(e.getKey(), List.copyOf(e.getValue()));
        }
        IntCounts communicators = new IntCounts();
        communicators.absorb(started);
        for (long[] c : byId.values()) {
            if (c[1] > 0) {
                communicators.add((int) c[0]);
            }
        }
        return new NcclLog.Init(Collections.unmodifiableSet(new LinkedHashSet<>(drivers)), Collections.unmodifiableMap(communicators.toMap()),
                Collections.unmodifiableMap(nodes.toMap()), Collections.unmodifiableSet(new LinkedHashSet<>(busIds)),
                Collections.unmodifiableMap(env), List.copyOf(symbolFailures), symbolFailureCount,
                Collections.unmodifiableSet(new LinkedHashSet<>(gitVersions)));
    }
}
