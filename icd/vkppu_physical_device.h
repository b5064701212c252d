/* What instance.c, physical_device*.c, debug_utils.c and loader_interface.c
 * share: the instance/physical-device handle casts and the physical device's
 * identity. (device.c has its own cast for VkPhysicalDevice, so this header
 * stays out of the device-level files.) */
#ifndef VKPPU_PHYSICAL_DEVICE_H
#define VKPPU_PHYSICAL_DEVICE_H

#include "vkppu_instance.h"

VKPPU_DEFINE_HANDLE_CASTS(vkppu_instance, VkInstance)
VKPPU_DEFINE_HANDLE_CASTS(vkppu_physical_device, VkPhysicalDevice)

/* VkPhysicalDeviceProperties::vendorID. The PPU has no PCI vendor ID, so the
 * spec asks for a Khronos vendor ID (VkVendorId), which Khronos hands out in
 * sequence from 0x10001 (0x10006, POCL, is the last one in vk.xml 1.3.239).
 * None is registered for vkppu; 0x1FFFF sits at the far end of that 17-bit
 * range, away from the sequential allocations, and above 0xFFFF so it can
 * never be mistaken for a PCI vendor. Register one before shipping. */
#define VKPPU_VENDOR_ID 0x1FFFFu
/* VkPhysicalDeviceProperties::deviceID: the model's chip revision. */
#define VKPPU_DEVICE_ID 0x0001u
/* Version of this driver (VkPhysicalDeviceProperties::driverVersion); keep in
 * step with project(VERSION) in CMakeLists.txt. */
#define VKPPU_DRIVER_VERSION VK_MAKE_VERSION(0, 1, 0)
#define VKPPU_DRIVER_VERSION_STRING "0.1.0"
/* Bytes of modeled VRAM each device gets; heap sizes derive from it. */
#define VKPPU_VRAM_SIZE (8ull << 30)

/* Fills in a physical device of inst: identity, memory properties. */
void vkppu_physical_device_init(struct vkppu_physical_device *pd, struct vkppu_instance *inst);
void vkppu_physical_device_finish(struct vkppu_physical_device *pd);

/* The full properties / features as this device reports them (also what the
 * *2 queries copy into chained structs). */
void vkppu_physical_device_get_properties(const struct vkppu_physical_device *pd,
                                          VkPhysicalDeviceProperties *out);

/* The two-call idiom over an extension table (instance.c). */
VkResult vkppu_copy_extension_properties(const VkExtensionProperties *table, uint32_t count,
                                         uint32_t *pPropertyCount,
                                         VkExtensionProperties *pProperties);

#endif /* VKPPU_PHYSICAL_DEVICE_H */
