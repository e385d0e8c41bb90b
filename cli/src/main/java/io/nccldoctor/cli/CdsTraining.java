package io.nccldoctor.cli;

import io.nccldoctor.collectives.parse.NcclLog;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The run the launcher makes once after each build, under {@code -XX:DumpLoadedClassList}, so that the class-data archive
 * it then dumps ({@code -Xshare:dump}) holds the classes every verb loads, not only those of whichever command happened
 * to run first (an archive recorded by {@code --version} left a 1 GiB {@code parse} 0.1 s slower than one recorded by
 * {@code parse}). It runs, with their output discarded: the root's and every verb's {@code --help},
 * {@code explain --list}, and {@code parse}, {@code parse --json} and {@code report} on every file of each kind
 * in the repository's corpus/ (when the checkout has one), and each of its NCCL logs once more read in two ranges and
 * joined. Nothing it does can fail the user's command: each step's
 * failure is ignored, and the launcher uses the archive only when the JVM wrote one. Nothing it runs touches the
 * node (no probe, no native library: {@code --version} loads libcuda and libnccl), so a hung driver cannot hold up the
 * first run after a build, a Slurm prolog's among them.
 */
final class CdsTraining {

    private CdsTraining() {
    }

    public static void main(String[] args) {
        PrintWriter none = new PrintWriter(Writer.nullWriter());
        Path corpus = Path.of(System.getProperty("nccldoctor.home", ".")).resolve("corpus");
        for (List<String> command : commands(corpus)) {
            try {
                Main.run(command.toArray(String[]::new), none, none);
            } catch (RuntimeException | LinkageError e) {
                // a step that fails records fewer classes; the archive stays usable
            }
        }
        for (Path log : joinedLogs(corpus)) {
            try {
                NcclLog.parseInRanges(log, 2);
            } catch (RuntimeException | LinkageError e) {
                // as above
            }
        }
    }

    /**
     * The NCCL logs of the corpus, each also read in two ranges and joined: a log below 128 MiB is read in one, so no
     * command above reaches the join, and without this step a large log's first run would load the join's classes and
     * link its lambdas (tens of milliseconds) after its scan.
     */
    static List<Path> joinedLogs(Path corpus) {
        return files(corpus.resolve("nccl-log"));
    }

    /** The commands run, in order: those that need no input first, then each corpus file read three ways. */
    static List<List<String>> commands(Path corpus) {
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("--help"));
        for (String verb : RootCommand.VERBS_BY_NAME.keySet()) {
            commands.add(List.of(verb, "--help"));
        }
        commands.add(List.of("explain", "--list"));
        for (Path file : samples(corpus)) {
            commands.add(List.of("parse", file.toString()));
            commands.add(List.of("parse", "--json", file.toString()));
            commands.add(List.of("report", file.toString()));
        }
        return commands;
    }

    /**
     * Every file of each kind's folder (by name), leaving out its README and facts table: what one kind's files print
     * differs (a log's message kinds, a dump's shapes), and each path not trained loads its classes at run time.
     */
    private static List<Path> samples(Path corpus) {
        List<Path> samples = new ArrayList<>();
        if (!Files.isDirectory(corpus)) {
            return samples;
        }
        try (Stream<Path> kinds = Files.list(corpus)) {
            for (Path kind : kinds.filter(Files::isDirectory).sorted().toList()) {
                samples.addAll(files(kind));
            }
        } catch (IOException e) {
            // a corpus that cannot be listed trains nothing more
        }
        return samples;
    }

    /** The files of one kind's folder by name, without its README and facts table; none when it cannot be listed. */
    private static List<Path> files(Path kind) {
        if (!Files.isDirectory(kind)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(kind)) {
            return files.filter(f -> !f.getFileName().toString().startsWith("README") && !f.getFileName().toString().startsWith("facts"))
                    .sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
