package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.fuzz.FuzzBudget;
import io.nccldoctor.core.fuzz.Mutation;
import io.nccldoctor.core.fuzz.Mutations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Every reader of the command line over real inputs damaged as tickets and transfers damage them (truncated, bytes
 * flipped, lines lost or repeated, numbers beyond every range, NUL, bytes that are not UTF-8, CRLF, a 10 MB line, nesting
 * thousands deep, JSON values of the wrong type, a schema version out of range): the {@link BadInputContract} holds for
 * each. The inputs start as the corpus and the modules' public fixtures; the JSON documents the tool reads back are
 * written by the tool itself from the fixture captures. The mutated bytes are SYNTHETIC, for this suite only.
 * Cases per run: {@link FuzzBudget} ({@code -Dfuzz.tries=100000} for a long run; docs/testing.md).
 */
@AddLifecycleHook(FuzzBudget.class)
class BadInputPropertiesTest {

    private static Path work;
    private static List<Path> snapshots;
    private static Path bundle;
    private static List<Path> captures;
    private static Path bandwidthCsv;
    private static Path suspectJson;
    private static int serial;

    @BeforeContainer
    static void seeds() throws IOException {
        work = Files.createTempDirectory("nccl-doctor-fuzz");
        snapshots = new ArrayList<>();
        captures = new ArrayList<>();
        int i = 0;
        for (Path c : Seeds.captures()) {
            Path copy = copyTree(c, work.resolve("capture-" + c.getFileName()));
            captures.add(copy);
            String verb = List.of("preflight", "topo", "gdr").get(i++ % 3); // each verb's --json wraps the snapshot its own way
            BadInputContract.Run r = BadInputContract.run(verb, "--from", copy.toString(), "--json");
            assertThat(r.code()).as("%s --from %s: %s", verb, c, r.err()).isBetween(0, 1);
            ObjectNode doc = (ObjectNode) Json.mapper().readTree(r.out());
            ((ObjectNode) doc.get("snapshot")).put("hostName", c.getFileName().toString()); // the RoCE captures share "unknown host"
            snapshots.add(Files.writeString(work.resolve(verb + "-" + c.getFileName() + ".json"), Json.write(doc)));
        }
        bundle = copyTree(Seeds.exampleBundle(), work.resolve("bundle"));
        bandwidthCsv = Files.writeString(work.resolve("bandwidth.csv"), documentedCsv(), StandardCharsets.UTF_8);
        suspectJson = Files.writeString(work.resolve("suspect.json"), suspectRowsAsJson(bundle.resolve("suspect-alltoall.csv")));
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        try (Stream<Path> s = Files.walk(work)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException busy) {
                    // a case's watchdog thread may still write below: the temp folder is the system's to clear
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Mutation>> damage() {
        return Mutations.any();
    }

    @Provide
    Arbitrary<List<Mutation>> jsonDamage() {
        return Mutations.json();
    }

    // parse: each kind over its own real outputs

    @Property(tries = 150)
    void parseNcclTests(@ForAll("damage") List<Mutation> m, @ForAll int pick, @ForAll boolean json) {
        parse("nccl-tests", Seeds.pick(Seeds.ncclTests(), pick), m, json);
    }

    @Property(tries = 100)
    void parseNcclLog(@ForAll("damage") List<Mutation> m, @ForAll int pick, @ForAll boolean json) {
        parse("nccl-log", Seeds.pick(Seeds.ncclLogs(), pick), m, json);
    }

    @Property(tries = 75)
    void parsePerftest(@ForAll("damage") List<Mutation> m, @ForAll int pick, @ForAll boolean json) {
        parse("perftest", Seeds.pick(Seeds.perftest(), pick), m, json);
    }

    @Property(tries = 75)
    void parseNvidiaSmiTopo(@ForAll("damage") List<Mutation> m, @ForAll int pick, @ForAll boolean json) {
        parse("nvidia-smi-topo", Seeds.pick(Seeds.smiTopo(), pick), m, json);
    }

    @Property(tries = 75)
    void parseRdma(@ForAll("damage") List<Mutation> m, @ForAll int pick, @ForAll boolean json) {
        parse("rdma", Seeds.pick(Seeds.rdma(), pick), m, json);
    }

    private static void parse(String kind, Path seed, List<Mutation> m, boolean json) {
        Path f = mutated(seed, m);
        if (json) {
            BadInputContract.holds(f.toString(), "parse", kind, f.toString(), "--json");
        } else {
            BadInputContract.holds(f.toString(), "parse", kind, f.toString());
        }
    }

    // topo: the text inputs instead of a host

    @Property(tries = 100)
    void topoLspci(@ForAll("damage") List<Mutation> m, @ForAll int pick, @ForAll boolean both) {
        Path tree = Seeds.pick(Seeds.lspciTree(), pick);
        Path verbose = Seeds.pick(Seeds.lspciVerbose(), pick / 7);
        if (both) {
            Path t = mutated(tree, m);
            Path v = mutated(verbose, m.subList(0, 1));
            BadInputContract.holds(work.toString(), "topo", "--lspci-tree", t.toString(), "--lspci-verbose", v.toString());
        } else {
            Path v = mutated(verbose, m);
            BadInputContract.holds(v.toString(), "topo", "--lspci-verbose", v.toString(), "--json");
        }
    }

    @Property(tries = 100)
    void topoNcclXml(@ForAll("damage") List<Mutation> m, @ForAll int pick) {
        Path x = mutated(Seeds.pick(Seeds.ncclTopoXml(), pick), m);
        BadInputContract.holds(x.toString(), "topo", "--nccl-topo-xml", x.toString());
    }

    @Property(tries = 50)
    void topoCompareNvidiaSmi(@ForAll("damage") List<Mutation> m, @ForAll int pick) {
        Path smi = mutated(Seeds.pick(Seeds.smiTopo(), pick), m);
        Path tree = Seeds.pick(Seeds.lspciTree(), pick / 3);
        BadInputContract.holdsNamingOneOf(List.of(smi.toString(), tree.toString()), "topo", "--lspci-tree", tree.toString(),
                "--compare-nvidia-smi", smi.toString());
    }

    // report: every kind of input it reads

    @Property(tries = 150)
    void reportOneInput(@ForAll("jsonDamage") List<Mutation> m, @ForAll int pick, @ForAll int kind) {
        List<Path> seeds = switch (Math.floorMod(kind, 5)) {
            case 0 -> Seeds.ncclTests();
            case 1 -> Seeds.ncclLogs();
            case 2 -> snapshots;
            case 3 -> List.of(bundle.resolve("alltoall-harness.json"), bundle.resolve("ab-nccl-2.28.3-vs-2.30.7.jsonl"));
            default -> Seeds.files("collectives/src/test/resources/fixtures/public", n -> n.endsWith(".json"));
        };
        Path f = mutated(Seeds.pick(seeds, pick), m);
        BadInputContract.holds(f.toString(), "report", f.toString());
    }

    @Property(tries = 50)
    void reportBundle(@ForAll("damage") List<Mutation> m, @ForAll int pick) throws IOException {
        List<Path> members = bundleMembers();
        inPlace(Seeds.pick(members, pick), m, () -> BadInputContract.holds(bundle.toString(), "report", bundle.toString()));
    }

    // compare: two arms, or one sweep result with two

    @Property(tries = 100)
    void compare(@ForAll("jsonDamage") List<Mutation> m, @ForAll int pick, @ForAll boolean sweep) {
        if (sweep) {
            Path f = mutated(bundle.resolve("ab-nccl-2.28.3-vs-2.30.7.jsonl"), m);
            BadInputContract.holds(f.toString(), "compare", f.toString());
        } else {
            Path a = Seeds.pick(Seeds.ncclTests(), pick);
            Path b = mutated(Seeds.pick(Seeds.ncclTests(), pick / 11), m);
            BadInputContract.holds(b.toString(), "compare", a.toString(), b.toString());
        }
    }

    // cluster: snapshots and the bandwidth CSV

    @Property(tries = 100)
    void cluster(@ForAll("jsonDamage") List<Mutation> m, @ForAll int pick, @ForAll boolean csv) {
        List<String> args = new ArrayList<>(List.of("cluster"));
        Path bad = csv ? mutated(bandwidthCsv, m) : mutated(Seeds.pick(snapshots, pick), m);
        Path named = csv ? bad : copy(bad, ".json");
        for (int i = 0; i < 3; i++) {
            args.add(Seeds.pick(snapshots, pick + i + 1).toString());
        }
        args.add(named.toString());
        BadInputContract.holds(named.toString(), args.toArray(String[]::new));
    }

    // rulezero: the suspect table (CSV or JSON) against nccl-tests

    @Property(tries = 75)
    void rulezero(@ForAll("jsonDamage") List<Mutation> m, @ForAll int kind) {
        Path reference = bundle.resolve("alltoall-nccl-tests.txt");
        switch (Math.floorMod(kind, 4)) {
            case 0 -> {
                Path s = mutated(bundle.resolve("suspect-alltoall.csv"), m);
                BadInputContract.holds(s.toString(), "rulezero", s.toString(), "--reference", reference.toString());
            }
            case 1 -> {
                Path s = mutated(suspectJson, m);
                BadInputContract.holds(s.toString(), "rulezero", s.toString(), "--reference", reference.toString());
            }
            case 2 -> {
                Path s = mutated(bundle.resolve("alltoall-harness.json"), m);
                BadInputContract.holds(s.toString(), "rulezero", s.toString(), "--reference", reference.toString());
            }
            default -> {
                Path r = mutated(reference, m);
                BadInputContract.holds(r.toString(), "rulezero", bundle.resolve("suspect-alltoall.csv").toString(), "--reference", r.toString());
            }
        }
    }

    // preflight --from: a capture folder with one of its files damaged

    @Property(tries = 75)
    void preflightFrom(@ForAll("jsonDamage") List<Mutation> m, @ForAll int pick, @ForAll int file) throws IOException {
        Path capture = Seeds.pick(captures, pick);
        List<Path> files = captureFiles(capture);
        inPlace(Seeds.pick(files, file), m, () -> BadInputContract.holds(capture.toString(), "preflight", "--from", capture.toString()));
    }

    /** The files a replay reads first: the manifest, the recorded commands and native answers; then any file under root/. */
    private static List<Path> captureFiles(Path capture) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String f : List.of("manifest.json", "commands.json", "native.json")) {
            if (Files.isRegularFile(capture.resolve(f))) {
                out.add(capture.resolve(f));
                out.add(capture.resolve(f)); // weighted: these are the files a replay parses as JSON
            }
        }
        try (Stream<Path> s = Files.walk(capture.resolve("root"))) {
            s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).sorted().forEach(out::add);
        }
        return out;
    }

    private static List<Path> bundleMembers() throws IOException {
        List<Path> out = new ArrayList<>(List.of(bundle.resolve("report.yaml"), bundle.resolve("report.yaml")));
        try (Stream<Path> s = Files.list(bundle)) {
            s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals("README.md")).sorted().forEach(out::add);
        }
        try (Stream<Path> s = Files.list(bundle.resolve("nccl-logs"))) {
            s.sorted().forEach(out::add);
        }
        return out;
    }

    // helpers

    /** The seed with the mutations applied, in a file of its own with the seed's name (its extension tells some readers the kind). */
    private static Path mutated(Path seed, List<Mutation> m) {
        try {
            Path dir = Files.createDirectories(work.resolve("case-" + (++serial % 50)));
            return Files.write(dir.resolve(seed.getFileName()), Mutation.applyAll(Files.readAllBytes(seed), m));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path copy(Path f, String extension) {
        try {
            String name = f.getFileName().toString().replaceFirst("\\.[a-z]+$", "") + extension;
            return Files.copy(f, f.resolveSibling(name), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Damages a file of a folder copy for one run, then puts it back. */
    private static void inPlace(Path file, List<Mutation> m, Runnable run) throws IOException {
        byte[] before = Files.readAllBytes(file);
        Files.write(file, Mutation.applyAll(before, m));
        try {
            run.run();
        } finally {
            Files.write(file, before);
        }
    }

    private static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(t);
                } else { // a capture's sysfs links are kept as links, dangling ones too
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
                }
            }
        }
        return to;
    }

    /** The bandwidth CSV of docs/cluster.md, as documented. */
    private static String documentedCsv() throws IOException {
        String doc = Files.readString(Seeds.ROOT.resolve("docs/cluster.md"));
        Matcher m = Pattern.compile("```csv\n(.*?)```", Pattern.DOTALL).matcher(doc);
        assertThat(m.find()).as("docs/cluster.md shows the bandwidth CSV").isTrue();
        return m.group(1);
    }

    /** The example suspect table in its JSON form ({"rows": [...]}, docs/rulezero.md): the same rows, written here. */
    private static String suspectRowsAsJson(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        String[] header = lines.get(0).split(",");
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (String l : lines.subList(1, lines.size())) {
            String[] cells = l.replaceFirst("\\s*#.*$", "").split(",");
            ObjectNode row = rows.addObject();
            for (int i = 0; i < header.length; i++) {
                String c = cells[i].strip();
                if (c.matches("\\d+")) {
                    row.put(header[i], Long.parseLong(c));
                } else if (c.matches("[\\d.]+")) {
                    row.put(header[i], Double.parseDouble(c));
                } else {
                    row.put(header[i], c);
                }
            }
        }
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.set("rows", rows);
        return Json.write(doc);
    }
}
