package io.nccldoctor.core.libs;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import java.io.File;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one door to JNA's loader. On its first use JNA's NativeLibrary runs {@code /sbin/ldconfig -p} to learn the
 * platform's library folders, with no time limit, unless {@code jna.platform.library.path} is set (its static
 * initialiser, JNA 5.x): a stuck ldconfig would hang the tool and stay behind after it. This class sets that
 * property to the loader's trusted folders before JNA's class is touched; the libraries themselves are opened by the
 * full path {@link LibrarySearch} found (its own ldconfig call runs with a time limit). A load that fails keeps the
 * dynamic loader's reason, which JNA puts on the lines after its "Unable to load library" headline.
 */
public final class JnaLoader {

    static {
        if (System.getProperty("jna.platform.library.path") == null) {
            List<String> existing = LibrarySearch.DEFAULT_DIRS.stream().filter(d -> new File(d).isDirectory()).toList();
            System.setProperty("jna.platform.library.path", String.join(File.pathSeparator, existing));
        }
    }

    private JnaLoader() {
    }

    /**
     * Opens the library at a full path (dlopen).
     *
     * @throws UnsatisfiedLinkError whose message is the loader's reason on one line
     */
    public static NativeLibrary open(String path) {
        try {
            return NativeLibrary.getInstance(path);
        } catch (UnsatisfiedLinkError e) {
            throw new UnsatisfiedLinkError(reason(e));
        }
    }

    /** A function of the C library already in this process (setenv, getenv, close). */
    public static Function libc(String name) {
        return NativeLibrary.getProcess().getFunction(name);
    }

    /**
     * The loader's reason: every line of JNA's message after its headline, each once, joined with "; " (the first
     * line alone says only "Unable to load library"; the cause, such as a missing dependency or GLIBC version, is on
     * the next). JNA's note that the library is not among the jar's resources is left out: it never is.
     */
    public static String reason(Throwable e) {
        String message = String.valueOf(e.getMessage());
        List<String> lines = message.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        Set<String> causes = new LinkedHashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if ((i == 0 && l.startsWith("Unable to load library")) || l.contains("not found in resource path")) {
                continue;
            }
            causes.add(l);
        }
        return causes.isEmpty() ? (lines.isEmpty() ? "unknown loader error" : lines.get(0)) : String.join("; ", causes);
    }
}
