package io.nccldoctor.reports.compare;

import io.nccldoctor.collectives.sweep.ResultLog;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.read.Inputs;
import io.nccldoctor.reports.baseline.Note;
import io.nccldoctor.reports.results.ResultInputs;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.reports.results.Sweep;
import io.nccldoctor.reports.results.SweepResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One arm of `compare` as given: a sweep result's arm (FILE#ARM, or one of the two arms of a file), or anything
 * `report` reads, one input or several (files, folders of nccl-tests outputs, bundles), with what NCCL decided in its
 * logs and the files of its folders that are no input.
 *
 * @param skipped files in its folders that are none of the inputs report reads, with why
 */
public record ArmInput(String name, List<Sweep> sweeps, Decisions decisions, List<String> skipped) {

    public ArmInput {
        sweeps = List.copyOf(sweeps);
        skipped = List.copyOf(skipped);
    }

    /**
     * The two arms from the command line: A and B as positional inputs (FILE#ARM, a file or a folder each), one sweep
     * result with two arms, or {@code --a F1 F2 … --b G1 G2 …}.
     */
    public static List<ArmInput> resolve(List<String> positional, List<String> a, List<String> b) {
        boolean flags = !a.isEmpty() || !b.isEmpty();
        if (flags && !positional.isEmpty()) {
            throw new InputException("give the arms either as A B or as --a FILES --b FILES, not both");
        }
        if (flags) {
            if (a.isEmpty() || b.isEmpty()) {
                throw new InputException("--a and --b go together: --a F1 F2 F3 --b G1 G2 G3");
            }
            return List.of(of(a), of(b));
        }
        if (positional.size() == 1) {
            Path file = Path.of(positional.get(0));
            List<String> arms = sweepArms(file);
            if (arms.size() != 2) {
                throw new InputException(file + ": compare with one input needs a sweep result with exactly two arms (it has "
                        + (arms.isEmpty() ? "none" : String.join(", ", arms)) + "); give A and B, or FILE#ARM twice");
            }
            return List.of(ofSweepResult(file, arms.get(0)), ofSweepResult(file, arms.get(1)));
        }
        if (positional.size() != 2) {
            throw new InputException("compare needs two arms: A B, --a FILES --b FILES, or one sweep result with two arms");
        }
        return List.of(of(positional.get(0)), of(positional.get(1)));
    }

    /** FILE#ARM (one arm of a sweep result), or any input report reads. */
    static ArmInput of(String spec) {
        int hash = spec.lastIndexOf('#');
        if (hash > 0 && !Files.exists(Path.of(spec))) {
            Path file = Path.of(spec.substring(0, hash));
            String arm = spec.substring(hash + 1);
            List<String> arms = sweepArms(file);
            if (!arms.contains(arm)) {
                throw new InputException(spec + ": no arm '" + arm + "' in " + file + " (arms: " + String.join(", ", arms) + ")");
            }
            return ofSweepResult(file, arm);
        }
        return of(List.of(spec));
    }

    /** Several inputs as one arm: their sweeps together, the NCCL logs inside them, the files their folders skipped. */
    static ArmInput of(List<String> specs) {
        ResultSet set = new ResultInputs(dir -> {
            throw new InputException(dir + ": a capture holds no measurements; compare needs results");
        }).read(specs, "");
        if (set.sweeps().isEmpty()) {
            throw new InputException(String.join(", ", specs) + ": no measured sweep in " + (specs.size() == 1 ? "it" : "them")
                    + (set.skipped().isEmpty() ? "" : " (" + set.skipped().size() + " files not read, e.g. " + set.skipped().get(0) + ")"));
        }
        List<String> notRead = new ArrayList<>(set.skipped());
        set.notes().stream().filter(n -> n.is(Note.Kind.UNREAD)).forEach(n -> notRead.add(n.text())); // bytes replaced, a torn line
        return new ArmInput(name(specs), set.sweeps(), Decisions.of(new ArrayList<>(set.ncclLogs().values())), notRead);
    }

    static ArmInput ofSweepResult(Path file, String arm) {
        return new ArmInput(arm, SweepResults.sweeps(file, arm), Decisions.of(file, arm), ResultLog.contents(file).notes());
    }

    /** The arms of a sweep result; an error when the file is not one. */
    static List<String> sweepArms(Path file) {
        if (Files.isRegularFile(file) && SweepResults.isSweepFile(Inputs.text(file).text())) {
            return SweepResults.arms(file);
        }
        throw new InputException(file + ": not a sweep result (JSONL from `nccl-doctor sweep`); give A and B");
    }

    /** "runs-2.28" for one input; "all_reduce.txt + 2 more" for several. */
    private static String name(List<String> specs) {
        Path p = Path.of(specs.get(0));
        String first = p.getFileName() == null ? specs.get(0) : p.getFileName().toString();
        return specs.size() == 1 ? first : first + " + " + (specs.size() - 1) + " more";
    }
}
