/** `run`: a native NCCL run or an nccl-tests reference run, from the options to the printed table or JSON. */
package io.nccldoctor.reports.run;
