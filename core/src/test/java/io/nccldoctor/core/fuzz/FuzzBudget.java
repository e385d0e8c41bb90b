package io.nccldoctor.core.fuzz;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * The number of cases of the robustness properties: each property's {@code tries} is its share of the
 * {@value #CI_CASES} cases a CI run makes (the command-line properties 1,275, the sweep results 150); {@code -Dfuzz.tries=N} scales every share
 * so that the suite makes about N cases ({@code mvn -B -ntp verify -Dfuzz.tries=100000}; docs/testing.md).
 */
public final class FuzzBudget implements AroundPropertyHook {

    /** The cases of all robustness properties together in a CI run: the sum of their tries. */
    public static final int CI_CASES = 1425;

    /** On the class, for each of its properties. */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        String wanted = System.getProperty("fuzz.tries");
        if (wanted != null && !wanted.isBlank()) {
            int share = context.attributes().tries().orElse(100);
            context.attributes().setTries(Math.max(1, (int) Math.round(share * (Double.parseDouble(wanted) / CI_CASES))));
        }
        return property.execute();
    }
}
