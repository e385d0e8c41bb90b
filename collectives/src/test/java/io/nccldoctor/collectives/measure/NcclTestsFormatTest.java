package io.nccldoctor.collectives.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class NcclTestsFormatTest {

    @Test
    void numbersFitTheirColumnsAsNcclTestsDoes() {
        assertThat(NcclTestsFormat.fit(4029.4, 7)).isEqualTo("4029.40");
        assertThat(NcclTestsFormat.fit(62648.3, 7)).isEqualTo("62648.3");
        assertThat(NcclTestsFormat.fit(360942.4, 7)).isEqualTo("360942");
        assertThat(NcclTestsFormat.fit(232613.05, 6)).isEqualTo("232613");
        assertThat(NcclTestsFormat.fit(12345678.0, 7)).isEqualTo("1.2e+07");
        assertThat(NcclTestsFormat.g(159.15123)).isEqualTo("159.151");
        assertThat(NcclTestsFormat.g(0)).isEqualTo("0");
        assertThat(NcclTestsFormat.g(951005)).isEqualTo("951005");
        assertThat(NcclTestsFormat.g(3935945)).isEqualTo("3.93594e+06");
        assertThat(NcclTestsFormat.g(33.4128)).isEqualTo("33.4128");
    }

    @Test
    void theTableReadsBackThroughTheNcclTestsParser() {
        FakeBackend fake = new FakeBackend(4);
        Measurement.Result r = new Measurement(fake).run(new Measurement.Plan(Collective.parse("allgather"), DataType.FLOAT32, "sum", 0,
                1024, 1 << 20, 4, 1, 2, true, Measurement.Conditioning.NCCL_TESTS, 0, Duration.ofSeconds(5)));
        String text = NcclTestsFormat.render(r);
        NcclTestsOutput back = NcclTestsOutput.parse(text.lines().toList(), "rendered");
        assertThat(back.notUnderstood()).isEmpty();
        assertThat(back.rows()).hasSize(r.sizes().size());
        for (int i = 0; i < back.rows().size(); i++) {
            NcclTestsOutput.Row a = back.rows().get(i);
            NcclTestsOutput.Row b = r.sizes().get(i).row();
            assertThat(a.sizeBytes()).isEqualTo(b.sizeBytes());
            assertThat(a.count()).isEqualTo(b.count());
            assertThat(a.redop().get()).isEqualTo("none");
            assertThat(a.outOfPlace().wrong().get()).isZero();
        }
        assertThat(back.outOfBoundsOk().get()).isTrue();
        assertThat(back.avgBusBwGBps().get()).isCloseTo(r.asNcclTestsOutput().avgBusBwGBps().get(),
                org.assertj.core.data.Percentage.withPercentage(0.001));
    }
}
