package io.nccldoctor.reports.rules;

/** Test access to package-private helpers of the rules. */
public final class ArpFluxAccess {

    private ArpFluxAccess() {
    }

    public static String subnet(String cidr) {
        return ArpFlux.subnet(cidr);
    }
}
