package io.nccldoctor.gdr.text;

/** An open section of one kind: reads its lines, one at a time, into the paste's facts. */
interface SectionReader {

    /** What one line was to the section. */
    enum Verdict {
        /** A fact was taken from it. */
        FACT,
        /** It belongs to the tool's output but says nothing the facts need (ibv_devinfo -v's max_qp, mlnx_qos' tc lines). */
        KNOWN,
        /** Not this tool's output: listed as not understood. */
        FOREIGN
    }

    Verdict read(String line, Slot.Line at);
}
