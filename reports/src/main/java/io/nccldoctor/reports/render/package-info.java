/** Renderers of a judged report for other tools: Markdown for tickets, JUnit XML for CI, Prometheus for node_exporter. */
package io.nccldoctor.reports.render;
