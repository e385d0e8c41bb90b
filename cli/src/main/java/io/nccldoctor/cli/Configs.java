package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RulesConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where configuration comes from: a flag's file, else the repository's configs/ folder (the launcher passes
 * -Dnccldoctor.home), else the copy of configs/ inside the jar, else the Defaults class.
 */
final class Configs {

    private Configs() {
    }

    /** A node profile: configs/profiles/NAME.yaml with {description, expect: {gpus, nics, rdma}}. */
    record Profile(String description, Map<String, Integer> expect, Map<String, String> require) {
    }

    static RulesConfig rules(Path flag, List<Rule> rules) {
        Set<String> codes = rules.stream().map(r -> r.info().code()).collect(Collectors.toSet());
        RuleCatalog.all().forEach(i -> codes.add(i.code())); // one file serves every verb
        if (flag != null) {
            if (!Files.isRegularFile(flag)) {
                throw new InputException("--rules " + flag + ": no such file");
            }
            return RulesConfig.load(flag, codes);
        }
        Path home = homeConfigs();
        if (home != null && Files.isRegularFile(home.resolve("rules.yaml"))) {
            return RulesConfig.load(home.resolve("rules.yaml"), codes);
        }
        return RulesConfig.defaults();
    }

    /** NAME from configs/profiles, or a path to a YAML file. */
    static NodeShape profile(String nameOrFile) {
        Path file = nameOrFile.contains("/") || nameOrFile.endsWith(".yaml") ? Path.of(nameOrFile) : null;
        if (file == null && homeConfigs() != null) {
            Path candidate = homeConfigs().resolve("profiles").resolve(nameOrFile + ".yaml");
            file = Files.isRegularFile(candidate) ? candidate : null;
        }
        Profile p;
        String label = "profile " + nameOrFile;
        try (InputStream in = file != null ? Files.newInputStream(file)
                : Configs.class.getResourceAsStream("/configs/profiles/" + nameOrFile + ".yaml")) {
            if (in == null) {
                throw new InputException("--profile " + nameOrFile + ": no such profile; profiles are the files in configs/profiles/, or give a path to a .yaml file");
            }
            p = Json.yaml().readValue(in, Profile.class);
        } catch (IOException e) {
            throw new InputException((file != null ? file.toString() : label) + ": not a valid profile ("
                    + e.getMessage().lines().findFirst().orElse("") + "); expected keys: description, expect, require", e);
        }
        if (p == null || p.expect() == null) {
            throw new InputException((file != null ? file.toString() : label) + ": has no 'expect:' map (example: expect: {gpus: 8, nics: 8})");
        }
        String spec = p.expect().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
        NodeShape shape = NodeShape.parse(spec, label);
        return p.require() == null ? shape : shape.requiring(p.require(), file != null ? file.toString() : label);
    }

    /** A sweep plan: a file, or NAME from configs/sweeps (the repository's folder, else the copy inside the jar). */
    static Path sweepPlan(String name) throws IOException {
        Path p = Path.of(name);
        if (Files.isRegularFile(p)) {
            return p;
        }
        if (name.contains("/") || name.endsWith(".yaml")) {
            throw new InputException(name + ": no such plan file");
        }
        Path home = homeConfigs();
        if (home != null && Files.isRegularFile(home.resolve("sweeps").resolve(name + ".yaml"))) {
            return home.resolve("sweeps").resolve(name + ".yaml");
        }
        try (InputStream in = Configs.class.getResourceAsStream("/configs/sweeps/" + name + ".yaml")) {
            if (in == null) {
                throw new InputException(name + ": no such plan; plans are the files in configs/sweeps (quick, proto, gdr-levels, "
                        + "ab-nccl), or give a path");
            }
            Path tmp = Files.createTempFile("nccl-doctor-plan-" + name + "-", ".yaml");
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        }
    }

    private static Path homeConfigs() {
        String home = System.getProperty("nccldoctor.home");
        if (home == null) {
            return null;
        }
        Path configs = Path.of(home, "configs");
        return Files.isDirectory(configs) ? configs : null;
    }
}
