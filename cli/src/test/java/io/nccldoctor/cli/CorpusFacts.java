package io.nccldoctor.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * The one table from a fact name of facts.tsv to where `parse --json` holds it, per kind, and how the value read by
 * eye is compared with it. Facts not in the table (the shape of a paste: indentation, prefixes, elisions) are not
 * asserted here; the parsers' own tests hold them.
 */
final class CorpusFacts {

    /** How a value read by eye is compared with the JSON's. "N/A" in facts.tsv means absent in the JSON. */
    enum Match {
        /** The same text. */
        TEXT,
        /** The same number: the first number of the value read by eye ("1024 (3)" is 1024). */
        NUMBER,
        /** A port state, as ibv_devinfo, ibstat or rdma print it: "PORT_ACTIVE (4)", "Active", "ACTIVE" are one. */
        STATE,
        /** A PCIe link: "Speed 16GT/s (ok), Width x16" against "16.0 GT/s x16". */
        LINK,
        /** Every item the JSON lists (", "-separated) is named in the value read by eye. */
        WORDS,
        /** The same items ("; "-separated), in any order. */
        SET,
        /** Every "; "-separated item read by eye is in the JSON's text (a line as NCCL printed it holds more). */
        CONTAINS,
        /** Link layers counted: "IB x8, RoCE x1" is "IB,IB,…,RoCE". */
        LAYERS
    }

    /** One fact of one kind; {@code prefix} facts carry their subject after the name ("pair.GPU0.NIC1"). */
    record Fact(String kind, String name, boolean prefix, BiFunction<JsonNode, String, Optional<String>> read, Match match) {

        String actual(JsonNode doc, String fact) {
            return read.apply(doc, prefix ? fact.substring(name.length()) : "").orElse("N/A");
        }

        boolean matches(String expected, String actual) {
            if (expected.startsWith("N/A") || actual.equals("N/A")) {
                return expected.startsWith("N/A") && actual.equals("N/A");
            }
            return switch (match) {
                case TEXT -> expected.strip().equals(actual.strip());
                case NUMBER -> number(expected).isPresent() && number(actual).isPresent()
                        && Math.abs(number(expected).get() - number(actual).get()) <= 1e-9 * Math.max(1, Math.abs(number(actual).get()));
                case STATE -> state(expected).equals(state(actual)) || number(state(expected)).isPresent()
                        && state(expected).matches("[0-9.]+") && number(state(expected)).equals(number(actual));
                case LINK -> link(expected).equals(link(actual));
                case WORDS -> List.of(actual.split(", ")).stream().allMatch(expected::contains);
                case SET -> new TreeSet<>(List.of(expected.split(";\\s*"))).equals(new TreeSet<>(List.of(actual.split(";\\s*"))));
                case CONTAINS -> List.of(expected.split(";\\s*")).stream().allMatch(actual::contains);
                case LAYERS -> layers(expected).equals(layers(actual));
            };
        }
    }

    /**
     * Inputs that are refused, with the words the refusal must contain: NCCL's graph file is no topology (its README
     * says so), and reading it as one would invent a PCI tree.
     */
    static final Map<String, String> REFUSED = Map.of(
            "corpus/nccl-topo-xml/nccl-graph-azure-ncv4-not-topology.xml", "it is NCCL's graph file",
            "corpus/nvidia-smi-topo/nvidia-smi-topo-b200-rows-without-header.txt", "none of the kinds nccl-doctor reads was recognised");

    /** "file\tfact" → why the tool does not read it as written yet; shown as skipped, failed once it matches. */
    static final Map<String, String> KNOWN = known();

