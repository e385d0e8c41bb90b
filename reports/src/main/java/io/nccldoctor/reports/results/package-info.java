/**
 * Measured results and what a report is made of: sweeps read from nccl-tests and nccl-doctor output, ceilings
 * computed from node snapshots, per-link traffic, and the pattern detectors that judge them.
 */
package io.nccldoctor.reports.results;
