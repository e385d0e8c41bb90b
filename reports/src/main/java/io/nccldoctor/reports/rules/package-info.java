/** The node rules of preflight, one class per finding code. */
package io.nccldoctor.reports.rules;