    private static Map<String, String> known() {
        Map<String, String> k = new TreeMap<>();
        k.put("corpus/lspci-tree/lspci-tree-kata-vm-a100-bf2-switch-ports-dup-last-line.txt\tfunctions",
                "the paste repeats its last line, which names one function (0000:00:1f.3): counted once");
        k.put("corpus/lspci-tree/lspci-tree-kata-host-a100x-bf2-two-fragments.txt\tfunctions",
                "the first bridge of each fragment has no bus in the text (the lines above it were cut): listed as not read, "
                        + "the buses below it read in domain 0000");
        for (String f : List.of("lspci-tree-mid-fragment-cx5-vfs-v100-nccl246.txt", "lspci-tree-mid-fragment-skylake-cx5-nccl246.txt")) {
            k.put("corpus/lspci-tree/" + f + "\tfunctions", "the functions on buses whose bracket is above the cut have no address in "
                    + "the text: counted and named in one not-read entry, not made devices (functionsWithAddress is what the census counts)");
        }
        k.put("corpus/nccl-topo-xml/nccl-topo-aws-p5-48xl-nics-only-no-gpus.xml\tnics", "the 32 leaf <pci> elements give no class, "
                + "vendor or device: counted as functions whose class is not given (listed as not understood); only the file's comment "
                + "calls them NICs");
        for (String f : List.of("nccl-topo-azure-nc48v4-2gpu-nvlink-pair.xml", "nccl-topo-azure-ncv4-a100-pcie-4numa.xml",
                "rccl-topo-mi100-8gpu-rome-vm-gdr0.xml")) {
            k.put("corpus/nccl-topo-xml/" + f + "\tnics", "its <nic> sits under <cpu> with no <pci> element (a virtual NIC): listed "
                    + "as not read ('<nic> outside a <pci>'), no PCI function to count");
        }
        k.put("corpus/perftest/perftest-send-bw-rows-only-script-aggregated-dpu.txt\trole",
                "rows without perftest's header block show no side; 'client' comes from the script that took them (facts.tsv note)");
        k.put("corpus/perftest/perftest-send-bw-rows-only-script-aggregated-dpu.txt\tpeakMBps",
                "perftest prints 0.00 in the BW peak column when it does not measure the peak; the rows keep the 0.00 printed");
        k.put("corpus/perftest/perftest-write-bw-bidir-rocm-placeholder-device.txt\trole", "a bidirectional test prints TX depth on "
                + "both sides and no waiting banner was pasted: the side is absent with that reason; 'client' comes from the source");
        for (String f : List.of("perftest-write-bw-ib-loopback-interleaved-sweep.txt", "perftest-write-bw-ib-loopback-server-client-8m.txt")) {
            k.put("corpus/perftest/" + f + "\trole", "two perftest outputs (server and client) in one text: the side is absent with "
                    + "that reason, not 'server and client'");
        }
        k.put("corpus/nccl-log/nccl-log-nvidia-docs-trace-call-no-device-field.txt\tkind", "NCCL_DEBUG_SUBSYS=CALL lines "
                + "('host:pid:tid NCCL CALL ncclSend(…)') have no device field and no INFO/WARN: the NCCL log reader does not take them");
        k.put("corpus/nccl-log/nccl-log-efa-t4-g4dn-metal-2.12.7-no-gdrdma-with-table.txt\tenv.NCCL_PROTO", "set by the aws-ofi-nccl "
                + "plugin ('NET/OFI Setting NCCL_PROTO to \"simple\"'), which the log reader keeps among the network lines, not as NCCL's "
                + "environment");
        k.put("corpus/nccl-log/nccl-log-nvidia-docs-init-2.30-placeholders.txt\tnranks", "the documentation's placeholders ('busId "
                + "XXXX', 'comm 0x...') keep the reader from taking the Init START line");
        k.put("corpus/nccl-log/nccl-log-socket-2rank-excerpt-elided-comm.txt\tnranks", "'comm 0x... rank 0 nRanks 2 nNodes 2' gives "
                + "the reader the node count; it takes the rank count from Init START and Init COMPLETE lines, which the excerpt cut");
        k.put("corpus/nccl-log/nccl-log-stripped-fastsocket-using-8-ifaces.txt\tnetDeviceList", "facts.tsv writes the eight devices as "
                + "the range 'ibs108..ibs115'; the JSON lists each with its address");
        String ibdev2netdev = "ibdev2netdev's (Up)/(Down) is the net device's link, kept as the port's net device link, not as "
                + "the RDMA port state (an InfiniBand port can be ACTIVE while its IPoIB interface is down)";
        for (String port : List.of("ibdev2netdev-gb10-spark-4roce-2up.txt\tport.rocep1s0f0.1.state",
                "ibdev2netdev-gb10-spark-4roce-2up.txt\tport.rocep1s0f1.1.state", "ibdev2netdev-gb10-spark-4roce-2up.txt\tport.roceP2p1s0f0.1.state",
                "ibdev2netdev-gb10-spark-4roce-2up.txt\tport.roceP2p1s0f1.1.state",
                "ibdev2netdev-gb10-spark-nccl-playbook-p1-up.txt\tport.roceP2p1s0f0.1.state",
                "ibdev2netdev-gb10-spark-nccl-playbook-p1-up.txt\tport.roceP2p1s0f1.1.state",
                "ibdev2netdev-gb10-spark-nccl-playbook-p1-up.txt\tport.rocep1s0f0.1.state",
                "ibdev2netdev-gb10-spark-nccl-playbook-p1-up.txt\tport.rocep1s0f1.1.state",
                "ibdev2netdev-mlx4-ib0-ib1-up.txt\tport.mlx4_0.1.state", "ibdev2netdev-mlx4-ib0-ib1-up.txt\tport.mlx4_0.2.state")) {
            k.put("corpus/rdma/" + port, ibdev2netdev);
        }
        k.put("corpus/nccl-log/nccl-log-ofi-2.4-ring-lines-10-processes-6-p2p-only.txt\tprocesses", "six of the ten processes print "
                + "only 'Ring … via P2P/IPC' lines, which the block scanner counts by their transport without looking up their prefix "
                + "(a lookup per channel line would slow the scan of a job's log): 4 are counted");
        k.put("corpus/nccl-log/nccl-log-deepep-h200-4-processes-channel-lines-only.txt\tprocesses", "two of the four processes print "
                + "only 'Channel … via P2P/CUMEM' lines, counted by their transport without looking up their prefix (a lookup on "
                + "every such line costs about a tenth of the scan of a job's log): 2 are counted, and the output says so");
        k.put("corpus/nccl-log/nccl-log-socket-finalize-accept-6-processes-proxy-lines.txt\tprocesses", "four of the six processes "
                + "print only proxy connection and P2P channel lines, counted without looking up their prefix (as above): the two "
                + "whose WARN lines are read are counted, and the output says which lines it looked at");
        k.put("corpus/nccl-log/nccl-log-quoted-8-processes-pxn0-gdr1-assigned-net-plugin-msswift6107.txt\tprocesses", "six of the "
                + "eight processes print only 'Connected all rings …', 'Comm config …' or P2P channel lines, which are counted "
                + "without looking up their prefix (as above): the two whose 'Assigned NET plugin' lines are read are counted");
        k.put("corpus/nccl-log/nccl-log-tuner-plugin-v4-init-timings-alloc-nccltests319.txt\tprocesses", "the three processes "
                + "print only 'Init timings', 'TUNER/Plugin' and Init COMPLETE lines, counted without looking up their prefix "
                + "(as above; the Init COMPLETE line is read for its communicator, not its process): none is counted");
        k.put("corpus/nccl-log/nccl-log-2.26.2-sglang-tp-prefix-ipv6-bootstrap-elided-sglang7478.txt\tprocesses", "pid 277 prints "
                + "only 'Connected all trees', counted without looking up its prefix (as above): 2 of the 3 are counted");
        k.put("corpus/nccl-log/nccl-log-jax-xla-comminitrank-system-error-last-warning-jax22747.txt\tprocesses", "the one process "
                + "prints only error chain lines ('file.cc:N -> 2'), which are read per thread for the chains and counted without "
                + "looking up their process (as above): none is counted");
        return k;
    }

    private static final Map<String, Fact> TABLE = table();

    private CorpusFacts() {
    }

