package io.nccldoctor.collectives.launch;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * This process's place in a multi-process run, read from the variables its launcher set.
 *
 * <p>Sources, in the order they win when several are present: torchrun-style {@code RANK/WORLD_SIZE/LOCAL_RANK}
 * (torchrun under srun sees Slurm's per-node task as well, and RANK is the true rank); Open MPI
 * {@code OMPI_COMM_WORLD_*} (mpirun inside a Slurm allocation inherits the batch step's SLURM_PROCID=0); PMI
 * ({@code PMI_RANK/PMI_SIZE}, MPICH and Intel MPI, with {@code MPI_LOCALRANKID}); Slurm
 * {@code SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID}. None present means a single process.
 *
 * @param source     which launcher's variables were used, e.g. "Open MPI (OMPI_COMM_WORLD_RANK)"
 * @param ignored    the other launchers whose variables were present too, for the report
 * @param jobKey     what identifies this job, so a rendezvous never reads a previous job's id; empty when unknown
 */
public record LaunchEnv(String source, int rank, int worldSize, int localRank, String jobKey, List<String> ignored) {

    private record Scheme(String name, String rank, String size, String local, List<String> jobVars) {
    }

    private static final List<Scheme> SCHEMES = List.of(
            new Scheme("torchrun-style", "RANK", "WORLD_SIZE", "LOCAL_RANK", List.of("TORCHELASTIC_RUN_ID", "MASTER_ADDR", "MASTER_PORT")),
            new Scheme("Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
                    List.of("OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE")),
            new Scheme("PMI", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", List.of("PMI_KVS_NAME", "PMI_JOBID")),
            new Scheme("Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", List.of("SLURM_JOB_ID", "SLURM_STEP_ID")));

    public static LaunchEnv single() {
        return new LaunchEnv("single process (no launcher variables)", 0, 1, 0, "", List.of());
    }

    public boolean multiProcess() {
        return worldSize > 1;
    }

    /** Reads the environment; a variable that is present but unusable is an {@link InputException} naming it. */
    public static LaunchEnv from(Map<String, String> env) {
        Scheme chosen = null;
        List<String> ignored = new ArrayList<>();
        for (Scheme s : SCHEMES) {
            if (env.containsKey(s.rank())) {
                if (chosen == null) {
                    chosen = s;
                } else {
                    ignored.add(s.name() + " (" + s.rank() + "=" + env.get(s.rank()) + ")");
                }
            }
        }
        if (chosen == null) {
            return single();
        }
        int rank = number(env, chosen.rank(), chosen);
        if (!env.containsKey(chosen.size())) {
            throw new InputException(chosen.rank() + " is set but " + chosen.size() + " is not: the " + chosen.name()
                    + " launch is incomplete; set both, or unset " + chosen.rank() + " for a single-process run");
        }
        int size = number(env, chosen.size(), chosen);
        if (size < 1 || rank >= size) {
            throw new InputException(chosen.rank() + "=" + rank + " with " + chosen.size() + "=" + size
                    + ": the rank must be below the world size; check the launcher's command line");
        }
        int local = env.containsKey(chosen.local()) ? number(env, chosen.local(), chosen) : -1;
        if (local < 0) {
            local = localFromOtherSchemes(env, chosen);
        }
        StringBuilder key = new StringBuilder();
        for (String v : chosen.jobVars()) {
            if (env.containsKey(v)) {
                key.append(key.length() == 0 ? "" : ",").append(v).append('=').append(env.get(v));
            }
        }
        return new LaunchEnv(chosen.name() + " (" + chosen.rank() + ")", rank, size, Math.max(local, 0), key.toString(),
                List.copyOf(ignored));
    }

    /** PMI launchers do not always set a local rank; Slurm's or Open MPI's, when present, is the same process's. */
    private static int localFromOtherSchemes(Map<String, String> env, Scheme chosen) {
        for (Scheme s : SCHEMES) {
            if (s != chosen && env.containsKey(s.local())) {
                return number(env, s.local(), s);
            }
        }
        return -1;
    }

    private static int number(Map<String, String> env, String name, Scheme s) {
        String v = env.get(name).strip();
        try {
            int n = Integer.parseInt(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new InputException(name + "='" + env.get(name) + "' is not a non-negative integer (" + s.name()
                    + " launch variable); fix or unset it");
        }
    }
}
