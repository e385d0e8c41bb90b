package io.nccldoctor.reports.tune;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.sweep.PlanValidator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * `tune --verify-plan FILE`: a sweep plan of two arms on the same libnccl, NCCL's defaults ({@value #DEFAULTS}) and
 * NCCL_TUNER_PLUGIN with NCCL_TUNER_CONFIG_FILE pointing at the tuner file ({@value #TUNED}), interleaved, over the
 * collectives and sizes the file was made from; `sweep` runs it and `compare RESULTS` judges tuned against defaults.
 * The plan is read back and checked as `sweep` checks it (PlanValidator) before it is written.
 */
public final class VerifyPlan {

    public static final String DEFAULTS = "nccl-defaults";
    public static final String TUNED = "tuned";

    /**
     * @param tunerFile   the tuner configuration, absolute (the children run in their own folders)
     * @param plugin      NCCL_TUNER_PLUGIN: a name NCCL turns into libnccl-tuner-NAME.so, or the plugin's path
     * @param library     the libnccl both arms load; null for the one the runs recorded
     * @param template    the plan the results came from (gpus, launcher, iterations, env); null to derive from the runs
     * @param repetitions runs per arm; null for the template's, at least 5 without one
     */
    public record Options(Path tunerFile, String plugin, String library, SweepPlan template, Integer repetitions) {
    }

    private VerifyPlan() {
    }

    public static String render(Tuning t, Options o, String version) {
        Map<String, Object> plan = plan(t, o);
        String yaml;
        try {
            yaml = Json.yaml().writeValueAsString(plan).replaceFirst("^---\\s*\\n", "");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the verification plan", e);
        }
        String text = TunerFile.MARKER + " --verify-plan: NCCL's defaults (arm " + DEFAULTS + ") against the tuner file (arm " + TUNED
                + "), interleaved\n# then: nccl-doctor sweep THIS-FILE -o verify.jsonl && nccl-doctor compare verify.jsonl\n"
                + "# tuner file: " + o.tunerFile() + " (" + t.rows().size() + (t.rows().size() == 1 ? " row" : " rows") + "); NCCL "
                + t.ncclVersion().orElse("version not recorded") + "\n" + yaml;
        check(text, version);
        return text;
    }

    private static Map<String, Object> plan(Tuning t, Options o) {
        SweepPlan p = o.template();
        TreeSet<Long> sizes = new TreeSet<>();
        List<String> collectives = new ArrayList<>();
        TreeSet<Integer> ranks = new TreeSet<>();
        for (Tuning.Shape s : t.shapes()) {
            s.sizes().forEach(d -> sizes.add(d.sizeBytes()));
            ranks.add(s.ranks());
            if (!collectives.contains(s.collective())) {
                collectives.add(s.collective());
            }
        }
        if (collectives.isEmpty()) {
            throw new InputException("--verify-plan: no collective of the results can be tuned, so there is nothing to verify");
        }
        String library = o.library() != null ? o.library() : t.library().fold(v -> v, why -> {
            throw new InputException("--verify-plan: which libnccl to run is not known (" + why + "); give --library PATH");
        });
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "tune-verify");
        m.put("description", "NCCL's defaults against " + o.tunerFile().getFileName() + " through NCCL's example tuner plugin");
        m.put("collectives", collectives);
        m.put("sizes", p != null && p.sizes() != null ? p.sizes()
                : new SweepPlan.Sizes(Long.toString(sizes.first()), Long.toString(sizes.last()), factor(sizes)));
        copy(m, p);
        if (!m.containsKey("gpus")) {
            if (ranks.size() != 1) {
                throw new InputException("--verify-plan: the results hold " + ranks + " ranks; give the sweep's plan with --plan FILE");
            }
            m.put("gpus", ranks.first()); // one process with every GPU: the sweep's own gpus and launcher come with --plan
        }
        m.put("repetitions", o.repetitions() != null ? o.repetitions()
                : Math.max(Math.max(t.thresholds().minSamples(), 5), p != null && p.repetitions() != null ? p.repetitions() : 0));
        Map<String, String> env = new TreeMap<>(p != null ? p.env() : Map.of());
        env.putIfAbsent("NCCL_DEBUG_SUBSYS", "INIT,ENV,TUNING"); // so both arms' logs say what NCCL ran
        m.put("env", env);
        Map<String, String> libraries = new LinkedHashMap<>();
        libraries.put(DEFAULTS, library);
        libraries.put(TUNED, library);
        m.put("libraries", libraries);
        m.put("armEnv", Map.of(TUNED, new TreeMap<>(Map.of("NCCL_TUNER_PLUGIN", o.plugin(), "NCCL_TUNER_CONFIG_FILE",
                o.tunerFile().toString()))));
        return m;
    }

    /** What the sweep's plan said about how to run, when given. */
    private static void copy(Map<String, Object> m, SweepPlan p) {
        if (p == null) {
            return;
        }
        m.put("dtype", p.dtypeOr());
        m.put("op", p.opOr());
        m.put("warmup", p.warmupOr());
        m.put("iters", p.itersOr());
        m.put("check", p.checkOr());
        m.put("gpus", p.gpusOr());
        m.put("launcher", p.launcher() == null ? "local" : p.launcher());
        m.put("timeoutSeconds", p.timeoutOr());
    }

    /** The sweep's step: the ratio of each size to the one before when that is one whole number, else 2. */
    private static int factor(TreeSet<Long> sizes) {
        TreeSet<Long> ratios = new TreeSet<>();
        Long prev = null;
        for (long s : sizes) {
            if (prev != null) {
                ratios.add(prev > 0 && s % prev == 0 ? s / prev : -1);
            }
            prev = s;
        }
        return ratios.size() == 1 && ratios.first() >= 2 && ratios.first() < Integer.MAX_VALUE ? ratios.first().intValue() : 2;
    }

    /** The plan as `sweep` reads it: parsed and validated for the NCCL version, or the tool is wrong. */
    private static void check(String text, String version) {
        SweepPlan plan;
        try {
            plan = Json.yaml().readValue(text, SweepPlan.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the verification plan does not read back: " + e.getOriginalMessage(), e);
        }
        List<String> problems = PlanValidator.problems(plan, version);
        if (!problems.isEmpty()) {
            throw new InputException("--verify-plan: the plan would not run: " + String.join("; ", problems));
        }
    }
}
