package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every verb's --help renders without picocli's "Could not format" warning: picocli runs help text through
 * String.format, so a bare '%' ("95 % interval") must be written '%%'.
 */
class HelpTextTest {

    @Test
    void noHelpTextTripsPicocliFormatting() {
        CommandLine root = Cli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
        List<CommandLine> all = new ArrayList<>();
        collect(root, all);
        assertThat(all).as("the root and every verb").hasSizeGreaterThan(RootCommand.VERBS.size());
        PrintStream before = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> usages = new ArrayList<>();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            all.forEach(c -> usages.add(c.getUsageMessage(CommandLine.Help.Ansi.OFF)));
        } finally {
            System.setErr(before);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).as("picocli's warnings while rendering every --help").isEmpty();
        assertThat(String.join("\n", usages)).as("no escaped '%%' shows through").doesNotContain("%%")
                .contains("a bootstrap 95 % interval");
    }

    /** Help is pasted into tickets and read in 120-column terminals: no line of any verb's --help is wider. */
    @Test
    void everyHelpLineFitsInATicket() {
        CommandLine root = Cli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
        List<CommandLine> all = new ArrayList<>();
        collect(root, all);
        List<String> wide = new ArrayList<>();
        for (CommandLine c : all) {
            for (String line : c.getUsageMessage(CommandLine.Help.Ansi.OFF).split("\n")) {
                if (line.length() > 120) {
                    wide.add(c.getCommandName() + ": " + line.length() + " columns: " + line);
                }
            }
        }
        assertThat(wide).as("help lines over 120 columns").isEmpty();
    }

    @Test
    void sweepsHelpNamesEveryShippedPlan() throws IOException {
        String help = Cli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false)
                .getSubcommands().get("sweep").getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
        try (Stream<Path> plans = Files.list(Path.of("../configs/sweeps"))) {
            List<String> names = plans.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                    .map(n -> n.substring(0, n.length() - ".yaml".length())).sorted().toList();
            assertThat(names).contains("quick", "tune");
            String list = help.substring(help.indexOf("configs/sweeps ("), help.indexOf(")", help.indexOf("configs/sweeps (")));
            assertThat(names).allSatisfy(n -> assertThat(list).as("sweep --help's list of plan names").contains(n));
        }
    }

    private static void collect(CommandLine c, List<CommandLine> into) {
        into.add(c);
        c.getSubcommands().values().stream().distinct().forEach(s -> collect(s, into));
    }
}
