package io.nccldoctor.reports.pairwise;

import java.util.List;
import java.util.stream.Collectors;

/** An argument array as a shell would need it typed, for showing a plan; jobs themselves never go through a shell. */
final class Shell {

    private Shell() {
    }

    static String quote(List<String> argv) {
        return argv.stream().map(Shell::word).collect(Collectors.joining(" "));
    }

    static String word(String w) {
        return !w.isEmpty() && w.matches("[A-Za-z0-9_./:=,+@%-]+") ? w : "'" + w.replace("'", "'\\''") + "'";
    }
}
