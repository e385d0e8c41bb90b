package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/** The verb names the launcher's start-up reads without annotations are the names each verb's @Command gives. */
class VerbNamesTest {

    @Test
    void eachNameIsItsVerbsCommandName() {
        assertThat(RootCommand.VERBS_BY_NAME).hasSize(16);
        RootCommand.VERBS_BY_NAME.forEach((name, verb) -> assertThat(verb.getAnnotation(Command.class).name()).isEqualTo(name));
        assertThat(RootCommand.VERBS).containsExactlyElementsOf(RootCommand.VERBS_BY_NAME.values());
    }

    @Test
    void aCommandLineBuildsOnlyTheVerbItNames() {
        assertThat(Cli.verbs(new String[] {"--stacktrace", "explain", "--list"})).containsExactly(ExplainCommand.class);
        assertThat(Cli.verbs(new String[] {"nonsense", "parse"})).as("an unknown first word: every verb, for picocli to refuse it")
                .isEqualTo(RootCommand.VERBS);
        assertThat(Cli.verbs(new String[] {"--help"})).isEqualTo(RootCommand.VERBS);
        StringWriter err = new StringWriter();
        assertThat(Cli.run(new String[] {"explian"}, new PrintWriter(new StringWriter()), new PrintWriter(err))).isEqualTo(2);
        assertThat(err.toString()).contains("explian");
        assertThat(List.copyOf(RootCommand.VERBS_BY_NAME.keySet())).startsWith("preflight", "topo", "gdr").endsWith("explain");
    }
}
