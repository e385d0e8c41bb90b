package io.nccldoctor.collectives.reference;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.core.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a run's NCCL_DEBUG output goes: each process writes {@code DIR/nccl.%h.%p.log} (NCCL expands host and pid) at
 * the user's NCCL_DEBUG level or INFO, and the files are parsed afterwards. A user's own NCCL_DEBUG_FILE wins and is
 * left alone. The same for nccl-tests children (set in their environment) and for the native run (set in this
 * process before NCCL initialises).
 *
 * @param set  the variables to set; empty when nothing is captured
 * @param dir  the folder the logs go to; null when nothing is captured
 * @param note what happened to the logs, for the report
 */
public record NcclDebugCapture(Map<String, String> set, Path dir, String note) {

    /** @param env the process environment; @param logDir the folder, or null for no capture */
    public static NcclDebugCapture plan(Map<String, String> env, Path logDir) {
        if (logDir == null) {
            return new NcclDebugCapture(Map.of(), null, "not captured (no log folder)");
        }
        if (env.containsKey("NCCL_DEBUG_FILE")) {
            return new NcclDebugCapture(Map.of(), null, "not captured: NCCL_DEBUG_FILE=" + env.get("NCCL_DEBUG_FILE")
                    + " is set, and the logs went there");
        }
        Map<String, String> set = new LinkedHashMap<>();
        set.put("NCCL_DEBUG", env.getOrDefault("NCCL_DEBUG", "INFO"));
        set.put("NCCL_DEBUG_FILE", logDir.resolve("nccl.%h.%p.log").toString());
        return new NcclDebugCapture(Map.copyOf(set), logDir, "NCCL_DEBUG=" + set.get("NCCL_DEBUG") + " written to " + logDir);
    }

    /** Each nccl.*.log in the folder, parsed; a file without NCCL lines is skipped (a process that never initialised). */
    public Map<String, NcclLog> read() {
        Map<String, NcclLog> parsed = new TreeMap<>();
        if (dir == null) {
            return parsed;
        }
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("nccl\\..*\\.log")).sorted().toList()) {
                try {
                    parsed.put(f.getFileName().toString(), NcclLog.parse(f));
                } catch (InputException e) {
                    // no NCCL line in it: nothing to report for that process
                }
            }
        } catch (java.io.IOException e) {
            // the folder vanished or is unreadable: the run's own result still stands
        }
        return parsed;
    }
}
