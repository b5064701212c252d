/* VK_KHR_acceleration_structure and VK_KHR_deferred_host_operations,
 * called straight into the driver, so the cases can look at the bytes of
 * structures and descriptors and provoke faults the API tests cannot
 * (tests/api/test_ray_query.c goes through the loader). Covers build sizes; host builds of
 * triangles in every supported vertex format and index type, with transforms and range offsets, of
 * AABBs and of instances; device builds as host-assisted jobs (same bytes as the host,
 * resubmission, indirect ranges); update; compaction; serialization and corrupt data; deferred
 * operations joined from two threads; a device build through a bad address (device lost with a
 * report); and acceleration-structure descriptors. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_builder.h"
#include "icd_test_device.h"
#include "test_harness.h"
#include "drv_device.h"
#include "va_access.h"
#include "vkppu_acceleration_structure.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_descriptor.h"
#include "vkppu_memory.h"
#include "vkppu_query_pool.h"

/* --- rig ------------------------------------------------------------------------ */

#define MEM_DEVICE_LOCAL 0u /* not host visible: structures live here */
#define MEM_HOST_VISIBLE 3u /* device local and host visible: inputs */

struct block {
   VkBuffer buffer;
   VkDeviceMemory memory;
   uint64_t va;
   uint8_t *map; /* NULL for device-local memory */
   uint64_t size, used;
};

struct rig {
   VkInstance instance;
   VkDevice device;
   VkQueue queue;
   VkCommandPool pool;
   VkDebugUtilsMessengerEXT messenger;
   struct block input;      /* host-visible: vertices, indices, instances... */
   struct block structures; /* device-local: acceleration structures */
   char messages[8192];     /* ERROR messages the driver sent */
   /* Every structure make_as created, destroyed with the rig (a test may
    * destroy one earlier and set its entry to VK_NULL_HANDLE). */
   VkAccelerationStructureKHR made[64];
   uint32_t made_count;
};

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
   (void)types;
   struct rig *r = user;
   if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
      size_t len = strlen(r->messages);
      snprintf(r->messages + len, sizeof(r->messages) - len, "%s\n", data->pMessage);
   }
   return VK_FALSE;
}

static bool block_init(struct rig *r, struct block *b, uint64_t size, uint32_t type)
{
   memset(b, 0, sizeof(*b));
   b->size = size;
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR |
                VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
                VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
   };
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = size,
                               .memoryTypeIndex = type};
   if (vkppu_CreateBuffer(r->device, &bci, NULL, &b->buffer) != VK_SUCCESS ||
       vkppu_AllocateMemory(r->device, &mai, NULL, &b->memory) != VK_SUCCESS ||
       vkppu_BindBufferMemory(r->device, b->buffer, b->memory, 0) != VK_SUCCESS)
      return false;
   b->va = vkppu_buffer_from_handle(b->buffer)->va;
   if (type == MEM_HOST_VISIBLE &&
       vkppu_MapMemory(r->device, b->memory, 0, VK_WHOLE_SIZE, 0, (void **)&b->map) != VK_SUCCESS)
      return false;
   return true;
}

static void block_finish(struct rig *r, struct block *b)
{
   if (b->buffer)
      vkppu_DestroyBuffer(r->device, b->buffer, NULL);
   if (b->memory)
      vkppu_FreeMemory(r->device, b->memory, NULL);
}

/* `size` bytes of a block, 256-byte aligned (the spec's rule for structure
 * offsets); returns the offset. */
static uint64_t block_take(struct block *b, uint64_t size)
{
   uint64_t offset = (b->used + 255) & ~255ull;
   b->used = offset + size;
   return b->used <= b->size ? offset : 0;
}

static bool rig_init(struct rig *r)
{
   memset(r, 0, sizeof(*r));
   const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .enabledExtensionCount = 1,
                               .ppEnabledExtensionNames = exts};
   if (vkppu_CreateInstance(&ici, NULL, &r->instance) != VK_SUCCESS)
      return false;
   VkDebugUtilsMessengerCreateInfoEXT mci = {
       .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
       .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
       .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
       .pfnUserCallback = on_message,
       .pUserData = r,
   };
   if (vkppu_CreateDebugUtilsMessengerEXT(r->instance, &mci, NULL, &r->messenger) != VK_SUCCESS)
      return false;
   if (!icd_test_device_create(r->instance, &r->device))
      return false;
   vkppu_GetDeviceQueue(r->device, 0, 0, &r->queue);
   VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT};
   if (vkppu_CreateCommandPool(r->device, &pci, NULL, &r->pool) != VK_SUCCESS)
      return false;
   return block_init(r, &r->input, 4u << 20, MEM_HOST_VISIBLE) &&
          block_init(r, &r->structures, 8u << 20, MEM_DEVICE_LOCAL);
}

static void rig_finish(struct rig *r)
{
   for (uint32_t i = 0; i < r->made_count; i++) {
      if (r->made[i])
         vkppu_DestroyAccelerationStructureKHR(r->device, r->made[i], NULL);
   }
   block_finish(r, &r->input);
   block_finish(r, &r->structures);
   if (r->pool)
      vkppu_DestroyCommandPool(r->device, r->pool, NULL);
   if (r->device)
      vkppu_DestroyDevice(r->device, NULL);
   if (r->messenger)
      vkppu_DestroyDebugUtilsMessengerEXT(r->instance, r->messenger, NULL);
   if (r->instance)
      vkppu_DestroyInstance(r->instance, NULL);
}

static struct drv_device *drv_of(struct rig *r)
{
   return vkppu_device_from_handle(r->device)->drv;
}

/* Copies `size` bytes into the input block; returns their device address
 * (the host pointer is input.map + (address - input.va)). */
static uint64_t put_input(struct rig *r, const void *data, uint64_t size)
{
   uint64_t offset = block_take(&r->input, size);
   memcpy(r->input.map + offset, data, size);
   return r->input.va + offset;
}

static const void *host_ptr(struct rig *r, uint64_t address)
{
   return r->input.map + (address - r->input.va);
}

static VkAccelerationStructureKHR make_as(struct rig *r, VkAccelerationStructureTypeKHR type,
                                          uint64_t size)
{
   VkAccelerationStructureCreateInfoKHR ci = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR,
       .buffer = r->structures.buffer,
       .offset = block_take(&r->structures, size),
       .size = size,
       .type = type,
   };
   VkAccelerationStructureKHR as = VK_NULL_HANDLE;
   CHECK(vkppu_CreateAccelerationStructureKHR(r->device, &ci, NULL, &as) == VK_SUCCESS);
   CHECK(r->made_count < sizeof(r->made) / sizeof(r->made[0]));
   if (as && r->made_count < sizeof(r->made) / sizeof(r->made[0]))
      r->made[r->made_count++] = as;
   return as;
}

/* Destroys a structure of make_as before the rig ends. */
static void destroy_as(struct rig *r, VkAccelerationStructureKHR as)
{
   for (uint32_t i = 0; i < r->made_count; i++) {
      if (r->made[i] == as)
         r->made[i] = VK_NULL_HANDLE;
   }
   vkppu_DestroyAccelerationStructureKHR(r->device, as, NULL);
}

