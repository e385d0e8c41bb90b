package io.nccldoctor.reports.baseline;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.nccldoctor.collectives.parse.NcclTestsCommand;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hardware an nccl-tests output shows by itself: the GPU model and PCI ids of its device lines, the ranks, the
 * hosts they ran on, and the NCCL_* settings of the command line pasted with it. What the output does not say is
 * absent with the reason; nothing is filled in from a guess.
 *
 * @param gpuModel    the device name every rank printed ("NVIDIA H100 80GB HBM3"); absent without device lines, an
 *                    error when the ranks name different GPUs
 * @param devices     the device lines as read
 * @param ranks       the device lines counted; without them, the world size the busbw/algbw ratio implies
 * @param nodes       the distinct host names of the device lines
 * @param gpusPerNode ranks per host, when every host has the same number
 * @param env         NCCL_* (and other) variables the pasted command line sets, by name
 * @param evidence    how each value was read, a line each
 */
public record Hardware(Fact<String> gpuModel, List<DeviceLine> devices, Fact<Integer> ranks, Fact<Integer> nodes,
                       Fact<Integer> gpusPerNode, Map<String, String> env, List<String> evidence) {

    public Hardware {
        devices = devices == null ? List.of() : List.copyOf(devices);
        env = env == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(env));
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }

    /** For results that carry no device lines (a `run --json`, a sweep result). */
    public static Hardware unknown(String why) {
        return new Hardware(Fact.absent(why), List.of(), Fact.absent(why), Fact.absent(why), Fact.absent(why), Map.of(), List.of());
    }

    /** From an nccl-tests output; {@code collective} (allreduce, allgather …) tells the busbw factor for the derived ranks. */
    public static Hardware of(NcclTestsOutput out, Fact<String> collective) {
        List<String> evidence = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        List<DeviceLine> devices = DeviceLine.parseAll(out.devices(), unread);
        if (!unread.isEmpty()) {
            evidence.add(unread.size() + " device line" + (unread.size() == 1 ? "" : "s") + " of another shape, not read: " + unread.get(0));
        }
        Fact<String> model = model(devices);
        Fact<Integer> ranks;
        boolean whole = out.ranks().isValue() && unread.isEmpty(); // ranks 0 to n-1, each once: the whole list
        if (!devices.isEmpty() && !whole) {
            evidence.add("the device lines are cut (ranks " + devices.get(0).rank() + " to " + devices.get(devices.size() - 1).rank()
                    + " of " + devices.size() + " lines): the ranks and hosts are not all there");
        }
        if (whole) {
            ranks = Fact.of(devices.size());
            evidence.add(devices.size() + " '# Rank' device lines");
        } else {
            ranks = collective.flatMap(c -> RanksFromBandwidth.derive(c, out.rows()));
            ranks.fold(n -> evidence.add(n + " ranks from busbw/algbw (no device lines): " + RanksFromBandwidth.how(collective.get(), out.rows())),
                    why -> evidence.add("ranks unknown: " + why));
        }
        Map<String, Integer> perHost = new LinkedHashMap<>();
        if (whole) {
            devices.forEach(d -> perHost.merge(d.host(), 1, Integer::sum));
        }
        String noHosts = devices.isEmpty() ? "no host names: the output has no device lines" : "the device lines are cut";
        Fact<Integer> nodes = perHost.isEmpty() ? Fact.absent(noHosts) : Fact.of(perHost.size());
        Fact<Integer> perNode = perHost.isEmpty() ? Fact.absent(noHosts)
                : perHost.values().stream().distinct().count() == 1 ? Fact.of(perHost.values().iterator().next())
                : Fact.absent("the hosts run different numbers of ranks: " + perHost);
        model.fold(m -> evidence.add("GPU model '" + m + "' on every device line"), why -> evidence.add("GPU model unknown: " + why));
        if (!out.test().isValue() && collective.isValue()) {
            evidence.add("collective " + collective.get() + " read from the table's columns (root, redop, count; no '# Collective test "
                    + "starting' line)");
        }
        Map<String, String> env = out.command().fold(NcclTestsCommand::env, why -> Map.of());
        if (!env.isEmpty()) {
            evidence.add("the pasted command line sets " + String.join(", ", new TreeMap<>(env).keySet()));
        }
        return new Hardware(model, devices, ranks, nodes, perNode, env, evidence);
    }

    private static Fact<String> model(List<DeviceLine> devices) {
        if (devices.isEmpty()) {
            return Fact.absent("no '# Rank … device' lines in the output (nccl-tests prints them under '# Using devices')");
        }
        Map<String, Integer> names = new LinkedHashMap<>();
        devices.forEach(d -> names.merge(d.gpu(), 1, Integer::sum));
        return names.size() == 1 ? Fact.of(names.keySet().iterator().next()) : Fact.error("the ranks name different GPUs: " + names);
    }

    /** The same, with the world size and hosts the result itself records (`run --json`, a sweep result) where the output had none. */
    public Hardware orRanks(Fact<Integer> worldSize, Fact<Integer> hosts) {
        if (ranks.isValue() && nodes.isValue() || !worldSize.isValue() && !hosts.isValue()) {
            return this;
        }
        List<String> e = new ArrayList<>(evidence);
        Fact<Integer> r = ranks.isValue() ? ranks : worldSize;
        Fact<Integer> n = nodes.isValue() ? nodes : hosts;
        if (!ranks.isValue() && worldSize.isValue()) {
            e.add(worldSize.get() + " ranks as the result records them");
        }
        Fact<Integer> perNode = gpusPerNode.isValue() || !r.isValue() || !n.isValue() || r.get() % n.get() != 0 ? gpusPerNode
                : Fact.of(r.get() / n.get());
        return new Hardware(gpuModel, devices, r, n, perNode, env, e);
    }

    /** "8 x NVIDIA H100 80GB HBM3 on 1 node", with what is not known said so. */
    @JsonIgnore
    public String summary() {
        String gpus = ranks.fold(n -> n + " x ", why -> "unknown ranks of ") + gpuModel.orElse("an unknown GPU");
        return gpus + nodes.fold(n -> " on " + n + (n == 1 ? " node" : " nodes"), why -> ", hosts unknown")
                + gpusPerNode.fold(g -> nodes.orElse(1) > 1 ? " (" + g + " per node)" : "", why -> "");
    }
}
