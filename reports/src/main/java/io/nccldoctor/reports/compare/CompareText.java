package io.nccldoctor.reports.compare;

import java.util.List;

/** The terminal form of a comparison: who against whom, a line per collective, the caveats, NCCL's decisions per arm. */
public final class CompareText {

    private CompareText() {
    }

    public static String render(Comparison c) {
        StringBuilder s = new StringBuilder("nccl-doctor compare: B = " + c.b().name() + " (NCCL " + c.b().versions() + ") against A = "
                + c.a().name() + " (NCCL " + c.a().versions() + ")\n\n");
        c.summaries().forEach(x -> s.append("  ").append(x.line()).append('\n'));
        if (!c.notes().isEmpty()) {
            s.append('\n');
            c.notes().forEach(n -> s.append("note: ").append(n).append('\n'));
        }
        if (!c.a().decisions().isEmpty() || !c.b().decisions().isEmpty()) {
            s.append("\nWhat NCCL decided (from ").append(Decisions.origin(c.a().decisions(), c.b().decisions())).append("):\n  A ").append(c.a().name()).append(": ")
                    .append(c.a().decisions().line()).append("\n  B ").append(c.b().name()).append(": ").append(c.b().decisions().line())
                    .append('\n');
        }
        for (Comparison.Arm arm : List.of(c.a(), c.b())) {
            arm.skipped().forEach(f -> s.append("not read (").append(arm.name()).append("): ").append(f).append('\n'));
        }
        s.append("\nPer size, with intervals and p-values: -o FILE.md, FILE.html or --json\n");
        return s.toString();
    }
}
