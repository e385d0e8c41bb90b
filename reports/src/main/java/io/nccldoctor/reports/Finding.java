package io.nccldoctor.reports;

import java.util.List;

/**
 * One judgement about a snapshot.
 *
 * @param code     stable identifier, documented by {@code nccl-doctor explain CODE}
 * @param subject  what it is about: "node", a PCI address, a library, a GPU–NIC pair
 * @param title    one line that stands on its own in a ticket
 * @param evidence the facts that led to it, each a line with its value and source
 * @param remedy   what to do about it
 */
public record Finding(String code, Severity severity, String subject, String title, List<String> evidence,
                      String remedy) {

    public Finding {
        evidence = List.copyOf(evidence);
    }

    public Finding withSeverity(Severity s) {
        return new Finding(code, s, subject, title, evidence, remedy);
    }
}
