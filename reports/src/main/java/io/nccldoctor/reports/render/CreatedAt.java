package io.nccldoctor.reports.render;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** ResultSet.createdAt read as an instant: ISO-8601 with Z or an offset, or a local date-time taken as UTC. */
final class CreatedAt {

    private CreatedAt() {
    }

    static Optional<Instant> parse(String iso) {
        if (iso == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(iso).toInstant());
        } catch (DateTimeParseException e) {
            try {
                return Optional.of(LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException again) {
                return Optional.empty();
            }
        }
    }
}
