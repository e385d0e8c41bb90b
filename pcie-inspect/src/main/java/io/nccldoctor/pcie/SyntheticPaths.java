package io.nccldoctor.pcie;

import java.util.List;
import java.util.Locale;

/**
 * Builds sysfs-shaped device paths for hierarchies that come from text (NCCL topology XML, lspci) rather than
 * sysfs, so that one {@link PciTree} serves every source. Where the source omits the port a device hangs from (NCCL's
 * XML lists switches and endpoints only), a placeholder port with a reserved address (domain ffff) stands in.
 */
final class SyntheticPaths {

    /**
     * The root that stands for what a snippet does not show: the elements of a topology text that are outside any
     * {@code <cpu>} hang from it. Where two of them meet (one CPU, two CPUs, a switch) is not in the text, so a path
     * that goes above them is unknown ({@link PciTree#shown}).
     */
    static final String UNSEEN_ROOT = "pcifffd:00";

    private int next;

    /** A placeholder port address: domain fffe, which real hosts do not use (Azure's virtual switches use ffff). */
    String port() {
        int n = next++;
        return String.format(Locale.ROOT, "fffe:%02x:%02x.%d", (n / 256) % 256, (n / 8) % 32, n % 8);
    }

    /** "/sys/devices/&lt;root&gt;/&lt;c1&gt;/…/&lt;cN&gt;". */
    static String path(String root, List<String> components) {
        return "/sys/devices/" + root + (components.isEmpty() ? "" : "/" + String.join("/", components));
    }

    static boolean isPlaceholder(String address) {
        return address.startsWith("fffe:");
    }
}