static uint64_t as_address(struct rig *r, VkAccelerationStructureKHR as)
{
   VkAccelerationStructureDeviceAddressInfoKHR info = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR,
       .accelerationStructure = as};
   return vkppu_GetAccelerationStructureDeviceAddressKHR(r->device, &info);
}

/* The structure's bytes (header's total_size of them), malloc'ed. */
static uint8_t *read_as(struct rig *r, VkAccelerationStructureKHR as, uint64_t *size)
{
   struct ppu_bvh_header h;
   if (!drv_va_read(drv_of(r), as_address(r, as), &h, sizeof(h), NULL) || h.magic != PPU_BVH_MAGIC)
      return NULL;
   uint8_t *bytes = malloc(h.total_size);
   if (bytes && !drv_va_read(drv_of(r), as_address(r, as), bytes, h.total_size, NULL)) {
      free(bytes);
      return NULL;
   }
   *size = h.total_size;
   return bytes;
}

static bool as_valid(struct rig *r, VkAccelerationStructureKHR as)
{
   uint64_t size;
   uint8_t *bytes = read_as(r, as, &size);
   char why[256] = "";
   bool ok = bytes && bvh_validate(bytes, size, why, sizeof(why)) == BVH_SUCCESS;
   CHECK_MSG(ok, "structure fails validation: %s", why);
   free(bytes);
   return ok;
}

static bool same_bytes(struct rig *r, VkAccelerationStructureKHR a, VkAccelerationStructureKHR b)
{
   uint64_t sa = 0, sb = 0;
   uint8_t *x = read_as(r, a, &sa), *y = read_as(r, b, &sb);
   bool same = x && y && sa == sb && memcmp(x, y, sa) == 0;
   free(x);
   free(y);
   return same;
}

static struct ppu_bvh_header header_of(struct rig *r, VkAccelerationStructureKHR as)
{
   struct ppu_bvh_header h = {0};
   drv_va_read(drv_of(r), as_address(r, as), &h, sizeof(h), NULL);
   return h;
}

static VkCommandBuffer begin_cmd(struct rig *r)
{
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = r->pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   CHECK(vkppu_AllocateCommandBuffers(r->device, &ai, &cmd) == VK_SUCCESS);
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   CHECK(vkppu_BeginCommandBuffer(cmd, &bi) == VK_SUCCESS);
   return cmd;
}

static VkResult submit_wait(struct rig *r, VkCommandBuffer cmd)
{
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
   VkResult res = vkppu_QueueSubmit(r->queue, 1, &si, VK_NULL_HANDLE);
   if (res != VK_SUCCESS)
      return res;
   return vkppu_QueueWaitIdle(r->queue);
}

/* --- geometry ---------------------------------------------------------------------- */

#define TRIS 24u

/* Vertex coordinates as small integers k in [-256, 256]: every supported
 * format holds k/256 exactly (half floats) or as (float)k'/32767 (SNORM,
 * k' = 127 k) — the reference vertex is computed the same way. */
static int coord(uint32_t v, uint32_t c)
{
   return (int)((v * 37u + c * 101u + (v * v) % 17u) % 513u) - 256;
}

static float reference(VkFormat format, int k, uint32_t c)
{
   bool two = format == VK_FORMAT_R32G32_SFLOAT || format == VK_FORMAT_R16G16_SFLOAT ||
              format == VK_FORMAT_R16G16_SNORM;
   if (c == 2 && two)
      return 0.0f;
   if (format == VK_FORMAT_R16G16B16A16_SNORM || format == VK_FORMAT_R16G16_SNORM)
      return (float)(127 * k) / 32767.0f;
   return (float)k / 256.0f;
}

static uint16_t to_half(float f)
{
   /* Exact for k/256 with |k| <= 256: normal halves or zero. */
   if (f == 0.0f)
      return 0;
   uint32_t bits;
   memcpy(&bits, &f, 4);
   uint32_t sign = bits >> 31, exp = (bits >> 23) & 0xff, mant = bits & 0x7fffff;
   return (uint16_t)(sign << 15 | (exp - 112) << 10 | mant >> 13);
}

/* Vertex v in `format` at dst (stride apart, format size bytes). */
static void encode(VkFormat format, uint32_t v, uint8_t *dst)
{
   switch (format) {
   case VK_FORMAT_R32G32B32_SFLOAT:
   case VK_FORMAT_R32G32_SFLOAT: {
      uint32_t n = format == VK_FORMAT_R32G32_SFLOAT ? 2 : 3;
      for (uint32_t c = 0; c < n; c++) {
         float f = reference(format, coord(v, c), c);
         memcpy(dst + 4 * c, &f, 4);
      }
      break;
   }
   case VK_FORMAT_R16G16B16A16_SFLOAT:
   case VK_FORMAT_R16G16_SFLOAT: {
      uint32_t n = format == VK_FORMAT_R16G16_SFLOAT ? 2 : 4;
      for (uint32_t c = 0; c < n; c++) {
         uint16_t h = c < 3 ? to_half(reference(format, coord(v, c), c)) : 0x3c00;
         memcpy(dst + 2 * c, &h, 2);
      }
      break;
   }
   case VK_FORMAT_R16G16B16A16_SNORM:
   case VK_FORMAT_R16G16_SNORM: {
      uint32_t n = format == VK_FORMAT_R16G16_SNORM ? 2 : 4;
      for (uint32_t c = 0; c < n; c++) {
         int16_t s = c < 3 ? (int16_t)(127 * coord(v, c)) : 32767;
         memcpy(dst + 2 * c, &s, 2);
      }
      break;
   }
   default:
      break;
   }
}

static VkAccelerationStructureGeometryKHR triangles(VkFormat format, uint64_t vertices,
                                                    uint64_t stride, VkIndexType index_type,
                                                    uint64_t indices, uint64_t transform,
                                                    uint32_t max_vertex)
{
   VkAccelerationStructureGeometryKHR g = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR,
       .flags = VK_GEOMETRY_OPAQUE_BIT_KHR,
   };
   g.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
       .vertexFormat = format,
       .vertexData.deviceAddress = vertices,
       .vertexStride = stride,
       .maxVertex = max_vertex,
       .indexType = index_type,
       .indexData.deviceAddress = indices,
       .transformData.deviceAddress = transform,
   };
   return g;
}

static VkAccelerationStructureBuildGeometryInfoKHR
build_info(VkAccelerationStructureTypeKHR type,
           const VkAccelerationStructureGeometryKHR *geometries, uint32_t count,
           VkAccelerationStructureKHR dst)
{
   return (VkAccelerationStructureBuildGeometryInfoKHR){
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
       .type = type,
       .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
       .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
       .dstAccelerationStructure = dst,
       .geometryCount = count,
       .pGeometries = geometries,
   };
}

