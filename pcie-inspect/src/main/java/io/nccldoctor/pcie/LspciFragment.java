package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * Attribute lines of {@code lspci -vvv} with no device header above them, as {@code lspci -vvv | grep -E
 * 'LnkSta|ACSCtl'} prints them: the facts of one device, which device is unknown unless {@code lspci -s BDF} named it.
 * A new fragment starts where an attribute repeats (lspci prints each once per device).
 *
 * @param device   the address from {@code lspci -s}, else absent
 * @param driver   from its "Kernel driver in use:" line
 * @param vendorId the vendor its driver binds only ("10de" for nvidia: {@link PciIds#vendorOfDriver}), else absent
 * @param missing  the device facts the excerpt does not hold
 */
public record LspciFragment(String source, int firstLine, int lastLine, Fact<String> device, PciLink link,
                            PcieConfig config, Fact<String> driver, Fact<String> vendorId, List<String> missing) {
}
