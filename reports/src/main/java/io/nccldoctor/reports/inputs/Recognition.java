package io.nccldoctor.reports.inputs;

/**
 * What the parser of one kind made of an input.
 *
 * @param model         what the parser returned
 * @param understood    the lines it took as its kind's own
 * @param notUnderstood the lines it could not place (blank lines, and lines another kind in the same text owns, such as
 *                      NCCL INFO lines between an nccl-tests table's rows, count as neither)
 * @param sure          true when a line shows the kind that no other text has (NCCL's own line prefix, a PyTorch NCCL
 *                      watchdog timeout), however much else surrounds it
 * @param evidence      what showed the kind, in words: "its '# nccl-tests version 2.13.8' header"
 * @param complete      true when the parser read the whole input, so its model is the answer
 */
record Recognition(InputKind kind, Object model, int understood, int notUnderstood, boolean sure, String evidence, boolean complete) {

    Recognition(InputKind kind, Object model, int understood, int notUnderstood, boolean sure, String evidence) {
        this(kind, model, understood, notUnderstood, sure, evidence, true);
    }

    /** The same, read from part of the input. */
    Recognition partial() {
        return new Recognition(kind, model, understood, notUnderstood, sure, evidence, false);
    }

    /** The same, with this evidence. */
    Recognition withEvidence(String words) {
        return new Recognition(kind, model, understood, notUnderstood, sure, words, complete);
    }

    /** The text is this kind's: most of its lines are the kind's own, or a line shows it beyond doubt. */
    boolean plausible() {
        return sure || understood > 0 && understood >= notUnderstood;
    }

    /** "took 3 of 130 lines", for the message that refuses a text. */
    String share() {
        return "took " + understood + " of " + (understood + notUnderstood) + " lines";
    }
}
