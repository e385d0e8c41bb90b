package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.baseline.Nics;
import io.nccldoctor.reports.baseline.Note;
import io.nccldoctor.reports.baseline.Notes;
import io.nccldoctor.reports.baseline.Run;
import io.nccldoctor.reports.baseline.SystemDump;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Each sweep of a result set with what the inputs show about how it ran. A sweep's own NCCL lines (nccl-tests run with
 * NCCL_DEBUG=INFO) are its own; the other inputs (logs in files of their own, nvidia-smi topo, lspci, captures, a
 * bundle's hardware) are taken to describe every sweep given with them, and each note names the file it came from.
 */
public final class Runs {

    private Runs() {
    }

    public static List<Run> of(ResultSet set) {
        List<Note> shared = new ArrayList<>(set.notes());
        set.ceilings().stream().filter(c -> c.kind() == Ceiling.Kind.PCIE).forEach(c -> shared.add(new Note(Note.Kind.NARROW_LINK,
                c.label() + " = " + String.format(Locale.ROOT, "%.2f GB/s", c.busBwGBps()) + " (" + c.link() + ")", "node capture")));
        List<Nics> nics = new ArrayList<>(set.nics());
        for (Map.Entry<String, NcclLog> e : set.ncclLogs().entrySet()) {
            if (set.sweeps().stream().noneMatch(s -> s.source().equals(e.getKey()))) {
                shared.addAll(Notes.fromLog(e.getValue(), e.getKey()));
                Notes.nicsFromLog(e.getValue(), e.getKey()).ifPresent(nics::add);
                SystemDump.of(e.getValue(), e.getKey()).flatMap(SystemDump::nics).ifPresent(nics::add);
            }
        }
        List<Run> out = new ArrayList<>();
        for (Sweep s : set.sweeps()) {
            List<Note> notes = new ArrayList<>();
            List<Nics> mine = new ArrayList<>();
            Map<String, String> env = new TreeMap<>(s.hardware().env());
            env.putAll(s.env()); // a bundle's settings over what the pasted command line says
            notes.addAll(Notes.fromEnv(env, s.source()));
            NcclLog log = set.ncclLogs().get(s.source());
            if (log != null) {
                notes.addAll(Notes.fromLog(log, s.source()));
                Notes.nicsFromLog(log, s.source()).ifPresent(mine::add);
                SystemDump.of(log, s.source()).flatMap(SystemDump::nics).ifPresent(mine::add);
            }
            notes.addAll(shared);
            mine.addAll(nics);
            out.add(new Run(s.label(), s.source(), s.collective(), s.hardware().orRanks(s.ranks(), s.nodes()), env, notes, best(mine),
                    s.rows(), s.ncclVersion(), s.repeat()));
        }
        return out;
    }

    /** The NICs with a rate before those without; the first of each. */
    private static Optional<Nics> best(List<Nics> all) {
        return all.stream().filter(n -> n.rateGbps().isValue()).findFirst().or(() -> all.stream().findFirst());
    }
}
