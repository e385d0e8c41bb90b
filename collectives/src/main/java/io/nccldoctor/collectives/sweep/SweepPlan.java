package io.nccldoctor.collectives.sweep;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sweep plan (configs/sweeps/*.yaml): what to measure (collectives, sizes, type, iterations, repetitions), across
 * which environments (the cartesian product of {@code matrix}, "default" meaning unset) and NCCL libraries, started
 * how (a launcher argv prefix, never a shell string), and within what time per point.
 *
 * @param libraries  name → a folder holding libnccl.so.2 (or the library file itself); empty: the NCCL on the loader
 *                   path. Two or more make an A/B plan whose arms run interleaved (A B A B …)
 * @param launcher   "local", or an argv prefix such as ["srun", "--ntasks-per-node=8"]
 * @param timeoutSeconds the limit per point (one collective over all sizes); a child gets it times its collectives
 * @param ncclVersion the version to validate against when no library can be asked (optional)
 * @param armEnv     library name → variables set in that arm's children only (an A/B of one library with and without a
 *                   setting: NCCL_TUNER_PLUGIN and NCCL_TUNER_CONFIG_FILE in one arm)
 */
public record SweepPlan(String name, String description, List<String> collectives, Sizes sizes, String dtype, String op, Integer warmup,
                        Integer iters, Integer check, Integer repetitions, Integer gpus, Map<String, List<String>> matrix,
                        Map<String, String> env, Map<String, String> libraries, Object launcher, Integer timeoutSeconds,
                        String ncclVersion, Map<String, Map<String, String>> armEnv) {

    /** nccl-tests' -b -e -f. */
    public record Sizes(String min, String max, Integer factor) {
    }

    public static final String DEFAULT = "default";

    public SweepPlan {
        collectives = collectives == null ? List.of() : List.copyOf(collectives);
        matrix = matrix == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(matrix));
        env = env == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(env));
        libraries = libraries == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(libraries));
        armEnv = armEnv == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(armEnv));
    }

    /** Without per-arm variables. */
    public SweepPlan(String name, String description, List<String> collectives, Sizes sizes, String dtype, String op, Integer warmup,
                     Integer iters, Integer check, Integer repetitions, Integer gpus, Map<String, List<String>> matrix, Map<String, String> env,
                     Map<String, String> libraries, Object launcher, Integer timeoutSeconds, String ncclVersion) {
        this(name, description, collectives, sizes, dtype, op, warmup, iters, check, repetitions, gpus, matrix, env, libraries, launcher,
                timeoutSeconds, ncclVersion, null);
    }

    public static SweepPlan load(Path file) {
        SweepPlan p;
        try {
            p = Json.yaml().readValue(file.toFile(), SweepPlan.class);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new InputException(file + (at == null ? "" : ":" + at.getLineNr()) + ": " + e.getOriginalMessage()
                    + " (keys: name, description, collectives, sizes, dtype, op, warmup, iters, check, repetitions, gpus, matrix, env, "
                    + "libraries, armEnv, launcher, timeoutSeconds, ncclVersion; see docs/sweep.md)", e);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (p == null) {
            throw new InputException(file + ": empty plan");
        }
        return p;
    }

    public int warmupOr() {
        return warmup == null ? 5 : warmup;
    }

    public int itersOr() {
        return iters == null ? 20 : iters;
    }

    public int checkOr() {
        return check == null ? 1 : check;
    }

    public int repetitionsOr() {
        return repetitions == null ? 1 : repetitions;
    }

    public int gpusOr() {
        return gpus == null ? 1 : gpus;
    }

    public int timeoutOr() {
        return timeoutSeconds == null ? 300 : timeoutSeconds;
    }

    public String dtypeOr() {
        return dtype == null ? "float" : dtype;
    }

    public String opOr() {
        return op == null ? "sum" : op;
    }

    /** The launcher prefix: empty for "local". */
    public List<String> launcherPrefix() {
        if (launcher == null || "local".equals(launcher)) {
            return List.of();
        }
        if (launcher instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(x -> x instanceof String s && !s.isBlank())) {
            return l.stream().map(String.class::cast).toList();
        }
        throw new InputException("launcher " + launcher + ": give local, or an argument list such as [srun, --ntasks-per-node=8] "
                + "(never one shell string: it would be split by no one)");
    }

    /** Every environment of the matrix: "default" leaves the variable unset. Plain {@code env} is in every one. */
    public List<Map<String, String>> environments() {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(new TreeMap<>());
        for (Map.Entry<String, List<String>> axis : matrix.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> e : out) {
                for (String v : axis.getValue() == null || axis.getValue().isEmpty() ? List.of(DEFAULT) : axis.getValue()) {
                    Map<String, String> m = new TreeMap<>(e);
                    m.put(axis.getKey(), v);
                    next.add(m);
                }
            }
            out = next;
        }
        return out;
    }

    /** The plan's env with the arm's own variables over it. */
    private Map<String, String> envOf(String arm) {
        Map<String, String> e = new TreeMap<>(env);
        Map<String, String> own = armEnv.get(arm);
        e.putAll(own == null ? Map.of() : own);
        return e;
    }

    /**
     * The children in run order: per repetition, per environment, every library in turn, so that A/B arms alternate
     * (A B A B …) and machine drift cannot pass for a version effect.
     */
    public List<ChildSpec> children() {
        List<Map<String, String>> envs = environments();
        List<Map.Entry<String, String>> libs = libraries.isEmpty() ? List.of(Map.entry("default", ""))
                : new ArrayList<>(libraries.entrySet());
        List<ChildSpec> out = new ArrayList<>();
        for (int rep = 0; rep < repetitionsOr(); rep++) {
            for (Map<String, String> matrixEnv : envs) {
                for (Map.Entry<String, String> lib : libs) {
                    String label = ChildSpec.label(matrixEnv);
                    String id = lib.getKey() + "/" + label.replace(' ', ',') + "/rep" + (rep + 1);
                    out.add(new ChildSpec(id, lib.getKey(), lib.getValue(), matrixEnv, envOf(lib.getKey()), label, rep, collectives));
                }
            }
        }
        return out;
    }
}
