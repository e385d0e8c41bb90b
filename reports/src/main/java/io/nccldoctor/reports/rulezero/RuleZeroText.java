package io.nccldoctor.reports.rulezero;

import java.util.Locale;

/** The terminal form of the rule-zero report: the verdict first, then a line per measurement. */
public final class RuleZeroText {

    private RuleZeroText() {
    }

    public static String render(RuleZero z) {
        StringBuilder s = new StringBuilder("nccl-doctor rulezero: " + z.verdictLine() + "\n\n");
        for (Judgement j : z.rows()) {
            s.append(String.format(Locale.ROOT, "  %-16s %-10s %14s B  %s: %s%n", j.suspect().collective(), j.suspect().dtype(),
                    String.format(Locale.ROOT, "%,d", j.suspect().bytes()), j.verdict(), j.why()));
        }
        s.append("\nThe audit and the chart: -o FILE.md or FILE.html\n");
        return s.toString();
    }
}
