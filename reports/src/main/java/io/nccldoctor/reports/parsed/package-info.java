/** The human form of each third-party output that `parse` reads, a class per kind. */
package io.nccldoctor.reports.parsed;
