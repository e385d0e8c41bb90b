package io.nccldoctor.core;

import java.util.Map;
import java.util.TreeMap;

/** The environment variables that change what NCCL, CUDA and the probes do; the rest is not recorded. */
public final class Environment {

    private static final String[] PREFIXES = {"NCCL_", "CUDA_", "UCX_", "NVIDIA_"};
    /** Library search reads these too: LD_LIBRARY_PATH and the Python environments that ship NCCL wheels. */
    private static final String[] NAMES = {"LD_LIBRARY_PATH", "LD_PRELOAD", "VIRTUAL_ENV", "CONDA_PREFIX", "HOME"};

    private Environment() {
    }

    public static Map<String, String> relevant(Map<String, String> all) {
        Map<String, String> kept = new TreeMap<>();
        all.forEach((k, v) -> {
            if (matters(k)) {
                kept.put(k, v);
            }
        });
        return kept;
    }

    static boolean matters(String name) {
        for (String p : PREFIXES) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        for (String n : NAMES) {
            if (name.equals(n)) {
                return true;
            }
        }
        return false;
    }
}
