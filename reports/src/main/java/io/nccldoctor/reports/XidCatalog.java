package io.nccldoctor.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** configs/xid-catalog.yaml: NVIDIA's Xid table (mnemonic, immediate action, fatal or not) with a severity per Xid. */
public record XidCatalog(List<Entry> xids) {

    static final String FILE = "xid-catalog.yaml";

    /**
     * @param action   the catalog's "Resolution Bucket (Immediate Action)": RESTART_APP, RESET_GPU, RESTART_BM …
     * @param meaning  a short description, where the sources give one
     */
    public record Entry(int xid, String mnemonic, String action, boolean fatal, Severity severity, String meaning) {

        /** "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS: GPU has fallen off the bus; NVIDIA's action RESTART_BM". */
        public String describe() {
            String what = mnemonic == null || mnemonic.isEmpty() ? "no mnemonic" : mnemonic;
            if (meaning != null && !meaning.isEmpty()) {
                what += ": " + meaning;
            }
            return what + (action == null || action.isEmpty() ? "" : "; NVIDIA's immediate action " + action);
        }
    }

    public XidCatalog {
        xids = xids == null ? List.of() : List.copyOf(xids);
    }

    public Optional<Entry> entry(int xid) {
        return xids.stream().filter(e -> e.xid() == xid).findFirst();
    }

    /** The table in force: the repository's configs/xid-catalog.yaml at run time (-Dnccldoctor.home), else the shipped one. */
    public static XidCatalog atRunTime() {
        String home = System.getProperty("nccldoctor.home");
        Path file = home == null ? null : Path.of(home, "configs", FILE);
        return file != null && Files.isRegularFile(file) ? load(file) : shipped();
    }

    /** The shipped table (inside the jar), or the repository's when running from the source tree. */
    public static XidCatalog shipped() {
        try (InputStream in = XidCatalog.class.getResourceAsStream("/configs/" + FILE)) {
            if (in != null) {
                return validate(Json.yaml().readValue(in, XidCatalog.class), FILE + " (shipped)");
            }
        } catch (IOException e) {
            throw new IllegalStateException("the shipped " + FILE + " does not parse", e);
        }
        for (Path p : List.of(Path.of("configs", FILE), Path.of("..", "configs", FILE))) {
            if (Files.isRegularFile(p)) {
                return load(p);
            }
        }
        return new XidCatalog(List.of());
    }

    public static XidCatalog load(Path file) {
        try {
            return validate(Json.yaml().readValue(file.toFile(), XidCatalog.class), file.toString());
        } catch (JsonProcessingException e) {
            throw new InputException(file + (e.getLocation() == null ? "" : ":" + e.getLocation().getLineNr()) + ": "
                    + e.getOriginalMessage() + " (entries: xid, mnemonic, action, fatal, severity, meaning)", e);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private static XidCatalog validate(XidCatalog c, String where) {
        Map<Integer, Entry> seen = new HashMap<>();
        for (Entry e : c.xids()) {
            if (e.severity() == null) {
                throw new InputException(where + ": Xid " + e.xid() + " has no severity (info, warn or error)");
            }
            if (seen.put(e.xid(), e) != null) {
                throw new InputException(where + ": Xid " + e.xid() + " is listed twice");
            }
        }
        return c;
    }
}
