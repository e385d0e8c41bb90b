package io.nccldoctor.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options of every verb that writes a report: where, in which format, which chart, overwrite, which rules. */
final class OutputOptions {

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the result here; the format follows the extension.")
    Path output;

    @Option(names = "--format", paramLabel = "FORMAT", description = "The format when it is not the extension's (see the list below).")
    String format;

    @Option(names = "--chart", paramLabel = "NAME", description = "For png and svg: which chart (default: the first; --list-charts where offered).")
    String chart;

    @Option(names = "--force", description = "Overwrite FILE if it exists.")
    boolean force;

    @Option(names = "--rules", paramLabel = "FILE", description = "Rule configuration (default: configs/rules.yaml).")
    Path rulesFile;
}
