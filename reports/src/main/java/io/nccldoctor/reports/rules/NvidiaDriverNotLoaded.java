package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** NVIDIA GPUs on the bus but no NVIDIA kernel driver loaded. */
public final class NvidiaDriverNotLoaded implements Rule {

    static final RuleInfo INFO = new RuleInfo("NVIDIA_DRIVER_NOT_LOADED", Severity.ERROR,
            "NVIDIA GPUs present but the NVIDIA kernel driver is not loaded",
            "Without the nvidia kernel module there is no /proc/driver/nvidia/version, no /dev/nvidia*, and every CUDA "
                    + "call fails with 'no CUDA-capable device' or 'driver not loaded'. Common causes: a kernel update "
                    + "without a rebuilt DKMS module, nouveau bound first, or the GPU bound to vfio-pci for passthrough.",
            "NVIDIA GPUs in /sys/bus/pci/devices with their bound driver, and /proc/driver/nvidia/version",
            "Check `dmesg | grep -i nvrm`, `lsmod | grep nvidia` and the bound driver; rebuild or reinstall the driver "
                    + "for the running kernel (dkms status), blacklist nouveau, and reboot or `modprobe nvidia`.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        List<PciDevice> gpus = NodeFacts.ofKind(NodeFacts.devices(s).orElse(List.of()), DeviceKind.GPU);
        if (gpus.isEmpty()) {
            return Outcome.waived("no NVIDIA GPU");
        }
        var driver = Sections.nvidiaDriver(s).map(NvidiaDriver::version);
        if (driver.isEmpty()) {
            return Outcome.waived("the NVIDIA driver was not probed");
        }
        if (!driver.get().isAbsent()) {
            return Outcome.pass();
        }
        List<String> evidence = new ArrayList<>();
        evidence.add("driver: " + driver.get().reason());
        for (PciDevice g : gpus) {
            evidence.add("GPU " + g.address() + " [" + g.ids() + "] bound driver: " + g.driver().orElse("none"));
        }
        return Outcome.flag(finding("node", INFO.title(), evidence));
    }
}
