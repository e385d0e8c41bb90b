package io.nccldoctor.reports.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.nccldoctor.core.GermanLocale;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(GermanLocale.class)
class PortBalanceTest {

    @Test
    void cvIsPopulationStandardDeviationOverMean() {
        assertThat(PortBalance.cv(new double[] {5, 5, 5, 5})).as("even spread").isZero();
        // mean 2, deviations ±1, population sd 1
        assertThat(PortBalance.cv(new double[] {1, 3})).isCloseTo(0.5, within(1e-12));
        // mean 5, squared deviations sum 32, /8 = 4, sd 2 (a sample sd, /7, would give 0.428)
        assertThat(PortBalance.cv(new double[] {2, 4, 4, 4, 5, 5, 7, 9})).isCloseTo(0.4, within(1e-12));
        // one idle port of eight: mean 7/8, sd sqrt(7)/8, cv sqrt(7)/7
        assertThat(PortBalance.cv(new double[] {1, 1, 1, 1, 1, 1, 1, 0})).isCloseTo(Math.sqrt(7) / 7, within(1e-12));
    }

    @Test
    void cvHasNoValueWithoutTraffic() {
        assertThat(PortBalance.cv(new double[0])).isNaN();
        assertThat(PortBalance.cv(new double[] {0, 0, 0})).isNaN();
    }

    @Test
    void theTitleCarriesTheCvWithADecimalPoint() {
        assertThat(Samples.ports("mlx5_0:1").fullTitle()).endsWith("CV 0.38");
        PortBalance idle = new PortBalance("idle", List.of(new PortBalance.Port("a", 0), new PortBalance.Port("b", 0)));
        assertThat(idle.fullTitle()).endsWith("CV n/a");
        assertThat(Samples.png(idle.render(Format.PNG, 400, 300)).getHeight()).isEqualTo(300);
    }

    @Test
    void noPortsStillDrawsAChart() {
        PortBalance none = new PortBalance("no counters", List.of());
        assertThat(Samples.png(none.render(Format.PNG, 400, 300)).getWidth()).isEqualTo(400);
    }

    @Test
    void theAxisUsesTheUnitTheLargestCountReaches() {
        assertThat(SizeLabels.unit(Samples.ports("p").unitPower())).isEqualTo("GiB");
        assertThat(new PortBalance("t", List.of(new PortBalance.Port("p", 512))).unitPower()).isZero();
    }

    @Test
    void duplicatePortNamesStayApart() {
        PortBalance twice = new PortBalance("t", List.of(new PortBalance.Port("mlx5_0", 1), new PortBalance.Port("mlx5_0", 2)));
        assertThat(twice.names()).containsExactly("mlx5_0", "mlx5_0 (2)");
    }
}
