package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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

    private static void collect(CommandLine c, List<CommandLine> into) {
        into.add(c);
        c.getSubcommands().values().stream().distinct().forEach(s -> collect(s, into));
    }
}
