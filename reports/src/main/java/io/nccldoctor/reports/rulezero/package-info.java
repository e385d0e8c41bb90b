/** The rule-zero report: a suspect harness's measurements against nccl-tests on the same sizes, with its input conditioning audited. */
package io.nccldoctor.reports.rulezero;
