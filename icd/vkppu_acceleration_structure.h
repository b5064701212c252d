/* VK_KHR_acceleration_structure and VK_KHR_deferred_host_operations.
 *
 * Both are advertised (icd/extensions.txt), so the generated
 * vkppu_entrypoints.h declares the entry points below too; they are declared
 * here as well for tests/icd, which calls the driver directly.
 *
 * An acceleration structure is a range of a buffer holding one structure in
 * the BVH format of hw/include/ppu/bvh.h, built by driver/bvh/. Every
 * operation on one is an "AS operation" (acceleration_structure_*.c) that
 * reads its inputs and the structures through a struct vkppu_as_context:
 * host commands read host pointers, device commands (host-assisted jobs on
 * the GPU timeline, cmd_acceleration_structure.c) read device addresses;
 * both reach structures through the GPU VA (driver/va_access.h). */
#ifndef VKPPU_ACCELERATION_STRUCTURE_H
#define VKPPU_ACCELERATION_STRUCTURE_H

#include <pthread.h>

#include "bvh_builder.h"
#include "vkppu_device.h"
#include "vkppu_memory.h"

struct vkppu_buffer;

struct vkppu_acceleration_structure {
   struct vkppu_object base;
   VkAccelerationStructureTypeKHR type;
   VkAccelerationStructureCreateFlagsKHR flags;
   VkDeviceSize size;
   /* Where it lives. The buffer need not be bound yet when the structure is
    * created (the spec asks only that it be bound before the structure is
    * used), so the address is worked out at each use: vkppu_as_address. */
   const struct vkppu_buffer *buffer;
   VkDeviceSize offset;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_acceleration_structure, VkAccelerationStructureKHR)

/* The structure's GPU address (vkGetAccelerationStructureDeviceAddressKHR):
 * its buffer's VA plus its offset; 0 for no structure or an unbound buffer. */
static inline uint64_t vkppu_as_address(const struct vkppu_acceleration_structure *as)
{
   return as && as->buffer && as->buffer->va ? as->buffer->va + as->offset : 0;
}

/* VkPhysicalDeviceAccelerationStructurePropertiesKHR as
 * vkGetPhysicalDeviceProperties2 reports it (sType and pNext untouched). */
void vkppu_acceleration_structure_properties(VkPhysicalDeviceAccelerationStructurePropertiesKHR *p);
/* Vertex formats the build converts (the ones
 * VK_FORMAT_FEATURE_ACCELERATION_STRUCTURE_VERTEX_BUFFER_BIT_KHR must be
 * reported for); 0 for any other format, else the bytes one vertex reads. */
uint32_t vkppu_as_vertex_format_size(VkFormat format);
/* The compatibility UUID serialized structures carry (driver UUID first). */
void vkppu_as_compatibility_uuid(uint8_t uuid[VK_UUID_SIZE]);

/* --- AS operations --------------------------------------------------------- */

enum vkppu_as_space {
   VKPPU_AS_HOST,   /* input/output addresses are host pointers; instance references are handles */
   VKPPU_AS_DEVICE, /* they are GPU VAs; instance references are device addresses */
};

/* Outcome of an operation. FAULT: an address that is not readable or
 * writable (a device job loses the device). INVALID: the input broke the
 * API's rules in a way the builder or validation detected (the destination
 * then holds an empty structure: every ray misses). */
enum vkppu_as_status {
   VKPPU_AS_OK = 0,
   VKPPU_AS_OUT_OF_MEMORY,
   VKPPU_AS_FAULT,
   VKPPU_AS_INVALID,
};

struct vkppu_as_context {
   struct drv_device *drv;
   enum vkppu_as_space space;
   uint8_t driver_uuid[VK_UUID_SIZE];
   char why[512]; /* what went wrong, for the status above */
};

void vkppu_as_context_init(struct vkppu_as_context *ctx, struct vkppu_device *dev,
                           enum vkppu_as_space space);
/* Application input / output in ctx->space. */
enum vkppu_as_status vkppu_as_read_input(struct vkppu_as_context *ctx, const char *what,
                                         uint64_t address, void *dst, uint64_t size);
