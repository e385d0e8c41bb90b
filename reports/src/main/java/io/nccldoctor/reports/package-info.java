/** Rules, findings and their renderers: where facts are judged and shown. */
package io.nccldoctor.reports;
