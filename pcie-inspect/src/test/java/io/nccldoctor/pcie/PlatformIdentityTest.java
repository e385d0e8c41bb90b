package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.pcie.PlatformIdentity.PlatformClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlatformIdentityTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "GenuineIntel | 6 | 198 | Intel(R) Core(TM) Ultra 9 285K | INTEL_CLIENT | Arrow Lake-S",
        "GenuineIntel | 6 | 183 | 13th Gen Intel(R) Core(TM) i9-13900K | INTEL_CLIENT | Raptor Lake-S",
        "GenuineIntel | 6 | 151 | 12th Gen Intel(R) Core(TM) i9-12900K | INTEL_CLIENT | Alder Lake-S",
        "GenuineIntel | 6 | 143 | Intel(R) Xeon(R) Platinum 8480C | INTEL_XEON | Intel(R) Xeon(R) Platinum 8480C",
        "GenuineIntel | 6 | 167 | Intel(R) Xeon(R) Processor | INTEL_XEON | Intel(R) Xeon(R) Processor",
        "AuthenticAMD | 25 | 17 | AMD EPYC 9654 96-Core Processor | AMD_EPYC | AMD EPYC 9654 96-Core Processor",
        "AuthenticAMD | 25 | 8 | AMD Ryzen Threadripper PRO 5975WX 32-Cores | AMD_THREADRIPPER_PRO | AMD Ryzen Threadripper PRO 5975WX 32-Cores",
        "AuthenticAMD | 25 | 97 | AMD Ryzen 9 7950X 16-Core Processor | AMD_CLIENT | AMD Ryzen 9 7950X 16-Core Processor"})
    void classifies(String vendor, int family, int model, String name, PlatformClass cls, String codename) {
        var cpu = new Platform.Cpu(Fact.of(vendor), Fact.of(family), Fact.of(model), Fact.of(name), Fact.of(1), Fact.of(1));
        PlatformIdentity id = PlatformIdentity.of(cpu).get();
        assertThat(id.platformClass()).isEqualTo(cls);
        assertThat(id.codename()).isEqualTo(codename);
    }
}
