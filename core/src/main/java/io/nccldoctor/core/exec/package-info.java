/** External commands: run live with LC_ALL=C and a timeout, or replayed from a capture. */
package io.nccldoctor.core.exec;
