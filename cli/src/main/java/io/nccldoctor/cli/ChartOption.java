package io.nccldoctor.cli;

import picocli.CommandLine.Option;

/** --chart NAME for the verbs that draw: which chart -o FILE.png or .svg holds. */
final class ChartOption {

    @Option(names = "--chart", paramLabel = "NAME", description = "For png and svg: which chart (default: the first; --list-charts names them).")
    String name;
}
