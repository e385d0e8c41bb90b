package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;

/**
 * What a NULL from {@code ibv_get_device_list} means, by its errno (rdma-core's ibv_get_device_list(3): EPERM
 * "permission denied", ENOSYS "no kernel support for RDMA", ENOMEM "insufficient memory"). ENOSYS is what a host
 * without the uverbs kernel interface returns, a VM or container without RDMA among them: there is no RDMA device
 * to ask, which is an absence, not a failure of the probe.
 */
final class DeviceListFailure {

    static final int EPERM = 1;
    static final int ENOMEM = 12;
    static final int ENOSYS = 38;

    private DeviceListFailure() {
    }

    static <T> Fact<T> of(int errno) {
        return switch (errno) {
            case ENOSYS -> Fact.absent("ibv_get_device_list found no RDMA device: no kernel support for RDMA (errno 38, ENOSYS)");
            case EPERM -> Fact.error("ibv_get_device_list failed (errno 1, EPERM: permission denied on the uverbs devices)");
            case ENOMEM -> Fact.error("ibv_get_device_list failed (errno 12, ENOMEM)");
            default -> Fact.error("ibv_get_device_list failed (errno " + errno + ")");
        };
    }
}
