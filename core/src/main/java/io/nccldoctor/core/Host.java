package io.nccldoctor.core;

import io.nccldoctor.core.exec.CommandRunner;
import io.nccldoctor.core.host.HostRoot;
import java.util.Map;

/**
 * Everything a probe may read: files, command outputs, native answers and the environment. Live, recording
 * into a capture, or replaying one; a probe cannot tell which, and must not need to.
 *
 * @param source "live" or "capture DIR", for the snapshot's provenance
 */
public record Host(HostRoot files, CommandRunner commands, NativeQueries natives, Map<String, String> env,
                   String source) {

    public Host {
        env = Map.copyOf(env);
    }

    public String env(String name) {
        return env.get(name);
    }
}
