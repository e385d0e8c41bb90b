/** What kind of third-party output a file is, read by the parser of that kind: the one place `parse` and `report` ask. */
package io.nccldoctor.reports.inputs;
