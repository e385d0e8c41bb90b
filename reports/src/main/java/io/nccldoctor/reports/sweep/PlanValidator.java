package io.nccldoctor.reports.sweep;

import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.core.InputException;
import io.nccldoctor.gdr.GdrLevel;
import io.nccldoctor.pcie.NcclPathTypes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a sweep plan before anything is launched, against the NCCL version it will meet (reference/nccl-internals.md
 * §4 and §6): NCCL_NET_GDR_LEVEL as NCCL's ncclGetLevel reads it (case-sensitive names, legacy numbers), NCCL_PROTO
 * and NCCL_ALGO tokens and syntax (a single list before 2.24, where unknown tokens are silently ignored; the
 * per-function "func:elem;…" form from 2.24, where they are errors; PAT from 2.23), NCCL_NET_GDR_READ 0 or 1, the
 * collectives, sizes, type, operation, counts, launcher and library folders. A value NCCL would ignore is an error:
 * a sweep point that measures the default under another name is worse than none.
 */
public final class PlanValidator {

    private PlanValidator() {
    }

    static final List<String> PROTOCOLS = List.of("LL", "LL128", "Simple");
    static final List<String> ALGORITHMS = List.of("Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT");
    static final List<String> FUNCTIONS = List.of("Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce");
    private static final Set<String> OPS = Set.of("sum", "prod", "min", "max", "avg");

    /** Every problem, each a line that says what and how to fix it; empty when the plan is good for {@code version}. */
    public static List<String> problems(SweepPlan p, String version) {
        List<String> out = new ArrayList<>();
        if (p.name() == null || p.name().isBlank()) {
            out.add("name: give the plan a name (it labels the results)");
        }
        if (p.collectives().isEmpty()) {
            out.add("collectives: list at least one of allreduce allgather alltoall reducescatter broadcast reduce sendrecv");
        }
        for (String c : p.collectives()) {
            if (!List.of("allreduce", "allgather", "alltoall", "reducescatter", "broadcast", "reduce", "sendrecv").contains(c)) {
                out.add("collectives: unknown '" + c + "'; use allreduce allgather alltoall reducescatter broadcast reduce sendrecv");
            }
        }
        try {
            DataType.parse(p.dtypeOr());
        } catch (InputException e) {
            out.add("dtype: " + e.getMessage());
        }
        if (!OPS.contains(p.opOr())) {
            out.add("op: '" + p.opOr() + "'; use sum, prod, min, max or avg");
        }
        if (p.sizes() != null) {
            for (String s : new String[] {p.sizes().min(), p.sizes().max()}) {
                if (s != null && !s.matches("\\d+[KMGkmg]?")) {
                    out.add("sizes: '" + s + "': give bytes as nccl-tests does, e.g. 8, 64K, 128M, 8G");
                }
            }
            if (p.sizes().factor() != null && p.sizes().factor() < 2) {
                out.add("sizes.factor: " + p.sizes().factor() + ": at least 2");
            }
        }
        if (p.repetitionsOr() < 1 || p.itersOr() < 1 || p.warmupOr() < 0 || p.timeoutOr() < 1 || p.gpusOr() < 1) {
            out.add("repetitions, iters, gpus and timeoutSeconds must be at least 1, warmup at least 0");
        }
        try {
            p.launcherPrefix();
        } catch (InputException e) {
            out.add(e.getMessage());
        }
        p.libraries().forEach((name, path) -> {
            if (path == null || !Files.exists(Path.of(path))) {
                out.add("libraries." + name + ": " + path + " does not exist here (a folder holding libnccl.so.2, or the library file)");
            }
        });
        for (Map.Entry<String, List<String>> axis : p.matrix().entrySet()) {
            for (String v : axis.getValue() == null ? List.<String>of() : axis.getValue()) {
                if (!SweepPlan.DEFAULT.equals(v)) {
                    value(axis.getKey(), v, version).ifPresent(why -> out.add("matrix." + axis.getKey() + ": " + why));
                }
            }
        }
        p.env().forEach((k, v) -> value(k, v, version).ifPresent(why -> out.add("env." + k + ": " + why)));
        p.armEnv().forEach((arm, vars) -> {
            if (!p.libraries().containsKey(arm)) {
                out.add("armEnv." + arm + ": no library of that name (armEnv sets variables in one arm of libraries)");
            }
            (vars == null ? Map.<String, String>of() : vars).forEach((k, v) -> value(k, v, version)
                    .ifPresent(why -> out.add("armEnv." + arm + "." + k + ": " + why)));
        });
        return out;
    }

