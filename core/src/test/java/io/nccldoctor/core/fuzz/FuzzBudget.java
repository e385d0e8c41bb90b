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
 *
 * <p>The cases come from a fixed seed ({@value #CI_SEED}) unless {@code -Dfuzz.seed=random} (a new seed each run, as
 * for a long search) or {@code -Dfuzz.seed=N} (the seed a failure printed) is given: a CI run then fails only when a
 * change breaks a case that passed before, never because a new random draw found an old defect.
 */
public final class FuzzBudget implements AroundPropertyHook {

    /** The cases of all robustness properties together in a CI run: the sum of their tries. */
    public static final int CI_CASES = 1425;

    /** The seed of a run that gives no fuzz.seed. */
    public static final String CI_SEED = "20261201";

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
        String seed = System.getProperty("fuzz.seed", CI_SEED);
        if (!seed.equals("random")) {
            context.attributes().setSeed(seed);
        }
        return property.execute();
    }
}
