package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.host.HostRoot;
import io.nccldoctor.core.libs.LibrarySearch;
import io.nccldoctor.core.libs.NativeCalls;
import io.nccldoctor.core.libs.NativeLibrary;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/** Kernel, kernel config, IOMMU, peer-memory module and rdma-core: what GPUDirect RDMA needs from the host. */
public final class GdrHostProbe implements Probe<GdrHost> {

    public static final String KEY = "gdrHost";
    /** The files NCCL checks for a peer-memory client (src/transport/net_ib/gdr.cc). */
    static final List<String> PEERMEM = List.of("/sys/kernel/mm/memory_peers/nv_mem/version",
            "/sys/kernel/mm/memory_peers/nv_mem_nc/version", "/sys/module/nvidia_peermem/version");
    private static final Pattern IBVERBS_VERSION = Pattern.compile("libibverbs\\.so\\.1\\.\\d+\\.(\\d+)\\.\\d+$");

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "kernel and its DMA-BUF config, IOMMU, nvidia_peermem, rdma-core and ibv_reg_dmabuf_mr";
    }

    @Override
    public GdrHost run(Host host) {
        HostRoot files = host.files();
        Fact<String> kernel = files.readAttribute("/proc/sys/kernel/osrelease");
        NativeLibrary ibverbs = new LibrarySearch(host).find("libibverbs", List.of("libibverbs.so.1"));
        Fact<NativeLibrary.Copy> loaded = ibverbs.loaded();
        Fact<String> rdmaCore = loaded.flatMap(c -> {
            Matcher m = IBVERBS_VERSION.matcher(c.realPath());
            return m.find() ? Fact.of(m.group(1)) : Fact.absent("no rdma-core release in the file name " + c.realPath());
        });
        Fact<Boolean> dmabuf = loaded.flatMap(c -> host.natives().query("symbol:ibv_reg_dmabuf_mr:" + c.realPath(), Boolean.class,
                () -> NativeCalls.hasSymbol(c.realPath(), "ibv_reg_dmabuf_mr")));
        if (!loaded.isValue()) {
            rdmaCore = Fact.absent("libibverbs.so.1 not found (rdma-core is not installed: apt-get install libibverbs1)");
            dmabuf = Fact.absent(rdmaCore.reason());
        }
        return new GdrHost(kernel, kernel.flatMap(k -> dmaSharedBuffer(files, k)),
                files.readAttribute("/proc/cmdline").map(GdrHostProbe::iommuOptions),
                files.list("/sys/kernel/iommu_groups").map(List::size), peermem(files), ibverbs, rdmaCore, dmabuf);
    }

    static List<String> iommuOptions(String cmdline) {
        return Arrays.stream(cmdline.split("\\s+")).filter(t -> t.contains("iommu")).toList();
    }

    private static Fact<String> peermem(HostRoot files) {
        for (String p : PEERMEM) {
            Fact<String> v = files.readAttribute(p);
            if (v.isValue()) {
                return Fact.of(p + " " + v.get());
            }
        }
        return Fact.absent("no peer-memory client: none of " + String.join(", ", PEERMEM));
    }

    private static Fact<String> dmaSharedBuffer(HostRoot files, String release) {
        Fact<List<String>> config = files.readLines("/boot/config-" + release);
        if (!config.isValue()) {
            config = files.readBytes("/proc/config.gz").flatMap(GdrHostProbe::gunzipLines);
        }
        if (!config.isValue()) {
            return Fact.absent("no kernel config readable (/boot/config-" + release + ", /proc/config.gz)");
        }
        return option(config.get(), "CONFIG_DMA_SHARED_BUFFER");
    }

    static Fact<String> option(List<String> config, String name) {
        for (String line : config) {
            if (line.startsWith(name + "=")) {
                return Fact.of(line.substring(name.length() + 1));
            }
            if (line.equals("# " + name + " is not set")) {
                return Fact.of("not set");
            }
        }
        return Fact.absent(name + " is not in the kernel config");
    }

    private static Fact<List<String>> gunzipLines(byte[] gz) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return Fact.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
        } catch (IOException e) {
            return Fact.error("/proc/config.gz: " + e.getMessage());
        }
    }
}
