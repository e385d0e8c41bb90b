package io.nccldoctor.cli;

import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * How --help is laid out: as wide as the terminal (picocli measures it; 80 columns into a pipe), and footers whose
 * indented lines (the examples and their continuations) are printed whole, never wrapped, so that a path or a command
 * is never split in the middle; the footer's prose is wrapped at spaces to the same width.
 */
final class HelpLayout {

    private HelpLayout() {
    }

    /** On {@code cl} and every verb below it. */
    static void apply(CommandLine cl) {
        cl.setUsageHelpAutoWidth(true);
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_FOOTER, FOOTER);
        for (CommandLine sub : cl.getSubcommands().values()) {
            apply(sub);
        }
    }

    /** A class, not a lambda: a lambda implementing picocli's interface keeps picocli out of the class-data archive (Cli). */
    private static final IHelpSectionRenderer FOOTER = new IHelpSectionRenderer() {
        @Override
        public String render(Help help) {
            return footer(help);
        }
    };

    static String footer(Help help) {
        UsageMessageSpec usage = help.commandSpec().usageMessage();
        int width = usage.width();
        StringBuilder b = new StringBuilder();
        for (String raw : usage.footer()) {
            String line = raw.contains("%") ? String.format(Locale.ROOT, raw) : raw; // picocli's own formatting: "%%" is a '%'
            if (line.isEmpty() || Character.isWhitespace(line.charAt(0)) || line.length() <= width) {
                b.append(line);
            } else {
                b.append(Wrap.paragraph(line, width));
            }
            b.append(System.lineSeparator());
        }
        return b.toString();
    }
}
