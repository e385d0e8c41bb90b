package io.nccldoctor.reports.sweep;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.nccldoctor.collectives.sweep.ChildSpec;
import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.core.InputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code sweep --dry-run} shows, and what it runs against: the plan validated for the NCCL it will meet, then each
 * child with its command, time limit and the environment it changes. A library folder the plan names but this machine
 * lacks is a warning here (the plan is often written for the nodes, and read on a laptop) and an error for a real run;
 * every other problem is an error in both.
 *
 * @param points     children × collectives
 * @param warnings   what a real run here would refuse, each a line
 */
@JsonPropertyOrder({"schemaVersion", "kind", "plan", "validatedAgainst", "points", "results", "warnings", "children"})
public record DryRun(int schemaVersion, String kind, String plan, String validatedAgainst, int points, String results,
                     List<String> warnings, List<Child> children) {

    /**
     * One child process.
     *
     * @param set   the variables it sets or changes, by name
     * @param unset the variables of this process it removes
     */
    public record Child(int index, String id, String arm, String environment, int repetition, List<String> collectives, List<String> argv,
                        long limitSeconds, Map<String, String> set, List<String> unset) {
    }

    /**
     * The problems of {@code plan} for NCCL {@code version} that a dry run only warns about (missing library folders);
     * every other problem is thrown as {@link PlanValidator#check} throws it.
     */
    public static List<String> validate(SweepPlan plan, String version, Path file) {
        List<String> warnings = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (String p : PlanValidator.problems(plan, version)) {
            (p.startsWith("libraries.") && p.contains(" does not exist here") ? warnings : errors).add(p);
        }
        if (!errors.isEmpty()) {
            throw new InputException(file + ": " + errors.size() + " problem" + (errors.size() == 1 ? "" : "s") + " for NCCL " + version
                    + ": " + String.join("; ", errors));
        }
        return warnings;
    }

    /** The plan's children as they would start: {@code launcher + childCommand --request … --result …} in {@code results}.d/ID. */
    public static DryRun of(SweepPlan plan, String version, List<String> warnings, Path results, List<String> childCommand,
                            Map<String, String> parent) {
        List<ChildSpec> specs = plan.children();
        List<Child> children = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            ChildSpec c = specs.get(i);
            Path dir = results.resolveSibling(results.getFileName() + ".d").resolve(c.id().replaceAll("[^A-Za-z0-9._=,+-]", "_"));
            List<String> argv = new ArrayList<>(plan.launcherPrefix());
            argv.addAll(childCommand);
            argv.addAll(List.of("--request", dir.resolve("request.json").toString(), "--result", dir.resolve("result.jsonl").toString()));
            Map<String, String> env = c.environment(parent, dir);
            Map<String, String> set = new TreeMap<>();
            new TreeMap<>(env).forEach((k, v) -> {
                if (!v.equals(parent.get(k))) {
                    set.put(k, v);
                }
            });
            List<String> unset = new TreeMap<>(parent).keySet().stream().filter(k -> !env.containsKey(k)).toList();
            children.add(new Child(i + 1, c.id(), c.arm(), c.envLabel(), c.repeat() + 1, c.collectives(), argv,
                    (long) plan.timeoutOr() * c.collectives().size(), set, unset));
        }
        return new DryRun(1, "sweep-plan", plan.name(), version, specs.size() * plan.collectives().size(), results.toString(),
                List.copyOf(warnings), children);
    }

    /** The terminal form: the plan line, the warnings, then each child. */
    public String text() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "plan %s: %d children x %d collectives = %d points; results to %s%n", plan,
                children.size(), children.isEmpty() ? 0 : points / children.size(), points, results));
        warnings.forEach(w -> s.append("warning: ").append(w).append(" (a real run here refuses it)\n"));
        for (Child c : children) {
            s.append(String.format(Locale.ROOT, "%n[%d/%d] %s (arm %s, %s, repetition %d): %s%n", c.index(), children.size(), c.id(),
                    c.arm(), c.environment(), c.repetition(), String.join(", ", c.collectives())));
            s.append("  argv: ").append(String.join(" ", c.argv())).append('\n');
            s.append("  limit: ").append(c.limitSeconds()).append(" s\n");
            c.set().forEach((k, v) -> s.append("  set   ").append(k).append('=').append(v).append('\n'));
            c.unset().forEach(k -> s.append("  unset ").append(k).append('\n'));
        }
        return s.toString();
    }
}
