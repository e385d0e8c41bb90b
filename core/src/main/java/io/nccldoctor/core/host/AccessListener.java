package io.nccldoctor.core.host;

import java.util.List;

/** Told about every file, link and folder a {@link HostRoot} touches; a capture mirrors them into a folder. */
public interface AccessListener {

    AccessListener NONE = new AccessListener() {
    };

    /** What a folder entry is, without following it. */
    enum Kind { FILE, DIRECTORY, SYMLINK, OTHER }

    record Entry(String name, Kind kind, String linkTarget) {
    }

    /** A symbolic link met while resolving a path; {@code target} verbatim as readlink(2) returns it. */
    default void symlink(String hostPath, String target) {
    }

    /** The whole content of a file that was read. */
    default void file(String hostPath, byte[] content) {
    }

    /** A path whose existence was checked and found (already resolved, so never a link). */
    default void existing(String hostPath, Kind kind) {
    }

    /** The entries of a folder that was listed. */
    default void listed(String hostDir, List<Entry> entries) {
    }
}