/* Host builds take host pointers: the same data through the input map. */
static VkAccelerationStructureGeometryKHR to_host(struct rig *r,
                                                  VkAccelerationStructureGeometryKHR g)
{
   if (g.geometryType == VK_GEOMETRY_TYPE_TRIANGLES_KHR) {
      VkAccelerationStructureGeometryTrianglesDataKHR *t = &g.geometry.triangles;
      t->vertexData.hostAddress = host_ptr(r, t->vertexData.deviceAddress);
      t->indexData.hostAddress =
          t->indexData.deviceAddress ? host_ptr(r, t->indexData.deviceAddress) : NULL;
      t->transformData.hostAddress =
          t->transformData.deviceAddress ? host_ptr(r, t->transformData.deviceAddress) : NULL;
   } else if (g.geometryType == VK_GEOMETRY_TYPE_AABBS_KHR) {
      g.geometry.aabbs.data.hostAddress = host_ptr(r, g.geometry.aabbs.data.deviceAddress);
   } else {
      g.geometry.instances.data.hostAddress = host_ptr(r, g.geometry.instances.data.deviceAddress);
   }
   return g;
}

static VkResult host_build(struct rig *r, VkAccelerationStructureTypeKHR type,
                           VkAccelerationStructureGeometryKHR g,
                           VkAccelerationStructureBuildRangeInfoKHR range,
                           VkAccelerationStructureKHR dst)
{
   VkAccelerationStructureGeometryKHR hg = to_host(r, g);
   VkAccelerationStructureBuildGeometryInfoKHR info = build_info(type, &hg, 1, dst);
   const VkAccelerationStructureBuildRangeInfoKHR *ranges = &range;
   return vkppu_BuildAccelerationStructuresKHR(r->device, VK_NULL_HANDLE, 1, &info, &ranges);
}

static VkAccelerationStructureKHR blas(struct rig *r)
{
   return make_as(r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, 64u << 10);
}

/* Reference triangles in R32G32B32_SFLOAT, not indexed: 3 * TRIS vertices. */
static uint64_t reference_vertices(struct rig *r, VkFormat format)
{
   float v[3 * TRIS * 3];
   for (uint32_t i = 0; i < 3 * TRIS; i++) {
      for (uint32_t c = 0; c < 3; c++)
         v[3 * i + c] = reference(format, coord(i, c), c);
   }
   return put_input(r, v, sizeof(v));
}

/* The TRIS reference triangles (device addresses), not indexed. */
static VkAccelerationStructureGeometryKHR reference_geometry(struct rig *r)
{
   return triangles(VK_FORMAT_R32G32B32_SFLOAT, reference_vertices(r, VK_FORMAT_R32G32B32_SFLOAT),
                    12, VK_INDEX_TYPE_NONE_KHR, 0, 0, 0);
}

/* A bottom level of the TRIS reference triangles, built on the host. */
static VkAccelerationStructureKHR reference_blas(struct rig *r)
{
   VkAccelerationStructureKHR a = blas(r);
   VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = TRIS};
   VkResult res = host_build(r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                             reference_geometry(r), range, a);
   return res == VK_SUCCESS ? a : VK_NULL_HANDLE;
}

/* --- tests -------------------------------------------------------------------------- */

TEST_CASE(build_sizes_follow_the_builders_rules)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureGeometryKHR g[2] = {
       triangles(VK_FORMAT_R32G32B32_SFLOAT, 0, 12, VK_INDEX_TYPE_NONE_KHR, 0, 0, 0),
       triangles(VK_FORMAT_R32G32B32_SFLOAT, 0, 12, VK_INDEX_TYPE_NONE_KHR, 0, 0, 0)};
   VkAccelerationStructureBuildGeometryInfoKHR info =
       build_info(VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, g, 2, VK_NULL_HANDLE);
   uint32_t counts[2] = {100, 23};
   VkAccelerationStructureBuildSizesInfoKHR sizes = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
   vkppu_GetAccelerationStructureBuildSizesKHR(
       r.device, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &info, counts, &sizes);
   struct bvh_sizes want;
   REQUIRE(bvh_get_sizes(PPU_BVH_KIND_TRIANGLES, 2, 123, &want) == BVH_SUCCESS);
   CHECK_EQ_U64(sizes.accelerationStructureSize, want.structure_size);
   CHECK_EQ_U64(sizes.buildScratchSize, want.build_scratch_size);
   CHECK_EQ_U64(sizes.updateScratchSize, want.update_scratch_size);
   CHECK(sizes.buildScratchSize > 0);

   VkAccelerationStructureGeometryKHR inst = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR};
   info = build_info(VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &inst, 1, VK_NULL_HANDLE);
   vkppu_GetAccelerationStructureBuildSizesKHR(
       r.device, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_HOST_KHR, &info, counts, &sizes);
   REQUIRE(bvh_get_sizes(PPU_BVH_KIND_INSTANCES, 1, 100, &want) == BVH_SUCCESS);
   CHECK_EQ_U64(sizes.accelerationStructureSize, want.structure_size);

   VkPhysicalDeviceAccelerationStructurePropertiesKHR props = {0};
   vkppu_acceleration_structure_properties(&props);
   CHECK_EQ_U64(props.minAccelerationStructureScratchOffsetAlignment, PPU_BVH_ALIGN);
   CHECK(props.maxPrimitiveCount >= (1u << 29) - 1);
   rig_finish(&r);
}

TEST_CASE(host_builds_convert_every_vertex_format_exactly)
{
   static const VkFormat formats[] = {
       VK_FORMAT_R32G32B32_SFLOAT, VK_FORMAT_R32G32_SFLOAT,      VK_FORMAT_R16G16B16A16_SFLOAT,
       VK_FORMAT_R16G16_SFLOAT,    VK_FORMAT_R16G16B16A16_SNORM, VK_FORMAT_R16G16_SNORM,
   };
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = TRIS};
   for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
      uint32_t size = vkppu_as_vertex_format_size(formats[f]);
      REQUIRE(size != 0);
      /* A stride wider than the vertex, to check it is honoured. */
      uint32_t stride = size + 4;
      uint8_t data[3 * TRIS * 20] = {0};
      for (uint32_t v = 0; v < 3 * TRIS; v++)
         encode(formats[f], v, data + v * stride);
      uint64_t vertices = put_input(&r, data, 3 * TRIS * stride);
      VkAccelerationStructureKHR got = blas(&r), want = blas(&r);
      CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                       triangles(formats[f], vertices, stride, VK_INDEX_TYPE_NONE_KHR, 0, 0, 0),
                       range, got) == VK_SUCCESS);
      CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                       triangles(VK_FORMAT_R32G32B32_SFLOAT, reference_vertices(&r, formats[f]), 12,
                                 VK_INDEX_TYPE_NONE_KHR, 0, 0, 0),
                       range, want) == VK_SUCCESS);
      CHECK(as_valid(&r, got));
      CHECK_MSG(same_bytes(&r, got, want), "format %d differs from its float reference",
                (int)formats[f]);
      CHECK_EQ_U64(header_of(&r, got).primitive_count, TRIS);
      destroy_as(&r, got);
      destroy_as(&r, want);
   }
   CHECK(vkppu_as_vertex_format_size(VK_FORMAT_R8G8B8A8_UNORM) == 0);
   rig_finish(&r);
}

