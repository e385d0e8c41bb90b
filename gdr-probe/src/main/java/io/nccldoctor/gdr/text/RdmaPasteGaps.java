package io.nccldoctor.gdr.text;

import java.util.List;
import java.util.Map;

/**
 * What a pasted RDMA text leaves out or could not show, carried beside its facts in the snapshot that `report` judges,
 * so the rules and the report can say why something was not judged: the paste's notes, the devices ibv_devinfo could
 * not open, and the devices a complete show_gids listing shows without a GID.
 *
 * @param notes      the paste's notes, as `parse rdma` prints them
 * @param unopened   devices ibv_devinfo found and could not open ("Failed to open device"): not named, not read
 * @param withoutGid devices a complete show_gids listing covers with no GID on any port, none of whose ports the input
 *                   gives otherwise: device → where the listing is ("show_gids, line 4")
 */
public record RdmaPasteGaps(List<String> notes, int unopened, Map<String, String> withoutGid) {

    /** The snapshot section's key. */
    public static final String KEY = "rdmaPaste";

    public RdmaPasteGaps {
        notes = List.copyOf(notes);
        withoutGid = Map.copyOf(withoutGid);
    }

    public static RdmaPasteGaps of(RdmaPaste p) {
        return new RdmaPasteGaps(p.notes(), p.unopened(), p.withoutGid());
    }
}
