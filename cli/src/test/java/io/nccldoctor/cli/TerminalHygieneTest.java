package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What reaches a terminal, a pipe and a ticket: lines wrapped at 120 columns at spaces only (tables whole), colour
 * only on a terminal without NO_COLOR, progress only on a terminal (fed here by a fake one), help examples never
 * split, commands in remedies as code.
 */
class TerminalHygieneTest {

    @TempDir
    Path tmp;

    /** Markdown lines over the width that are not table rows or headings (which Markdown cannot wrap). */
    private static List<String> tooLong(String markdown) {
        return markdown.lines().filter(l -> l.length() > Wrap.TICKET).filter(l -> !(l.startsWith("#") || l.startsWith("|"))).toList();
    }

    @Test
    void terminalAndMarkdownLinesFitATicketOverTheExampleAndRealInputs() throws Exception {
        List<List<String>> runs = List.of(
                List.of("report", CliTest.EXAMPLE),
                List.of("report", CliTest.collectivesFixture("nccl-tests-gh200-16rank-corrupted-wrong.txt")),
                List.of("report", CliTest.collectivesFixture("nccl-log-ib-completion-error12-azure.txt")),
                List.of("rulezero", CliTest.EXAMPLE + "/suspect-alltoall.csv", "--reference", CliTest.EXAMPLE + "/alltoall-nccl-tests.txt"),
                List.of("gdr", "--from", VerbContractTest.CAPTURE),
                List.of("preflight", "--from", VerbContractTest.DGX));
        for (List<String> args : runs) {
            CliTest.Run r = CliTest.run(args.toArray(String[]::new));
            assertThat(r.code()).as("%s: %s", args, r.err()).isIn(0, 1);
            List<String> text = r.out().lines().filter(l -> l.length() > Wrap.TICKET).toList();
            for (String l : text) {
                assertThat(Wrap.line(l, Wrap.TICKET)).as("%s: a line over 120 columns is a table row: %s", args, l).hasSize(1);
                assertThat(l.strip().split("  +").length).as("%s: %s", args, l).isGreaterThan(3);
            }
        }
        for (String input : List.of(CliTest.EXAMPLE, CliTest.collectivesFixture("nccl-tests-gh200-16rank-corrupted-wrong.txt"))) {
            Path md = tmp.resolve("r" + input.hashCode() + ".md");
            assertThat(CliTest.run("report", input, "-o", md.toString()).code()).isIn(0, 1);
            String text = Files.readString(md);
            assertThat(tooLong(text)).as("%s: Markdown lines over 120 columns outside tables and headings", input).isEmpty();
        }
    }

    @Test
    void wrappingBreaksAtSpacesUnderTheTextColumnAndLeavesTablesAndPaths() {
        String finding = "  WARN  BELOW_BASELINE       " + "word ".repeat(40).strip();
        List<String> lines = Wrap.line(finding, 120);
        assertThat(lines).hasSizeGreaterThan(1).allMatch(l -> l.length() <= 120);
        assertThat(lines.subList(1, lines.size())).allMatch(l -> l.startsWith(" ".repeat(29) + "word"));
        String path = "  - " + "/very/long/path/".repeat(12) + "file.txt tail";
        assertThat(Wrap.line(path, 120).get(0)).as("a path is never split").endsWith("file.txt");
        String table = "  GPU0     X      PIX    PXB    PHB    NODE   SYS    SYS    SYS    SYS    SYS    SYS    SYS    SYS    SYS    SYS    "
                + "SYS    SYS    0-23";
        assertThat(Wrap.line(table, 120)).containsExactly(table);
        assertThat(Wrap.lines("short\n" + finding + "\n", 120)).startsWith("short\n  WARN").endsWith("\n");
    }

    @Test
    void colourOnlyOnATerminalWithoutNoColor() {
        assertThat(Terminal.colour(true, Map.of("TERM", "xterm-256color"))).isTrue();
        assertThat(Terminal.colour(false, Map.of("TERM", "xterm-256color"))).as("a pipe").isFalse();
        assertThat(Terminal.colour(true, Map.of("TERM", "xterm", "NO_COLOR", "1"))).isFalse();
        assertThat(Terminal.colour(true, Map.of("TERM", "dumb"))).isFalse();
        assertThat(Terminal.colour(true, Map.of())).as("no TERM").isFalse();
        String text = "FAIL: 1 error\n  WARN  X  y\n  INFO  Z  z\n  allgather: B slower from 1 MiB\nPASS: fine\n";
        String painted = Terminal.show(text, true);
        assertThat(painted).contains("\u001b[31;1mFAIL\u001b[0m").contains("\u001b[33;1mWARN\u001b[0m")
                .contains("\u001b[36mINFO\u001b[0m").contains("\u001b[31;1mB slower\u001b[0m").contains("\u001b[32;1mPASS\u001b[0m");
        assertThat(Terminal.show(text, false)).isEqualTo(text).doesNotContain("\u001b").doesNotContain("\r");
        CliTest.Run r = CliTest.run("report", CliTest.EXAMPLE);
        assertThat(r.out() + r.err()).as("in-process output is a pipe: no escape, no carriage return").doesNotContain("\u001b")
                .doesNotContain("\r");
    }