TEST_CASE(index_types_offsets_and_transforms_give_the_same_triangles)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   /* Reference: 3 * TRIS vertices v0, v1, ... not indexed. */
   uint64_t plain = reference_vertices(&r, VK_FORMAT_R32G32B32_SFLOAT);
   const float *pv = host_ptr(&r, plain);
   VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = TRIS};
   VkAccelerationStructureKHR want = blas(&r);
   REQUIRE(
       host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                  triangles(VK_FORMAT_R32G32B32_SFLOAT, plain, 12, VK_INDEX_TYPE_NONE_KHR, 0, 0, 0),
                  range, want) == VK_SUCCESS);

   /* Indexed: vertices stored in reverse after 5 unused ones, indices
    * after 2 unused ones, firstVertex 5 and primitiveOffset 2 indices. */
   enum { FIRST = 5, SKIP = 2 };
   float shuffled[(3 * TRIS + FIRST) * 3] = {0};
   uint16_t idx16[3 * TRIS + SKIP] = {0};
   uint32_t idx32[3 * TRIS + SKIP] = {0};
   for (uint32_t i = 0; i < 3 * TRIS; i++) {
      uint32_t slot = 3 * TRIS - 1 - i;
      memcpy(&shuffled[(FIRST + slot) * 3], &pv[3 * i], 12);
      idx16[SKIP + i] = (uint16_t)slot;
      idx32[SKIP + i] = slot;
   }
   uint64_t vertices = put_input(&r, shuffled, sizeof(shuffled));
   VkAccelerationStructureBuildRangeInfoKHR indexed = {.primitiveCount = TRIS,
                                                       .firstVertex = FIRST};
   VkAccelerationStructureKHR got16 = blas(&r), got32 = blas(&r);
   indexed.primitiveOffset = SKIP * 2;
   CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                    triangles(VK_FORMAT_R32G32B32_SFLOAT, vertices, 12, VK_INDEX_TYPE_UINT16,
                              put_input(&r, idx16, sizeof(idx16)), 0, 3 * TRIS - 1),
                    indexed, got16) == VK_SUCCESS);
   indexed.primitiveOffset = SKIP * 4;
   CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                    triangles(VK_FORMAT_R32G32B32_SFLOAT, vertices, 12, VK_INDEX_TYPE_UINT32,
                              put_input(&r, idx32, sizeof(idx32)), 0, 3 * TRIS - 1),
                    indexed, got32) == VK_SUCCESS);
   CHECK(same_bytes(&r, got16, want));
   CHECK(same_bytes(&r, got32, want));

   /* Not indexed with primitiveOffset and firstVertex: vertices start 7
    * vertices (2 of offset bytes-wise, 5 of firstVertex) in. */
   float padded[(3 * TRIS + 7) * 3] = {0};
   memcpy(&padded[7 * 3], pv, 3 * TRIS * 12);
   VkAccelerationStructureBuildRangeInfoKHR offset = {
       .primitiveCount = TRIS, .primitiveOffset = 2 * 12, .firstVertex = 5};
   VkAccelerationStructureKHR got_offset = blas(&r);
   CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                    triangles(VK_FORMAT_R32G32B32_SFLOAT, put_input(&r, padded, sizeof(padded)), 12,
                              VK_INDEX_TYPE_NONE_KHR, 0, 0, 0),
                    offset, got_offset) == VK_SUCCESS);
   CHECK(same_bytes(&r, got_offset, want));

   /* A transform (scale 2, translate by integers: exact in binary32) at
    * transformOffset 48, against pre-transformed vertices. */
   VkTransformMatrixKHR m[2] = {{{{0}}}, {{{2, 0, 0, 3}, {0, 2, 0, -5}, {0, 0, 2, 7}}}};
   float moved[3 * TRIS * 3];
   for (uint32_t i = 0; i < 3 * TRIS; i++) {
      moved[3 * i] = 2 * pv[3 * i] + 3;
      moved[3 * i + 1] = 2 * pv[3 * i + 1] - 5;
      moved[3 * i + 2] = 2 * pv[3 * i + 2] + 7;
   }
   VkAccelerationStructureKHR got_t = blas(&r), want_t = blas(&r);
   VkAccelerationStructureBuildRangeInfoKHR with_t = {.primitiveCount = TRIS,
                                                      .transformOffset = sizeof(m[0])};
   CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                    triangles(VK_FORMAT_R32G32B32_SFLOAT, plain, 12, VK_INDEX_TYPE_NONE_KHR, 0,
                              put_input(&r, m, sizeof(m)), 0),
                    with_t, got_t) == VK_SUCCESS);
   CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                    triangles(VK_FORMAT_R32G32B32_SFLOAT, put_input(&r, moved, sizeof(moved)), 12,
                              VK_INDEX_TYPE_NONE_KHR, 0, 0, 0),
                    range, want_t) == VK_SUCCESS);
   CHECK(as_valid(&r, got_t));
   CHECK(same_bytes(&r, got_t, want_t));
   rig_finish(&r);
}

static VkAccelerationStructureGeometryKHR aabbs(uint64_t data, uint64_t stride)
{
   VkAccelerationStructureGeometryKHR g = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_AABBS_KHR};
   g.geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
       .data.deviceAddress = data,
       .stride = stride};
   return g;
}

static VkAccelerationStructureGeometryKHR instances(uint64_t data, bool pointers)
{
   VkAccelerationStructureGeometryKHR g = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR};
   g.geometry.instances = (VkAccelerationStructureGeometryInstancesDataKHR){
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
       .arrayOfPointers = pointers,
       .data.deviceAddress = data};
   return g;
}

/* An AABB per primitive, 32 bytes apart (8 of padding). */
static uint64_t put_aabbs(struct rig *r, uint32_t n)
{
   float data[64 * 8] = {0};
   for (uint32_t p = 0; p < n && p < 64; p++) {
      for (uint32_t c = 0; c < 3; c++) {
         data[8 * p + c] = (float)coord(p, c) / 64.0f;
         data[8 * p + 3 + c] = data[8 * p + c] + 0.5f;
      }
   }
   return put_input(r, data, sizeof(data));
}

