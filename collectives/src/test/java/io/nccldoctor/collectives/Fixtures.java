package io.nccldoctor.collectives;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** The published outputs under src/test/resources/fixtures/public (their README names each source). */
public final class Fixtures {

    private Fixtures() {
    }

    public static Path publicFixture(String name) {
        URL url = Fixtures.class.getResource("/fixtures/public/" + name);
        if (url == null) {
            throw new IllegalArgumentException("no fixture " + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(name, e);
        }
    }
}
