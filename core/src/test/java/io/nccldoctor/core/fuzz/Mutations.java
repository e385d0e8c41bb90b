package io.nccldoctor.core.fuzz;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** The mutations the robustness properties draw: one to three per case, the ten-megabyte line rarely (it is slow to build). */
public final class Mutations {

    private Mutations() {
    }

    /** One to three mutations of any kind. */
    public static Arbitrary<List<Mutation>> any() {
        return one().list().ofMinSize(1).ofMaxSize(3);
    }

    /** One to three, weighted towards the kinds that change a JSON document's values and types. */
    public static Arbitrary<List<Mutation>> json() {
        return Arbitraries.frequencyOf(Tuple.of(3, kinds()), Tuple.of(2, Arbitraries.of(Mutation.Kind.JSON_TYPE, Mutation.Kind.NUMBER,
                Mutation.Kind.SCHEMA_VERSION))).flatMap(Mutations::with).list().ofMinSize(1).ofMaxSize(3);
    }

    private static Arbitrary<Mutation> one() {
        return kinds().flatMap(Mutations::with);
    }

    private static Arbitrary<Mutation.Kind> kinds() {
        Arbitrary<Mutation.Kind> cheap = Arbitraries.of(Mutation.Kind.values()).filter(k -> k != Mutation.Kind.LONG_LINE);
        return Arbitraries.frequencyOf(Tuple.of(60, cheap), Tuple.of(1, Arbitraries.just(Mutation.Kind.LONG_LINE)));
    }

    private static Arbitrary<Mutation> with(Mutation.Kind kind) {
        return Combinators.combine(Arbitraries.just(kind), Arbitraries.doubles().between(0, 1).ofScale(4).filter(d -> d < 1),
                Arbitraries.integers().between(0, 10_000)).as(Mutation::new);
    }
}
