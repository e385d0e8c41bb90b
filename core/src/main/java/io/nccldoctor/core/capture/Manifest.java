package io.nccldoctor.core.capture;

import java.util.List;
import java.util.Map;

/**
 * manifest.json of a capture folder: what was captured, when, where and by which tool version. Its presence
 * and validity is what makes a folder a capture.
 *
 * @param formatVersion the capture layout (see docs/capture.md); a replay refuses versions it does not know
 * @param env           the relevant environment at capture time; a replay uses it instead of its own
 * @param probes        keys of the probes that ran while capturing
 * @param files         how many files were mirrored under root/
 */
public record Manifest(int formatVersion, String toolVersion, String createdAt, String hostName, List<String> argv,
                       Map<String, String> env, List<String> probes, int files, int commands, int nativeQueries) {

    public static final int FORMAT_VERSION = 1;
    public static final String FILE = "manifest.json";
    public static final String ROOT = "root";
    public static final String COMMANDS = "commands.json";
    public static final String NATIVES = "native.json";
}
