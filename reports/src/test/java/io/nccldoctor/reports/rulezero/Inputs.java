package io.nccldoctor.reports.rulezero;

import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.coll.Sizing;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.results.Ceiling;
import io.nccldoctor.reports.results.ResultInputs;
import io.nccldoctor.reports.results.Sweep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongToDoubleFunction;

/** Reference sweeps, suspect rows and ceilings for the rule-zero tests. */
final class Inputs {

    static final long MIB = 1L << 20;
    static final Path FIXTURES = Path.of("../collectives/src/test/resources/fixtures/public");
    static final Path EXAMPLE = Path.of("../configs/examples/field-report-cluster");

    private Inputs() {
    }

    /** A file as `report` reads it (nccl-tests text or -J, `run --json`). */
    static Sweep read(Path p) {
        List<Sweep> s = new ResultInputs(dir -> {
            throw new AssertionError("no capture here");
        }).read(List.of(p.toString()), "2026-11-30T00:00:00Z").sweeps();
        return s.get(0);
    }

    /** Older nccl-tests do not print which test ran: the caller knows it. */
    static Sweep named(Sweep s, String collective) {
        return new Sweep(s.label(), s.source(), s.tool(), Fact.of(collective), s.ranks(), s.nodes(), s.env(), s.ncclVersion(), s.rows(),
                s.aligned(), s.repeat());
    }

    /**
     * nccl-tests' sweep from {@code fromBytes} to {@code toBytes} (-f 2): each requested size conditioned as nccl-tests
     * conditions it (Collective.sizing), busbw from the function of the printed size.
     * The label is the binary's name; the file is LABEL.txt.
     */
    static Sweep ncclTests(String label, String collective, int ranks, DataType t, long fromBytes, long toBytes, LongToDoubleFunction busBw) {
        Collective c = Collective.parse(collective);
        List<NcclTestsOutput.Row> rows = new ArrayList<>();
        for (long b = fromBytes; b <= toBytes; b *= 2) {
            Sizing s = c.sizing(b / t.size(), t.size(), ranks);
            double bus = Math.round(busBw.applyAsDouble(s.sizeBytes()) * 100) / 100.0; // two decimals, as nccl-tests prints them
            double alg = bus / c.busBwFactor(ranks);
            NcclTestsOutput.Placement p = new NcclTestsOutput.Placement(s.sizeBytes() / (alg * 1e3), alg, bus, Fact.of(0L),
                    Fact.absent("#wrong layout"));
            rows.add(new NcclTestsOutput.Row(s.sizeBytes(), s.paramCount(), t.ncclTestsName(), Fact.of("none"), Fact.of(-1), p, Fact.of(p)));
        }
        return new Sweep(label, label + ".txt", "nccl-tests", Fact.of(collective), Fact.of(ranks), Fact.of(3), Map.of(), Fact.of("2.27.5"),
                rows, Map.of(), 0);
    }

    /** A hand-sized tensor of {@code count} elements, measured at {@code busBw}. */
    static SuspectRow suspect(String collective, String dtype, long count, int ranks, double busBw, String source) {
        DataType t = DataType.parse(dtype);
        long bytes = Collective.parse(collective).sizingUntrimmed(count, t.size(), ranks).sizeBytes();
        return new SuspectRow(collective, dtype, count, bytes, ranks, Fact.of(busBw), Fact.absent("not given"), source);
    }

    static Ceiling lineRate(double gbps) {
        return new Ceiling("arrowlake-ws: NIC line rate", gbps / 8, "mlx5_0/1 + mlx5_1/1 (" + (int) gbps + " Gbit/s)",
                List.of("mlx5_0/1 100 Gbit/s, mlx5_1/1 100 Gbit/s (sysfs ports/N/rate)"), Ceiling.Kind.LINE_RATE);
    }

    static Ceiling pcie(double gbps) {
        return new Ceiling("arrowlake-ws: NIC PCIe link", gbps / 8, "0000:01:00 (PCIe Gen3 x8)",
                List.of("0000:01:00: PCIe Gen3 x8 carries 57.6 Gbit/s per direction"), Ceiling.Kind.PCIE);
    }
}
