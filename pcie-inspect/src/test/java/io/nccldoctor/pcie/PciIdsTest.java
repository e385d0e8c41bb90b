package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one PCI class and vendor table: classes from pci.ids, GPU and RDMA NIC families by ids and by names. */
class PciIdsTest {

    @Test
    void classNamesComeFromThePciIdDatabase() {
        assertThat(PciIds.className("020700")).hasValue("Network controller / Infiniband controller");
        assertThat(PciIds.className("120000")).hasValue("Processing accelerators / Processing accelerators");
        assertThat(PciIds.classOfName("Display controller")).as("the subclass 0380, not the base class 03").hasValue("038000");
        assertThat(PciIds.classOfName("3D controller")).hasValue("030200");
        assertThat(PciIds.classOfName("Processing accelerators")).hasValue("120000");
        assertThat(PciIds.knownClass("0b4000")).as("Processor / Co-processor is listed").isTrue();
        assertThat(PciIds.knownClass("02ee00")).as("no subclass ee under Network controller").isFalse();
    }

    @Test
    void gpusOfBothVendorsAndDisplaysThatAreNot() {
        assertThat(DeviceKind.classify("10de", "2330", "030200")).isEqualTo(DeviceKind.GPU);
        assertThat(DeviceKind.classify("1002", "74a1", "120000")).as("MI300X: RCCL's 0x120000").isEqualTo(DeviceKind.AMD_GPU);
        assertThat(DeviceKind.classify("1002", "740c", "038000")).as("MI250X").isEqualTo(DeviceKind.AMD_GPU);
        assertThat(DeviceKind.classify("1002", "0380")).as("no device id: the compute-only class suffices")
                .isEqualTo(DeviceKind.AMD_GPU);
        assertThat(DeviceKind.classify("1002", "744c", "030000")).as("a Radeon VGA function").isEqualTo(DeviceKind.DISPLAY);
        assertThat(DeviceKind.classify("1002", "6860", "030000")).as("MI25 is a VGA function with an Instinct id")
                .isEqualTo(DeviceKind.AMD_GPU);
        assertThat(DeviceKind.classify("1a03", "2000", "030000")).as("an ASPEED BMC").isEqualTo(DeviceKind.DISPLAY);
        assertThat(DeviceKind.classify("10de", "22a3", "068000")).isEqualTo(DeviceKind.NVSWITCH);
    }

    @Test
    void rdmaFamiliesByIdAndByName() {
        assertThat(family("1d0f", "efa1", "020000", null)).isEqualTo("Amazon Elastic Fabric Adapter");
        assertThat(family("1d0f", "ec20", "020000", null)).as("ENA has no RDMA").isNull();
        assertThat(family("14e4", "1750", "020000", null)).isEqualTo("Broadcom NetXtreme-C/E");
        assertThat(family("14e4", "165f", "020000", null)).as("a NetXtreme BCM5720 LOM").isNull();
        assertThat(family("8086", "1592", "020000", null)).isEqualTo("Intel E810/X722");
        assertThat(family("8086", "1521", "020000", null)).as("an I350").isNull();
        assertThat(family("15b3", "a2dc", "020000", null)).as("every Mellanox network function: BlueField-3")
                .isEqualTo("NVIDIA (Mellanox) ConnectX/BlueField");
        assertThat(family("434e", "0001", "020800", null)).isEqualTo("Cornelis Omni-Path HFI");
        assertThat(family("17db", "0501", "020000", null)).isEqualTo("HPE Slingshot Cassini");
        assertThat(family("1d0f", "0000", "020000", "Amazon.com, Inc. Elastic Fabric Adapter (EFA)"))
                .as("lspci without -n: the name").isEqualTo("Amazon Elastic Fabric Adapter");
        assertThat(family("14e4", "0000", "020000", "Broadcom Inc. and subsidiaries BCM57508 NetXtreme-E 10Gb/25Gb Ethernet"))
                .isEqualTo("Broadcom NetXtreme-C/E");
    }

    @Test
    void vendorNamesAsLspciPrintsThem() {
        assertThat(PciIds.vendorOfName("Advanced Micro Devices, Inc. [AMD/ATI] Arcturus GL-XL [Instinct MI100]")).isEqualTo("1002");
        assertThat(PciIds.vendorOfName("Advanced Micro Devices, Inc. [AMD] Starship/Matisse GPP Bridge")).isEqualTo("1022");
        assertThat(PciIds.vendorOfName("Amazon.com, Inc. Elastic Network Adapter (ENA)")).isEqualTo("1d0f");
        assertThat(PciIds.vendorOfName("Broadcom / LSI PEX890xx PCIe Gen 5 Switch")).isEqualTo("1000");
        assertThat(PciIds.vendorOfName("Broadcom Inc. and subsidiaries BCM57508")).isEqualTo("14e4");
        assertThat(PciIds.vendorOfName("Some Startup Device 1234")).isEqualTo("0000");
    }

    @Test
    void rdmaDeviceNamesTellTheirDriver() {
        assertThat(PciIds.rdmaDriverOfName("bnxt_re0")).hasValue("bnxt_re");
        assertThat(PciIds.rdmaDriverOfName("rdmap16s27")).hasValue("efa");
        assertThat(PciIds.rdmaDriverOfName("mlx5_bond_0")).hasValue("mlx5_ib");
        assertThat(PciIds.rdmaDriverOfName("eth0")).isEmpty();
    }

    private static String family(String vendor, String device, String cls, String name) {
        return PciIds.family(vendor, device, cls, name).map(PciIds.Family::name).orElse(null);
    }
}
