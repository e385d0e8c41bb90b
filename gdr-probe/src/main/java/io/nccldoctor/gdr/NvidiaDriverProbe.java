package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The NVIDIA kernel module: loaded or not, version, open or proprietary (reference/peers-and-platform.md B5). */
public final class NvidiaDriverProbe implements Probe<NvidiaDriver> {

    public static final String KEY = "nvidiaDriver";
    static final String PROC_VERSION = "/proc/driver/nvidia/version";
    static final String MODULE_VERSION = "/sys/module/nvidia/version";

    // "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  595.45.04  Release Build  (user@host)  <date>"
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.135  <date>"
    private static final Pattern BANNER = Pattern.compile("^NVRM version:\\s+NVIDIA UNIX (.*?)Kernel Module(?: for \\S+)?\\s+(\\d+(?:\\.\\d+)+)\\b");

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "NVIDIA kernel driver: loaded, version, open or proprietary module";
    }

    @Override
    public NvidiaDriver run(Host host) {
        Fact<List<String>> lines = host.files().readLines(PROC_VERSION);
        if (lines.isAbsent()) {
            String why = "NVIDIA kernel module not loaded (" + PROC_VERSION + " absent)";
            Fact<String> module = host.files().readAttribute(MODULE_VERSION);
            if (module.isValue()) {
                why = "module nvidia " + module.get() + " is in /sys/module but " + PROC_VERSION + " is absent";
            }
            return new NvidiaDriver(Fact.absent(why), Fact.absent(why), Fact.absent(why));
        }
        return lines.map(NvidiaDriverProbe::parse).orElseGet(() -> {
            Fact<String> e = Fact.error(lines.reason());
            return new NvidiaDriver(e, e, e);
        });
    }

    static NvidiaDriver parse(List<String> lines) {
        String first = lines.isEmpty() ? "" : lines.get(0).strip();
        Matcher m = BANNER.matcher(first);
        if (!m.find()) {
            Fact<String> e = Fact.error("unrecognised first line of " + PROC_VERSION + ": " + first);
            return new NvidiaDriver(e, e, first.isEmpty() ? Fact.absent("empty file") : Fact.of(first));
        }
        String flavour = m.group(1).contains("Open") ? "open" : "proprietary";
        return new NvidiaDriver(Fact.of(m.group(2)), Fact.of(flavour), Fact.of(first));
    }
}