    static Optional<Fact> of(String kind, String fact) {
        Fact exact = TABLE.get(kind + "\t" + fact);
        if (exact != null) {
            return Optional.of(exact);
        }
        return TABLE.values().stream().filter(f -> f.kind().equals(kind) && f.prefix() && fact.startsWith(f.name())
                && (f.name().endsWith(".") || fact.length() == f.name().length() || fact.charAt(f.name().length()) == '.')).findFirst();
    }

    private static Map<String, Fact> table() {
        List<Fact> all = new ArrayList<>();
        // nccl-tests: NcclTestsOutput
        all.add(fact("nccl-tests", "collective", at("/test"), Match.TEXT));
        all.add(fact("nccl-tests", "ncclVersion", at("/ncclLibrary"), Match.TEXT));
        all.add(fact("nccl-tests", "testsVersion", at("/testsVersion"), Match.TEXT));
        all.add(fact("nccl-tests", "ranks", at("/ranks"), Match.NUMBER));
        all.add(fact("nccl-tests", "rows", d -> Optional.of("" + d.path("rows").size()), Match.NUMBER));
        all.add(fact("nccl-tests", "firstSizeBytes", at("/rows/0/sizeBytes"), Match.NUMBER));
        all.add(fact("nccl-tests", "lastSizeBytes", d -> at("/rows/" + (d.path("rows").size() - 1) + "/sizeBytes").apply(d), Match.NUMBER));
        all.add(fact("nccl-tests", "peakBusBwGBps", at("/peakBusBw/value/outOfPlace/busBwGBps"), Match.NUMBER));
        all.add(fact("nccl-tests", "peakBusBwAtBytes", at("/peakBusBw/value/sizeBytes"), Match.NUMBER));
        all.add(fact("nccl-tests", "avgBusBwGBps", at("/avgBusBwGBps"), Match.NUMBER));
        all.add(fact("nccl-tests", "wrongColumn", CorpusFacts::wrongColumn, Match.TEXT));
        all.add(fact("nccl-tests", "wrongTotal", CorpusFacts::wrongTotal, Match.NUMBER));
        all.add(fact("nccl-tests", "outOfBounds", d -> at("/outOfBounds").apply(d)
                .map(n -> n + at("/outOfBoundsOk").apply(d).map(ok -> ok.equals("true") ? " OK" : " FAILED").orElse("")), Match.TEXT));
        all.add(fact("nccl-tests", "validation", at("/parameters/0/validation"), Match.NUMBER));
        all.add(fact("nccl-tests", "nGpus", at("/parameters/0/gpusPerThread"), Match.NUMBER));
        all.add(prefixed("nccl-tests", "env.", (d, v) -> at("/command/value/env/" + v).apply(d), Match.TEXT));
        all.add(fact("nccl-tests", "tool", at("/tool"), Match.TEXT));
        all.add(fact("nccl-tests", "furtherRuns", d -> Optional.of("" + d.path("furtherRuns").size()), Match.NUMBER));
        all.add(fact("nccl-tests", "commandMaxBytes", at("/command/value/flags/maxbytes"), Match.TEXT));
        // perftest: PerftestOutput
        all.add(fact("perftest", "test", at("/test"), Match.TEXT));
        all.add(fact("perftest", "role", at("/role"), Match.TEXT));
        all.add(fact("perftest", "device", at("/header/Device"), Match.TEXT));
        all.add(fact("perftest", "linkLayer", at("/header/Link type"), Match.TEXT));
        all.add(fact("perftest", "mtu", at("/header/Mtu"), Match.NUMBER));
        all.add(fact("perftest", "gidIndex", at("/header/GID index"), Match.NUMBER));
        all.add(fact("perftest", "rdmaCm", at("/header/rdma_cm QPs"), Match.TEXT));
        all.add(fact("perftest", "rows", d -> Optional.of("" + (d.path("rows").size() + d.path("latencyRows").size())), Match.NUMBER));
        all.add(fact("perftest", "unit", at("/unit"), Match.TEXT));
        all.add(fact("perftest", "peakMBps", d -> best(d, "peak").map(r -> r.path("peak").asText()), Match.NUMBER));
        all.add(fact("perftest", "peakGbps", d -> best(d, "peak").map(r -> r.path("peak").asText()), Match.NUMBER));
        all.add(fact("perftest", "peakAtBytes", d -> best(d, "peak").map(r -> r.path("bytes").asText()), Match.NUMBER));
        all.add(fact("perftest", "avgMBps", d -> last(d.path("rows")).map(r -> r.path("average").asText()), Match.NUMBER));
        all.add(fact("perftest", "avgGbps", d -> last(d.path("rows")).map(r -> r.path("average").asText()), Match.NUMBER));
        all.add(fact("perftest", "maxAvgMBps", d -> best(d, "average").map(r -> r.path("average").asText()), Match.NUMBER));
        all.add(fact("perftest", "maxAvgAtBytes", d -> best(d, "average").map(r -> r.path("bytes").asText()), Match.NUMBER));
        all.add(fact("perftest", "warnings", d -> Optional.of("" + d.path("warnings").size()), Match.NUMBER));
        all.add(fact("perftest", "gpu", at("/gpu"), Match.TEXT));
        all.add(fact("perftest", "registration", at("/gpuMemoryRegistration"), Match.TEXT));
        all.add(fact("perftest", "error", d -> d.path("errors").size() == 0 ? Optional.empty() : Optional.of(d.path("errors").get(0).asText()),
                Match.CONTAINS));
        all.add(fact("perftest", "outcome", at("/outcome"), Match.CONTAINS));
        all.add(fact("perftest", "macAttached", at("/header/MAC attached"), Match.TEXT));
        all.add(fact("perftest", "commandDevice", at("/commandLine/ib-dev"), Match.TEXT));
        all.add(fact("perftest", "commandGidIndex", at("/commandLine/gid-index"), Match.NUMBER));
        all.add(fact("perftest", "commandGpu", at("/commandLine/use_cuda"), Match.NUMBER));
        all.add(fact("perftest", "commandDmabuf", at("/commandLine/use_cuda_dmabuf"), Match.TEXT));
        all.add(fact("perftest", "gpuAddress", at("/gpuPciAddress"), Match.TEXT));
        all.add(fact("perftest", "destMac", at("/header/Dest MAC"), Match.TEXT));
        all.add(fact("perftest", "notUnderstood", d -> Optional.of("" + d.path("notUnderstood").size()), Match.NUMBER));
        // rdma: RdmaPaste with its evaluation
        all.add(fact("rdma", "kinds", d -> Optional.of(items(d.path("sections"), s -> s.path("kind").asText()).stream().distinct()
                .collect(Collectors.joining(", "))), Match.WORDS));
        all.add(fact("rdma", "hcas", d -> Optional.of("" + devices(d).size()), Match.NUMBER));
        all.add(fact("rdma", "ports", d -> Optional.of("" + devices(d).stream().mapToInt(x -> x.at("/ports/value").size()).sum()), Match.NUMBER));
        all.add(fact("rdma", "firmware", CorpusFacts::firmware, Match.TEXT));
        all.add(prefixed("rdma", "port.", CorpusFacts::port, Match.STATE));
        all.add(fact("rdma", "trust", d -> qos(d, "trust"), Match.TEXT));
        all.add(fact("rdma", "pfcEnabledPriorities", d -> qos(d, "pfcPriorities"), Match.TEXT));
        all.add(prefixed("rdma", "netdevMtu.", CorpusFacts::netdevMtu, Match.NUMBER));
        all.add(prefixed("rdma", "rdmaCm.", (d, v) -> items(d.path("rdmaCm"), c -> c).stream().filter(c -> (c.path("device").asText()
                + "." + c.path("port").asText() + "." + c.path("setting").asText()).equals(v)).map(c -> c.path("value").asText()).findFirst(),
                Match.TEXT));
        all.add(fact("rdma", "adapterFirmware", at("/adapters/0/fw"), Match.TEXT));
        all.add(fact("rdma", "notUnderstood", at("/lines/notUnderstood"), Match.NUMBER));
        all.add(fact("rdma", "driverFirmware", at("/driverInfo/0/firmware"), Match.TEXT));
        all.add(fact("rdma", "driverBusInfo", at("/driverInfo/0/busInfo"), Match.TEXT));
        all.add(fact("rdma", "unopened", at("/unopened"), Match.NUMBER));
        all.add(prefixed("rdma", "fabricPort.", CorpusFacts::fabricPort, Match.STATE));
        all.add(prefixed("rdma", "nodeGuid.", (d, v) -> devices(d).stream().filter(x -> x.path("name").asText().equals(v))
                .map(x -> x.at("/nodeGuid/value")).filter(JsonNode::isTextual).map(JsonNode::asText).findFirst(), Match.TEXT));
        // mst status prints bus:device.function without the domain; the reader keeps the address in domain 0000
        all.add(prefixed("rdma", "pciAddress.", (d, v) -> devices(d).stream().filter(x -> x.path("name").asText().equals(v))
                .map(x -> x.at("/pciAddress/value")).filter(JsonNode::isTextual).map(x -> x.asText().replaceFirst("^0000:", "")).findFirst(),
                Match.TEXT));
        all.add(prefixed("rdma", "linkSpeedMbps.", (d, v) -> items(d.path("linkSettings"), x -> x).stream()
                .filter(x -> x.path("netdev").asText().equals(v)).findFirst().flatMap(x -> value(x.path("speedMbps"))), Match.NUMBER));
        all.add(prefixed("rdma", "linkDetected.", (d, v) -> items(d.path("linkSettings"), x -> x).stream()
                .filter(x -> x.path("netdev").asText().equals(v)).findFirst().flatMap(x -> value(x.path("linkDetected"))), Match.TEXT));
        // nvidia-smi-topo: SmiTopoMatrix
        all.add(fact("nvidia-smi-topo", "gpus", d -> Optional.of("" + items(d.path("devices"), JsonNode::asText).stream()
                .filter(x -> x.startsWith("GPU")).count()), Match.NUMBER));
        all.add(fact("nvidia-smi-topo", "nics", d -> Optional.of("" + items(d.path("devices"), JsonNode::asText).stream()
                .filter(x -> !x.startsWith("GPU")).count()), Match.NUMBER));
        all.add(prefixed("nvidia-smi-topo", "pair.", (d, v) -> cell(d, v), Match.TEXT));
        all.add(prefixed("nvidia-smi-topo", "cpuAffinity.", (d, v) -> at("/cpuAffinity/" + v).apply(d), Match.TEXT));
        all.add(prefixed("nvidia-smi-topo", "numaAffinity.", (d, v) -> at("/numaAffinity/" + v).apply(d), Match.TEXT));
        all.add(fact("nvidia-smi-topo", "matrix", at("/matrix"), Match.TEXT));
        // nccl-log: NcclLog, with the readings of its GDR lines
        all.add(fact("nccl-log", "lines", at("/lines"), Match.NUMBER));
        all.add(fact("nccl-log", "ncclVersion", d -> joined(d.path("versions"), ","), Match.TEXT));
        all.add(fact("nccl-log", "gitVersion", d -> joined(d.at("/init/gitVersions"), "; "), Match.SET));
        all.add(fact("nccl-log", "network", CorpusFacts::network, Match.TEXT));
        all.add(fact("nccl-log", "netDevices", d -> devicesListed(d).map(l -> "" + l.size()), Match.NUMBER));
        all.add(fact("nccl-log", "netDeviceList", d -> devicesListed(d).map(l -> l.stream().map(x -> x.replaceFirst("^\\[\\d+\\]", ""))
                .collect(Collectors.joining(","))), Match.TEXT));
        all.add(fact("nccl-log", "linkLayers", d -> devicesListed(d).map(l -> String.join(",", l)), Match.LAYERS));
        all.add(fact("nccl-log", "transports", d -> d.path("transports").isEmpty() ? Optional.empty() : Optional.of(items(d.path("transports"))
                .stream().map(e -> e.getKey() + " x" + e.getValue().asText()).collect(Collectors.joining("; "))), Match.SET));
        all.add(fact("nccl-log", "gdrDecision", d -> joined(d.path("gdr"), "line", d.path("nicGdr")), Match.CONTAINS));
        all.add(fact("nccl-log", "gdrThreshold", at("/gdr/0/threshold"), Match.NUMBER));
        all.add(fact("nccl-log", "gdrReading", d -> joined(d.path("gdrReadings"), " | "), Match.CONTAINS));
        all.add(fact("nccl-log", "nranks", CorpusFacts::nranks, Match.TEXT));
        all.add(fact("nccl-log", "initComplete", d -> d.path("communicatorSizes").isEmpty() ? Optional.empty()
                : Optional.of("" + items(d.path("communicatorSizes")).stream().mapToLong(e -> e.getValue().asLong()).sum()), Match.NUMBER));
        all.add(fact("nccl-log", "warnings", at("/warnings"), Match.NUMBER));
        all.add(fact("nccl-log", "warningText", d -> joined(d.path("firstWarnings"), " | "), Match.CONTAINS));
        all.add(prefixed("nccl-log", "env.", (d, v) -> joined(d.at("/init/environment/" + v), ","), Match.TEXT));
        all.add(fact("nccl-log", "systemDump", d -> d.path("systems").isEmpty() ? Optional.empty()
                : Optional.of(items(d.path("systems"), CorpusFacts::systemDump).stream().collect(Collectors.joining("; "))), Match.SET));
        all.add(fact("nccl-log", "processes", d -> Optional.of("" + d.path("processes").size()), Match.NUMBER));
        all.add(fact("nccl-log", "ibErrors", d -> d.path("ibErrors").isEmpty() ? Optional.empty() : Optional.of(items(d.path("ibErrors"),
                e -> "status " + e.path("status").asInt() + " vendor err " + value(e.path("vendorErr")).orElse("N/A")).stream()
                .collect(Collectors.joining("; "))), Match.SET));
        all.add(fact("nccl-log", "headerlessDump", d -> {
            List<String> parts = new ArrayList<>();
            d.path("systems").forEach(s -> {
                if (s.path("headerless").asBoolean()) {
                    String all1 = systemDump(s);
                    parts.add(all1.substring(all1.indexOf(": ") + 2));
                }
            });
            return parts.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", parts));
        }, Match.SET));
        all.add(fact("nccl-log", "nicDistance", d -> d.path("nicDistances").isEmpty() ? Optional.empty() : Optional.of(items(d.path("nicDistances"),
                n -> {
                    List<String> nics = items(n.path("nics"), JsonNode::asText);
                    List<String> paths = items(n.path("paths"), JsonNode::asText);
                    StringBuilder s = new StringBuilder(n.path("gpu").asText() + " " + n.path("network").asText());
                    for (int i = 0; i < Math.min(nics.size(), paths.size()); i++) {
                        s.append(' ').append(nics.get(i)).append(' ').append(paths.get(i)); // "0[0] IB 0 PIX 1 SYS"
                    }
                    return s.toString();
                }).stream().collect(Collectors.joining("; "))), Match.SET));
        all.add(fact("nccl-log", "watchdogTimeouts", d -> Optional.of("" + d.path("watchdogTimeouts").size()), Match.NUMBER));
        all.add(fact("nccl-log", "watchdogHangs", d -> Optional.of("" + d.path("watchdogHangs").size()), Match.NUMBER));
        all.add(fact("nccl-log", "pxnChannels", at("/pxnChannels"), Match.NUMBER));
        all.add(fact("nccl-log", "unknownMessages", at("/unknownMessages"), Match.NUMBER));
        all.add(fact("nccl-log", "loadedPlugins", d -> joined(d.at("/network/loadedPlugins"), ","), Match.TEXT));
        // what went wrong: NCCL's error chains and WARN lines (NcclLog.Errors), and communicators counted once per commId
        all.add(fact("nccl-log", "errorChains", d -> Optional.of(d.at("/errors/chainCount").asLong() + " ("
                + d.at("/errors/failedChains").asLong() + " failed)"), Match.TEXT));
        all.add(fact("nccl-log", "chainCode", at("/errors/chains/0/code"), Match.NUMBER));
        all.add(fact("nccl-log", "warnLines", at("/errors/warningCount"), Match.NUMBER));
        all.add(fact("nccl-log", "harmlessWarnings", at("/errors/harmlessCount"), Match.NUMBER));
        all.add(fact("nccl-log", "communicatorsStarted", d -> d.at("/init/started").isEmpty() ? Optional.empty()
                : Optional.of("" + items(d.at("/init/started")).stream().mapToLong(e -> e.getValue().asLong()).sum()), Match.NUMBER));
        all.add(fact("nccl-log", "ibAsyncEvents", at("/ibAsyncEvents/count"), Match.NUMBER));
        all.add(fact("nccl-log", "ibAsyncFatal", d -> d.at("/ibAsyncEvents/events").isMissingNode() ? Optional.empty()
                : Optional.of("" + StreamSupport.stream(d.at("/ibAsyncEvents/events").spliterator(), false)
                .filter(e -> e.path("fatal").asBoolean()).mapToLong(e -> e.path("count").asLong()).sum()), Match.NUMBER));
        all.add(fact("nccl-log", "torchErrorCode", at("/torchErrors/errors/0/code"), Match.NUMBER));
        all.add(fact("nccl-log", "torchLastError", at("/torchErrors/errors/0/lastError"), Match.TEXT));
        all.add(fact("nccl-log", "libfabricWarnings", at("/libfabricWarnings/count"), Match.NUMBER));
        all.add(fact("nccl-log", "libfabricHarmless", d -> d.at("/libfabricWarnings/warnings").isMissingNode() ? Optional.empty()
                : Optional.of("" + StreamSupport.stream(d.at("/libfabricWarnings/warnings").spliterator(), false)
                .filter(e -> e.path("harmless").asBoolean()).mapToLong(e -> e.path("count").asLong()).sum()), Match.NUMBER));
        all.add(fact("nccl-log", "mnnvlGpus", d -> d.at("/mnnvl/gpus").isMissingNode() ? Optional.empty()
                : Optional.of("" + d.at("/mnnvl/gpus").size()), Match.NUMBER));
        all.add(fact("nccl-log", "mnnvlState", at("/mnnvl/gpus/0/state"), Match.NUMBER));
        all.add(fact("nccl-log", "mnnvlCliqueId", at("/mnnvl/gpus/0/cliqueId"), Match.TEXT));
        all.add(fact("nccl-log", "cutLastLine", d -> Optional.of(d.path("cutLastLine").asText().isEmpty() ? "no" : "yes"), Match.TEXT));
        // the topology kinds: PciReading
        all.add(fact("lspci-tree", "functions", at("/census/functions"), Match.NUMBER));
        all.add(fact("lspci-tree", "nvidiaGpus", d -> Optional.of("" + nvidiaGpus(d)), Match.NUMBER));
        all.add(fact("lspci-verbose", "devices", d -> d.path("devices").isEmpty() ? Optional.empty() : Optional.of("" + d.path("devices").size()),
                Match.NUMBER));
        all.add(fact("lspci-verbose", "nvidiaGpus", d -> Optional.of("" + nvidiaGpus(d)), Match.NUMBER));
        all.add(prefixed("lspci-verbose", "lnkSta", (d, v) -> link(d, v, "speedGTps", "width"), Match.LINK));
        all.add(prefixed("lspci-verbose", "lnkCap", (d, v) -> link(d, v, "maxSpeedGTps", "maxWidth"), Match.LINK));
        all.add(fact("nccl-topo-xml", "gpus", d -> Optional.of("" + (d.at("/census/byKind/GPU").asInt() + d.at("/census/byKind/AMD_GPU").asInt())),
                Match.NUMBER));
        all.add(fact("nccl-topo-xml", "nics", at("/census/byKind/NIC"), Match.NUMBER));
        all.add(fact("nccl-topo-xml", "netName", at("/ncclNets/nets/0/name"), Match.TEXT));
        all.add(fact("nccl-topo-xml", "netGdr", at("/ncclNets/nets/0/gdr"), Match.NUMBER));
        all.add(fact("nccl-topo-xml", "gpuGdr", at("/ncclNets/gpus/0/gdr"), Match.NUMBER));
        all.add(fact("lspci-verbose", "portType", at("/devices/0/config/portType"), Match.TEXT));
        all.add(fact("lspci-verbose", "deviceId", at("/devices/0/deviceId"), Match.TEXT));
        all.add(fact("lspci-verbose", "acsRedirect", d -> Optional.of("" + (acsRedirects(d.path("devices")) + acsRedirects(d.path("fragments")))),
                Match.NUMBER));
        Map<String, Fact> out = new LinkedHashMap<>();
        all.forEach(f -> out.put(f.kind() + "\t" + f.name(), f));
        return out;
    }

