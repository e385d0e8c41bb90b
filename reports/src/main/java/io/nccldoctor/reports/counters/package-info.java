/** The counter deltas of a run judged (PFC, ECN/CNP, out-of-sequence, retransmissions, drops, link errors, rails) and rendered. */
package io.nccldoctor.reports.counters;
