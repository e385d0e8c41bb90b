/** Reading the CSV inputs (suspect tables, bandwidth files): RFC 4180 records with their line numbers. */
package io.nccldoctor.reports.csv;