    private static Fact fact(String kind, String name, Function<JsonNode, Optional<String>> read, Match match) {
        return new Fact(kind, name, false, (d, v) -> read.apply(d), match);
    }

    private static Fact prefixed(String kind, String name, BiFunction<JsonNode, String, Optional<String>> read, Match match) {
        return new Fact(kind, name, true, read, match);
    }

    /** The value at a JSON pointer; a fact wrapper ({"value": …}) is opened, an absent or error one is empty. */
    private static Function<JsonNode, Optional<String>> at(String pointer) {
        return d -> value(d.at(pointer));
    }

    private static Optional<String> value(JsonNode n) {
        if (n.isObject() && n.has("value")) {
            return value(n.get("value"));
        }
        if (n.isMissingNode() || n.isNull() || n.isObject() && (n.has("absent") || n.has("error"))) {
            return Optional.empty();
        }
        return Optional.of(n.isArray() ? items(n, JsonNode::asText).stream().collect(Collectors.joining(",")) : n.asText());
    }

    private static <T> List<T> items(JsonNode array, Function<JsonNode, T> f) {
        return StreamSupport.stream(array.spliterator(), false).map(f).toList();
    }

    /** Functions (or header-less excerpts) whose ACSCtl shows ReqRedir+ or CmpltRedir+. */
    private static long acsRedirects(JsonNode list) {
        long n = 0;
        for (JsonNode d : list) {
            String acs = d.at("/config/acsControl/value").toString();
            n += acs.contains("\"ReqRedir\"") || acs.contains("\"CmpltRedir\"") ? 1 : 0;
        }
        return n;
    }

