/* Acceleration structures for the API tests that trace rays (ray queries
 * and ray-tracing pipelines): buffer addresses, and structures sized,
 * created and built on the device. Header-only, like compute_test_util.h. */
#ifndef ACCEL_TEST_UTIL_H
#define ACCEL_TEST_UTIL_H

#include <string.h>

#include "vk_test_context.h"

static inline VkDeviceAddress atu_buffer_address(struct vkt_device *dev, VkBuffer buffer)
{
   VkBufferDeviceAddressInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                     .buffer = buffer};
   return vkGetBufferDeviceAddressKHR(dev->device, &info);
}

struct atu_accel {
   struct vkt_buffer storage;
   VkAccelerationStructureKHR handle;
   VkDeviceAddress address;
};

static inline void atu_accel_destroy(struct vkt_device *dev, struct atu_accel *a)
{
   if (a->handle)
      vkDestroyAccelerationStructureKHR(dev->device, a->handle, NULL);
   vkt_buffer_destroy(dev, &a->storage);
   memset(a, 0, sizeof(*a));
}

/* Sizes, creates and builds (on the device) a structure of `count`
 * geometries of primitives[i] primitives each (count <= 4), on a queue of
 * `family`, scratch aligned to the device's
 * minAccelerationStructureScratchOffsetAlignment. */
static inline bool atu_accel_build(struct vkt_device *dev, uint32_t family,
                                   VkDeviceSize scratch_align, VkAccelerationStructureTypeKHR type,
                                   const VkAccelerationStructureGeometryKHR *geometries,
                                   const uint32_t *primitives, uint32_t count,
                                   struct atu_accel *out)
{
   memset(out, 0, sizeof(*out));
   VkAccelerationStructureBuildGeometryInfoKHR info = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
       .type = type,
       .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
       .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
       .geometryCount = count,
       .pGeometries = geometries};
   VkAccelerationStructureBuildSizesInfoKHR sizes = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
   vkGetAccelerationStructureBuildSizesKHR(
       dev->device, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &info, primitives, &sizes);
   struct vkt_buffer scratch = {0};
   VkBufferUsageFlags address_usage = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
   VkResult res =
       vkt_buffer_create(dev, sizes.accelerationStructureSize,
                         VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR | address_usage,
                         VKT_MEMORY_DEVICE, &out->storage);
   if (res == VK_SUCCESS)
      res = vkt_buffer_create(dev, sizes.buildScratchSize + scratch_align,
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | address_usage, VKT_MEMORY_DEVICE,
                              &scratch);
   VkAccelerationStructureCreateInfoKHR ci = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR,
       .buffer = out->storage.buffer,
       .size = sizes.accelerationStructureSize,
       .type = type};
   if (res == VK_SUCCESS)
      res = vkCreateAccelerationStructureKHR(dev->device, &ci, NULL, &out->handle);
   if (res == VK_SUCCESS) {
      VkAccelerationStructureDeviceAddressInfoKHR ai = {
          .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR,
          .accelerationStructure = out->handle};
      out->address = vkGetAccelerationStructureDeviceAddressKHR(dev->device, &ai);
      VkDeviceAddress base = atu_buffer_address(dev, scratch.buffer);
      info.scratchData.deviceAddress = (base + scratch_align - 1) / scratch_align * scratch_align;
      info.dstAccelerationStructure = out->handle;
      VkAccelerationStructureBuildRangeInfoKHR ranges[4] = {{0}};
      for (uint32_t i = 0; i < count && i < 4; i++)
         ranges[i].primitiveCount = primitives[i];
      const VkAccelerationStructureBuildRangeInfoKHR *range_ptr = ranges;
      VkCommandBuffer cmd = vkt_cmd_begin(dev, family);
      /* Earlier builds (the bottom levels) -> this build. */
      VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
                            .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                           VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR, 0, 1, &mb, 0,
                           NULL, 0, NULL);
      vkCmdBuildAccelerationStructuresKHR(cmd, 1, &info, &range_ptr);
      res = vkt_cmd_submit_wait(dev, family, 0, cmd);
   }
   vkt_buffer_destroy(dev, &scratch);
   if (res != VK_SUCCESS)
      test_fail(__FILE__, __LINE__, "acceleration structure build -> %s", vkt_result_name(res));
   return res == VK_SUCCESS;
}

#endif /* ACCEL_TEST_UTIL_H */
