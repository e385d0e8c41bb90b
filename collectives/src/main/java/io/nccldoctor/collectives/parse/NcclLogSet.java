package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * NCCL_DEBUG logs read together: one file per process (NCCL_DEBUG_FILE=dir/nccl.%h.%p.log writes them), each parsed
 * alone, and what differs between them where the processes of one job should agree: the NCCL version, the network
 * NCCL chose, and whether its network channels use GPUDirect RDMA. One process that fell back to sockets, or lost
 * GPUDirect RDMA, slows every collective of the job, and its log looks healthy on its own.
 *
 * @param logs        each file with NCCL lines, by its name as given, in the order given (a folder: its files by name)
 * @param skipped     the files without NCCL lines, with why
 * @param differences one line per thing that differs, naming the files that are not with the majority
 */
public record NcclLogSet(Map<String, NcclLog> logs, Map<String, String> skipped, List<String> differences) {

    /** Files and folders (their regular files, not hidden, not recursive); a file without NCCL lines is skipped. */
    public static NcclLogSet read(List<Path> paths) {
        Map<String, NcclLog> logs = new LinkedHashMap<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        for (Path file : files(paths)) {
            NcclLog.parseIfNccl(file).ifPresentOrElse(log -> logs.put(file.toString(), log),
                    () -> skipped.put(file.toString(), "no NCCL lines"));
        }
        if (logs.isEmpty()) {
            throw new InputException("parse nccl-log " + String.join(" ", paths.stream().map(Path::toString).toList())
                    + ": no NCCL debug log among " + skipped.size() + " file(s); run with NCCL_DEBUG=INFO "
                    + "(NCCL_DEBUG_FILE=dir/nccl.%h.%p.log writes one file per process)");
        }
        return of(logs, skipped);
    }

    /** The differences between logs already parsed. */
    public static NcclLogSet of(Map<String, NcclLog> logs, Map<String, String> skipped) {
        Map<String, Agreement.Facts> facts = new LinkedHashMap<>();
        logs.forEach((file, log) -> facts.put(file, log.facts()));
        return new NcclLogSet(Collections.unmodifiableMap(new LinkedHashMap<>(logs)),
                Collections.unmodifiableMap(new LinkedHashMap<>(skipped)), Agreement.differences(facts, "files"));
    }

    private static List<Path> files(List<Path> paths) {
        List<Path> files = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> in = Files.list(p)) {
                    in.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith(".")).sorted().forEach(files::add);
                } catch (IOException e) {
                    throw new InputException(p + ": cannot list the folder (" + e.getMessage() + ")", e);
                }
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else {
                throw new InputException("parse nccl-log " + p + ": no such file or folder");
            }
        }
        return files;
    }
}