    private static List<Map.Entry<String, JsonNode>> items(JsonNode object) {
        List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
        object.fields().forEachRemaining(out::add);
        return out;
    }

    /** The items of an array as text, joined; empty for none. */
    private static Optional<String> joined(JsonNode array, String by) {
        List<String> all = items(array, JsonNode::asText);
        return all.isEmpty() ? Optional.empty() : Optional.of(String.join(by, all));
    }

    /** A field of the objects of several arrays, joined by " | "; empty for none. */
    private static Optional<String> joined(JsonNode array, String field, JsonNode more) {
        List<String> all = new ArrayList<>(items(array, x -> x.path(field).asText()));
        all.addAll(items(more, x -> x.path(field).asText()));
        return all.isEmpty() ? Optional.empty() : Optional.of(String.join(" | ", all));
    }

    /**
     * The network NCCL chose ("Using network IB"), else the transport whose devices it listed ("NET/IB : Using …"), else
     * the network its channels went through ("via NET/Socket/0").
     */
    private static Optional<String> network(JsonNode d) {
        Optional<String> chosen = joined(d.at("/network/chosen"), ", ");
        if (chosen.isPresent()) {
            return chosen;
        }
        List<String> listed = items(d.at("/network/devices")).stream().map(Map.Entry::getKey).toList();
        if (!listed.isEmpty()) {
            return Optional.of(String.join(", ", listed));
        }
        List<String> channels = items(d.path("transports")).stream().map(Map.Entry::getKey).filter(t -> t.startsWith("NET/"))
                .map(t -> t.substring(4).replaceFirst("/.*", "")).distinct().toList();
        return channels.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", channels));
    }

