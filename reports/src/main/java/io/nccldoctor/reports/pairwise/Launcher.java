package io.nccldoctor.reports.pairwise;

import io.nccldoctor.core.InputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a job on some nodes is started: through Slurm (`srun -w A,B -N2 --ntasks-per-node=G …`, one task per GPU, as
 * nccl-tests runs with -g 1) or Open MPI with a hostfile (`mpirun --hostfile F -np 2G --map-by ppr:G:node …`; the
 * hostfile lists each node with slots=G).
 */
public enum Launcher {
    SLURM, MPI;

    public static Launcher of(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "slurm", "srun" -> SLURM;
            case "mpi", "mpirun" -> MPI;
            default -> throw new InputException("--launcher " + name + ": give slurm or mpi");
        };
    }

    /** The job's argument array: launcher, its options, the site's extra launcher words, then the command. */
    List<String> argv(List<String> nodes, int gpusPerNode, List<String> extra, List<String> command, Path hostfile) {
        List<String> argv = new ArrayList<>();
        if (this == SLURM) {
            argv.addAll(List.of("srun", "-w", String.join(",", nodes), "-N" + nodes.size(), "--ntasks-per-node=" + gpusPerNode));
        } else {
            argv.addAll(List.of("mpirun", "--hostfile", hostfile.toString(), "-np", String.valueOf(nodes.size() * gpusPerNode),
                    "--map-by", "ppr:" + gpusPerNode + ":node"));
        }
        argv.addAll(extra);
        argv.addAll(command);
        return List.copyOf(argv);
    }

    /** The hostfile an MPI job reads ("gpu01 slots=8" per node); none for Slurm. */
    Optional<String> hostfile(List<String> nodes, int gpusPerNode) {
        if (this == SLURM) {
            return Optional.empty();
        }
        StringBuilder b = new StringBuilder();
        nodes.forEach(n -> b.append(n).append(" slots=").append(gpusPerNode).append('\n'));
        return Optional.of(b.toString());
    }
}
