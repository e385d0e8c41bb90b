package io.nccldoctor.collectives.sweep;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One child process of a sweep: one NCCL library and one environment (NCCL caches the GDR level and most parameters
 * per process), running every collective of the plan.
 *
 * @param id          stable across runs, so --resume can tell what is done: "a/NCCL_PROTO=LL128/rep2"
 * @param arm         the library's name in the plan ("default" without libraries)
 * @param library     a folder or libnccl.so.2 path; empty for the loader's own choice
 * @param matrixEnv   the matrix values of this child; "default" means the variable is removed
 * @param extraEnv    the plan's env, set in every child
 */
public record ChildSpec(String id, String arm, String library, Map<String, String> matrixEnv, Map<String, String> extraEnv,
                        String envLabel, int repeat, List<String> collectives) {

    public ChildSpec {
        matrixEnv = Collections.unmodifiableMap(new TreeMap<>(matrixEnv));
        extraEnv = Collections.unmodifiableMap(new TreeMap<>(extraEnv));
        collectives = List.copyOf(collectives);
    }

    /** "NCCL_PROTO=LL128 NCCL_ALGO=default", or "default" when the matrix is empty. */
    static String label(Map<String, String> matrixEnv) {
        if (matrixEnv.isEmpty()) {
            return "default";
        }
        StringBuilder b = new StringBuilder();
        new TreeMap<>(matrixEnv).forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    /**
     * The child's environment from this process's: the plan's variables, the matrix values (a "default" removes the
     * variable, so a value the user exported does not leak into the default arm), the library folder first on
     * LD_LIBRARY_PATH, NCCL_DEBUG=INFO into the child's folder (unless the user set NCCL_DEBUG_FILE), LC_ALL=C.
     */
    public Map<String, String> environment(Map<String, String> parent, Path childDir) {
        Map<String, String> e = new TreeMap<>(parent);
        e.putAll(extraEnv);
        matrixEnv.forEach((k, v) -> {
            if (SweepPlan.DEFAULT.equals(v)) {
                e.remove(k);
            } else {
                e.put(k, v);
            }
        });
        if (!library.isEmpty()) {
            Path lib = Path.of(library);
            String dir = lib.getFileName() != null && lib.getFileName().toString().startsWith("libnccl") && lib.getParent() != null
                    ? lib.getParent().toString() : library;
            String old = e.get("LD_LIBRARY_PATH");
            e.put("LD_LIBRARY_PATH", old == null || old.isEmpty() ? dir : dir + ":" + old);
        }
        if (!parent.containsKey("NCCL_DEBUG_FILE")) {
            e.putIfAbsent("NCCL_DEBUG", "INFO");
            e.put("NCCL_DEBUG_FILE", childDir.resolve("nccl.%h.%p.log").toString());
        }
        e.put("LC_ALL", "C");
        e.put("LANG", "C");
        return e;
    }
}