    /** A terminal that records what is drawn, and a clock that moves only when told. */
    static final class FakeScreen implements Progress.Screen {
        final boolean terminal;
        final List<String> drawn = new ArrayList<>();

        FakeScreen(boolean terminal) {
            this.terminal = terminal;
        }

        @Override
        public boolean terminal() {
            return terminal;
        }

        @Override
        public void draw(String text) {
            drawn.add(text);
        }
    }

    @Test
    void progressShowsHowFarAndTheTimeLeftOnATerminalOnly() {
        AtomicLong now = new AtomicLong();
        FakeScreen screen = new FakeScreen(true);
        Progress p = new Progress(screen, now::get, "sweep quick", 12, "children");
        now.addAndGet(TimeUnit.SECONDS.toNanos(30));
        p.set(3);
        assertThat(screen.drawn).containsExactly("sweep quick: 3/12 children, 25 %, 0:30 so far, about 1:30 left");
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(50));
        p.set(4);
        assertThat(screen.drawn).as("redrawn at most five times a second").hasSize(1);
        StringWriter out = new StringWriter();
        p.println(new PrintWriter(out), "[4/12] a/default/rep1 allreduce: ok");
        assertThat(screen.drawn.subList(1, screen.drawn.size())).as("cleared before the line, drawn again after")
                .startsWith("").hasSize(2);
        p.close();
        assertThat(screen.drawn.get(screen.drawn.size() - 1)).as("cleared at the end").isEmpty();
        assertThat(out.toString()).isEqualTo("[4/12] a/default/rep1 allreduce: ok" + System.lineSeparator());

        FakeScreen quiet = new FakeScreen(true);
        Progress unknown = new Progress(quiet, now::get, "report: reading 2 inputs", 0, null);
        unknown.tick();
        assertThat(quiet.drawn).as("work of unknown length: nothing in its first second").isEmpty();
        now.addAndGet(TimeUnit.SECONDS.toNanos(2));
        unknown.tick();
        assertThat(quiet.drawn).containsExactly("report: reading 2 inputs: 0:02 so far");

        FakeScreen pipe = new FakeScreen(false);
        Progress q = new Progress(pipe, now::get, "report", 0, null);
        q.set(1);
        StringWriter piped = new StringWriter();
        q.println(new PrintWriter(piped), "line");
        q.close();
        assertThat(pipe.drawn).as("nothing into a pipe").isEmpty();
        assertThat(new Progress(screen, now::get, "counters --interval", 10_000, null).line(now.get() + TimeUnit.SECONDS.toNanos(4)))
                .as("time itself as the work").isEqualTo("counters --interval: 0 %, 0:04 so far");
    }

    @Test
    void helpExamplesAreNeverSplitAtAnyWidth() {
        CommandLine root = Cli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
        for (int width : List.of(60, 80, 200)) {
            for (CommandLine verb : root.getSubcommands().values().stream().distinct().toList()) {
                verb.setUsageHelpAutoWidth(false);
                verb.setUsageHelpWidth(width);
                String help = verb.getUsageMessage(CommandLine.Help.Ansi.OFF);
                for (String example : verb.getCommandSpec().usageMessage().footer()) {
                    if (example.startsWith("  nccl-doctor")) {
                        assertThat(help).as("%s at %d columns", verb.getCommandName(), width).contains(example.stripTrailing());
                    }
                }
                help.lines().filter(l -> !l.startsWith(" ")).forEach(l -> assertThat(l.length()).as("%s: %s", width, l)
                        .isLessThanOrEqualTo(Math.max(width, l.split(" ").length == 1 ? l.length() : width)));
            }
        }
    }

    @Test
    void commandsInRemediesAreCodeInMarkdownAndHtml() throws Exception {
        Path md = tmp.resolve("r.md");
        Path html = tmp.resolve("r.html");
        CliTest.run("report", CliTest.EXAMPLE, "-o", md.toString());
        CliTest.run("report", CliTest.EXAMPLE, "-o", html.toString());
        String m = Files.readString(md);
        String h = Files.readString(html);
        assertThat(m.lines().filter(l -> l.startsWith("Remedy:") && l.contains("\\`"))).as("no escaped backtick in a remedy").isEmpty();
        assertThat(m.lines().filter(l -> l.startsWith("Remedy:") && l.contains("`"))).as("a remedy with a code span").isNotEmpty();
        assertThat(h).contains("<code>");
        assertThat(h.lines().filter(l -> l.contains("Remedy:</b>") && l.contains("`"))).as("no bare backtick in an HTML remedy").isEmpty();
    }
}
