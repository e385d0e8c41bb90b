package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.reference.ReferenceTest;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * Every real output of the corpus and of the public fixtures through `parse FILE --json` (the kind told from the
 * text) and `report FILE`, checked against the facts read by eye from each text (facts.tsv beside them): the kind
 * chosen, no exit 3, and every fact {@link CorpusFacts} maps to the JSON. A fact that does not match fails, unless it
 * is listed in {@link CorpusFacts#KNOWN} with the reason, where it shows as skipped (and fails once it matches).
 * Texts of no kind (READMEs, docs, source) must be refused.
 */
class CorpusTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(new PrintWriter(out, true), new PrintWriter(err, true), false);
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @TestFactory
    Stream<DynamicNode> everyRealOutput() {
        return Corpus.inputs().stream().map(in -> dynamicContainer(in.name(), tests(in)));
    }

    @TestFactory
    Stream<DynamicNode> textOfNoKindIsRefused() {
        return Corpus.notInputs().stream().map(p -> dynamicTest(Corpus.ROOT.relativize(p).toString(), () -> {
            Run parse = run("parse", p.toString(), "--json");
            assertThat(parse.code()).as("parse of a text of no kind: exit 2\n" + parse.err()).isEqualTo(2);
            assertThat(parse.err().strip()).as("one line, naming the kinds tried").doesNotContain("\n")
                    .contains("none of the kinds nccl-doctor reads was recognised (tried nvidia-smi-topo, perftest, nccl-tests, nccl-log, "
                            + "rdma, lspci-tree, lspci-verbose, nccl-topo-xml)");
            Run report = run("report", p.toString());
            assertThat(report.code()).as("report of a text of no kind: exit 2, not a PASS\n" + report.out() + report.err()).isEqualTo(2);
        }));
    }

    private static Stream<DynamicNode> tests(Corpus.Input in) {
        String refused = CorpusFacts.REFUSED.get(in.name());
        Run parse = run("parse", in.file().toString(), "--json");
        List<DynamicNode> nodes = new ArrayList<>();
        nodes.add(dynamicTest("parse: " + (refused != null ? "refused, " + refused : "read as " + in.kind()), () -> {
            assertThat(parse.code()).as(in.name() + ": exit code of parse (3 would be the tool failing)\n" + parse.err()).isNotEqualTo(3);
            if (refused != null) {
                assertThat(parse.code()).as(in.name() + ": " + parse.err()).isEqualTo(2);
                assertThat(parse.err()).contains(refused);
                return;
            }
            known(in, "kind");
            assertThat(parse.code()).as(in.name() + ": exit code\n" + parse.err()).isIn(0, 1);
            assertThat(parse.err()).as(in.name() + ": the line that says which kind was chosen").startsWith("parse: " + in.file() + " read as " + in.kind() + " (");
            JsonNode doc = Json.mapper().readTree(parse.out());
            assertThat(doc.path("kind").asText()).isEqualTo(in.kind());
            assertThat(doc.path("schemaVersion").asInt()).isEqualTo(1);
        }));
        nodes.add(dynamicTest("report", () -> {
            known(in, "kind");
            Run report = run("report", in.file().toString(), "--format", "json");
            assertThat(report.code()).as(in.name() + ": exit code of report\n" + report.out() + report.err()).isIn(refused != null ? 2 : 0, refused != null ? 2 : 1);
            if (in.kind().equals("rdma")) {
                assertThat(findings(json(report.out()).path("findings"))).as(in.name() + ": report judges RDMA text with the rules of parse rdma")
                        .isEqualTo(findings(json(parse.out()).at("/evaluation/findings")));
            }
            Corpus.Row test = in.facts().get("collective");
            Optional<ReferenceTest> named = test == null ? Optional.empty() : ReferenceTest.ofBinary(test.inText());
            if (in.kind().equals("nccl-tests") && named.isPresent()) { // every test nccl-tests has, named in the text
                assertThat(json(report.out()).at("/data/sweeps/0/collective/value").asText())
                        .as(in.name() + ": the collective of the report's sweep, from " + test.inText()).isEqualTo(named.get().name());
            }
        }));
        JsonNode doc = refused == null && parse.code() != 2 ? json(parse.out()) : null;
        if (doc != null) {
            for (Map.Entry<String, Corpus.Row> f : in.facts().entrySet()) {
                String expected = f.getValue().inText();
                String shown = f.getKey() + " = " + expected + (expected.equals(f.getValue().value()) ? "" : " (" + f.getValue().value() + " is "
                        + f.getValue().note() + ")");
                CorpusFacts.of(in.kind(), f.getKey()).ifPresent(x -> nodes.add(dynamicTest(shown, () -> {
                    String actual = x.actual(doc, f.getKey());
                    boolean same = x.matches(expected, actual);
                    String known = CorpusFacts.KNOWN.get(in.name() + "\t" + f.getKey());
                    if (known != null) {
                        assertThat(same).as(in.name() + " " + f.getKey() + ": a known mismatch that now matches: take it out of CorpusFacts.KNOWN")
                                .isFalse();
                        Assumptions.abort("known mismatch (read " + actual + "): " + known);
                    }
                    assertThat(same).as(in.name() + " " + f.getKey() + ": facts.tsv says '" + expected + "', parse --json gives '" + actual + "'")
                            .isTrue();
                })));
            }
        }
        return nodes.stream();
    }

    private static void known(Corpus.Input in, String fact) {
        String known = CorpusFacts.KNOWN.get(in.name() + "\t" + fact);
        if (known != null) {
            Assumptions.abort("known mismatch: " + known);
        }
    }

    /** "CODE subject" of each finding, sorted. */
    private static List<String> findings(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(f -> out.add(f.path("code").asText() + " " + f.path("subject").asText()));
        out.sort(null);
        return out;
    }

    private static JsonNode json(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (IOException e) {
            throw new AssertionError("parse --json printed no JSON: " + e.getMessage(), e);
        }
    }
}
