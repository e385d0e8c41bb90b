package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What NCCL said of its network, kept by kind so that no kind crowds out another: the network chosen ("Using network
 * IB", every distinct name), the devices of each transport ("NET/IB : Using [0]mlx5_0:1/RoCE … [7]mlx5_11:1/RoCE",
 * each distinct list), a transport that found nothing ("NET/IB : No device found.", "Failed to open libibverbs.so[.1]"),
 * and the plugins: loaded, failed, and the probing around them ("Failed to find ncclNetPlugin_v9 symbol", "NET/Plugin:
 * Could not find: libnccl-net.so"), which a job prints for every process and which tells little. From these it tells a
 * fallback: a plugin that loaded but whose network NCCL did not use, a plugin that failed to initialise, sockets
 * after IB found no device.
 */
final class NetworkLog {

    private static final int KEEP = NcclLog.KEEP;
    /** The networks NCCL implements itself (src/transport/net_ib, net_socket): a loaded plugin was not used when these are. */
    private static final Set<String> INTERNAL = Set.of("IB", "Socket");

    /** What one message says, read once per distinct text. */
    record Said(Category category, String text, String name, String devices) {
    }

    /**
     * CHOSEN "Using network …"; DEVICES a transport's device list; DEVICE one device of NCCL 2.3's list, which it prints
     * one line per HCA; INTERFACE the IP interface of NCCL's own sockets (2.3: "NET : Using interface ib0:…", "NET/IB :
     * Using interface ib0 for sideband communication"); UNAVAILABLE a transport that found nothing; the plugins.
     */
    enum Category { CHOSEN, DEVICES, DEVICE, INTERFACE, UNAVAILABLE, LOADED, FAILED, PLUGIN, NONE }

    /** NCCL 2.3's line per HCA, "NET/IB: [%d] %s:%d/%s " (src/transport/net_ib.cu@v2.3.5-5 L137): its verbs index, name, port, layer. */
    private static final Pattern ONE_DEVICE = Pattern.compile("NET/(\\w+): \\[(\\d+)\\] (\\S+:\\d+/\\w+)");

    static final Said NOTHING = new Said(Category.NONE, "", "", "");

    /**
     * Reads one message (its text from the first word, Ray's "[repeated …]" suffix removed): "Using network IB", "NET/IB :
     * Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.0.0.1<0>", "NET/IB : No device found.", "NET/Plugin: Loaded net plugin
     * NCCL RDMA Plugin v8 (v8)", "Failed to initialize NET plugin AWS Libfabric" (2.28 and later) and the other plugin lines.
     */
    static Said read(String message) {
        String m = InitMessages.stripRay(message).strip();
        if (m.contains("**")) { // Markdown bold a paste wrapped around part of the line ("**No plugin found (…)**."): NCCL prints no "**"
            m = m.replace("**", "");
        }
        if (m.startsWith("Using network ")) {
            return new Said(Category.CHOSEN, m, m.substring("Using network ".length()).strip(), "");
        }
        if (m.equals("NET/IB : No device found.") || m.startsWith("Failed to open libibverbs")) {
            return new Said(Category.UNAVAILABLE, m, "", "");
        }
        if (m.startsWith("NET : Using interface ") || m.startsWith("NET/") && m.contains(" : Using interface ")) {
            return new Said(Category.INTERFACE, m, "", "");
        }
        Matcher one = ONE_DEVICE.matcher(m);
        if (one.matches()) {
            return new Said(Category.DEVICE, m, one.group(1), "[" + one.group(2) + "]" + one.group(3));
        }
        int using = m.indexOf(" : Using");
        if (m.startsWith("NET/") && using > 4 && m.indexOf(' ') == using) {
            String devices = m.substring(using + " : Using".length()).strip();
            int oob = devices.indexOf("; OOB");
            return new Said(Category.DEVICES, m, m.substring(4, using), (oob >= 0 ? devices.substring(0, oob) : devices).strip());
        }
        int loaded = m.indexOf("Loaded net plugin ");
        if (loaded >= 0) {
            String name = m.substring(loaded + "Loaded net plugin ".length()).strip();
            int version = name.lastIndexOf(" (v");
            return new Said(Category.LOADED, m, version > 0 ? name.substring(0, version) : name, "");
        }
        if (m.startsWith("Failed to initialize NET plugin ")) {
            return new Said(Category.FAILED, m, m.substring("Failed to initialize NET plugin ".length()).strip(), "");
        }
        if (m.startsWith("NET/Plugin") || m.startsWith("NET/OFI ") || m.startsWith("Plugin Path") || m.startsWith("P2P plugin")
                || m.contains(" plugin") || m.startsWith("Failed to find nccl")) {
            return new Said(Category.PLUGIN, m, "", "");
        }
        return NOTHING;
    }

    final Set<String> chosen = new LinkedHashSet<>();
    final Map<String, List<String>> devices = new LinkedHashMap<>();
    /** The first full line of each distinct device list, by transport and list. */
    final Map<String, String> deviceLines = new LinkedHashMap<>();
    final Set<String> unavailable = new LinkedHashSet<>();
    final Set<String> loaded = new LinkedHashSet<>();
    final Set<String> failed = new LinkedHashSet<>();
    final Set<String> plugins = new LinkedHashSet<>();
    final Set<String> interfaces = new LinkedHashSet<>();
    /** NCCL 2.3's devices, one line each, by process ("" without NCCL's prefix), in the order printed. */
    private final Map<String, OneByOne> oneByOne = new LinkedHashMap<>();

    /** One process's device lines of one transport, read one at a time: joined into its list at the end. */
    private static final class OneByOne {
        final String transport;
        final List<String> devices = new ArrayList<>();
        final List<String> lines = new ArrayList<>();

        OneByOne(String transport) {
            this.transport = transport;
        }

        void add(String device, String line) {
            if (!devices.contains(device)) {
                devices.add(device);
                lines.add(line);
            }
        }

        /** The list as NCCL 2.4 and later print it on one line, and the first and last lines it was read from. */
        Said said() {
            int n = devices.size();
            String line = n == 1 ? lines.get(0) : lines.get(0) + " … " + lines.get(n - 1) + " (" + n + " lines, one per device)";
            return new Said(Category.DEVICES, line, transport, String.join(" ", devices));
        }
    }

    /** A device printed on its own line (NCCL 2.3) by the process {@code process}. */
    void device(String process, Said s) {
        String key = process + "|" + s.name();
        OneByOne o = oneByOne.get(key);
        if (o == null) {
            o = new OneByOne(s.name());
            oneByOne.put(key, o);
        }
        o.add(s.devices(), s.text());
    }

    /** Each process's devices printed one per line, as one list (once, before the lists are read). */
    private void joinOneByOne() {
        for (OneByOne o : oneByOne.values()) {
            add(o.said());
        }
        oneByOne.clear();
    }

    void add(Said s) {
        switch (s.category()) {
            case CHOSEN -> addCapped(chosen, s.name());
            case DEVICES -> {
                List<String> lists = devices.computeIfAbsent(s.name(), k -> new ArrayList<>());
                if (!lists.contains(s.devices()) && lists.size() < KEEP) {
                    lists.add(s.devices());
                    deviceLines.putIfAbsent(s.name() + "|" + s.devices(), s.text());
                }
            }
            case UNAVAILABLE -> addCapped(unavailable, s.text());
            case INTERFACE -> addCapped(interfaces, s.text());
            case DEVICE -> device("", s);
            case LOADED -> {
                addCapped(loaded, s.name());
                addCapped(plugins, s.text());
            }
            case FAILED -> {
                addCapped(failed, s.name());
                addCapped(plugins, s.text());
            }
            case PLUGIN -> addCapped(plugins, s.text());
            case NONE -> {
            }
        }
    }

    /** The first {@link #KEEP} of {@code values}, in their order. */
    private static List<String> first(Collection<String> values) {
        List<String> out = new ArrayList<>();
        for (String v : values) {
            if (out.size() == KEEP) {
                break;
            }
            out.add(v);
        }
        return out;
    }

    private static void addCapped(Set<String> set, String value) {
        if (set.size() < KEEP * 4 || set.contains(value)) {
            set.add(value);
        }
    }

    /**
     * Drops a line's text that is the start of another line of the same kind kept here (a paste's last line, cut
     * mid-word: "NET/Plugin : No plugin found (libncc" beside "NET/Plugin : No plugin found (libnccl-net.so), …").
     *
     * @return the line it is the start of, or null when it is none (and nothing was dropped)
     */
    String dropCut(String text) {
        for (Set<String> kept : List.of(plugins, unavailable, interfaces)) {
            if (!kept.contains(text)) {
                continue;
            }
            for (String other : kept) {
                if (other.length() > text.length() && other.startsWith(text)) {
                    kept.remove(text);
                    return other;
                }
            }
        }
        return null;
    }

    /** Adds what a later range of the same file found, in file order. */
    void absorb(NetworkLog o) {
        // loops, here and below, not forEach with lambdas: this runs once per parse, before the JIT, and each lambda is
        // linked at its first use (a fraction of a millisecond apiece)
        addCapped(chosen, o.chosen);
        for (Map.Entry<String, List<String>> t : o.devices.entrySet()) {
            for (String d : t.getValue()) {
                add(new Said(Category.DEVICES, o.deviceLines.get(t.getKey() + "|" + d), t.getKey(), d));
            }
        }
        addCapped(unavailable, o.unavailable);
        addCapped(loaded, o.loaded);
        addCapped(failed, o.failed);
        addCapped(plugins, o.plugins);
        addCapped(interfaces, o.interfaces);
        for (Map.Entry<String, OneByOne> k : o.oneByOne.entrySet()) {
            OneByOne theirs = k.getValue();
            OneByOne mine = oneByOne.get(k.getKey());
            if (mine == null) {
                oneByOne.put(k.getKey(), theirs);
            } else {
                for (int i = 0; i < theirs.devices.size(); i++) {
                    mine.add(theirs.devices.get(i), theirs.lines.get(i));
                }
            }
        }
    }

    private static void addCapped(Set<String> set, Set<String> values) {
        for (String v : values) {
            addCapped(set, v);
        }
    }

    /**
     * The lines for NcclLog.networks, each kind with its own limit: the networks chosen, one line per distinct device
     * list, what found no device, then the plugin lines.
     */
    List<String> lines() {
        joinOneByOne();
        List<String> out = new ArrayList<>();
        for (String n : first(chosen)) {
            out.add("Using network " + n);
        }
        out.addAll(first(deviceLines.values()));
        out.addAll(first(unavailable));
        out.addAll(first(interfaces));
        out.addAll(first(plugins));
        return out;
    }

    NcclLog.Network build() {
        joinOneByOne();
        Map<String, List<String>> byTransport = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> t : devices.entrySet()) {
            byTransport.put(t.getKey(), List.copyOf(t.getValue()));
        }
        return new NcclLog.Network(List.copyOf(chosen), byTransport, List.copyOf(loaded), List.copyOf(failed), List.copyOf(unavailable),
                fallbacks());
    }

    /**
     * A plugin that failed to initialise (NCCL 2.28 and later say so); a net plugin that loaded while NCCL used only its
     * own IB or sockets (earlier versions disable a plugin whose init fails or finds no device without a word, src/net.cc
     * ncclNetPluginInit@v2.19.3-1); sockets after IB found no device or no libibverbs (chosen, or, in a log without "Using
     * network", the only transport that listed devices).
     */
    private List<String> fallbacks() {
        List<String> out = new ArrayList<>();
        String used = chosen.isEmpty() ? "" : "; NCCL used " + String.join(", ", chosen);
        for (String f : failed) {
            if (!INTERNAL.contains(f)) {
                out.add("the NET plugin '" + f + "' failed to initialise" + used);
            }
        }
        for (String f : failed) {
            if (INTERNAL.contains(f)) {
                out.add("NCCL's own " + f + " transport failed to initialise" + used);
            }
        }
        boolean internalOnly = !chosen.isEmpty() && INTERNAL.containsAll(chosen);
        if (internalOnly) {
            for (String l : loaded) {
                if (!failed.contains(l)) {
                    out.add("the net plugin '" + l + "' was loaded, but NCCL used its internal " + String.join(", ", chosen)
                            + " transport: the plugin's init failed or it found no device");
                }
            }
        }
        boolean socketsOnly = chosen.isEmpty() && devices.containsKey("Socket") && devices.size() == 1;
        if ((chosen.contains("Socket") || socketsOnly) && (!unavailable.isEmpty() || failed.contains("IB"))) {
            List<String> why = new ArrayList<>(unavailable);
            if (failed.contains("IB")) {
                why.add("Failed to initialize NET plugin IB");
            }
            out.add("NCCL fell back to sockets: " + String.join("; ", why));
        }
        return List.copyOf(out);
    }
}
