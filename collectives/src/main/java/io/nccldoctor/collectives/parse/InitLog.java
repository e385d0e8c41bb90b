package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the initialisations say besides the network: the CUDA driver each process found, the communicators started and
 * their node counts, the GPUs' bus ids, the NCCL_* variables NCCL read from the environment, and verbs symbols it could
 * not find (an rdma-core older than the NCCL build expects: "dlvsym failed on ibv_reg_dmabuf_mr … version IBVERBS_1.12",
 * no DMA-BUF then).
 */
final class InitLog {

    private static final int BUS_IDS = 1024;
    private static final int VALUES = 8;
    private final Set<String> drivers = new LinkedHashSet<>();
    private final Map<Integer, Long> started = new TreeMap<>();
    private final Map<Integer, Long> nodes = new TreeMap<>();
    private final Set<String> busIds = new LinkedHashSet<>();
    private final Map<String, List<String>> environment = new LinkedHashMap<>();
    private final List<String> symbolFailures = new ArrayList<>();
    private long symbolFailureCount;

    void driver(String version) {
        drivers.add(version);
    }

    void communicator(InitMessages.Init i) {
        if (!i.complete()) {
            started.merge(i.nranks(), 1L, Long::sum);
        }
        if (busIds.size() < BUS_IDS) {
            busIds.add(i.busId());
        }
    }

    void nodes(int n) {
        nodes.merge(n, 1L, Long::sum);
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
        o.started.forEach((k, v) -> started.merge(k, v, Long::sum));
        o.nodes.forEach((k, v) -> nodes.merge(k, v, Long::sum));
        o.busIds.forEach(b -> {
            if (busIds.size() < BUS_IDS) {
                busIds.add(b);
            }
        });
        o.environment.forEach((k, vs) -> vs.forEach(v -> environment(k, v)));
        long before = symbolFailureCount;
        o.symbolFailures.forEach(this::symbolFailure);
        symbolFailureCount = before + o.symbolFailureCount;
    }

    NcclLog.Init build() {
        Map<String, List<String>> env = new LinkedHashMap<>();
        environment.forEach((k, v) -> env.put(k, List.copyOf(v)));
        return new NcclLog.Init(Collections.unmodifiableSet(new LinkedHashSet<>(drivers)), Collections.unmodifiableMap(new TreeMap<>(started)),
                Collections.unmodifiableMap(new TreeMap<>(nodes)), Collections.unmodifiableSet(new LinkedHashSet<>(busIds)),
                Collections.unmodifiableMap(env), List.copyOf(symbolFailures), symbolFailureCount);
    }
}
