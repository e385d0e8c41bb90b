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
                    + "counts (one rank or one node: nothing crosses the network)",
            "Check NCCL_IB_DISABLE and NCCL_NET, the IB devices and their ports (`nccl-doctor gdr`, `ibv_devinfo`), "
                    + "NCCL_IB_HCA, and the plugin lines of the log; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET.");

    public NcclSocketNetwork() {
        super(INFO);
    }

    /**
     * Flags channels over NET/Socket, or, without channel lines, sockets as the network NCCL chose ("Using network
     * Socket"), or as the only network a log without that line lists after IB found nothing ("NET/IB : No device found",
     * "NET/Socket : Using …"), or as the network whose NICs NCCL listed (every "GPU Direct RDMA … for HCA" line says
     * NET/Socket); a job of one rank or one node is left alone, as its network carries nothing.
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
        if (socket == 0 && (!chosen && !onlySockets && !socketNics || carriesNothing(log))) {
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

    /** Every communicator the log started or counted has one rank, or spans one node ("nNodes 1"): no network traffic. */
    static boolean carriesNothing(NcclLog log) {
        Set<Integer> sizes = new HashSet<>(log.communicatorSizes().keySet());
        sizes.addAll(log.init().started().keySet());
        boolean oneRank = !sizes.isEmpty() && sizes.equals(Set.of(1));
        boolean oneNode = !log.init().nodes().isEmpty() && log.init().nodes().keySet().equals(Set.of(1));
        return oneRank || oneNode;
    }
}
