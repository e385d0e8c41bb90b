package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;

/**
 * The loaded NVIDIA kernel driver.
 *
 * @param version the driver version, e.g. 580.95.05
 * @param flavour "open" (NVIDIA open GPU kernel modules) or "proprietary"
 * @param banner  the first line of /proc/driver/nvidia/version, verbatim
 */
public record NvidiaDriver(Fact<String> version, Fact<String> flavour, Fact<String> banner) {
}
