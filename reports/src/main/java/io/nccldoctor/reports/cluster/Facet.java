package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.Fact;
import java.util.Map;
import java.util.function.Function;

/**
 * One attribute of the drift table ("NIC firmware"): how to read it from a node, for the node as a whole or per
 * subject (an HCA, a port), why drift in it matters, and what to do about it.
 *
 * @param noun   what a subject is ("RDMA device", "RDMA port"); null for a node-wide attribute (one subject, "")
 * @param why    the hardware reason drift matters, for the finding's story
 * @param remedy what to do on the odd nodes
 * @param reader subject to cell, in subject order; an unknown fact when the node cannot say for any subject (the
 *               section is missing, the device list unreadable)
 */
record Facet(String name, String noun, String why, String remedy, Function<NodeView, Fact<Map<String, Cell>>> reader) {

    static Facet node(String name, String why, String remedy, Function<NodeView, Cell> read) {
        return new Facet(name, null, why, remedy, n -> Fact.of(Map.of("", read.apply(n))));
    }

    static Facet each(String name, String noun, String why, String remedy, Function<NodeView, Fact<Map<String, Cell>>> read) {
        return new Facet(name, noun, why, remedy, read);
    }

    boolean perSubject() {
        return noun != null;
    }

    /** The reason shown for a node that lacks one subject the others have. */
    String missing(String subject) {
        return "no " + noun + " " + subject + " on this node";
    }
}
