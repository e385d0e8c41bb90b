package io.nccldoctor.reports.inputs;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.PerftestMatrix;
import io.nccldoctor.gdr.PerftestMatrixProbe;
import io.nccldoctor.gdr.PerftestOutput;
import io.nccldoctor.gdr.PerftestRun;
import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.pcie.SmiTopoMatrix;
import io.nccldoctor.reports.ImportedSnapshot;
import io.nccldoctor.reports.inputs.Recognisers.Head;
import io.nccldoctor.reports.parsed.RdmaJudgement;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What `report` takes from an input of a kind `parse` reads: nccl-tests results (a sweep), an NCCL log, or node facts
 * as a snapshot that the node rules judge as they judge a host's: RDMA state text into the RDMA section (the rules of
 * `parse rdma`), lspci text and topology XML into the PCI section (the topology rules), a pasted `nvidia-smi topo -m`
 * into its own section (GPU–NIC distances against NCCL's GDR threshold), a perftest run into the NIC-read/NIC-write
 * matrix's section, where one run alone says why it cannot be compared.
 *
 * @param tests the results of an nccl-tests run, with the tool that wrote them ("nccl-tests", "nccl-tests -J", "rccl-tests")
 * @param log   an NCCL debug log: the input itself, or the NCCL INFO lines of an nccl-tests output
 * @param node  node facts as a snapshot
 */
public record ReportInput(InputKind kind, Optional<NcclTestsOutput> tests, String tool, Optional<NcclLog> log, Optional<Snapshot> node) {

    /**
     * The input as `report` takes it; empty for JSON of none of parse's kinds, which is `report`'s own (`run --json`,
     * snapshots, sweep results).
     *
     * @throws InputException one line with the kinds tried, for text of none of them
     */
    public static Optional<ReportInput> read(Path file) {
        InputText in = InputText.open(file);
        Recognition r;
        try {
            r = InputDetector.detect(in);
        } catch (InputException e) {
            if (Head.of(in.headLines(), in.source()).startsWith('{')) {
                return Optional.empty();
            }
            String why = e.getMessage().startsWith(in.source() + ": ") ? e.getMessage().substring(in.source().length() + 2) : e.getMessage();
            throw new InputException(in.source() + ": not an input report knows (" + why + "; report also reads nccl-doctor's own "
                    + "JSON: `run --json`, the --json of preflight, topo or gdr; capture folders and bundles with report.yaml)", e);
        }
        Object model = InputReader.model(in, r.kind(), r.complete() ? r.model() : null);
        return Optional.of(of(in, r.kind(), model));
    }

    private static ReportInput of(InputText in, InputKind kind, Object model) {
        String source = in.source();
        return switch (kind) {
            case NCCL_TESTS -> tests(in, (NcclTestsOutput) model);
            case NCCL_LOG -> {
                Optional<NcclTestsOutput> table = tableOf(in);
                yield new ReportInput(kind, table, table.map(ReportInput::tool).orElse("nccl-tests"), Optional.of((NcclLog) model),
                        Optional.empty());
            }
            case RDMA -> node(kind, RdmaJudgement.snapshot((RdmaPaste) model));
            case LSPCI_TREE, LSPCI_VERBOSE, NCCL_TOPO_XML -> node(kind, ImportedSnapshot.of((PciReading) model,
                    (kind == InputKind.NCCL_TOPO_XML ? "NCCL topology XML " : "lspci text ") + source,
                    List.of("report", source), "report", "not recorded"));
            case NVIDIA_SMI_TOPO -> node(kind, snapshot(source, SmiTopoMatrix.KEY, model));
            case PERFTEST -> node(kind, perftestSnapshot((PerftestOutput) model, source));
        };
    }

    private static ReportInput tests(InputText in, NcclTestsOutput out) {
        boolean json = Head.of(in.headLines(), in.source()).startsWith('{');
        Optional<NcclLog> log = out.ncclInfoLines() > 0 && in.file() != null ? NcclLog.parseIfNccl(in.file()) : Optional.empty();
        return new ReportInput(InputKind.NCCL_TESTS, Optional.of(out), tool(out) + (json ? " -J" : ""), log, Optional.empty());
    }

    /** The program that printed a table: nccl-tests, or rccl-tests (whose sweeps are labelled as its own). */
    private static String tool(NcclTestsOutput out) {
        return out.tool() == null || out.tool().isBlank() ? "nccl-tests" : out.tool();
    }

    /** The nccl-tests table an NCCL log holds (a run with NCCL_DEBUG=INFO), when the log is small enough to hold whole. */
    private static Optional<NcclTestsOutput> tableOf(InputText in) {
        if (!in.whole()) {
            return Optional.empty();
        }
        try {
            NcclTestsOutput t = NcclTestsOutput.parse(in.headLines(), in.source());
            return t.rows().isEmpty() ? Optional.empty() : Optional.of(t);
        } catch (InputException noTable) {
            return Optional.empty();
        }
    }

    private static ReportInput node(InputKind kind, Snapshot s) {
        return new ReportInput(kind, Optional.empty(), "", Optional.empty(), Optional.of(s));
    }

    private static Snapshot snapshot(String source, String key, Object section) {
        return new Snapshot(Snapshot.SCHEMA_VERSION, "report", "unknown (" + source + ")", "not recorded", source, List.of("report", source),
                Map.of(), Map.of(key, section));
    }

    /** The run itself, which PERFTEST_FAILED judges, beside the matrix it cannot fill. */
    private static Snapshot perftestSnapshot(PerftestOutput p, String source) {
        return new Snapshot(Snapshot.SCHEMA_VERSION, "report", "unknown (" + source + ")", "not recorded", source, List.of("report", source),
                Map.of(), Map.of(PerftestMatrixProbe.KEY, perftest(p, source), PerftestRun.KEY, PerftestRun.of(p, source)));
    }

    /**
     * One perftest output is no cell of the matrix: a cell needs the GPU's index, the HCA and the direction, and the
     * read/write comparison needs the other direction's run of the same pair; a bundle's perftest list gives them.
     */
    private static PerftestMatrix perftest(PerftestOutput p, String source) {
        String why = source + " is one perftest run (" + p.test().orElse("test not named") + (p.errors().isEmpty() ? ""
                : ", which failed: " + p.errors().get(0)) + "); the NIC-read/NIC-write comparison needs both directions of one GPU "
                + "and HCA: list both runs in a bundle's perftest entries (docs/report.md), or run `nccl-doctor gdr --active --perftest-peer`";
        return new PerftestMatrix(Fact.absent(why));
    }
}
