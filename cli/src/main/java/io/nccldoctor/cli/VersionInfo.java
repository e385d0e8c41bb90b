package io.nccldoctor.cli;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.libs.NativeLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** {@code --version}: the tool, the Java that runs it, and the CUDA and NCCL versions this node would load. */
final class VersionInfo implements CommandLine.IVersionProvider {

    static String toolVersion() {
        try (InputStream in = VersionInfo.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "development build");
        } catch (IOException e) {
            return "development build";
        }
    }

    @Override
    public String[] getVersion() {
        Libraries libs = new LibrariesProbe().run(HostOptions.liveHost());
        return new String[] {
            "nccl-doctor " + toolVersion(),
            "java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ", "
                    + System.getProperty("java.home") + ")",
            line("nccl", libs.nccl()),
            line("cuda driver", libs.cudaDriver()),
            line("cuda runtime", libs.cudaRuntime())};
    }

    private static String line(String label, NativeLibrary lib) {
        var copy = lib.loaded();
        String where = copy.map(c -> " (" + c.realPath() + ")").orElse(lib.found() ? " (" + lib.copies().get(0).realPath() + ", not on the loader path)" : "");
        return lib.version().isValue() ? label + " " + lib.version().get() + where : label + ": " + lib.version().reason() + where;
    }
}