/* Two instances of `bottom` (reference = handle or address). */
static void fill_instances(VkAccelerationStructureInstanceKHR inst[2], uint64_t reference)
{
   memset(inst, 0, 2 * sizeof(*inst));
   for (int i = 0; i < 2; i++) {
      inst[i].transform =
          (VkTransformMatrixKHR){{{1, 0, 0, 10.0f * (float)i}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
      inst[i].instanceCustomIndex = 100 + (uint32_t)i;
      inst[i].mask = 0xff;
      inst[i].instanceShaderBindingTableRecordOffset = 7;
      inst[i].flags = VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR;
      inst[i].accelerationStructureReference = reference;
   }
}

TEST_CASE(host_builds_of_aabbs_and_instances_validate)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureKHR box = blas(&r);
   VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = 40};
   CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                    aabbs(put_aabbs(&r, 40), 32), range, box) == VK_SUCCESS);
   CHECK(as_valid(&r, box));
   CHECK_EQ_U64(header_of(&r, box).kind, PPU_BVH_KIND_AABBS);
   CHECK_EQ_U64(header_of(&r, box).primitive_count, 40);

   /* Instances as an array, and as an array of pointers (with
    * primitiveOffset skipping one pointer). Host builds reference bottom
    * levels by handle. */
   VkAccelerationStructureInstanceKHR inst[2];
   fill_instances(inst, (uint64_t)(uintptr_t)box);
   uint64_t array = put_input(&r, inst, sizeof(inst));
   VkAccelerationStructureKHR top = make_as(&r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, 4096);
   range.primitiveCount = 2;
   CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, instances(array, false),
                    range, top) == VK_SUCCESS);
   CHECK(as_valid(&r, top));
   uint64_t size;
   uint8_t *bytes = read_as(&r, top, &size);
   REQUIRE(bytes);
   const struct ppu_bvh_header *h = (const void *)bytes;
   CHECK_EQ_U64(h->kind, PPU_BVH_KIND_INSTANCES);
   const struct ppu_bvh_instance *rec = (const void *)(bytes + h->leaf_offset);
   for (uint32_t i = 0; i < h->leaf_count; i++) {
      CHECK_EQ_U64(rec[i].blas_address, as_address(&r, box));
      CHECK_EQ_U64(rec[i].custom_index_and_mask & 0xffffff, 100 + rec[i].instance_index);
      CHECK_EQ_U64(rec[i].sbt_offset_and_flags, 7u | PPU_BVH_INSTANCE_CULL_DISABLE << 24);
   }

   const void *pointers[3] = {NULL, host_ptr(&r, array),
                              (const uint8_t *)host_ptr(&r, array) + sizeof(inst[0])};
   VkAccelerationStructureGeometryKHR g = instances(0, true);
   g.geometry.instances.data.hostAddress = pointers;
   VkAccelerationStructureBuildGeometryInfoKHR info =
       build_info(VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &g, 1,
                  make_as(&r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, 4096));
   VkAccelerationStructureBuildRangeInfoKHR skip_one = {.primitiveCount = 2, .primitiveOffset = 8};
   const VkAccelerationStructureBuildRangeInfoKHR *ranges = &skip_one;
   CHECK(vkppu_BuildAccelerationStructuresKHR(r.device, VK_NULL_HANDLE, 1, &info, &ranges) ==
         VK_SUCCESS);
   uint64_t size2;
   uint8_t *bytes2 = read_as(&r, info.dstAccelerationStructure, &size2);
   CHECK(bytes2 && size2 == size && memcmp(bytes, bytes2, size) == 0);
   free(bytes2);
   free(bytes);
   rig_finish(&r);
}

static void cmd_build(VkCommandBuffer cmd, VkAccelerationStructureTypeKHR type,
                      VkAccelerationStructureGeometryKHR g,
                      VkAccelerationStructureBuildRangeInfoKHR range,
                      VkAccelerationStructureKHR dst)
{
   VkAccelerationStructureBuildGeometryInfoKHR info = build_info(type, &g, 1, dst);
   const VkAccelerationStructureBuildRangeInfoKHR *ranges = &range;
   vkppu_CmdBuildAccelerationStructuresKHR(cmd, 1, &info, &ranges);
}

TEST_CASE(device_builds_match_host_builds_and_rerun_on_resubmission)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureGeometryKHR tri = reference_geometry(&r);
   VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = TRIS};
   VkAccelerationStructureKHR host = blas(&r), dev = blas(&r), dev_box = blas(&r),
                              host_box = blas(&r);
   uint64_t boxes = put_aabbs(&r, 30);
   VkAccelerationStructureBuildRangeInfoKHR box_range = {.primitiveCount = 30};
   REQUIRE(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, tri, range, host) ==
           VK_SUCCESS);
   REQUIRE(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, aabbs(boxes, 32),
                      box_range, host_box) == VK_SUCCESS);

   /* One command buffer, two jobs (triangles, then AABBs) around a
    * barrier-free gap, then a top level over the device-built bottom
    * level (device builds reference bottom levels by address). */
   VkAccelerationStructureInstanceKHR inst[2];
   fill_instances(inst, as_address(&r, dev));
   uint64_t inst_va = put_input(&r, inst, sizeof(inst));
   VkAccelerationStructureKHR dev_top =
       make_as(&r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, 4096);
   VkCommandBuffer cmd = begin_cmd(&r);
   cmd_build(cmd, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, tri, range, dev);
   cmd_build(cmd, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, aabbs(boxes, 32), box_range,
             dev_box);
   VkAccelerationStructureBuildRangeInfoKHR two = {.primitiveCount = 2};
   cmd_build(cmd, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, instances(inst_va, false), two,
             dev_top);
   REQUIRE(vkppu_EndCommandBuffer(cmd) == VK_SUCCESS);
   CHECK_EQ_U64(vkppu_command_buffer_from_handle(cmd)->job_count, 3);
   REQUIRE(submit_wait(&r, cmd) == VK_SUCCESS);
   CHECK(as_valid(&r, dev));
   CHECK(same_bytes(&r, dev, host));
   CHECK(same_bytes(&r, dev_box, host_box));
   CHECK(as_valid(&r, dev_top));

   /* The same top level from the host (handles instead of addresses). */
   VkAccelerationStructureInstanceKHR host_inst[2];
   fill_instances(host_inst, (uint64_t)(uintptr_t)dev);
   VkAccelerationStructureKHR host_top =
       make_as(&r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, 4096);
   CHECK(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR,
                    instances(put_input(&r, host_inst, sizeof(host_inst)), false), two,
                    host_top) == VK_SUCCESS);
   CHECK(same_bytes(&r, dev_top, host_top));

   /* Wipe the results and submit the same command buffer again: the jobs
    * are templates and run again, with new numbers. */
   uint8_t zeros[4096] = {0};
   CHECK(drv_va_write(drv_of(&r), as_address(&r, dev), zeros, sizeof(zeros), NULL));
   CHECK(drv_va_write(drv_of(&r), as_address(&r, dev_top), zeros, sizeof(zeros), NULL));
   REQUIRE(submit_wait(&r, cmd) == VK_SUCCESS);
   CHECK(same_bytes(&r, dev, host));
   CHECK(same_bytes(&r, dev_top, host_top));
   CHECK_EQ_U64(drv_of(&r)->host_jobs.jobs_run, 6);
   rig_finish(&r);
}

TEST_CASE(indirect_device_builds_read_their_ranges_when_they_run)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureGeometryKHR tri = reference_geometry(&r);
   VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = TRIS - 4,
                                                     .primitiveOffset = 4 * 36};
   VkAccelerationStructureKHR host = blas(&r), dev = blas(&r);
   REQUIRE(host_build(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, tri, range, host) ==
           VK_SUCCESS);
   /* The ranges are written after recording, before submission. */
   VkAccelerationStructureBuildRangeInfoKHR zero = {0};
   uint64_t indirect = put_input(&r, &zero, sizeof(zero));
   VkCommandBuffer cmd = begin_cmd(&r);
   VkAccelerationStructureBuildGeometryInfoKHR info =
       build_info(VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &tri, 1, dev);
   uint32_t stride = sizeof(range), max = TRIS;
   const uint32_t *maxes = &max;
   VkDeviceAddress address = indirect;
   vkppu_CmdBuildAccelerationStructuresIndirectKHR(cmd, 1, &info, &address, &stride, &maxes);
   REQUIRE(vkppu_EndCommandBuffer(cmd) == VK_SUCCESS);
   memcpy(r.input.map + (indirect - r.input.va), &range, sizeof(range));
   REQUIRE(submit_wait(&r, cmd) == VK_SUCCESS);
   CHECK(same_bytes(&r, dev, host));
   rig_finish(&r);
}

