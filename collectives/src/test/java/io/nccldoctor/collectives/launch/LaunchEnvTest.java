package io.nccldoctor.collectives.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LaunchEnvTest {

    @Test
    void noLauncherIsOneProcess() {
        LaunchEnv l = LaunchEnv.from(Map.of("HOME", "/root"));
        assertThat(l.worldSize()).isEqualTo(1);
        assertThat(l.multiProcess()).isFalse();
    }

    @Test
    void slurm() {
        LaunchEnv l = LaunchEnv.from(Map.of("SLURM_PROCID", "13", "SLURM_NTASKS", "16", "SLURM_LOCALID", "5",
                "SLURM_JOB_ID", "4711", "SLURM_STEP_ID", "0"));
        assertThat(l.source()).startsWith("Slurm");
        assertThat(l.rank()).isEqualTo(13);
        assertThat(l.worldSize()).isEqualTo(16);
        assertThat(l.localRank()).isEqualTo(5);
        assertThat(l.jobKey()).isEqualTo("SLURM_JOB_ID=4711,SLURM_STEP_ID=0");
    }

    @Test
    void openMpiInsideASlurmAllocationUsesOpenMpi() {
        // mpirun in a batch script inherits the batch step's SLURM_PROCID=0 and SLURM_NTASKS
        LaunchEnv l = LaunchEnv.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "OMPI_COMM_WORLD_RANK", "9",
                "OMPI_COMM_WORLD_SIZE", "16", "OMPI_COMM_WORLD_LOCAL_RANK", "1"));
        assertThat(l.source()).startsWith("Open MPI");
        assertThat(l.rank()).isEqualTo(9);
        assertThat(l.localRank()).isEqualTo(1);
        assertThat(l.ignored()).containsExactly("Slurm (SLURM_PROCID=0)");
    }

    @Test
    void torchrunUnderSrunUsesTheTorchrunRank() {
        LaunchEnv l = LaunchEnv.from(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "SLURM_LOCALID", "0", "RANK", "11",
                "WORLD_SIZE", "16", "LOCAL_RANK", "3", "TORCHELASTIC_RUN_ID", "abc"));
        assertThat(l.source()).startsWith("torchrun-style");
        assertThat(l.rank()).isEqualTo(11);
        assertThat(l.localRank()).isEqualTo(3);
        assertThat(l.jobKey()).isEqualTo("TORCHELASTIC_RUN_ID=abc");
    }

    @Test
    void pmiWithoutLocalRankBorrowsSlurmsForTheSameProcess() {
        LaunchEnv l = LaunchEnv.from(Map.of("PMI_RANK", "3", "PMI_SIZE", "4", "SLURM_PROCID", "3", "SLURM_NTASKS", "4",
                "SLURM_LOCALID", "1"));
        assertThat(l.source()).startsWith("PMI");
        assertThat(l.localRank()).isEqualTo(1);
    }

    @Test
    void badValuesNameTheVariable() {
        assertThatThrownBy(() -> LaunchEnv.from(Map.of("RANK", "x", "WORLD_SIZE", "2")))
                .isInstanceOf(InputException.class).hasMessageStartingWith("RANK='x' is not a non-negative integer");
        assertThatThrownBy(() -> LaunchEnv.from(Map.of("OMPI_COMM_WORLD_RANK", "4", "OMPI_COMM_WORLD_SIZE", "4")))
                .isInstanceOf(InputException.class).hasMessageContaining("the rank must be below the world size");
        assertThatThrownBy(() -> LaunchEnv.from(Map.of("RANK", "0")))
                .isInstanceOf(InputException.class).hasMessageContaining("RANK is set but WORLD_SIZE is not");
    }

    @ParameterizedTest
    @CsvSource({"2.15.5, true", "2.16.2, false", "2.18.3, false", "2.21.5, false", "2.22.3, true", "2.26.2, true",
        "2.30.7, true", "garbage, false"})
    void commIdIsSafeOutsideTheRandomMagicReleases(String version, boolean safe) {
        assertThat(CommIdPolicy.commIdSafe(version)).isEqualTo(safe);
    }
}
