/* VkAccelerationStructureKHR objects and the queries that need no
 * structure: build sizes, the device address, compatibility of serialized
 * data, and the properties the device would report. */
#include <stdio.h>

#include "vkppu_acceleration_structure.h"
#include "vkppu_memory.h"

void vkppu_acceleration_structure_properties(VkPhysicalDeviceAccelerationStructurePropertiesKHR *p)
{
   /* Geometry, instance and primitive limits are the spec's minimums
    * ("Required Limits"); the format could hold 2^32 records, but these are
    * what the builder is tested with. Descriptor limits: the minimum 16,
    * as for storage buffers. Scratch is never touched (builds use host
    * memory, docs/bvh.md "Sizes"), so its alignment is only that of the
    * 128-byte scratch size we report: PPU_BVH_ALIGN. */
   p->maxGeometryCount = (1u << 24) - 1;
   p->maxInstanceCount = (1u << 24) - 1;
   p->maxPrimitiveCount = (1u << 29) - 1;
   p->maxPerStageDescriptorAccelerationStructures = 16;
   p->maxPerStageDescriptorUpdateAfterBindAccelerationStructures = 16;
   p->maxDescriptorSetAccelerationStructures = 16;
   p->maxDescriptorSetUpdateAfterBindAccelerationStructures = 16;
   p->minAccelerationStructureScratchOffsetAlignment = PPU_BVH_ALIGN;
}

void vkppu_as_compatibility_uuid(uint8_t uuid[VK_UUID_SIZE])
{
   /* What a structure's bytes depend on: the BVH format (magic, version,
    * node and record sizes, hw/include/ppu/bvh.h). The driver UUID next to
    * it in serialized data covers the builder. */
   static const char tag[8] = {'v', 'k', 'p', 'p', 'u', 'B', 'V', 'H'};
   uint32_t words[2] = {PPU_BVH_MAGIC,
                        PPU_BVH_VERSION << 16 | PPU_BVH_NODE_BYTES << 8 | PPU_BVH_WIDTH};
   memcpy(uuid, tag, sizeof(tag));
   memcpy(uuid + 8, words, sizeof(words));
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateAccelerationStructureKHR(
    VkDevice device, const VkAccelerationStructureCreateInfoKHR *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkAccelerationStructureKHR *pAccelerationStructure)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   const struct vkppu_buffer *buffer = vkppu_buffer_from_handle(pCreateInfo->buffer);
   /* The TTU reads 128-byte lines from the header on (PPU_BVH_ALIGN). The
    * spec's offset rule (a multiple of 256, VUID-...-offset-03734) and a
    * buffer's memory alignment (256, icd/buffer.c) keep to it however the
    * buffer is bound later, so only the range itself is checked here: a
    * structure that breaks it is invalid usage that would make every trace
    * fault. The buffer may still be unbound (it must be bound before use). */
   if (!buffer || pCreateInfo->offset % PPU_BVH_ALIGN || pCreateInfo->size > buffer->size ||
       pCreateInfo->offset > buffer->size - pCreateInfo->size) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateAccelerationStructureKHR: [offset %llu, +%llu) is not a %u-byte "
                   "aligned range of the buffer",
                   (unsigned long long)pCreateInfo->offset, (unsigned long long)pCreateInfo->size,
                   PPU_BVH_ALIGN);
      return VK_ERROR_UNKNOWN;
   }
   struct vkppu_acceleration_structure *as =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*as), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!as)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&as->base, VK_OBJECT_TYPE_ACCELERATION_STRUCTURE_KHR, dev);
   as->type = pCreateInfo->type;
   as->flags = pCreateInfo->createFlags;
   as->size = pCreateInfo->size;
   /* The address is the buffer's, so capture/replay
    * (pCreateInfo->deviceAddress) is satisfied by replaying the buffer's
    * memory at its captured address. */
   as->buffer = buffer;
   as->offset = pCreateInfo->offset;
   *pAccelerationStructure = vkppu_acceleration_structure_to_handle(as);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyAccelerationStructureKHR(
    VkDevice device, VkAccelerationStructureKHR accelerationStructure,
    const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_acceleration_structure, as, accelerationStructure);
   if (!as)
      return;
   /* The memory is the buffer's: nothing to free but the object. */
   vkppu_object_finish(&as->base);
   vkppu_device_free(dev, pAllocator, as);
}

VKAPI_ATTR VkDeviceAddress VKAPI_CALL vkppu_GetAccelerationStructureDeviceAddressKHR(
    VkDevice device, const VkAccelerationStructureDeviceAddressInfoKHR *pInfo)
{
   (void)device;
   const struct vkppu_acceleration_structure *as =
       vkppu_acceleration_structure_from_handle(pInfo->accelerationStructure);
   return vkppu_as_address(as);
}

/* The kind of structure a build makes: instances for a top level, else
 * by its geometries' type (one type per bottom level). */
static enum ppu_bvh_kind build_kind(const VkAccelerationStructureBuildGeometryInfoKHR *info)
{
   if (info->type == VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR)
      return PPU_BVH_KIND_INSTANCES;
   const VkAccelerationStructureGeometryKHR *g = info->geometryCount == 0 ? NULL
                                                 : info->pGeometries      ? &info->pGeometries[0]
                                                                          : info->ppGeometries[0];
   return g && g->geometryType == VK_GEOMETRY_TYPE_AABBS_KHR ? PPU_BVH_KIND_AABBS
                                                             : PPU_BVH_KIND_TRIANGLES;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetAccelerationStructureBuildSizesKHR(
    VkDevice device, VkAccelerationStructureBuildTypeKHR buildType,
    const VkAccelerationStructureBuildGeometryInfoKHR *pBuildInfo,
    const uint32_t *pMaxPrimitiveCounts, VkAccelerationStructureBuildSizesInfoKHR *pSizeInfo)
{
   (void)device;
   (void)buildType; /* host and device builds run the same builder */
   uint64_t primitives = 0;
   for (uint32_t g = 0; g < pBuildInfo->geometryCount; g++)
      primitives += pMaxPrimitiveCounts[g];
   struct bvh_sizes sizes = {0};
   if (primitives > UINT32_MAX || bvh_get_sizes(build_kind(pBuildInfo), pBuildInfo->geometryCount,
                                                (uint32_t)primitives, &sizes) != BVH_SUCCESS) {
      /* Past maxPrimitiveCount: invalid usage, no error code exists. */
      sizes = (struct bvh_sizes){0};
   }
   pSizeInfo->accelerationStructureSize = sizes.structure_size;
   pSizeInfo->buildScratchSize = sizes.build_scratch_size;
   pSizeInfo->updateScratchSize = sizes.update_scratch_size;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetDeviceAccelerationStructureCompatibilityKHR(
    VkDevice device, const VkAccelerationStructureVersionInfoKHR *pVersionInfo,
    VkAccelerationStructureCompatibilityKHR *pCompatibility)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   uint8_t compat[VK_UUID_SIZE];
   vkppu_as_compatibility_uuid(compat);
   /* pVersionData is 2 * VK_UUID_SIZE bytes: the serialized header's start. */
   bool ok = pVersionInfo->pVersionData &&
             bvh_check_compatibility(pVersionInfo->pVersionData, dev->physical_device->driver_uuid,
                                     compat) == BVH_SUCCESS;
   *pCompatibility = ok ? VK_ACCELERATION_STRUCTURE_COMPATIBILITY_COMPATIBLE_KHR
                        : VK_ACCELERATION_STRUCTURE_COMPATIBILITY_INCOMPATIBLE_KHR;
}
