package io.nccldoctor.core;

import java.util.Locale;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test under Locale.GERMANY (decimal comma) and restores the default afterwards, so that a number
 * formatted with the default locale shows up as a failure. Use with {@code @ExtendWith(GermanLocale.class)}.
 */
public final class GermanLocale implements BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(GermanLocale.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put("saved", Locale.getDefault());
        Locale.setDefault(Locale.GERMANY);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Locale.setDefault(context.getStore(NS).get("saved", Locale.class));
    }
}
