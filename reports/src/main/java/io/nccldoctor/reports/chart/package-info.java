/** Charts that make failure patterns visible (size sweeps, GPU–NIC matrices, path types, port balance), drawn from plain data to PNG or SVG. */
package io.nccldoctor.reports.chart;
