package io.nccldoctor.reports.pairwise;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.CommandRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs one job at a time (jobs compete for the same nodes) through a {@link CommandRunner}: an argument array, LC_ALL=C,
 * a time limit after which the process tree is killed. The output (stdout, then stderr, as `srun … &gt; F 2&gt;&amp;1` keeps
 * both) goes to NAME.txt.partial and is moved to NAME.txt when the launch ends, so a file never holds half a write.
 * A job whose file is already complete (a finished run, validated or not) is not run again: that is how a run resumes.
 */
final class JobRunner {

    private final CommandRunner runner;
    private final Path results;
    private final Duration timeout;
    private final Consumer<String> progress;

    JobRunner(CommandRunner runner, Path results, Duration timeout, Consumer<String> progress) {
        this.runner = runner;
        this.results = results;
        this.timeout = timeout;
        this.progress = progress;
    }

    /** The result already in the folder when it is complete; empty when the job must run. */
    Optional<PairResult> done(Job job) {
        return PairResults.file(results, job.file(), job.nodes()).filter(JobRunner::complete);
    }

    static boolean complete(PairResult r) {
        return r.status() == PairResult.Status.MEASURED || r.status() == PairResult.Status.FAILED;
    }

    PairResult run(Job job) {
        Optional<PairResult> before = done(job);
        if (before.isPresent()) {
            progress.accept(job.name() + ": complete in " + job.file() + ", not run again");
            return before.get();
        }
        progress.accept(job.name() + ": " + String.join(" ", job.argv()));
        writeHostfile(job);
        CommandResult r = runner.run(job.argv(), timeout);
        if (r instanceof CommandResult.NotRun n) {
            progress.accept(job.name() + ": not run: " + n.reason());
            return PairResult.none(job.nodes(), job.file(), PairResult.Status.INCOMPLETE, "not run: " + n.reason(), List.of());
        }
        String text = r instanceof CommandResult.Exited e ? e.stdout() + e.stderr()
                : ((CommandResult.TimedOut) r).stdout() + ((CommandResult.TimedOut) r).stderr();
        Path file = write(job.file(), text);
        PairResult result = PairResults.result(job.nodes(), file);
        if (r instanceof CommandResult.TimedOut) {
            result = PairResult.none(job.nodes(), job.file(), PairResult.Status.INCOMPLETE, "killed after " + timeout.toSeconds()
                    + " s (--job-timeout)", result.ranIn());
        } else if (((CommandResult.Exited) r).exitCode() != 0 && result.status() != PairResult.Status.INCOMPLETE) {
            progress.accept(job.name() + ": exit " + ((CommandResult.Exited) r).exitCode() + " after a complete output");
        }
        progress.accept(job.name() + ": " + (result.status() == PairResult.Status.MEASURED
                ? String.format(Locale.ROOT, "%.2f GB/s busbw", result.busBwGBps().get()) : result.status() + ": " + result.why()));
        return result;
    }

    /** An MPI job's hostfile, in results/hostfiles/NAME. */
    static Path hostfile(Path results, String name) {
        return results.resolve("hostfiles").resolve(name);
    }

    private void writeHostfile(Job job) {
        job.hostfile().ifPresent(text -> {
            try {
                Files.createDirectories(hostfile(results, job.name()).getParent());
                Files.writeString(hostfile(results, job.name()), text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new InputException(hostfile(results, job.name()) + ": cannot write (" + e.getMessage() + ")", e);
            }
        });
    }

    private Path write(String name, String text) {
        Path file = results.resolve(name);
        Path partial = results.resolve(name + ".partial");
        try {
            Files.createDirectories(results);
            Files.writeString(partial, text, StandardCharsets.UTF_8);
            return Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new InputException(file + ": cannot write (" + e.getMessage() + ")", e);
        }
    }
}
