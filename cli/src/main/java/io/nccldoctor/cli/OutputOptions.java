package io.nccldoctor.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * -o/--output, --format and --force: the same three flags, with the same meaning, on every verb that writes its result
 * to a file (the rule is {@code OutputFile}'s).
 */
final class OutputOptions {

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the result to FILE, in the format of its extension "
            + "(the list below), atomically. An earlier nccl-doctor output is replaced; any other file only with --force.")
    Path output;

    @Option(names = "--format", paramLabel = "FORMAT", description = "The format when it is not FILE's extension, or without -o.")
    String format;

    @Option(names = "--force", description = "Replace FILE even if nccl-doctor did not write it (or it is a symbolic link).")
    boolean force;
}
