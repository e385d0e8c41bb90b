/** Readers of the RDMA state text people paste (ibv_devinfo, ibstat, show_gids, mlnx_qos …) into the live probe's facts. */
package io.nccldoctor.gdr.text;
