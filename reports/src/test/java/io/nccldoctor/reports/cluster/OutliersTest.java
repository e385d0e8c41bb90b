package io.nccldoctor.reports.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Median, MAD and the threshold, worked by hand. */
class OutliersTest {

    static List<Sample> samples(double... v) {
        List<Sample> out = new ArrayList<>();
        for (int i = 0; i < v.length; i++) {
            out.add(new Sample("n" + (i + 1), "allreduce", v[i], "bw.csv:" + (i + 2)));
        }
        return out;
    }

    @Test
    void medianAndScaledMadByHand() {
        // median 10; |deviations| 0, 0.2, 0.1, 0.1, 5 -> MAD 0.1, scaled 0.14826; threshold 10 - 3 * 0.14826 = 9.55522
        Spread s = Outliers.spread("allreduce", samples(10, 10.2, 9.9, 10.1, 5), 3);
        assertThat(s.medianGBps()).isEqualTo(10.0);
        assertThat(s.scaledMadGBps()).isCloseTo(0.14826, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(s.spreadGBps()).as("above the 1 % floor (0.1)").isEqualTo(s.scaledMadGBps());
        assertThat(s.thresholdGBps().get()).isCloseTo(9.55522, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(s.below()).extracting(Sample::host).containsExactly("n5");
    }

    @Test
    void anEvenCountTakesTheMeanOfTheMiddleTwo() {
        assertThat(Outliers.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    }

    @Test
    void identicalNodesDoNotMakeEveryLowerOneAnOutlier() {
        // MAD 0: the floor of 1 % of the median (1.0) gives threshold 97; 99.5 stays, 50 goes
        Spread s = Outliers.spread("x", samples(100, 100, 100, 99.5, 50), 3);
        assertThat(s.scaledMadGBps()).isZero();
        assertThat(s.spreadGBps()).isEqualTo(1.0);
        assertThat(s.below()).extracting(Sample::host).containsExactly("n5");
    }

    @Test
    void kIsConfigurableAndTheSlowestComeFirst() {
        List<Sample> v = samples(100, 101, 99, 100, 97, 90, 80);
        // median 99... sorted 80 90 97 99 100 100 101 -> median 99; |dev| 1 2 0 1 2 9 19 -> sorted 0 1 1 2 2 9 19 -> MAD 2
        Spread three = Outliers.spread("x", v, 3);
        assertThat(three.thresholdGBps().get()).isCloseTo(99 - 3 * 2 * 1.4826, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(three.below()).extracting(Sample::host).containsExactly("n7", "n6");
        Spread half = Outliers.spread("x", v, 0.5); // threshold 99 - 1.4826 = 97.517
        assertThat(half.below()).extracting(Sample::host).containsExactly("n7", "n6", "n5");
    }

    @Test
    void fewerThanThreeNodesAreNotJudged() {
        Spread s = Outliers.spread("x", samples(100, 10), 3);
        assertThat(s.thresholdGBps().isValue()).isFalse();
        assertThat(s.thresholdGBps().reason()).isEqualTo("measured on 2 nodes; a median and a MAD need 3");
        assertThat(s.below()).isEmpty();
    }

    @Test
    void labelsAreJudgedApart() {
        List<Sample> all = new ArrayList<>(samples(10, 10, 10, 1));
        all.add(new Sample("n1", "ib", 50, "b:1"));
        all.add(new Sample("n2", "ib", 50, "b:2"));
        all.add(new Sample("n3", "ib", 49.9, "b:3"));
        assertThat(Outliers.of(all, 3)).extracting(Spread::label).containsExactly("allreduce", "ib");
        assertThat(Outliers.of(all, 3).get(1).below()).isEmpty();
    }

    @Test
    void aNonPositiveKIsAnInputError() {
        assertThatThrownBy(() -> new ClusterOptions(0, Map.of(), List.of())).isInstanceOf(InputException.class)
                .hasMessage("--outlier-k 0.0: give a positive number of MADs, e.g. 3.0");
    }

    @Test
    void theBandwidthFileNamesTheLineOfEachProblem() {
        List<Sample> ok = BandwidthFile.parse(List.of("# from nccl-tests, one node at a time", "host , label, busbw_gbps",
                "n1,allreduce 1GiB,190.25", "", "n2,allreduce 1GiB,189"), "bw.csv");
        assertThat(ok).containsExactly(new Sample("n1", "allreduce 1GiB", 190.25, "bw.csv:3"), new Sample("n2", "allreduce 1GiB", 189, "bw.csv:5"));
        assertThatThrownBy(() -> BandwidthFile.parse(List.of("host,busbw"), "bw.csv")).hasMessage(
                "bw.csv:1: expected the header 'host,label,busbw_gbps' (docs/cluster.md), got 'host,busbw'");
        assertThatThrownBy(() -> BandwidthFile.parse(List.of("host,label,busbw_gbps", "n1,a,b,1"), "bw.csv"))
                .hasMessage("bw.csv:2: 4 fields, expected 3 (host,label,busbw_gbps; quote a field that holds a comma)");
        assertThatThrownBy(() -> BandwidthFile.parse(List.of("host,label,busbw_gbps", "n1,a,190,5"), "bw.csv"))
                .isInstanceOf(InputException.class);
        assertThatThrownBy(() -> BandwidthFile.parse(List.of("host,label,busbw_gbps", "n1,a,190 GB/s"), "bw.csv"))
                .hasMessage("bw.csv:2: busbw_gbps '190 GB/s' is not a number (GB/s, with a decimal point)");
        assertThatThrownBy(() -> BandwidthFile.parse(List.of("host,label,busbw_gbps", "n1,a,NaN"), "bw.csv"))
                .hasMessage("bw.csv:2: busbw_gbps 'NaN' is not a bandwidth (GB/s, zero or more)");
        assertThatThrownBy(() -> BandwidthFile.parse(List.of("# nothing"), "bw.csv"))
                .hasMessage("bw.csv: empty; a bandwidth file starts with the header 'host,label,busbw_gbps'");
    }

    @Test
    void oneHostMeasuredTwiceUnderOneLabelIsRefused() {
        List<Sample> twice = List.of(new Sample("n1", "a", 1, "x.csv:2"), new Sample("n1", "a", 2, "y.csv:7"));
        assertThatThrownBy(() -> new ClusterData(List.of(), List.of(), twice, List.of())).hasMessage(
                "y.csv:7: host n1 measured 'a' already at x.csv:2; give one number per host and label");
    }
}
