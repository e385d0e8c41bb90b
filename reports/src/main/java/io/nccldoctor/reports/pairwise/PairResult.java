package io.nccldoctor.reports.pairwise;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one result file says about its nodes: the peak out-of-place bus bandwidth nccl-tests printed (the number its
 * users quote, at the size where it was reached), or why there is none.
 *
 * @param nodes     the pair (or bisection group) the file is named for
 * @param file      the file name in the results folder
 * @param status    MEASURED only when the run finished (its "Avg bus bandwidth" footer is there) and validated
 * @param test      the collective test ("all_reduce_perf"), when the output names it
 * @param ranIn     the hosts the output's device lines name ("Rank 0 … on gpu01 device 0"), to check against the name
 * @param why       what is wrong when the status is not MEASURED
 */
public record PairResult(List<String> nodes, String file, Status status, Fact<Double> busBwGBps, Fact<Long> sizeBytes,
                         Fact<String> test, List<String> ranIn, String why) {

    public enum Status {
        /** A finished, validated run: its peak bus bandwidth counts. */
        MEASURED,
        /** No table, or no footer: the run failed, hung or was cut; a resumed run repeats it. */
        INCOMPLETE,
        /** The run finished but nccl-tests reported wrong data or NCCL's last error. */
        FAILED,
        /** The file is not nccl-tests output. */
        UNREADABLE
    }

    private static final Pattern ON_HOST = Pattern.compile("\\bon\\s+(\\S+)\\s+device\\b");

    public PairResult {
        nodes = List.copyOf(nodes);
        ranIn = List.copyOf(ranIn);
    }

    public String label() {
        return String.join("–", nodes);
    }

    /** Reads one file's text; never throws for what the text holds. */
    static PairResult of(List<String> nodes, String file, List<String> lines) {
        NcclTestsOutput out;
        try {
            out = NcclTestsOutput.parse(lines, file);
        } catch (InputException e) {
            return none(nodes, file, Status.UNREADABLE, e.getMessage(), List.of());
        }
        List<String> hosts = hosts(out.devices());
        Fact<String> test = out.test();
        if (out.rows().isEmpty()) {
            return none(nodes, file, Status.INCOMPLETE, "no result rows: the run failed before its table or was cut off"
                    + (out.errors().isEmpty() ? "" : " (" + out.errors().get(0) + ")"), hosts);
        }
        if (!out.avgBusBwGBps().isValue()) {
            return none(nodes, file, Status.INCOMPLETE, out.rows().size() + " rows but no 'Avg bus bandwidth' footer: the run did not "
                    + "finish", hosts);
        }
        NcclTestsOutput.Row peak = out.peakBusBw().get();
        if (!out.failures().isEmpty()) {
            return new PairResult(nodes, file, Status.FAILED, Fact.of(peak.outOfPlace().busBwGBps()), Fact.of(peak.sizeBytes()), test,
                    hosts, String.join("; ", out.failures()));
        }
        return new PairResult(nodes, file, Status.MEASURED, Fact.of(peak.outOfPlace().busBwGBps()), Fact.of(peak.sizeBytes()), test,
                hosts, "");
    }

    static PairResult none(List<String> nodes, String file, Status status, String why, List<String> hosts) {
        return new PairResult(nodes, file, status, Fact.absent(why), Fact.absent(why), Fact.absent(why), hosts, why);
    }

    private static List<String> hosts(List<String> deviceLines) {
        Set<String> hosts = new LinkedHashSet<>();
        for (String line : deviceLines) {
            Matcher m = ON_HOST.matcher(line);
            if (m.find()) {
                hosts.add(m.group(1));
            }
        }
        return new ArrayList<>(hosts);
    }

    /** Whether the output ran on hosts other than those the file is named for (short names compared). */
    boolean ranElsewhere() {
        return !ranIn.isEmpty() && ranIn.stream().map(PairResult::shortName).anyMatch(h -> nodes.stream().map(PairResult::shortName)
                .noneMatch(h::equals));
    }

    private static String shortName(String host) {
        int dot = host.indexOf('.');
        return dot < 0 ? host : host.substring(0, dot);
    }
}