TEST_CASE(updates_refit_on_host_and_device)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureGeometryKHR tri = reference_geometry(&r);
   uint64_t vertices = tri.geometry.triangles.vertexData.deviceAddress;
   VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = TRIS};
   const VkAccelerationStructureBuildRangeInfoKHR *ranges = &range;
   VkAccelerationStructureKHR a = blas(&r), host_updated = blas(&r), dev_updated = blas(&r);
   VkAccelerationStructureGeometryKHR hg = to_host(&r, tri);
   VkAccelerationStructureBuildGeometryInfoKHR info =
       build_info(VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &hg, 1, a);
   info.flags |= VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_UPDATE_BIT_KHR;
   REQUIRE(vkppu_BuildAccelerationStructuresKHR(r.device, VK_NULL_HANDLE, 1, &info, &ranges) ==
           VK_SUCCESS);
   struct ppu_bvh_header before = header_of(&r, a);
   CHECK(before.flags & PPU_BVH_FLAG_ALLOW_UPDATE);

   /* Move every vertex by +1 in x, then update a -> another structure. */
   float *v = (float *)(void *)(r.input.map + (vertices - r.input.va));
   for (uint32_t i = 0; i < 3 * TRIS; i++)
      v[3 * i] += 1.0f;
   info.mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_UPDATE_KHR;
   info.srcAccelerationStructure = a;
   info.dstAccelerationStructure = host_updated;
   CHECK(vkppu_BuildAccelerationStructuresKHR(r.device, VK_NULL_HANDLE, 1, &info, &ranges) ==
         VK_SUCCESS);
   CHECK(as_valid(&r, host_updated));
   struct ppu_bvh_header after = header_of(&r, host_updated);
   CHECK(after.bounds_min[0] == before.bounds_min[0] + 1.0f);
   CHECK(after.node_count == before.node_count);

   VkCommandBuffer cmd = begin_cmd(&r);
   info.pGeometries = &tri;
   info.dstAccelerationStructure = dev_updated;
   vkppu_CmdBuildAccelerationStructuresKHR(cmd, 1, &info, &ranges);
   REQUIRE(vkppu_EndCommandBuffer(cmd) == VK_SUCCESS);
   REQUIRE(submit_wait(&r, cmd) == VK_SUCCESS);
   CHECK(same_bytes(&r, dev_updated, host_updated));

   /* An update whose counts do not match is invalid: an error, and the
    * destination is left empty. */
   range.primitiveCount = TRIS - 1;
   info.pGeometries = &hg;
   info.dstAccelerationStructure = host_updated;
   CHECK(vkppu_BuildAccelerationStructuresKHR(r.device, VK_NULL_HANDLE, 1, &info, &ranges) ==
         VK_ERROR_UNKNOWN);
   CHECK(as_valid(&r, host_updated));
   CHECK_EQ_U64(header_of(&r, host_updated).node_count, 0);
   CHECK(strstr(r.messages, "refit") != NULL);
   rig_finish(&r);
}

TEST_CASE(compaction_uses_the_queried_size)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureKHR a = reference_blas(&r);
   REQUIRE(a != VK_NULL_HANDLE);
   VkDeviceSize compacted = 0, size = 0;
   CHECK(vkppu_WriteAccelerationStructuresPropertiesKHR(
             r.device, 1, &a, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR,
             sizeof(compacted), &compacted, sizeof(compacted)) == VK_SUCCESS);
   CHECK(vkppu_WriteAccelerationStructuresPropertiesKHR(
             r.device, 1, &a, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR, sizeof(size), &size,
             sizeof(size)) == VK_SUCCESS);
   CHECK_EQ_U64(compacted, header_of(&r, a).total_size);
   CHECK_EQ_U64(size, compacted);

   /* The same through a query pool, written by a device job. */
   VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType =
                                    VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR,
                                .queryCount = 2};
   VkQueryPool pool;
   REQUIRE(vkppu_CreateQueryPool(r.device, &qci, NULL, &pool) == VK_SUCCESS);
   VkAccelerationStructureKHR small =
       make_as(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, compacted);
   VkCommandBuffer cmd = begin_cmd(&r);
   vkppu_CmdWriteAccelerationStructuresPropertiesKHR(
       cmd, 1, &a, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR, pool, 1);
   VkCopyAccelerationStructureInfoKHR copy = {
       .sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_INFO_KHR,
       .src = a,
       .dst = small,
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_COMPACT_KHR};
   vkppu_CmdCopyAccelerationStructureKHR(cmd, &copy);
   REQUIRE(vkppu_EndCommandBuffer(cmd) == VK_SUCCESS);
   REQUIRE(submit_wait(&r, cmd) == VK_SUCCESS);
   uint64_t results[2] = {0};
   CHECK(vkppu_GetQueryPoolResults(r.device, pool, 1, 1, sizeof(results), results, sizeof(results),
                                   VK_QUERY_RESULT_64_BIT |
                                       VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) == VK_SUCCESS);
   CHECK_EQ_U64(results[0], compacted);
   CHECK_EQ_U64(results[1], 1);
   CHECK(as_valid(&r, small));
   CHECK(header_of(&r, small).flags & PPU_BVH_FLAG_COMPACTED);

   /* Host compaction gives the same bytes. */
   VkAccelerationStructureKHR small2 =
       make_as(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, compacted);
   copy.dst = small2;
   CHECK(vkppu_CopyAccelerationStructureKHR(r.device, VK_NULL_HANDLE, &copy) == VK_SUCCESS);
   CHECK(same_bytes(&r, small, small2));
   vkppu_DestroyQueryPool(r.device, pool, NULL);
   rig_finish(&r);
}