    /**
     * One distinct "=== System : maxBw …" dump as corpus/README.md writes it: "maxBw 24.0 totalBw 24.0: 2 CPU, 1 GPU, 2 NIC,
     * 2 NET (25.0, 3.1), 0 NVLink, 0 NVSwitch, 0 C2C, PCI 24.0x2 6.0x1, closed": the NET bandwidths in the order the dump
     * first gives them, links of other types with their counts ("24 XGMI, ") before the PCI links by bandwidth, largest
     * first, and "open" for a dump whose closing line is not there.
     */
    private static String systemDump(JsonNode s) {
        List<String> nets = items(s.path("netBandwidths"), JsonNode::asText);
        List<Map.Entry<String, JsonNode>> pci = new ArrayList<>(items(s.path("pciLinks")));
        pci.sort(Comparator.comparingDouble((Map.Entry<String, JsonNode> e) -> Double.parseDouble(e.getKey())).reversed());
        return "maxBw " + s.path("maxBw").asText() + " totalBw " + s.path("totalBw").asText() + ": " + s.path("cpus").asInt() + " CPU, "
                + s.path("gpus").asInt() + " GPU, " + s.path("nics").asInt() + " NIC, " + s.path("nets").asInt() + " NET"
                + (nets.isEmpty() ? "" : " (" + String.join(", ", nets) + ")") + ", " + s.path("nvlinks").asInt() + " NVLink, "
                + s.path("nvswitches").asInt() + " NVSwitch, " + s.path("c2cLinks").asInt() + " C2C, "
                + items(s.path("otherLinks")).stream().map(e -> e.getValue().asText() + " " + e.getKey() + ", ").collect(Collectors.joining())
                + "PCI "
                + (pci.isEmpty() ? "none" : pci.stream().map(e -> e.getKey() + "x" + e.getValue().asText()).collect(Collectors.joining(" ")))
                + (s.path("complete").asBoolean() ? ", closed" : ", open");
    }

