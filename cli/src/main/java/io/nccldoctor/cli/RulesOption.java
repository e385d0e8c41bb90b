package io.nccldoctor.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** --rules FILE on every verb that judges: severities, disabled codes and thresholds for one run. */
final class RulesOption {

    @Option(names = "--rules", paramLabel = "FILE", description = "Rule configuration: severities, disabled codes, thresholds "
            + "(default: configs/rules.yaml).")
    Path file;
}