TEST_CASE(serialization_round_trips_and_rejects_corrupt_data)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureKHR a = reference_blas(&r);
   REQUIRE(a != VK_NULL_HANDLE);
   VkDeviceSize size = 0;
   CHECK(vkppu_WriteAccelerationStructuresPropertiesKHR(
             r.device, 1, &a, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR,
             sizeof(size), &size, sizeof(size)) == VK_SUCCESS);
   REQUIRE(size > BVH_SERIALIZED_HEADER_BYTES);
   uint8_t *blob = calloc(1, size);
   REQUIRE(blob);
   VkCopyAccelerationStructureToMemoryInfoKHR out = {
       .sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_TO_MEMORY_INFO_KHR,
       .src = a,
       .dst.hostAddress = blob,
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_SERIALIZE_KHR};
   CHECK(vkppu_CopyAccelerationStructureToMemoryKHR(r.device, VK_NULL_HANDLE, &out) == VK_SUCCESS);
   VkAccelerationStructureVersionInfoKHR version = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_VERSION_INFO_KHR, .pVersionData = blob};
   VkAccelerationStructureCompatibilityKHR compat;
   vkppu_GetDeviceAccelerationStructureCompatibilityKHR(r.device, &version, &compat);
   CHECK(compat == VK_ACCELERATION_STRUCTURE_COMPATIBILITY_COMPATIBLE_KHR);

   VkAccelerationStructureKHR b = blas(&r);
   VkCopyMemoryToAccelerationStructureInfoKHR in = {
       .sType = VK_STRUCTURE_TYPE_COPY_MEMORY_TO_ACCELERATION_STRUCTURE_INFO_KHR,
       .src.hostAddress = blob,
       .dst = b,
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_DESERIALIZE_KHR};
   CHECK(vkppu_CopyMemoryToAccelerationStructureKHR(r.device, VK_NULL_HANDLE, &in) == VK_SUCCESS);
   CHECK(same_bytes(&r, a, b));

   /* The same round trip on the device, through device memory. */
   uint64_t dev_blob = r.input.va + block_take(&r.input, size);
   VkAccelerationStructureKHR c = blas(&r);
   VkCommandBuffer cmd = begin_cmd(&r);
   out.dst.deviceAddress = dev_blob;
   vkppu_CmdCopyAccelerationStructureToMemoryKHR(cmd, &out);
   in.src.deviceAddress = dev_blob;
   in.dst = c;
   vkppu_CmdCopyMemoryToAccelerationStructureKHR(cmd, &in);
   REQUIRE(vkppu_EndCommandBuffer(cmd) == VK_SUCCESS);
   REQUIRE(submit_wait(&r, cmd) == VK_SUCCESS);
   CHECK(memcmp(host_ptr(&r, dev_blob), blob, size) == 0);
   CHECK(same_bytes(&r, a, c));

   /* Another driver's UUID: incompatible, refused. */
   uint8_t *bad = malloc(size);
   REQUIRE(bad);
   memcpy(bad, blob, size);
   bad[3] ^= 1;
   version.pVersionData = bad;
   vkppu_GetDeviceAccelerationStructureCompatibilityKHR(r.device, &version, &compat);
   CHECK(compat == VK_ACCELERATION_STRUCTURE_COMPATIBILITY_INCOMPATIBLE_KHR);
   in.src.hostAddress = bad;
   in.dst = b;
   CHECK(vkppu_CopyMemoryToAccelerationStructureKHR(r.device, VK_NULL_HANDLE, &in) ==
         VK_ERROR_UNKNOWN);
   CHECK(as_valid(&r, b));

   /* A size field far beyond the destination: refused before reading. */
   memcpy(bad, blob, size);
   uint64_t huge = 1ull << 40;
   memcpy(bad + 32, &huge, 8);
   CHECK(vkppu_CopyMemoryToAccelerationStructureKHR(r.device, VK_NULL_HANDLE, &in) ==
         VK_ERROR_UNKNOWN);
   CHECK(as_valid(&r, b));

   /* Corrupt bytes in the structure: an error or a still-valid structure,
    * never a crash, and never an invalid one. */
   uint32_t errors = 0;
   for (uint64_t i = BVH_SERIALIZED_HEADER_BYTES; i < size; i += 61) {
      memcpy(bad, blob, size);
      bad[i] ^= (uint8_t)(0x5a + i);
      VkResult res = vkppu_CopyMemoryToAccelerationStructureKHR(r.device, VK_NULL_HANDLE, &in);
      CHECK(res == VK_SUCCESS || res == VK_ERROR_UNKNOWN);
      errors += res != VK_SUCCESS;
      CHECK(as_valid(&r, b));
   }
   CHECK(errors > 0);
   CHECK(strstr(r.messages, "corrupt") != NULL);
   free(bad);
   free(blob);
   rig_finish(&r);
}

struct joiner {
   VkDevice device;
   VkDeferredOperationKHR op;
   VkResult last;
   uint32_t joins;
};

static void *join_thread(void *arg)
{
   struct joiner *j = arg;
   do {
      j->last = vkppu_DeferredOperationJoinKHR(j->device, j->op);
      j->joins++;
   } while (j->last == VK_THREAD_IDLE_KHR);
   return NULL;
}

TEST_CASE(deferred_builds_split_between_two_joining_threads)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   enum { N = 6 };
   VkAccelerationStructureGeometryKHR g[N];
   VkAccelerationStructureBuildGeometryInfoKHR infos[N];
   VkAccelerationStructureBuildRangeInfoKHR range[N];
   const VkAccelerationStructureBuildRangeInfoKHR *ranges[N];
   VkAccelerationStructureKHR deferred[N], direct[N];
   uint64_t vertices = reference_vertices(&r, VK_FORMAT_R32G32B32_SFLOAT);
   for (int i = 0; i < N; i++) {
      g[i] = to_host(
          &r, triangles(VK_FORMAT_R32G32B32_SFLOAT, vertices, 12, VK_INDEX_TYPE_NONE_KHR, 0, 0, 0));
      range[i] = (VkAccelerationStructureBuildRangeInfoKHR){.primitiveCount = TRIS - (uint32_t)i};
      ranges[i] = &range[i];
      deferred[i] = blas(&r);
      direct[i] = blas(&r);
      infos[i] = build_info(VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &g[i], 1, direct[i]);
   }
   REQUIRE(vkppu_BuildAccelerationStructuresKHR(r.device, VK_NULL_HANDLE, N, infos, ranges) ==
           VK_SUCCESS);

   VkDeferredOperationKHR op;
   REQUIRE(vkppu_CreateDeferredOperationKHR(r.device, NULL, &op) == VK_SUCCESS);
   CHECK(vkppu_GetDeferredOperationResultKHR(r.device, op) == VK_SUCCESS);
   for (int i = 0; i < N; i++)
      infos[i].dstAccelerationStructure = deferred[i];
   REQUIRE(vkppu_BuildAccelerationStructuresKHR(r.device, op, N, infos, ranges) ==
           VK_OPERATION_DEFERRED_KHR);
   CHECK(vkppu_GetDeferredOperationResultKHR(r.device, op) == VK_NOT_READY);
   CHECK_EQ_U64(vkppu_GetDeferredOperationMaxConcurrencyKHR(r.device, op), N);
   /* Nothing ran yet: the work happens in the joins. */
   CHECK(header_of(&r, deferred[0]).magic != PPU_BVH_MAGIC);

   struct joiner j[2] = {{r.device, op, 0, 0}, {r.device, op, 0, 0}};
   pthread_t t[2];
   for (int i = 0; i < 2; i++)
      REQUIRE(pthread_create(&t[i], NULL, join_thread, &j[i]) == 0);
   for (int i = 0; i < 2; i++)
      pthread_join(t[i], NULL);
   for (int i = 0; i < 2; i++)
      CHECK(j[i].last == VK_SUCCESS || j[i].last == VK_THREAD_DONE_KHR);
   /* At least one joiner saw the operation complete. */
   CHECK(j[0].last == VK_SUCCESS || j[1].last == VK_SUCCESS);
   CHECK(vkppu_GetDeferredOperationResultKHR(r.device, op) == VK_SUCCESS);
   CHECK_EQ_U64(vkppu_GetDeferredOperationMaxConcurrencyKHR(r.device, op), 0);
   CHECK(vkppu_DeferredOperationJoinKHR(r.device, op) == VK_SUCCESS);
   for (int i = 0; i < N; i++)
      CHECK(same_bytes(&r, deferred[i], direct[i]));
   vkppu_DestroyDeferredOperationKHR(r.device, op, NULL);

   /* A deferred copy: one item, so a second joiner has nothing to take. */
   REQUIRE(vkppu_CreateDeferredOperationKHR(r.device, NULL, &op) == VK_SUCCESS);
   VkAccelerationStructureKHR clone = blas(&r);
   VkCopyAccelerationStructureInfoKHR copy = {
       .sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_INFO_KHR,
       .src = direct[0],
       .dst = clone,
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_CLONE_KHR};
   REQUIRE(vkppu_CopyAccelerationStructureKHR(r.device, op, &copy) == VK_OPERATION_DEFERRED_KHR);
   CHECK(vkppu_DeferredOperationJoinKHR(r.device, op) == VK_SUCCESS);
   CHECK(vkppu_GetDeferredOperationResultKHR(r.device, op) == VK_SUCCESS);
   CHECK(same_bytes(&r, clone, direct[0]));
   vkppu_DestroyDeferredOperationKHR(r.device, op, NULL);
   rig_finish(&r);
}

