/**
 * What a healthy system of the input's hardware reaches: the hardware read from the input itself, the published
 * baselines of configs/baselines.yaml, the physical limits no measurement can pass, and the causes the input shows.
 */
package io.nccldoctor.reports.baseline;