    /** The communicators' sizes: from their Init COMPLETE lines, else their Init START lines. */
    private static Optional<String> nranks(JsonNode d) {
        JsonNode sizes = d.path("communicatorSizes").isEmpty() ? d.at("/init/started") : d.path("communicatorSizes");
        return sizes.isEmpty() ? Optional.empty() : Optional.of(String.join(",", items(sizes).stream().map(Map.Entry::getKey).toList()));
    }

    /** "[0]mlx5_0:1/IB", each device of every "NET/… : Using" line. */
    private static Optional<List<String>> devicesListed(JsonNode d) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : items(d.at("/network/devices"))) {
            for (JsonNode line : e.getValue()) {
                Matcher m = Pattern.compile("\\[\\d+\\][^\\s\\[;]+").matcher(line.asText());
                while (m.find()) {
                    out.add(m.group());
                }
            }
        }
        return out.isEmpty() ? Optional.empty() : Optional.of(out);
    }

    /** "IB x8, RoCE x1" or "IB,RoCE" or "[0]mlx5_0:1/IB,…": each link layer with its count. */
    private static Map<String, Integer> layers(String s) {
        Map<String, Integer> out = new TreeMap<>();
        for (String part : s.split(",\\s*")) {
            Matcher m = Pattern.compile("(?:/)?(IB|RoCE)(?:\\s*x(\\d+))?\\s*$").matcher(part.strip());
            if (m.find()) {
                out.merge(m.group(1), m.group(2) == null ? 1 : Integer.parseInt(m.group(2)), Integer::sum);
            }
        }
        return out;
    }

    private static Optional<JsonNode> last(JsonNode array) {
        return array.isEmpty() ? Optional.empty() : Optional.of(array.get(array.size() - 1));
    }

    private static Optional<String> wrongColumn(JsonNode d) {
        List<String> columns = items(d.path("columns"), JsonNode::asText);
        if (columns.contains("#wrong")) {
            return Optional.of("#wrong");
        }
        if (columns.contains("error") || d.path("errorColumn").asBoolean()) {
            return Optional.of("error");
        }
        if (!columns.isEmpty()) {
            return Optional.empty(); // a header without either column: a trimmed table
        }
        return d.path("rows").isEmpty() ? Optional.empty() : Optional.of("#wrong");
    }

    private static Optional<String> wrongTotal(JsonNode d) {
        long sum = 0;
        boolean any = false;
        for (JsonNode row : d.path("rows")) {
            for (JsonNode p : List.of(row.path("outOfPlace"), row.at("/inPlace/value"))) {
                Optional<String> w = value(p.path("wrong"));
                if (w.isPresent()) {
                    sum += Long.parseLong(w.get());
                    any = true;
                }
            }
        }
        return any ? Optional.of(Long.toString(sum)) : Optional.empty();
    }

    /** The row with the largest value in a bandwidth column (the first of equals). */
    private static Optional<JsonNode> best(JsonNode d, String column) {
        JsonNode best = null;
        for (JsonNode r : d.path("rows")) {
            if (best == null || r.path(column).asDouble() > best.path(column).asDouble()) {
                best = r;
            }
        }
        return Optional.ofNullable(best);
    }

    private static List<JsonNode> devices(JsonNode d) {
        return items(d.at("/rdma/devices/value"), x -> x);
    }

    /** "28.44.1036", or per version the HCAs that run it: "28.41.1000 (mlx5_0, mlx5_1); 28.43.2566 (mlx5_2, mlx5_3)". */
    private static Optional<String> firmware(JsonNode d) {
        Map<String, List<String>> byVersion = new LinkedHashMap<>();
        for (JsonNode dev : devices(d)) {
            value(dev.path("fwVersion")).ifPresent(v -> byVersion.computeIfAbsent(v, k -> new ArrayList<>()).add(dev.path("name").asText()));
        }
        if (byVersion.size() <= 1) {
            return byVersion.keySet().stream().findFirst();
        }
        return Optional.of(byVersion.entrySet().stream().map(e -> e.getKey() + " (" + String.join(", ", e.getValue()) + ")")
                .collect(Collectors.joining("; ")));
    }

    private static final Pattern PORT = Pattern.compile("(.+)\\.(\\d+)\\.(\\w+)");
    private static final Map<String, String> PORT_FIELDS = Map.of("state", "state", "activeMtu", "activeMtu", "maxMtu", "maxMtu",
            "linkLayer", "linkLayer", "rate", "rateGbps", "physicalState", "physState", "baseLid", "lid", "smLid", "smLid");

    /** "mlx5_0.1.state": the port's field; "netdev" lists its net devices' names. */
    private static Optional<String> port(JsonNode d, String which) {
        Matcher m = PORT.matcher(which);
        if (!m.matches()) {
            return Optional.empty();
        }
        for (JsonNode dev : devices(d)) {
            for (JsonNode p : dev.at("/ports/value")) {
                if (dev.path("name").asText().equals(m.group(1)) && p.path("number").asText().equals(m.group(2))) {
                    if (m.group(3).equals("netdev")) {
                        return Optional.of(items(p.at("/netdevs/value"), n -> n.path("name").asText()).stream().collect(Collectors.joining(",")));
                    }
                    return PORT_FIELDS.containsKey(m.group(3)) ? value(p.path(PORT_FIELDS.get(m.group(3)))) : Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** "Lid 1.18.state": a port ibportstate printed, kept apart from the host's devices under the address it was reached by. */
    private static Optional<String> fabricPort(JsonNode d, String which) {
        Matcher m = PORT.matcher(which);
        if (!m.matches()) {
            return Optional.empty();
        }
        for (JsonNode node : items(d.path("fabric"), x -> x)) {
            for (JsonNode p : node.at("/ports/value")) {
                if (node.path("name").asText().equals(m.group(1)) && p.path("number").asText().equals(m.group(2))
                        && PORT_FIELDS.containsKey(m.group(3))) {
                    return value(p.path(PORT_FIELDS.get(m.group(3))));
                }
            }
        }
        return Optional.empty();
    }

    /** "p1p1": the MTU of that net device, wherever the JSON lists it (under a port or tied to none). */
    private static Optional<String> netdevMtu(JsonNode d, String name) {
        List<JsonNode> all = new ArrayList<>();
        d.findValues("netdevs").forEach(n -> n.path("value").forEach(all::add));
        d.at("/rdma/otherNetdevs").forEach(all::add);
        return all.stream().filter(n -> n.path("name").asText().equals(name)).map(n -> value(n.path("mtu"))).flatMap(Optional::stream)
                .findFirst();
    }

    private static Optional<String> qos(JsonNode d, String field) {
        for (JsonNode q : d.findValues("qos")) {
            Optional<String> v = value(q.path("value").path(field));
            if (v.isPresent()) {
                return v;
            }
        }
        return Optional.empty();
    }

    /** "GPU0.NIC1" (or an old layout's "GPU0.mlx5_0"): the cell of that row and column. */
    private static Optional<String> cell(JsonNode d, String pair) {
        for (JsonNode row : items(d.path("devices"), x -> x)) {
            String r = row.asText();
            if (pair.startsWith(r + ".")) {
                return value(d.path("cells").path(r).path(pair.substring(r.length() + 1)));
            }
        }
        return Optional.empty();
    }

    private static long nvidiaGpus(JsonNode d) {
        return items(d.path("devices"), x -> x).stream().filter(x -> x.path("kind").asText().equals("GPU")
                && x.path("vendorId").asText().equals("10de")).count();
    }

    /** ".21:00.0": that device's link; no address: the link of the one header-less excerpt. */
    private static Optional<String> link(JsonNode d, String address, String speed, String width) {
        String bdf = address.startsWith(".") ? address.substring(1) : "";
        JsonNode link = null;
        for (JsonNode dev : d.path("devices")) {
            if (!bdf.isEmpty() && dev.path("address").asText().endsWith(bdf)) {
                link = dev.path("link");
            }
        }
        if (bdf.isEmpty() && d.path("fragments").size() == 1) {
            link = d.at("/fragments/0/link");
        }
        if (link == null) {
            return Optional.empty();
        }
        Optional<String> s = value(link.path(speed));
        Optional<String> w = value(link.path(width));
        return s.isEmpty() || w.isEmpty() ? Optional.empty() : Optional.of(s.get() + " GT/s x" + w.get());
    }

    private static Optional<Double> number(String s) {
        Matcher m = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?").matcher(s);
        return m.find() ? Optional.of(Double.parseDouble(m.group())) : Optional.empty();
    }

    /** "PORT_ACTIVE (4)", "4: ACTIVE", "Active" are ACTIVE; ibstat's "Initializing" is INIT. */
    private static String state(String s) {
        String t = s.toUpperCase(Locale.ROOT).replaceAll("\\s*\\(\\d+\\)$", "").replaceFirst("^\\d+:\\s*", "").replaceFirst("^PORT_", "")
                .replaceAll("[_ ]", "");
        return t.equals("INITIALIZING") ? "INIT" : t;
    }

    /** "16 x16" from "Speed 16GT/s (ok), Width x16" and from "16.0 GT/s x16". */
    private static String link(String s) {
        Matcher speed = Pattern.compile("([0-9.]+)\\s*GT/s").matcher(s);
        Matcher width = Pattern.compile("x(\\d+)").matcher(s);
        return (speed.find() ? String.valueOf(Double.parseDouble(speed.group(1))) : "?") + " x" + (width.find() ? width.group(1) : "?");
    }
}
