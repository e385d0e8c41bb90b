package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Network channels over TCP sockets: on a cluster with RDMA NICs, a fallback that caps every collective. */
public final class NcclSocketNetwork extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_NET_SOCKET", Severity.WARN,
            "NCCL's network channels go through TCP sockets (NET/Socket)",
            "NCCL used its socket transport between nodes: every byte crosses the kernel's TCP stack and host memory, "
                    + "a few GB/s at best. On a cluster with InfiniBand or RoCE NICs this is a fallback: the IB transport "
                    + "found no usable device, was disabled, or a network plugin failed to load. On an Ethernet-only "
                    + "cluster it is the expected path, and the numbers should be judged against it.",
            "channel lines 'via NET/Socket/…', 'Using network Socket', 'NET/IB : No device found' or 'Failed to open "
                    + "libibverbs.so[.1]' with 'NET/Socket : Using …', NCCL's list of its network's NICs ('NET/Socket : GPU "
                    + "Direct RDMA Disabled for HCA 0 …'), the plugin lines, and the communicators' rank and node "
                    + "counts (one rank or one node: nothing crosses the network), and the hosts of the lines' prefixes (one "
                    + "host and no communicator across nodes: not judged, as the log cannot show that a byte crossed it)",
            "Check NCCL_IB_DISABLE and NCCL_NET, the IB devices and their ports (`nccl-doctor gdr`, `ibv_devinfo`), "
                    + "NCCL_IB_HCA, and the plugin lines of the log; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET.");

    public NcclSocketNetwork() {
        super(INFO);
    }

    /**
     * Flags channels over NET/Socket, or, without channel lines, sockets as the network NCCL chose ("Using network
     * Socket"), or as the only network a log without that line lists after IB found nothing ("NET/IB : No device found",
     * "NET/Socket : Using …"), or as the network whose NICs NCCL listed (every "GPU Direct RDMA … for HCA" line says
     * NET/Socket); a job of one rank or one node is left alone, as its network carries nothing, and so is a log that shows
     * one host ({@link #notJudged}).
     */
    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        List<String> evidence = new ArrayList<>();
        long socket = channels(log, t -> t.startsWith("NET/Socket"), evidence);
        NcclLog.Network net = log.network();
        boolean chosen = net.chosen().contains("Socket");
        boolean onlySockets = net.chosen().isEmpty() && net.devices().keySet().equals(Set.of("Socket")) && !net.unavailable().isEmpty();
        // NCCL lists each NIC of the network it opened with that network's name ("NET/Socket : GPU Direct RDMA Disabled
        // for HCA 0 'eth0'"): all of them NET/Socket, with no other network named, says sockets without a "Using" line
        List<NcclLog.NicGdr> nics = log.nicGdr();
        boolean socketNics = net.chosen().isEmpty() && !nics.isEmpty() && nics.stream().allMatch(NcclLog.NicGdr::socket);
        if (socket == 0 && (!namesSockets(log) || carriesNothing(log).isPresent())) {
            return Optional.empty();
        }
        net.fallbacks().forEach(f -> evidence.add("NCCL: " + f));
        log.networks().forEach(n -> evidence.add("NCCL: " + n));
        if (socket == 0 && !chosen && !onlySockets) {
            nics.forEach(n -> evidence.add("NCCL: " + n.line().strip()));
        }
        evidence.add("source: " + name);
        String title = socket > 0 ? socket + " network channel connection" + (socket == 1 ? "" : "s") + " over TCP sockets"
                : chosen ? "NCCL chose sockets for its network (no channel lines in the log)"
                : onlySockets ? "sockets are NCCL's only network: IB found no device"
                : "NCCL's network is sockets: it lists " + nics.size() + " NIC" + (nics.size() == 1 ? "" : "s") + " as NET/Socket "
                + "(no channel lines in the log)";
        return Optional.of(finding(name, title, evidence));
    }

    /**
     * A log that names sockets as NCCL's network without a channel over them, of a job whose network carries nothing or
     * may carry nothing: not judged, with why.
     */
    @Override
    Optional<String> notJudged(NcclLog log) {
        return namesSockets(log) ? carriesNothing(log).map(why -> "NCCL chose sockets, but " + why) : Optional.empty();
    }

    /** What {@link #judge} reads without channel lines: sockets chosen, the only network after IB found none, or every NIC listed. */
    private static boolean namesSockets(NcclLog log) {
        NcclLog.Network net = log.network();
        boolean onlySockets = net.chosen().isEmpty() && net.devices().keySet().equals(Set.of("Socket")) && !net.unavailable().isEmpty();
        List<NcclLog.NicGdr> nics = log.nicGdr();
        boolean socketNics = net.chosen().isEmpty() && !nics.isEmpty() && nics.stream().allMatch(NcclLog.NicGdr::socket);
        return net.chosen().contains("Socket") || onlySockets || socketNics;
    }

    /**
     * Why the log's network may carry nothing: every communicator it started or counted has one rank, or spans one node
     * ("nNodes 1"); or every line comes from one host (NCCL's host:pid prefix) and no communicator is said to span more
     * nodes: one process, or several on one node, reach each other through P2P or shared memory, and whether the job had
     * ranks on other hosts the log does not show. Empty when it shows traffic can cross the network.
     */
    static Optional<String> carriesNothing(NcclLog log) {
        Set<Integer> sizes = new HashSet<>(log.communicatorSizes().keySet());
        sizes.addAll(log.init().started().keySet());
        if (!sizes.isEmpty() && sizes.equals(Set.of(1))) {
            return Optional.of("every communicator it shows has one rank: nothing crosses a network");
        }
        Set<Integer> nodes = log.init().nodes().keySet();
        if (!nodes.isEmpty() && nodes.equals(Set.of(1))) {
            return Optional.of("every communicator it shows spans one node (nNodes 1): nothing crosses a network");
        }
        Set<String> hosts = new TreeSet<>();
        log.processes().keySet().forEach(p -> hosts.add(p.substring(0, Math.max(0, p.lastIndexOf(':')))));
        if (hosts.size() == 1 && nodes.stream().allMatch(n -> n <= 1)) {
            return Optional.of("the log shows one host (" + hosts.iterator().next() + ") and no channel over sockets: processes on "
                    + "one node reach each other through P2P or shared memory, and whether the job had ranks on other hosts the log "
                    + "does not show (give every host's log, or rerun with NCCL_DEBUG_SUBSYS=INIT,NET for the channel lines)");
        }
        return Optional.empty();
    }
}
