/** GPUDirect RDMA readiness: the NVIDIA driver, RDMA devices and, later, the GDR decision per GPU–NIC pair. */
package io.nccldoctor.gdr;
