package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;

/**
 * Cli leaves out picocli's converters for java.time and java.sql types (loading those classes costs every start): no
 * option or parameter of any verb, mixins included, may have such a type, or it would stop converting. It also turns off
 * picocli's search for Groovy closures, whose failed class lookup opens the jar at every start.
 */
class CliConvertersTest {

    @Test
    void noOptionOfAnyVerbHasATypeWhoseConverterIsLeftOut() {
        CommandLine root = Cli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
        List<String> types = new ArrayList<>();
        collect(root, types);
        assertThat(types).as("option and parameter types of every verb").hasSizeGreaterThan(100)
                .contains("java.nio.file.Path", "int")
                .noneMatch(t -> t.matches(Cli.UNUSED_CONVERTERS));
    }

    @Test
    void theLeftOutTypesAreJavaTimeAndJavaSqlOnly() {
        assertThat("java.time.Duration").matches(Cli.UNUSED_CONVERTERS);
        assertThat("java.sql.Timestamp").matches(Cli.UNUSED_CONVERTERS);
        assertThat("java.nio.file.Path").doesNotMatch(Cli.UNUSED_CONVERTERS);
        assertThat("java.timex.Foo").doesNotMatch(Cli.UNUSED_CONVERTERS);
    }

    @Test
    void picocliIsToldNotToLookForGroovysClosureClass() {
        String before = System.clearProperty(Cli.CLOSURES);
        try {
            Cli.run(new String[] {"--version"}, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
            assertThat(System.getProperty(Cli.CLOSURES)).isEqualTo("true");
        } finally {
            if (before == null) {
                System.clearProperty(Cli.CLOSURES);
            } else {
                System.setProperty(Cli.CLOSURES, before);
            }
        }
    }

    private static void collect(CommandLine cl, List<String> types) {
        for (ArgSpec arg : cl.getCommandSpec().args()) {
            types.add(arg.type().getName());
            for (Class<?> aux : arg.auxiliaryTypes()) {
                types.add(aux.getName());
            }
        }
        cl.getSubcommands().values().forEach(sub -> collect(sub, types));
    }
}