enum vkppu_as_status vkppu_as_write_output(struct vkppu_as_context *ctx, const char *what,
                                           uint64_t address, const void *src, uint64_t size);
/* A structure's memory, always by GPU VA. */
enum vkppu_as_status vkppu_as_read_va(struct vkppu_as_context *ctx, const char *what, uint64_t va,
                                      void *dst, uint64_t size);
enum vkppu_as_status vkppu_as_write_va(struct vkppu_as_context *ctx, const char *what, uint64_t va,
                                       const void *src, uint64_t size);
/* Reads a whole structure at va (at most `limit` bytes: the object's size)
 * into a malloc'ed buffer; its header must be a BVH header. */
enum vkppu_as_status vkppu_as_read_structure(struct vkppu_as_context *ctx, uint64_t va,
                                             uint64_t limit, void **out, uint64_t *size);
/* Writes a structure with no primitives of `kind` at va (the result of an
 * invalid operation: it is still a valid structure that every ray misses). */
void vkppu_as_write_empty(struct vkppu_as_context *ctx, uint64_t va, uint64_t size,
                          enum ppu_bvh_kind kind);
/* Sets ctx->why (printf-style) and returns status. */
enum vkppu_as_status vkppu_as_fail(struct vkppu_as_context *ctx, enum vkppu_as_status status,
                                   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* One geometry of a build as captured from VkAccelerationStructureGeometryKHR
 * (addresses kept as plain integers: host pointers or device addresses). */
struct vkppu_as_geometry {
   VkGeometryTypeKHR type;
   VkGeometryFlagsKHR flags;
   VkFormat vertex_format;
   VkIndexType index_type;
   uint32_t max_vertex;
   bool array_of_pointers;
   uint64_t data;   /* vertices, AABBs or instances */
   uint64_t stride; /* vertex or AABB stride */
   uint64_t index_data, transform_data;
};

/* One VkAccelerationStructureBuildGeometryInfoKHR, captured. The ranges are
 * either given (direct builds) or read from indirect_address at run time
 * (vkCmdBuildAccelerationStructuresIndirectKHR). */
struct vkppu_as_build {
   VkAccelerationStructureTypeKHR type;
   VkBuildAccelerationStructureFlagsKHR flags;
   VkBuildAccelerationStructureModeKHR mode;
   uint64_t src_address, src_size; /* UPDATE's source */
   uint64_t dst_address, dst_size;
   uint32_t geometry_count;
   struct vkppu_as_geometry *geometries;
   VkAccelerationStructureBuildRangeInfoKHR *ranges; /* NULL when indirect */
   uint64_t indirect_address, indirect_stride;
   uint32_t *max_primitive_counts; /* indirect: the counts the sizes were queried with */
};

/* Bytes vkppu_as_build_capture needs at `memory` for info's arrays. */
size_t vkppu_as_build_capture_size(const VkAccelerationStructureBuildGeometryInfoKHR *info,
                                   bool indirect);
/* Captures info into *out, its arrays in `memory` (capture_size bytes).
 * ranges: the direct ranges, or NULL with indirect_address/stride/max_counts
 * for an indirect build. host: the addresses are host pointers. */
void vkppu_as_build_capture(const VkAccelerationStructureBuildGeometryInfoKHR *info,
                            const VkAccelerationStructureBuildRangeInfoKHR *ranges,
                            uint64_t indirect_address, uint64_t indirect_stride,
                            const uint32_t *max_counts, bool host, void *memory,
                            struct vkppu_as_build *out);
/* Runs one build or update (acceleration_structure_build.c). */
enum vkppu_as_status vkppu_as_build_run(struct vkppu_as_context *ctx,
                                        const struct vkppu_as_build *build);
/* Converts the geometries of a build into the builder's input
 * (acceleration_structure_input.c). *storage receives one malloc'ed block
 * holding every converted array; free it after the build. */
enum vkppu_as_status vkppu_as_build_input(struct vkppu_as_context *ctx,
                                          const struct vkppu_as_build *build,
                                          const VkAccelerationStructureBuildRangeInfoKHR *ranges,
                                          struct bvh_build_input *in, void **storage);

/* Copies (acceleration_structure_copy.c). */
enum vkppu_as_copy_kind {
   VKPPU_AS_COPY_CLONE,
   VKPPU_AS_COPY_COMPACT,
   VKPPU_AS_COPY_SERIALIZE,   /* structure -> memory */
   VKPPU_AS_COPY_DESERIALIZE, /* memory -> structure */
};
struct vkppu_as_copy {
   enum vkppu_as_copy_kind kind;
   uint64_t src, src_size; /* structure VA and size, or input address (size unknown: 0) */
   uint64_t dst, dst_size; /* structure VA and size, or output address (0 size) */
   /* The destination structure's type: a failed copy leaves an empty
    * structure of this type (GENERIC: of the source's kind when known). */
   VkAccelerationStructureTypeKHR dst_type;
};
enum vkppu_as_status vkppu_as_copy_run(struct vkppu_as_context *ctx,
                                       const struct vkppu_as_copy *copy);
/* The copies the API describes; addresses are host pointers or device
 * addresses as the command's space says. */
void vkppu_as_copy_from_info(const VkCopyAccelerationStructureInfoKHR *info,
                             struct vkppu_as_copy *out);
void vkppu_as_copy_to_memory(VkAccelerationStructureKHR src, uint64_t dst,
                             struct vkppu_as_copy *out);
void vkppu_as_copy_from_memory(uint64_t src, VkAccelerationStructureKHR dst,
                               struct vkppu_as_copy *out);
/* A vkWriteAccelerationStructuresPropertiesKHR value of one structure. */
enum vkppu_as_status vkppu_as_property(struct vkppu_as_context *ctx, uint64_t va, uint64_t size,
                                       VkQueryType type, uint64_t *value);
bool vkppu_as_query_type_supported(VkQueryType type);

/* VkResult of a host command after an operation; reports INVALID/FAULT. */
VkResult vkppu_as_host_result(struct vkppu_device *dev, const char *command,
                              const struct vkppu_as_context *ctx, enum vkppu_as_status status);

/* --- Deferred host operations (deferred_operation.c) ------------------------ */

/* Work a deferred command leaves behind: `item_count` independent items
 * that joining threads take one at a time, then `finish` (frees ctx). */
struct vkppu_deferred_work {
   uint32_t item_count;
   VkResult (*run_item)(void *ctx, uint32_t item);
   void (*finish)(void *ctx);
   void *ctx;
};

struct vkppu_deferred_operation {
   struct vkppu_object base;
   pthread_mutex_t lock;
   bool has_work, complete;
   struct vkppu_deferred_work work;
   uint32_t next_item, items_done;
   VkResult result;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_deferred_operation, VkDeferredOperationKHR)

/* Hands work to an operation: VK_OPERATION_DEFERRED_KHR. Without an
 * operation (VK_NULL_HANDLE) runs it now and returns its result. */
VkResult vkppu_deferred_run(VkDeferredOperationKHR operation, const struct vkppu_deferred_work *w);

/* --- Entry points (see the top of this file) --------------------------------- */

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateDeferredOperationKHR(
    VkDevice device, const VkAllocationCallbacks *pAllocator, VkDeferredOperationKHR *pOperation);
VKAPI_ATTR void VKAPI_CALL vkppu_DestroyDeferredOperationKHR(
    VkDevice device, VkDeferredOperationKHR operation, const VkAllocationCallbacks *pAllocator);
VKAPI_ATTR uint32_t VKAPI_CALL
vkppu_GetDeferredOperationMaxConcurrencyKHR(VkDevice device, VkDeferredOperationKHR operation);
VKAPI_ATTR VkResult VKAPI_CALL
vkppu_GetDeferredOperationResultKHR(VkDevice device, VkDeferredOperationKHR operation);
VKAPI_ATTR VkResult VKAPI_CALL vkppu_DeferredOperationJoinKHR(VkDevice device,
                                                              VkDeferredOperationKHR operation);

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateAccelerationStructureKHR(
    VkDevice device, const VkAccelerationStructureCreateInfoKHR *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkAccelerationStructureKHR *pAccelerationStructure);
VKAPI_ATTR void VKAPI_CALL vkppu_DestroyAccelerationStructureKHR(
    VkDevice device, VkAccelerationStructureKHR accelerationStructure,
    const VkAllocationCallbacks *pAllocator);
VKAPI_ATTR VkDeviceAddress VKAPI_CALL vkppu_GetAccelerationStructureDeviceAddressKHR(
    VkDevice device, const VkAccelerationStructureDeviceAddressInfoKHR *pInfo);
VKAPI_ATTR void VKAPI_CALL vkppu_GetAccelerationStructureBuildSizesKHR(
    VkDevice device, VkAccelerationStructureBuildTypeKHR buildType,
    const VkAccelerationStructureBuildGeometryInfoKHR *pBuildInfo,
    const uint32_t *pMaxPrimitiveCounts, VkAccelerationStructureBuildSizesInfoKHR *pSizeInfo);
VKAPI_ATTR void VKAPI_CALL vkppu_GetDeviceAccelerationStructureCompatibilityKHR(
    VkDevice device, const VkAccelerationStructureVersionInfoKHR *pVersionInfo,
    VkAccelerationStructureCompatibilityKHR *pCompatibility);
VKAPI_ATTR VkResult VKAPI_CALL vkppu_BuildAccelerationStructuresKHR(
    VkDevice device, VkDeferredOperationKHR deferredOperation, uint32_t infoCount,
    const VkAccelerationStructureBuildGeometryInfoKHR *pInfos,
    const VkAccelerationStructureBuildRangeInfoKHR *const *ppBuildRangeInfos);
VKAPI_ATTR VkResult VKAPI_CALL
vkppu_CopyAccelerationStructureKHR(VkDevice device, VkDeferredOperationKHR deferredOperation,
                                   const VkCopyAccelerationStructureInfoKHR *pInfo);
VKAPI_ATTR VkResult VKAPI_CALL vkppu_CopyAccelerationStructureToMemoryKHR(
    VkDevice device, VkDeferredOperationKHR deferredOperation,
    const VkCopyAccelerationStructureToMemoryInfoKHR *pInfo);
VKAPI_ATTR VkResult VKAPI_CALL vkppu_CopyMemoryToAccelerationStructureKHR(
    VkDevice device, VkDeferredOperationKHR deferredOperation,
    const VkCopyMemoryToAccelerationStructureInfoKHR *pInfo);
VKAPI_ATTR VkResult VKAPI_CALL vkppu_WriteAccelerationStructuresPropertiesKHR(
    VkDevice device, uint32_t accelerationStructureCount,
    const VkAccelerationStructureKHR *pAccelerationStructures, VkQueryType queryType,
    size_t dataSize, void *pData, size_t stride);

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBuildAccelerationStructuresKHR(
    VkCommandBuffer commandBuffer, uint32_t infoCount,
    const VkAccelerationStructureBuildGeometryInfoKHR *pInfos,
    const VkAccelerationStructureBuildRangeInfoKHR *const *ppBuildRangeInfos);
VKAPI_ATTR void VKAPI_CALL vkppu_CmdBuildAccelerationStructuresIndirectKHR(
    VkCommandBuffer commandBuffer, uint32_t infoCount,
    const VkAccelerationStructureBuildGeometryInfoKHR *pInfos,
    const VkDeviceAddress *pIndirectDeviceAddresses, const uint32_t *pIndirectStrides,
    const uint32_t *const *ppMaxPrimitiveCounts);
VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyAccelerationStructureKHR(
    VkCommandBuffer commandBuffer, const VkCopyAccelerationStructureInfoKHR *pInfo);
VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyAccelerationStructureToMemoryKHR(
    VkCommandBuffer commandBuffer, const VkCopyAccelerationStructureToMemoryInfoKHR *pInfo);
VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyMemoryToAccelerationStructureKHR(
    VkCommandBuffer commandBuffer, const VkCopyMemoryToAccelerationStructureInfoKHR *pInfo);
VKAPI_ATTR void VKAPI_CALL vkppu_CmdWriteAccelerationStructuresPropertiesKHR(
    VkCommandBuffer commandBuffer, uint32_t accelerationStructureCount,
    const VkAccelerationStructureKHR *pAccelerationStructures, VkQueryType queryType,
    VkQueryPool queryPool, uint32_t firstQuery);

#endif
