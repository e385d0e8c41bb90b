package io.nccldoctor.cli;

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
 * {@code explain --list}, and {@code parse}, {@code parse --json} and {@code report} on the first two files of each kind
 * in the repository's corpus/ (when the checkout has one). Nothing it does can fail the user's command: each step's
 * failure is ignored, and the launcher uses the archive only when the JVM wrote one. Nothing it runs touches the
 * node (no probe, no native library: {@code --version} loads libcuda and libnccl), so a hung driver cannot hold up the
 * first run after a build, a Slurm prolog's among them.
 */
final class CdsTraining {

    private CdsTraining() {
    }

    public static void main(String[] args) {
        PrintWriter none = new PrintWriter(Writer.nullWriter());
        for (List<String> command : commands(Path.of(System.getProperty("nccldoctor.home", ".")).resolve("corpus"))) {
            try {
                Cli.run(command.toArray(String[]::new), none, none);
            } catch (RuntimeException | LinkageError e) {
                // a step that fails records fewer classes; the archive stays usable
            }
        }
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

    /** The first two files (by name) of each kind's folder, leaving out its README and facts table. */
    private static List<Path> samples(Path corpus) {
        List<Path> samples = new ArrayList<>();
        if (!Files.isDirectory(corpus)) {
            return samples;
        }
        try (Stream<Path> kinds = Files.list(corpus)) {
            for (Path kind : kinds.filter(Files::isDirectory).sorted().toList()) {
                try (Stream<Path> files = Files.list(kind)) {
                    files.filter(f -> !f.getFileName().toString().startsWith("README") && !f.getFileName().toString().startsWith("facts"))
                            .sorted().limit(2).forEach(samples::add);
                }
            }
        } catch (IOException e) {
            // a corpus that cannot be listed trains nothing more
        }
        return samples;
    }
}
