package io.nccldoctor.core.libs;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.host.HostRoot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds native libraries the way the dynamic loader does (LD_LIBRARY_PATH, the ldconfig cache, the trusted
 * folders), then in places a job often loads them from without the loader knowing: CUDA toolkit folders and the
 * lib folders of pip wheels (nvidia/nccl/lib for nvidia-nccl-cu12 and -cu13, nvidia/cu13/lib for the other CUDA 13
 * wheels, nvidia/cuda_runtime/lib for CUDA 12).
 */
public final class LibrarySearch {

    public static final List<String> LDCONFIG = List.of("/sbin/ldconfig", "-p");
    private static final Duration LDCONFIG_TIMEOUT = Duration.ofSeconds(5);
    static final List<String> DEFAULT_DIRS = List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib");
    static final List<String> CUDA_DIRS = List.of("/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib");
    static final List<String> WHEEL_DIRS = List.of("nvidia/nccl/lib", "nvidia/cu13/lib", "nvidia/cuda_runtime/lib", "torch/lib");
    private static final Pattern LDCONFIG_LINE = Pattern.compile("^\\s*(\\S+)\\s+\\(([^)]*)\\)\\s+=>\\s+(\\S+)\\s*$");
    private static final Pattern FILE_VERSION = Pattern.compile("\\.so\\.(\\d+(?:\\.\\d+)+)$");

    private final HostRoot files;
    private final Map<String, List<String>> ldconfigCache;
    private final String ldconfigNote;
    private final List<String> pythonLibDirs;
    private final List<String> ldLibraryPath;

    public LibrarySearch(Host host) {
        this.files = host.files();
        Fact<String> cache = host.commands().run(LDCONFIG, LDCONFIG_TIMEOUT).stdoutIfSucceeded();
        this.ldconfigCache = cache.map(out -> parseLdconfig(out.lines().toList())).orElse(Map.of());
        this.ldconfigNote = cache.isValue() ? "ldconfig cache" : "ldconfig cache (unreadable: " + cache.reason() + ")";
        this.ldLibraryPath = splitPath(host.env("LD_LIBRARY_PATH"));
        this.pythonLibDirs = pythonSitePackages(host);
    }

    public NativeLibrary find(String name, List<String> sonames) {
        Map<String, NativeLibrary.Copy> copies = new LinkedHashMap<>();
        List<String> searched = new ArrayList<>();
        searched.add("LD_LIBRARY_PATH" + (ldLibraryPath.isEmpty() ? " (unset)" : " " + String.join(":", ldLibraryPath)));
        searched.add(ldconfigNote);
        searched.add("default folders " + String.join(" ", DEFAULT_DIRS));
        searched.add("CUDA toolkit folders " + String.join(" ", CUDA_DIRS));
        searched.add(pythonLibDirs.isEmpty() ? "python site-packages (none found)"
                : "python wheels in " + String.join(" ", pythonLibDirs));
        for (String soname : sonames) {
            for (String dir : ldLibraryPath) {
                add(copies, dir + "/" + soname, "LD_LIBRARY_PATH", true);
            }
            for (String path : ldconfigCache.getOrDefault(soname, List.of())) {
                add(copies, path, "ldconfig", true);
            }
            for (String dir : DEFAULT_DIRS) {
                add(copies, dir + "/" + soname, "default", true);
            }
            for (String dir : CUDA_DIRS) {
                add(copies, dir + "/" + soname, "cuda", false);
            }
            for (String site : pythonLibDirs) {
                for (String wheel : WHEEL_DIRS) {
                    add(copies, site + "/" + wheel + "/" + soname, "python", false);
                }
            }
        }
        return new NativeLibrary(name, sonames, searched, List.copyOf(copies.values()));
    }

    /** Adds a copy unless the same real file is already listed (the loader path wins over later origins). */
    private void add(Map<String, NativeLibrary.Copy> copies, String path, String origin, boolean onLoaderPath) {
        Fact<String> real = files.realPath(path);
        if (!real.isValue() || copies.containsKey(real.get())) {
            return;
        }
        Matcher m = FILE_VERSION.matcher(real.get());
        Fact<String> fileVersion = m.find() ? Fact.of(m.group(1)) : Fact.absent("no version in the file name " + real.get());
        copies.put(real.get(), new NativeLibrary.Copy(path, real.get(), origin, onLoaderPath, fileVersion,
                Fact.absent("not asked")));
    }

    /** {@code ldconfig -p}: "\tlibnccl.so.2 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnccl.so.2"; 64-bit only. */
    static Map<String, List<String>> parseLdconfig(List<String> lines) {
        Map<String, List<String>> cache = new LinkedHashMap<>();
        for (String line : lines) {
            Matcher m = LDCONFIG_LINE.matcher(line);
            if (m.matches() && m.group(2).contains("x86-64")) {
                cache.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(m.group(3));
            }
        }
        return cache;
    }

    static List<String> splitPath(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        Set<String> dirs = new LinkedHashSet<>();
        for (String d : value.split(":")) {
            if (d.startsWith("/")) {
                dirs.add(d.replaceAll("/+$", ""));
            }
        }
        return List.copyOf(dirs);
    }

    /** site-packages and dist-packages of the system, /usr/local, a venv, conda and ~/.local Pythons. */
    private List<String> pythonSitePackages(Host host) {
        List<String> prefixes = new ArrayList<>(List.of("/usr/lib", "/usr/local/lib"));
        for (String var : List.of("VIRTUAL_ENV", "CONDA_PREFIX")) {
            String v = host.env(var);
            if (v != null && v.startsWith("/")) {
                prefixes.add(v + "/lib");
            }
        }
        String home = host.env("HOME");
        if (home != null && home.startsWith("/")) {
            prefixes.add(home + "/.local/lib");
        }
        List<String> sites = new ArrayList<>();
        for (String prefix : prefixes) {
            for (String py : files.list(prefix).orElse(List.of())) {
                if (!py.matches("python3(\\.\\d+)?")) {
                    continue;
                }
                for (String kind : List.of("site-packages", "dist-packages")) {
                    String site = prefix + "/" + py + "/" + kind;
                    if (files.exists(site + "/nvidia") || files.exists(site + "/torch")) {
                        sites.add(site);
                    }
                }
            }
        }
        return sites;
    }
}
