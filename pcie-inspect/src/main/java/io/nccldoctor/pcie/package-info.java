/** PCIe topology and platform identification: what is on the bus, where, and how it is linked. */
package io.nccldoctor.pcie;