TEST_CASE(a_device_build_through_a_bad_address_loses_the_device_with_a_report)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureKHR a = blas(&r);
   VkCommandBuffer cmd = begin_cmd(&r);
   const uint64_t garbage = 0x7f00000000ull; /* application VA range, never mapped */
   VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = TRIS};
   cmd_build(cmd, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
             triangles(VK_FORMAT_R32G32B32_SFLOAT, garbage, 12, VK_INDEX_TYPE_NONE_KHR, 0, 0, 0),
             range, a);
   REQUIRE(vkppu_EndCommandBuffer(cmd) == VK_SUCCESS);
   CHECK(submit_wait(&r, cmd) == VK_ERROR_DEVICE_LOST);
   CHECK(strstr(r.messages, "host job") != NULL);
   CHECK(strstr(r.messages, "acceleration-structure build") != NULL);
   CHECK(strstr(r.messages, "vertex data") != NULL);
   CHECK(strstr(r.messages, "0x7f00000000") != NULL);
   CHECK(vkppu_QueueWaitIdle(r.queue) == VK_ERROR_DEVICE_LOST);
   rig_finish(&r);

   /* Another device still builds. */
   REQUIRE(rig_init(&r));
   a = blas(&r);
   cmd = begin_cmd(&r);
   cmd_build(cmd, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
             triangles(VK_FORMAT_R32G32B32_SFLOAT,
                       reference_vertices(&r, VK_FORMAT_R32G32B32_SFLOAT), 12,
                       VK_INDEX_TYPE_NONE_KHR, 0, 0, 0),
             range, a);
   REQUIRE(vkppu_EndCommandBuffer(cmd) == VK_SUCCESS);
   CHECK(submit_wait(&r, cmd) == VK_SUCCESS);
   CHECK(as_valid(&r, a));
   rig_finish(&r);
}

TEST_CASE(descriptors_hold_the_structure_address)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkAccelerationStructureKHR a = blas(&r);
   VkDescriptorSetLayoutBinding bindings[] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo lci = {.sType =
                                              VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 2,
                                          .pBindings = bindings};
   VkDescriptorSetLayout layout;
   REQUIRE(vkppu_CreateDescriptorSetLayout(r.device, &lci, NULL, &layout) == VK_SUCCESS);
   VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
                                   {VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 2}};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 2,
                                     .poolSizeCount = 2,
                                     .pPoolSizes = sizes};
   VkDescriptorPool pool;
   REQUIRE(vkppu_CreateDescriptorPool(r.device, &pci, NULL, &pool) == VK_SUCCESS);
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &layout};
   VkDescriptorSet set, second;
   REQUIRE(vkppu_AllocateDescriptorSets(r.device, &ai, &set) == VK_SUCCESS);
   /* The pool holds two structure descriptors: a second set does not fit. */
   CHECK(vkppu_AllocateDescriptorSets(r.device, &ai, &second) == VK_ERROR_OUT_OF_POOL_MEMORY);

   VkAccelerationStructureKHR handles[2] = {VK_NULL_HANDLE, a};
   VkWriteDescriptorSetAccelerationStructureKHR as_write = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
       .accelerationStructureCount = 2,
       .pAccelerationStructures = handles};
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .pNext = &as_write,
                             .dstSet = set,
                             .dstBinding = 1,
                             .descriptorCount = 2,
                             .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR};
   const uint8_t *map = vkppu_descriptor_set_from_handle(set)->map;
   memset((uint8_t *)map + DRV_DESCRIPTOR_SIZE, 0xee, 2 * DRV_DESCRIPTOR_SIZE);
   vkppu_UpdateDescriptorSets(r.device, 1, &w, 0, NULL);
   struct drv_acceleration_structure_descriptor d[2];
   memcpy(d, map + DRV_DESCRIPTOR_SIZE, sizeof(d));
   CHECK_EQ_U64(d[0].address, 0); /* null descriptor: a miss */
   CHECK_EQ_U64(d[0].reserved, 0);
   CHECK_EQ_U64(d[1].address, as_address(&r, a));

   /* Through an update template: element 0 = a, from application memory. */
   VkDescriptorUpdateTemplateEntry entry = {1, 0,
                                            1, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
                                            0, sizeof(VkAccelerationStructureKHR)};
   VkDescriptorUpdateTemplateCreateInfo tci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
       .descriptorUpdateEntryCount = 1,
       .pDescriptorUpdateEntries = &entry,
       .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
       .descriptorSetLayout = layout};
   VkDescriptorUpdateTemplate tmpl;
   REQUIRE(vkppu_CreateDescriptorUpdateTemplate(r.device, &tci, NULL, &tmpl) == VK_SUCCESS);
   vkppu_UpdateDescriptorSetWithTemplate(r.device, set, tmpl, &a);
   memcpy(d, map + DRV_DESCRIPTOR_SIZE, sizeof(d));
   CHECK_EQ_U64(d[0].address, as_address(&r, a));
   vkppu_DestroyDescriptorUpdateTemplate(r.device, tmpl, NULL);

   /* The pipeline layout tells the compiler where the structures are. */
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &layout};
   VkPipelineLayout pl;
   REQUIRE(vkppu_CreatePipelineLayout(r.device, &plci, NULL, &pl) == VK_SUCCESS);
   const struct drv_pipeline_abi *abi = &vkppu_pipeline_layout_from_handle(pl)->abi;
   REQUIRE(abi->binding_count == 2);
   CHECK(abi->bindings[1].kind == DRV_BINDING_ACCELERATION_STRUCTURE);
   CHECK_EQ_U64(abi->bindings[1].offset, DRV_DESCRIPTOR_SIZE);
   CHECK_EQ_U64(abi->bindings[1].array_size, 2);
   CHECK(abi->bindings[1].dynamic_index == -1);
   vkppu_DestroyPipelineLayout(r.device, pl, NULL);
   vkppu_DestroyDescriptorPool(r.device, pool, NULL);
   vkppu_DestroyDescriptorSetLayout(r.device, layout, NULL);
   rig_finish(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
