package io.nccldoctor.reports.cluster;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.gdr.GdrHost;
import io.nccldoctor.gdr.GpuSurvey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** The node-wide software facts of the drift table: driver, libraries, kernel and GPUDirect prerequisites. */
final class HostFacts {

    private HostFacts() {
    }

    static Cell driver(NodeView n) {
        return cell(n.driver(), d -> Cell.of(d.version(), v -> v + d.flavour().map(f -> " " + f).orElse("")));
    }

    static Cell cudaDriver(NodeView n) {
        return version(n, Libraries::cudaDriver);
    }

    static Cell cudaRuntime(NodeView n) {
        return version(n, Libraries::cudaRuntime);
    }

    /** The version in the name of the libcuda file the loader picks: it should be the kernel driver's. */
    static Cell libcudaFile(NodeView n) {
        return cell(n.libraries(), l -> {
            NativeLibrary lib = l.cudaDriver();
            if (!lib.found()) {
                return Cell.of("not found");
            }
            Fact<NativeLibrary.Copy> loaded = lib.loaded();
            return loaded.isValue() ? Cell.known(loaded.get().fileVersion(), v -> v) : Cell.of("off the loader path");
        });
    }

    /** The version the loader's copy reports, and any other version among the copies found (a wheel's, a toolkit's). */
    static Cell nccl(NodeView n) {
        return cell(n.libraries(), l -> {
            NativeLibrary lib = l.nccl();
            if (!lib.found()) {
                return Cell.of("not found");
            }
            Fact<String> main = lib.version();
            if (!main.isValue()) {
                return Cell.unknown(main.reason());
            }
            Set<String> others = new LinkedHashSet<>();
            for (NativeLibrary.Copy c : lib.copies()) {
                Fact<String> v = c.version().isValue() ? c.version() : c.fileVersion();
                if (v.isValue()) {
                    others.add(v.get());
                }
            }
            others.remove(main.get());
            return Cell.of(main.get() + (others.isEmpty() ? "" : " (also " + String.join(", ", others) + ")"));
        });
    }

    static Cell kernel(NodeView n) {
        Fact<String> k = n.platform().flatMap(p -> p.kernel());
        if (!k.isValue()) {
            k = n.gdrHost().flatMap(GdrHost::kernel);
        }
        return Cell.known(k, v -> v);
    }

    static Cell iommu(NodeView n) {
        return cell(n.gdrHost(), g -> Cell.known(g.iommuCmdline(), l -> l.isEmpty() ? "none" : String.join(" ", l)));
    }

    /** "/sys/module/nvidia_peermem/version 580.95.05" as "nvidia_peermem 580.95.05": which client, which version. */
    static Cell peermem(NodeView n) {
        return cell(n.gdrHost(), g -> {
            Fact<String> p = g.peermem();
            if (p.isAbsent()) {
                return Cell.of("not loaded");
            }
            return Cell.known(p, v -> {
                int space = v.indexOf(' ');
                String path = space < 0 ? v : v.substring(0, space);
                String[] parts = path.split("/");
                String client = parts.length >= 2 ? parts[parts.length - 2] : path;
                return client + (space < 0 ? "" : v.substring(space));
            });
        });
    }

    static Cell dmaSharedBuffer(NodeView n) {
        return cell(n.gdrHost(), g -> Cell.of(g.dmaSharedBuffer()));
    }

    static Cell rdmaCore(NodeView n) {
        return cell(n.gdrHost(), g -> Cell.of(g.rdmaCore()));
    }

    static Cell dmabufMr(NodeView n) {
        return cell(n.gdrHost(), g -> Cell.of(g.dmabufMr(), b -> b ? "yes" : "no"));
    }

    static Cell gpuGdr(NodeView n) {
        return perGpu(n, GpuSurvey.Gpu::gdrSupported);
    }

    static Cell gpuDmabuf(NodeView n) {
        return perGpu(n, GpuSurvey.Gpu::dmabufSupported);
    }

    /** "yes on all 8 GPUs", or the GPUs that say no; unknown when any GPU could not be asked. */
    private static Cell perGpu(NodeView n, Function<GpuSurvey.Gpu, Fact<Boolean>> attribute) {
        return cell(n.gpus(), s -> {
            if (!s.gpus().isValue()) {
                return Cell.known(s.gpus(), x -> "");
            }
            List<GpuSurvey.Gpu> gpus = s.gpus().get();
            List<String> no = new ArrayList<>();
            for (GpuSurvey.Gpu g : gpus) {
                Fact<Boolean> a = attribute.apply(g);
                if (!a.isValue()) {
                    return Cell.unknown("GPU " + g.index() + ": " + a.reason());
                }
                if (!a.get()) {
                    no.add(String.valueOf(g.index()));
                }
            }
            if (gpus.isEmpty()) {
                return Cell.of("no GPU");
            }
            return Cell.of(no.isEmpty() ? "yes on all " + gpus.size() + " GPUs"
                    : "no on GPU " + String.join(", ", no) + " (" + (gpus.size() - no.size()) + " of " + gpus.size() + " say yes)");
        });
    }

    private static Cell version(NodeView n, Function<Libraries, NativeLibrary> which) {
        return cell(n.libraries(), l -> {
            NativeLibrary lib = which.apply(l);
            return lib.found() ? Cell.known(lib.version(), v -> v) : Cell.of("not found");
        });
    }

    /** The cell a section gives, or unknown with the reason the section is missing. */
    static <T> Cell cell(Fact<T> section, Function<T, Cell> read) {
        return section.isValue() ? read.apply(section.get()) : Cell.unknown(section.reason());
    }
}
