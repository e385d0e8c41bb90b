package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.baseline.Baselines;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where configs/baselines.yaml comes from, as for configs/rules.yaml: the flag's file, else the repository's configs/
 * (-Dnccldoctor.home, set by the launcher), else the copy inside the jar.
 */
final class BaselineFiles {

    private BaselineFiles() {
    }

    static Baselines load(Path flag) {
        if (flag != null) {
            if (!Files.isRegularFile(flag)) {
                throw new InputException("--baselines " + flag + ": no such file");
            }
            return Baselines.load(flag);
        }
        String home = System.getProperty("nccldoctor.home");
        if (home != null && Files.isRegularFile(Path.of(home, "configs", "baselines.yaml"))) {
            return Baselines.load(Path.of(home, "configs", "baselines.yaml"));
        }
        try (InputStream in = BaselineFiles.class.getResourceAsStream("/configs/baselines.yaml")) {
            return in == null ? Baselines.none() : Baselines.read(in, "configs/baselines.yaml (in the jar)");
        } catch (IOException e) {
            throw new InputException("configs/baselines.yaml inside the jar: cannot read (" + e.getMessage() + ")", e);
        }
    }
}
