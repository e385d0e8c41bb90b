package io.nccldoctor.collectives.launch;

import io.nccldoctor.core.Fact;
import java.time.Duration;
import java.util.HexFormat;

/** A second process for {@link RendezvousTest}: fetches rank 0's id and prints it, or the error, and exits 0 or 1. */
public final class RendezvousChild {

    private RendezvousChild() {
    }

    public static void main(String[] args) {
        Fact<byte[]> id = Rendezvous.parse(args[0]).fetch(args[1], Duration.ofSeconds(Long.parseLong(args[2])));
        if (id.isValue()) {
            System.out.println("id " + HexFormat.of().formatHex(id.get()));
            System.exit(0);
        }
        System.out.println("error " + id.reason());
        System.exit(1);
    }
}