    /** Why NCCL {@code version} would ignore or reject {@code value} for {@code name}, if it would. */
    public static Optional<String> why(String name, String value, String version) {
        return value(name, value, version);
    }

    static Optional<String> value(String name, String value, String version) {
        switch (name) {
            case "NCCL_NET_GDR_LEVEL" -> {
                GdrLevel l = GdrLevel.parse(value, version);
                return l.ignored() == null ? Optional.empty()
                        : Optional.of("'" + value + "' is ignored by NCCL " + version + ": " + l.ignored()
                                + " (use LOC, PIX, PXB, PHB or SYS)");
            }
            case "NCCL_NET_GDR_READ" -> {
                return value.equals("0") || value.equals("1") ? Optional.empty()
                        : Optional.of("'" + value + "': 0 or 1");
            }
            case "NCCL_PROTO" -> {
                return list(value, PROTOCOLS, version, "protocols");
            }
            case "NCCL_ALGO" -> {
                return list(value, ALGORITHMS, version, "algorithms");
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    /** NCCL's parseList: "^" inverts; from 2.24 ';'-separated "func:elem,elem" entries, only the first may omit func. */
    private static Optional<String> list(String value, List<String> known, String version, String what) {
        boolean perFunction = NcclPathTypes.compareVersions(version, "2.24.0") >= 0;
        String body = value.startsWith("^") ? value.substring(1) : value;
        String[] entries = perFunction ? body.split(";", -1) : new String[] {body};
        if (!perFunction && (body.contains(";") || body.contains(":"))) {
            return Optional.of("'" + value + "': the per-function form (func:elem;…) needs NCCL 2.24 or newer; NCCL " + version
                    + " reads one comma list and would ignore this");
        }
        for (int i = 0; i < entries.length; i++) {
            String e = entries[i];
            int colon = e.indexOf(':');
            if (colon >= 0) {
                String func = e.substring(0, colon);
                if (FUNCTIONS.stream().noneMatch(f -> f.equalsIgnoreCase(func))) {
                    return Optional.of("'" + value + "': unknown function '" + func + "' (use " + String.join(", ", FUNCTIONS) + ")");
                }
                e = e.substring(colon + 1);
            } else if (i > 0) {
                return Optional.of("'" + value + "': only the first entry may omit the function (NCCL " + version
                        + " rejects it with ncclInvalidUsage)");
            }
            for (String t : e.split(",", -1)) {
                String token = t.strip();
                if (token.isEmpty() || known.stream().noneMatch(k -> k.equalsIgnoreCase(token))) {
                    return Optional.of("'" + value + "': unknown " + what.substring(0, what.length() - 1) + " '" + token + "' (known "
                            + what + ": " + String.join(", ", known) + "; NCCL " + version + (perFunction ? " rejects it)"
                            : " ignores it silently)"));
                }
                if (token.equalsIgnoreCase("PAT") && NcclPathTypes.compareVersions(version, "2.23.0") < 0) {
                    return Optional.of("'" + value + "': PAT exists from NCCL 2.23; " + version + " ignores it");
                }
            }
        }
        return Optional.empty();
    }

    /** The plan's problems as one error (all of them, separated by "; "), for the CLI's one-line message. */
    public static void check(SweepPlan p, String version, Path file) {
        List<String> problems = problems(p, version);
        if (!problems.isEmpty()) {
            throw new InputException(file + ": " + problems.size() + " problem" + (problems.size() == 1 ? "" : "s")
                    + " for NCCL " + version + ": " + String.join("; ", problems));
        }
    }

}
