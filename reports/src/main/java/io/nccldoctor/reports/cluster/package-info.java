/** The cluster view: the same facts of many nodes side by side, the values that drift, and bandwidth outliers. */
package io.nccldoctor.reports.cluster;
