package io.nccldoctor.pcie;

import java.util.List;

/**
 * The snapshot section of pasted lspci excerpts without device headers ({@code lspci -vvv | grep ACSCtl}): what each
 * says of an unnamed device (its ACS control, link), so a rule can judge what is visible even when no device is named.
 *
 * @param fragments in text order
 */
public record LspciFragments(List<LspciFragment> fragments) {

    public static final String KEY = "lspciFragments";

    public LspciFragments {
        fragments = List.copyOf(fragments);
    }
}
