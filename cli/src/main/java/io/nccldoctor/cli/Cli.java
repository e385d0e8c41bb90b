package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.ExitCodes;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Builds the command line once, for Main and for tests: verbs, exit codes and the error policy. Bad input prints
 * one line and exits 2; a failure of the tool prints one line and exits 3; {@code --stacktrace} adds the trace.
 */
public final class Cli {

    private Cli() {
    }

    /**
     * The types whose picocli converters are not registered: picocli registers them by loading each class, and java.time's
     * static formatters cost about 7 ms of every start (measured on {@code parse --help}); no option of this tool has
     * such a type (CliConvertersTest keeps it so). Set before the first command line is built, unless the user set it.
     */
    static final String UNUSED_CONVERTERS = "java\\.(time|sql)\\..*";

    /**
     * Off: picocli's default factory otherwise looks for Groovy's closure class at its first use, and that lookup, which
     * the class-data archive cannot answer, makes the class loader open the jar and index its 4,600 entries (the
     * launcher names the main class, so a run that finds every class in the archive never opens the jar otherwise).
     * No option of this tool is a Groovy closure.
     */
    static final String CLOSURES = "picocli.disable.closures";

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        if (System.getProperty("picocli.converters.excludes") == null) {
            System.setProperty("picocli.converters.excludes", UNUSED_CONVERTERS);
        }
        if (System.getProperty(CLOSURES) == null) {
            System.setProperty(CLOSURES, "true");
        }
        return commandLine(out, err, Arrays.asList(args).contains("--stacktrace"), verbs(args)).execute(args);
    }

    /** With every verb: for --help and for tests. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err, boolean stacktrace) {
        return commandLine(out, err, stacktrace, RootCommand.VERBS);
    }

    private static CommandLine commandLine(PrintWriter out, PrintWriter err, boolean stacktrace, List<Class<?>> verbs) {
        CommandLine root = new CommandLine(new RootCommand());
        for (Class<?> verb : verbs) {
            root.addSubcommand(verb);
        }
        HelpLayout.apply(root);
        return commandLine(root, out, err, stacktrace);
    }

    /** The verb the arguments name (its first word that is not an option), alone; every verb when there is none. */
    static List<Class<?>> verbs(String[] args) {
        for (String a : args) {
            if (a.startsWith("-")) {
                continue;
            }
            Class<?> verb = RootCommand.VERBS_BY_NAME.get(a);
            return verb == null ? RootCommand.VERBS : List.of(verb);
        }
        return RootCommand.VERBS;
    }

    /** The same exit codes and error policy around any command object: the root, or one verb on its own in a test. */
    static CommandLine commandLine(Object command, PrintWriter out, PrintWriter err, boolean stacktrace) {
        CommandLine cl = command instanceof CommandLine c ? c : new CommandLine(command);
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExitCodeExceptionMapper(new ExitCodeOf());
        cl.setParameterExceptionHandler(new BadArguments(err));
        cl.setExecutionExceptionHandler(new Failure(err, stacktrace));
        return cl;
    }

    // The handlers are classes, not lambdas: a class comes ready from the launcher's class-data archive, while a lambda
    // is linked at its first use, before anything is compiled (a fraction of a millisecond each, at every start).

    /** Exit 2 for bad input, 3 for the tool failing. */
    private static final class ExitCodeOf implements IExitCodeExceptionMapper {
        @Override
        public int getExitCode(Throwable e) {
            return e instanceof InputException ? ExitCodes.USAGE : ExitCodes.INTERNAL;
        }
    }

    /** Arguments picocli refused: one line, and where the verb's help is. */
    private static final class BadArguments implements IParameterExceptionHandler {
        private final PrintWriter err;

        BadArguments(PrintWriter err) {
            this.err = err;
        }

        @Override
        public int handleParseException(ParameterException ex, String[] args) {
            CommandLine c = ex.getCommandLine();
            err.println("nccl-doctor: " + oneLine(ex.getMessage()));
            err.println("Try 'nccl-doctor " + (c.getParent() == null ? "" : c.getCommandName() + " ") + "--help'.");
            return ExitCodes.USAGE;
        }
    }

    /** A verb that threw: bad input in one line (exit 2), anything else as the tool failing (exit 3). */
    private static final class Failure implements IExecutionExceptionHandler {
        private final PrintWriter err;
        private final boolean stacktrace;

        Failure(PrintWriter err, boolean stacktrace) {
            this.err = err;
            this.stacktrace = stacktrace;
        }

        @Override
        public int handleExecutionException(Exception ex, CommandLine c, ParseResult parsed) {
            // The writer given here, not c.getErr(): a subcommand added later does not inherit setErr.
            if (ex instanceof InputException) {
                err.println("nccl-doctor: " + oneLine(ex.getMessage()));
            } else {
                err.println("nccl-doctor: internal error: " + ex + (stacktrace ? "" : " (rerun with --stacktrace for details)"));
            }
            if (stacktrace) {
                ex.printStackTrace(err);
            }
            err.flush();
            return ex instanceof InputException ? ExitCodes.USAGE : ExitCodes.INTERNAL;
        }
    }

    /**
     * A message about bad input as one line, whatever it quotes from the input: a line break inside a quoted tag or
     * value is shown as "\n" (or "\r"), so the one line a script or ticket takes is the whole message.
     */
    static String oneLine(String message) {
        return message == null ? "bad input" : message.strip().replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\r");
    }
}
