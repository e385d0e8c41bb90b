package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.Locale;
import java.util.Map;

/**
 * What kind of platform a CPU makes: the class matters for PCIe peer-to-peer, because Intel client root complexes
 * pass peer-to-peer writes between root ports but not reads (confirmed by NVIDIA in the field report, and
 * NVIDIA/open-gpu-kernel-modules#1253), while Xeon, EPYC and Threadripper route both.
 *
 * @param codename e.g. "Arrow Lake-S", or the model name when the model number is not in the table
 */
public record PlatformIdentity(PlatformClass platformClass, String codename) {

    public enum PlatformClass { INTEL_CLIENT, INTEL_XEON, AMD_EPYC, AMD_THREADRIPPER_PRO, AMD_THREADRIPPER, AMD_CLIENT, OTHER }

    /** Intel family-6 client models (arch/x86/include/asm/intel-family.h; reference/peers-and-platform.md B7). */
    private static final Map<Integer, String> INTEL_CLIENT = Map.ofEntries(
            Map.entry(0x97, "Alder Lake-S"), Map.entry(0x9A, "Alder Lake-P/U"),
            Map.entry(0xB7, "Raptor Lake-S"), Map.entry(0xBA, "Raptor Lake-P"), Map.entry(0xBF, "Raptor Lake-S (refresh)"),
            Map.entry(0xAC, "Meteor Lake"), Map.entry(0xAA, "Meteor Lake-H/U"),
            Map.entry(0xC5, "Arrow Lake-H"), Map.entry(0xC6, "Arrow Lake-S"), Map.entry(0xB5, "Arrow Lake-U"),
            Map.entry(0xBD, "Lunar Lake"));

    public static Fact<PlatformIdentity> of(Platform.Cpu cpu) {
        if (cpu == null) { // a snapshot read back with "cpu": null
            return Fact.absent("no CPU in the snapshot");
        }
        if (!cpu.vendor().isValue()) {
            return Fact.absent("CPU vendor unknown (" + cpu.vendor().reason() + ")");
        }
        String name = cpu.modelName().orElse("");
        String lower = name.toLowerCase(Locale.ROOT);
        String vendor = cpu.vendor().get();
        if (vendor.equals("GenuineIntel")) {
            if (cpu.family().orElse(0) == 6 && INTEL_CLIENT.containsKey(cpu.model().orElse(-1))) {
                return Fact.of(new PlatformIdentity(PlatformClass.INTEL_CLIENT, INTEL_CLIENT.get(cpu.model().get())));
            }
            return Fact.of(new PlatformIdentity(lower.contains("xeon") ? PlatformClass.INTEL_XEON : PlatformClass.OTHER, name));
        }
        if (vendor.equals("AuthenticAMD")) {
            PlatformClass c = lower.contains("epyc") ? PlatformClass.AMD_EPYC
                    : lower.contains("threadripper pro") ? PlatformClass.AMD_THREADRIPPER_PRO
                    : lower.contains("threadripper") ? PlatformClass.AMD_THREADRIPPER
                    : lower.contains("ryzen") ? PlatformClass.AMD_CLIENT : PlatformClass.OTHER;
            return Fact.of(new PlatformIdentity(c, name));
        }
        return Fact.of(new PlatformIdentity(PlatformClass.OTHER, name.isEmpty() ? vendor : name));
    }
}
