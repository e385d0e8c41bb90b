package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.TestHosts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class NvidiaDriverProbeTest {

    @TempDir
    Path root;

    private static String fixture(String name) throws IOException {
        try (InputStream in = NvidiaDriverProbeTest.class.getResourceAsStream("/fixtures/nvidia-version/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "open-555.42.02.txt, 555.42.02, open",
        "proprietary-515.76.txt, 515.76, proprietary",
        "open-560.35.03-vgpu.txt, 560.35.03, open"})
    void realBannersGiveVersionAndFlavour(String file, String version, String flavour) throws IOException {
        var host = TestHosts.at(root).file("/proc/driver/nvidia/version", fixture(file)).host();
        NvidiaDriver d = new NvidiaDriverProbe().run(host);
        assertThat(d.version().get()).isEqualTo(version);
        assertThat(d.flavour().get()).isEqualTo(flavour);
        assertThat(d.banner().get()).startsWith("NVRM version:");
    }

    @Test
    void noProcFileMeansNotLoaded() {
        NvidiaDriver d = new NvidiaDriverProbe().run(TestHosts.at(root).host());
        assertThat(d.version().describe()).isEqualTo("absent: NVIDIA kernel module not loaded (/proc/driver/nvidia/version absent)");
    }

    @Test
    void aModuleInSysfsWithoutProcFileIsSaid() {
        var host = TestHosts.at(root).file("/sys/module/nvidia/version", "580.95.05\n").host();
        assertThat(new NvidiaDriverProbe().run(host).version().reason())
                .isEqualTo("module nvidia 580.95.05 is in /sys/module but /proc/driver/nvidia/version is absent");
    }

    @Test
    void anUnknownBannerIsAnErrorThatQuotesIt() {
        var host = TestHosts.at(root).file("/proc/driver/nvidia/version", "something else\n").host();
        NvidiaDriver d = new NvidiaDriverProbe().run(host);
        assertThat(d.version().isError()).isTrue();
        assertThat(d.version().reason()).endsWith("something else");
        assertThat(d.banner().get()).isEqualTo("something else");
    }
}
