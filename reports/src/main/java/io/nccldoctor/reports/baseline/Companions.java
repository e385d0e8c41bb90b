package io.nccldoctor.reports.baseline;

import io.nccldoctor.core.InputException;
import io.nccldoctor.pcie.SmiTopoMatrix;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The text inputs that come beside nccl-tests outputs to say how the machine is wired: {@code nvidia-smi topo -p2p}
 * (peer-to-peer support per GPU pair), {@code nvidia-smi topo -m} (NVLink, SYS paths) and {@code lspci -tv} (a
 * hypervisor's devices). They carry no measurement; what they show becomes {@link Note}s of the runs given with them.
 */
public final class Companions {

    /** A bus bracket of an lspci tree: "-[0000:00]-" at the root, "-[d8-df]--" below a bridge (also in a fragment). */
    private static final Pattern LSPCI_ROOT = Pattern.compile("-\\[(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}(?:-[0-9a-fA-F]{2})?\\]-");

    /** A function and its name in an lspci tree: "00.0  Mellanox Technologies …". */
    private static final Pattern LSPCI_FUNCTION = Pattern.compile("[0-9a-fA-F]{2}\\.[0-7]\\s{2}\\S");

    private Companions() {
    }

    /** Reads the text as one of these; true and its notes added when it is one, false when it is none of them. */
    public static boolean read(List<String> lines, String source, List<Note> into) {
        Optional<P2pMatrix> p2p = P2pMatrix.parse(lines);
        if (p2p.isPresent()) {
            into.addAll(Notes.fromP2p(p2p.get(), source));
            return true;
        }
        if (lines.stream().anyMatch(l -> LSPCI_ROOT.matcher(l).find()) && lines.stream().anyMatch(l -> LSPCI_FUNCTION.matcher(l).find())) {
            into.addAll(Notes.fromLspci(lines, source)); // names are all it needs: a fragment of a tree is read too
            return true;
        }
        try {
            SmiTopoMatrix m = SmiTopoMatrix.parse(lines, source);
            if (m.cells().isEmpty()) {
                return false;
            }
            into.addAll(Notes.fromSmiTopo(m, source));
            return true;
        } catch (InputException e) {
            return false;
        }
    }
}
