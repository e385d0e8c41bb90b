package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The small tables the readers share: GID forms, port-state words, command lines. */
class GidsAndStatesTest {

    /**
     * NVIDIA/nccl#769 prints the same port's GIDs both ways (ibv_devinfo -v): GID[0] "fe80:0000:0000:0000:0ac0:ebff:feda:1cfb"
     * and GID[1] "fe80::ac0:ebff:feda:1cfb", GID[2] "0000:0000:0000:0000:0000:ffff:c800:d106" and GID[3]
     * "::ffff:200.0.209.6": each compressed form must expand to its full twin.
     */
    @Test
    void compressedGidsExpandToTheSysfsForm() {
        assertThat(Gids.full("fe80::ac0:ebff:feda:1cfb")).contains("fe80:0000:0000:0000:0ac0:ebff:feda:1cfb");
        assertThat(Gids.full("::ffff:200.0.209.6")).contains("0000:0000:0000:0000:0000:ffff:c800:d106");
        assertThat(Gids.full("0000:0000:0000:0000:0000:ffff:c800:d106")).contains("0000:0000:0000:0000:0000:ffff:c800:d106");
        assertThat(Gids.mappedIpv4("0000:0000:0000:0000:0000:ffff:c800:d106")).contains("200.0.209.6");
        assertThat(Gids.mappedIpv4("fe80:0000:0000:0000:0ac0:ebff:feda:1cfb")).isEmpty();
    }

    @Test
    void textThatIsNoGidIsRefused() {
        assertThat(Gids.full("unknown")).isEmpty();
        assertThat(Gids.full("fe80::1::2")).as("two ::").isEmpty();
        assertThat(Gids.full("1:2:3:4:5:6:7")).as("seven groups, no ::").isEmpty();
        assertThat(Gids.full("::ffff:300.0.0.1")).as("octet above 255").isEmpty();
        assertThat(Gids.full("a088::c203:005b:370c")).as("retyped, but a valid IPv6 text").isPresent();
    }

    @Test
    void everyToolsWordForAStateIsTheKernels() {
        assertThat(PortStates.state("PORT_ACTIVE (4)")).contains("ACTIVE");
        assertThat(PortStates.state("Initializing")).contains("INIT");
        assertThat(PortStates.state("4: ACTIVE")).contains("ACTIVE");
        assertThat(PortStates.state("invalid state (7)")).as("a number out of the table").isEmpty();
        assertThat(PortStates.phys("LINK_UP (5)")).contains("LinkUp");
        assertThat(PortStates.phys("PORT_CONFIGURATION TRAINNING (4)")).contains("PortConfigurationTraining");
        assertThat(PortStates.phys("5: LinkUp")).contains("LinkUp");
        assertThat(PortStates.rdmaToolPhys("ARMED")).as("rdma link's 4").contains("PortConfigurationTraining");
        assertThat(PortStates.phys("ARMED")).as("ARMED is a port state, not a physical one, outside rdma link").isEmpty();
    }

    @Test
    void promptsTracesAndBareToolsAreCommands() {
        assertThat(Command.of("root@test-sriov-ib-pod:~# ibstat mlx5_7").map(Command::tool)).contains("ibstat");
        assertThat(Command.of("[root@sample-pod-4-5bddf8c4b4-hf49j /]# ibdev2netdev").map(Command::tool)).contains("ibdev2netdev");
        assertThat(Command.of("bash-5.1# ls -l /sys/class/infiniband").map(Command::tool)).contains("ls");
        assertThat(Command.of("+ mlnx_qos -i eth4 --trust dscp").flatMap(c -> c.option("-i"))).contains("eth4");
        assertThat(Command.of("#ibv_devinfo").map(Command::tool)).contains("ibv_devinfo");
        assertThat(Command.of("sudo mlnx_qos --interface=ens1f0").flatMap(c -> c.option("-i", "--interface"))).contains("ens1f0");
        Optional<Command> loop = Command.of("/sys/class/infiniband/mlx5_1/ports/1/counters$ for file in $(find . -type f); do");
        assertThat(loop.flatMap(Command::cwd)).contains("/sys/class/infiniband/mlx5_1/ports/1/counters");
        assertThat(loop.map(Command::opensLoop)).contains(true);
        assertThat(Command.of("mlx5_0   port  1  ==>  ibp26s0        (Down)  # CX-7 1/8 infiniband")).as("output with a comment").isEmpty();
        assertThat(Command.of("link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev p1p1 ")).isEmpty();
        assertThat(Command.of("\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:7cfe:9003:00a5:95c2")).isEmpty();
    }

    /**
     * Lines of spidernet-io/spiderpool docs/usage/roce-qos.md (commit 6e7f8bf183418ee8e2865f6234f777f6cb0296b3, lines
     * 39-63), where a script prints sysfs files as "label: PATH = VALUE": the path and value are read.
     */
    @Test
    void aLabelledPathEqualsValueLineIsASysfsFile() {
        var tc = SysfsReader.PATH_VALUE.matcher("QOS for rdma: /sys/class/infiniband/mlx5_0/tc/1/traffic_class = Global tclass=160");
        assertThat(tc.matches()).isTrue();
        assertThat(tc.group(1)).isEqualTo("/sys/class/infiniband/mlx5_0/tc/1/traffic_class");
        assertThat(tc.group(2)).isEqualTo("Global tclass=160");
        var ecn = SysfsReader.PATH_VALUE.matcher("    ECN Enabled for priority 0: /sys/class/net/eth0/ecn/roce_np/enable/0 = 1");
        assertThat(ecn.matches()).isTrue();
        assertThat(ecn.group(1)).isEqualTo("/sys/class/net/eth0/ecn/roce_np/enable/0");
        assertThat(SysfsReader.PATH_VALUE.matcher("/sys/class/net/ens1f0/mtu:9000").matches()).isTrue();
    }
}
