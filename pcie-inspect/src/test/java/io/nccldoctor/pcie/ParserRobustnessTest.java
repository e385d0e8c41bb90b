package io.nccldoctor.pcie;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Pasted text is damaged in every way a ticket can damage it: cut off, lines lost, characters replaced. The
 * parsers must then report what they could not read (an InputException, or lines listed as not understood), never
 * fail with an unchecked exception.
 */
class ParserRobustnessTest {

    private static final Path PUBLIC = Path.of("src/test/resources/fixtures/public");

    /** One edit of a text: cut at, delete a range, insert a fragment, or duplicate/drop a line. */
    record Edit(int kind, double where, double length, String fragment) {
        String apply(String text) {
            if (text.isEmpty()) {
                return fragment;
            }
            int at = (int) (where * text.length());
            int len = (int) (length * Math.min(200, text.length() - at));
            return switch (kind) {
                case 0 -> text.substring(0, at);
                case 1 -> text.substring(0, at) + text.substring(Math.min(text.length(), at + len));
                case 2 -> text.substring(0, at) + fragment + text.substring(at);
                default -> {
                    List<String> lines = new ArrayList<>(text.lines().toList());
                    int line = (int) (where * lines.size()) % Math.max(1, lines.size());
                    if (length < 0.5) {
                        lines.remove(line);
                    } else {
                        lines.add(line, lines.get(line));
                    }
                    yield String.join("\n", lines);
                }
            };
        }
    }

    @Provide
    Arbitrary<List<Edit>> edits() {
        Arbitrary<String> fragments = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(12),
                Arbitraries.of("<", ">", "\"", "-[", "]-", "+-", "\\-", "0000:", "GT/s", "x16", "<pci busid=\"", "/>",
                        "LnkSta:\tSpeed ", "Width x", "MaxPayload ", "\n", "\t", "[10de:2330]", "ACSCtl:\t", "NUMA node: -"));
        Arbitrary<Edit> edit = Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.doubles().between(0, 0.9999).ofScale(4),
                Arbitraries.doubles().between(0, 1).ofScale(4), fragments).as(Edit::new);
        return edit.list().ofMinSize(1).ofMaxSize(6);
    }

    private static List<String> files(String prefix) {
        try (Stream<Path> s = Files.list(PUBLIC)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).map(p -> {
                try {
                    return Files.readString(p, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String mutate(List<String> texts, int pick, List<Edit> edits) {
        String text = texts.isEmpty() ? "" : texts.get(Math.floorMod(pick, texts.size()));
        for (Edit e : edits) {
            text = e.apply(text);
        }
        return text;
    }

    @Property(tries = 1500)
    void lspciTreeAndVerboseNeverThrowUnchecked(@ForAll("edits") List<Edit> edits, @ForAll int pick) {
        String tree = mutate(files("lspci-tree"), pick, edits);
        String verbose = mutate(files("lspci-verbose"), pick, edits);
        try {
            PciReading r = PciReading.lspci(tree, "tree", verbose, "verbose");
            everyGpusNearestNics(Topology.of(r.devices(), r.rdmaNames(), "2.27.5", "test"));
        } catch (InputException expected) {
            // reported to the user as one line: fine
        }
    }

    @Property(tries = 1500)
    void ncclTopologyXmlNeverThrowsUnchecked(@ForAll("edits") List<Edit> edits, @ForAll int pick) {
        String xml = mutate(files("nccl-topo"), pick, edits);
        try {
            PciReading r = PciReading.ncclTopoXml(xml, "xml");
            everyGpusNearestNics(Topology.of(r.devices(), r.rdmaNames(), "2.27.5", "test"));
        } catch (InputException expected) {
            // reported to the user as one line: fine
        }
    }

    /** Reads what rules and renderers read: each GPU's nearest NICs and their pairs' links. */
    private static void everyGpusNearestNics(Topology t) {
        for (Topology.Endpoint e : t.endpoints()) {
            if (e.kind().isGpu()) {
                t.nearestNics(e.label()).forEach(p -> p.narrowest().isValue());
            }
        }
    }

    @Property(tries = 1000)
    void nvidiaSmiTopoNeverThrowsUnchecked(@ForAll("edits") List<Edit> edits, @ForAll int pick) {
        String text = mutate(files("nvidia-smi-topo"), pick, edits);
        try {
            SmiTopoMatrix.parse(text.lines().toList(), "smi");
        } catch (InputException expected) {
            // reported to the user as one line: fine
        }
    }
}
