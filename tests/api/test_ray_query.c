/* VK_KHR_acceleration_structure and VK_KHR_ray_query through the loader,
 * with validation on: a tiny scene (a plain triangle BLAS, an indexed one
 * with two transformed geometries, an AABB one, four instances with custom
 * indices, masks and flags) built on the device or on the host, traced by a
 * compute shader (shaders/spirv14_ray_query_trace.comp) whose results are
 * compared with intersections computed here. Then refit, compaction,
 * serialization (and the compatibility query), indirect builds and an
 * update-after-bind acceleration-structure descriptor, each traced again.
 * Host builds and indirect builds run where the device reports them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compute_test_util.h"
#include "ray_query_test_util.h"
#include "vk_test_context.h"

/* --- rig ------------------------------------------------------------------------ */

struct rig {
   struct vkt_context ctx;
   struct vkt_device dev;
   bool host_commands, indirect_build, update_after_bind;
   VkDeviceSize scratch_align;
   struct vkt_buffer input; /* host visible: every build input, at the OFF_* offsets */
};

/* Where each build input sits in rig.input (the spec's alignments: 16 for
 * transforms and instances, 8 for AABBs). */
#define OFF_TRIANGLES 0    /* 6 vertices: the unit quad as two triangles */
#define OFF_VERTICES 128   /* 4 vertices of the unit quad */
#define OFF_INDICES 256    /* 6 uint16 indices */
#define OFF_TRANSFORMS 384 /* 2 VkTransformMatrixKHR: the geometries of the indexed BLAS */
#define OFF_AABB 512       /* 1 VkAabbPositionsKHR */
#define OFF_INSTANCES 1024 /* 4 VkAccelerationStructureInstanceKHR */
#define OFF_RANGES 2048    /* VkAccelerationStructureBuildRangeInfoKHR for indirect builds */
#define INPUT_SIZE 4096

static const float quad[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
static const uint16_t quad_indices[6] = {0, 1, 2, 3, 2, 1};

static void *input_at(struct rig *r, size_t offset)
{
   return (char *)r->input.map + offset;
}

static VkDeviceAddress buffer_address(struct rig *r, VkBuffer buffer)
{
   VkBufferDeviceAddressInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                     .buffer = buffer};
   return vkGetBufferDeviceAddressKHR(r->dev.device, &info);
}

/* An input as a build reads it: a host pointer for host builds. */
static VkDeviceOrHostAddressConstKHR input_ref(struct rig *r, size_t offset, bool host)
{
   VkDeviceOrHostAddressConstKHR a;
   if (host)
      a.hostAddress = input_at(r, offset);
   else
      a.deviceAddress = buffer_address(r, r->input.buffer) + offset;
   return a;
}

static void write_input(struct rig *r)
{
   float *tri = input_at(r, OFF_TRIANGLES);
   for (int i = 0; i < 6; i++)
      memcpy(tri + 3 * i, quad[quad_indices[i]], sizeof(quad[0]));
   memcpy(input_at(r, OFF_VERTICES), quad, sizeof(quad));
   memcpy(input_at(r, OFF_INDICES), quad_indices, sizeof(quad_indices));
   /* Geometry 0: z + 1; geometry 1: x + 1, z + 1. */
   VkTransformMatrixKHR t[2] = {{{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 1}}},
                                {{{1, 0, 0, 1}, {0, 1, 0, 0}, {0, 0, 1, 1}}}};
   memcpy(input_at(r, OFF_TRANSFORMS), t, sizeof(t));
   VkAabbPositionsKHR box = {0, 0, 0, 1, 1, 1};
   memcpy(input_at(r, OFF_AABB), &box, sizeof(box));
}

static bool rig_create(struct rig *r)
{
   memset(r, 0, sizeof(*r));
   if (!rqu_context_create(&r->ctx))
      return false;
   VkPhysicalDeviceBufferDeviceAddressFeatures address = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
   VkPhysicalDeviceRayQueryFeaturesKHR rq = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR, .pNext = &address};
   VkPhysicalDeviceAccelerationStructureFeaturesKHR as = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
       .pNext = &rq};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &as};
   vkGetPhysicalDeviceFeatures2KHR(r->ctx.physical_device, &f2);
   CHECK(as.accelerationStructure && rq.rayQuery && address.bufferDeviceAddress);
   r->host_commands = as.accelerationStructureHostCommands;
   r->indirect_build = as.accelerationStructureIndirectBuild;
   r->update_after_bind = as.descriptorBindingAccelerationStructureUpdateAfterBind;
   /* Enable exactly what is reported, except capture/replay. */
   as.accelerationStructureCaptureReplay = VK_FALSE;
   address.bufferDeviceAddressCaptureReplay = VK_FALSE;
   address.bufferDeviceAddressMultiDevice = VK_FALSE;
   VkPhysicalDeviceAccelerationStructurePropertiesKHR props = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &props};
   vkGetPhysicalDeviceProperties2KHR(r->ctx.physical_device, &p2);
   /* Spec "Required Limits" (lavapipe reports less). */
   CHECK(!r->ctx.is_vkppu ||
         (props.maxGeometryCount >= (1u << 24) - 1 && props.maxInstanceCount >= (1u << 24) - 1 &&
          props.maxPrimitiveCount >= (1u << 29) - 1));
   CHECK(props.maxDescriptorSetAccelerationStructures >= 16);
   CHECK(props.minAccelerationStructureScratchOffsetAlignment > 0 &&
         props.minAccelerationStructureScratchOffsetAlignment <= 256);
   r->scratch_align = props.minAccelerationStructureScratchOffsetAlignment;

   if (!rqu_device_create(&r->ctx, &as, &r->dev))
      return false;
   VkResult res = vkt_buffer_create(
       &r->dev, INPUT_SIZE,
       VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
           VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
       VKT_MEMORY_HOST, &r->input);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "input buffer -> %s", vkt_result_name(res));
      vkt_teardown(&r->ctx, &r->dev);
      return false;
   }
   write_input(r);
   return true;
}

static void rig_destroy(struct rig *r)
{
   vkDeviceWaitIdle(r->dev.device);
   vkt_buffer_destroy(&r->dev, &r->input);
   vkt_teardown(&r->ctx, &r->dev);
}

/* For a case that needs an optional feature: skips it (and destroys the
 * rig) unless the device reports it. */
static bool rig_require(struct rig *r, bool have, const char *feature)
{
   if (!have) {
      vkt_skip("%s lacks %s", r->ctx.props.deviceName, feature);
      rig_destroy(r);
   }
   return have;
}

/* --- acceleration structures ------------------------------------------------------ */

struct accel {
   struct vkt_buffer storage;
   VkAccelerationStructureKHR handle;
   VkDeviceAddress address;
};

/* Host commands write structures through a mapping, so their memory must
 * be host visible (VUID-vkBuildAccelerationStructuresKHR-pInfos-03722).
 * The structure is made on its buffer before the buffer's memory is bound,
 * as the spec allows and the conformance suite does (it only has to be
 * bound before use); the structures of the ray-tracing pipeline tests
 * (accel_test_util.h) are made on bound buffers. */
static bool accel_create(struct rig *r, VkAccelerationStructureTypeKHR type, VkDeviceSize size,
                         bool host, struct accel *a)
{
   memset(a, 0, sizeof(*a));
   VkResult res =
       vkt_buffer_create_unbound(&r->dev, size,
                                 VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR |
                                     VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                 host ? VKT_MEMORY_HOST : VKT_MEMORY_DEVICE, &a->storage);
   VkAccelerationStructureCreateInfoKHR ci = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR,
       .buffer = a->storage.buffer,
       .size = size,
       .type = type,
   };
   if (res == VK_SUCCESS)
      VKT_CHECK(vkCreateAccelerationStructureKHR(r->dev.device, &ci, NULL, &a->handle));
   if (res == VK_SUCCESS)
      res = vkt_buffer_bind(&r->dev, &a->storage);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "structure buffer -> %s", vkt_result_name(res));
      if (a->handle)
         vkDestroyAccelerationStructureKHR(r->dev.device, a->handle, NULL);
      a->handle = VK_NULL_HANDLE;
      return false;
   }
   VkAccelerationStructureDeviceAddressInfoKHR ai = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR,
       .accelerationStructure = a->handle};
   a->address = vkGetAccelerationStructureDeviceAddressKHR(r->dev.device, &ai);
   return a->handle != VK_NULL_HANDLE;
}

static void accel_destroy(struct rig *r, struct accel *a)
{
   if (a->handle)
      vkDestroyAccelerationStructureKHR(r->dev.device, a->handle, NULL);
   vkt_buffer_destroy(&r->dev, &a->storage);
   memset(a, 0, sizeof(*a));
}

/* One level's geometries, as a build info points at them. */
struct level {
   VkAccelerationStructureTypeKHR type;
   VkBuildAccelerationStructureFlagsKHR flags;
   uint32_t count;
   VkAccelerationStructureGeometryKHR geometries[2];
   VkAccelerationStructureBuildRangeInfoKHR ranges[2];
   uint32_t max_primitives[2];
};

enum blas_kind { BLAS_QUAD, BLAS_INDEXED, BLAS_BOX, BLAS_KINDS };

static VkAccelerationStructureGeometryKHR triangle_geometry(void)
{
   return (VkAccelerationStructureGeometryKHR){
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR,
       .geometry.triangles = {
           .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
           .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
           .vertexStride = 3 * sizeof(float),
       }};
}

/* BLAS_QUAD: the quad as 6 vertices, no indices, opaque. BLAS_INDEXED: the
 * quad through 16-bit indices twice, each geometry with its transform;
 * geometry 0 not opaque, geometry 1 opaque. BLAS_BOX: the unit box. */
static void blas_level(struct rig *r, enum blas_kind kind, bool host,
                       VkBuildAccelerationStructureFlagsKHR flags, struct level *l)
{
   memset(l, 0, sizeof(*l));
   l->type = VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR;
   l->flags = flags;
   if (kind == BLAS_QUAD) {
      l->count = 1;
      l->geometries[0] = triangle_geometry();
      l->geometries[0].flags = VK_GEOMETRY_OPAQUE_BIT_KHR;
      l->geometries[0].geometry.triangles.vertexData = input_ref(r, OFF_TRIANGLES, host);
      l->geometries[0].geometry.triangles.maxVertex = 5;
      l->geometries[0].geometry.triangles.indexType = VK_INDEX_TYPE_NONE_KHR;
      l->ranges[0].primitiveCount = 2;
   } else if (kind == BLAS_INDEXED) {
      l->count = 2;
      for (uint32_t g = 0; g < 2; g++) {
         VkAccelerationStructureGeometryTrianglesDataKHR *t = &l->geometries[g].geometry.triangles;
         l->geometries[g] = triangle_geometry();
         l->geometries[g].flags = g == 1 ? VK_GEOMETRY_OPAQUE_BIT_KHR : 0;
         t->vertexData = input_ref(r, OFF_VERTICES, host);
         t->maxVertex = 3;
         t->indexType = VK_INDEX_TYPE_UINT16;
         t->indexData = input_ref(r, OFF_INDICES, host);
         t->transformData = input_ref(r, OFF_TRANSFORMS, host);
         l->ranges[g] = (VkAccelerationStructureBuildRangeInfoKHR){
             .primitiveCount = 2, .transformOffset = g * sizeof(VkTransformMatrixKHR)};
      }
   } else {
      l->count = 1;
      l->geometries[0] = (VkAccelerationStructureGeometryKHR){
          .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
          .geometryType = VK_GEOMETRY_TYPE_AABBS_KHR,
          .geometry.aabbs = {.sType =
                                 VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
                             .data = input_ref(r, OFF_AABB, host),
                             .stride = sizeof(VkAabbPositionsKHR)}};
      l->ranges[0].primitiveCount = 1;
   }
   for (uint32_t g = 0; g < l->count; g++)
      l->max_primitives[g] = l->ranges[g].primitiveCount;
}

/* The scene's instances: where each sits (a translation), which BLAS, its
 * custom index, mask and flags. */
#define INSTANCES 4
static const struct {
   float x, z;
   enum blas_kind blas;
   uint32_t custom, mask;
   VkGeometryInstanceFlagsKHR flags;
} instances[INSTANCES] = {
    {0, 5, BLAS_QUAD, 11, 0x01, 0},
    {3, 5, BLAS_INDEXED, 22, 0x02, VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR},
    {6, 5, BLAS_BOX, 33, 0x04, 0},
    {0, 7, BLAS_QUAD, 44, 0x08, 0},
};

/* Writes the instance array: references are handles for host builds,
 * device addresses for device builds. */
static void top_level(struct rig *r, const struct accel *const blas[INSTANCES], bool host,
                      struct level *l)
{
   VkAccelerationStructureInstanceKHR *inst = input_at(r, OFF_INSTANCES);
   for (uint32_t i = 0; i < INSTANCES; i++) {
      inst[i] = (VkAccelerationStructureInstanceKHR){
          .transform = {{{1, 0, 0, instances[i].x}, {0, 1, 0, 0}, {0, 0, 1, instances[i].z}}},
          .instanceCustomIndex = instances[i].custom,
          .mask = instances[i].mask,
          .flags = instances[i].flags,
          .accelerationStructureReference =
              host ? (uint64_t)(uintptr_t)blas[i]->handle : blas[i]->address,
      };
   }
   memset(l, 0, sizeof(*l));
   l->type = VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR;
   l->count = 1;
   l->geometries[0] = (VkAccelerationStructureGeometryKHR){
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
       .geometry.instances = {
           .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
           .data = input_ref(r, OFF_INSTANCES, host)}};
   l->ranges[0].primitiveCount = INSTANCES;
   l->max_primitives[0] = INSTANCES;
}

static VkAccelerationStructureBuildGeometryInfoKHR
level_info(const struct level *l, VkBuildAccelerationStructureModeKHR mode)
{
   return (VkAccelerationStructureBuildGeometryInfoKHR){
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
       .type = l->type,
       .flags = l->flags,
       .mode = mode,
       .geometryCount = l->count,
       .pGeometries = l->geometries,
   };
}

static VkAccelerationStructureBuildSizesInfoKHR level_sizes(struct rig *r, const struct level *l,
                                                            bool host)
{
   VkAccelerationStructureBuildGeometryInfoKHR info =
       level_info(l, VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR);
   VkAccelerationStructureBuildSizesInfoKHR sizes = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
   vkGetAccelerationStructureBuildSizesKHR(r->dev.device,
                                           host ? VK_ACCELERATION_STRUCTURE_BUILD_TYPE_HOST_KHR
                                                : VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR,
                                           &info, l->max_primitives, &sizes);
   CHECK(sizes.accelerationStructureSize > 0);
   return sizes;
}

/* Acceleration-structure writes -> what reads them next (builds, copies,
 * ray queries in compute shaders). */
static void accel_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
       .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR |
                        VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                        VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR |
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        0, 1, &mb, 0, NULL, 0, NULL);
}

/* Builds (or, with src, updates) one level into dst: on the host, or on the
 * device with a scratch buffer of the queried size. indirect: the device
 * build reads its ranges from rig.input at OFF_RANGES. */
static bool build_level(struct rig *r, const struct level *l, bool host, bool indirect,
                        const struct accel *src, const struct accel *dst)
{
   VkAccelerationStructureBuildSizesInfoKHR sizes = level_sizes(r, l, host);
   VkAccelerationStructureBuildGeometryInfoKHR info =
       level_info(l, src ? VK_BUILD_ACCELERATION_STRUCTURE_MODE_UPDATE_KHR
                         : VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR);
   info.srcAccelerationStructure = src ? src->handle : VK_NULL_HANDLE;
   info.dstAccelerationStructure = dst->handle;
   VkDeviceSize scratch_size = src ? sizes.updateScratchSize : sizes.buildScratchSize;
   const VkAccelerationStructureBuildRangeInfoKHR *ranges = l->ranges;
   if (host) {
      void *scratch = malloc(scratch_size + 1);
      info.scratchData.hostAddress = scratch;
      VKT_CHECK(vkBuildAccelerationStructuresKHR(r->dev.device, VK_NULL_HANDLE, 1, &info, &ranges));
      free(scratch);
      return true;
   }
   struct vkt_buffer scratch;
   VkResult res = vkt_buffer_create(&r->dev, scratch_size + r->scratch_align,
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                        VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                    VKT_MEMORY_DEVICE, &scratch);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "scratch -> %s", vkt_result_name(res));
      return false;
   }
   VkDeviceAddress base = buffer_address(r, scratch.buffer);
   info.scratchData.deviceAddress =
       (base + r->scratch_align - 1) / r->scratch_align * r->scratch_align;
   VkCommandBuffer cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
   accel_barrier(cmd);
   if (indirect) {
      memcpy(input_at(r, OFF_RANGES), l->ranges, l->count * sizeof(l->ranges[0]));
      VkDeviceAddress address = buffer_address(r, r->input.buffer) + OFF_RANGES;
      uint32_t stride = sizeof(l->ranges[0]);
      const uint32_t *max_counts = l->max_primitives;
      vkCmdBuildAccelerationStructuresIndirectKHR(cmd, 1, &info, &address, &stride, &max_counts);
   } else {
      vkCmdBuildAccelerationStructuresKHR(cmd, 1, &info, &ranges);
   }
   res = vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd);
   VKT_CHECK(res);
   vkt_buffer_destroy(&r->dev, &scratch);
   return res == VK_SUCCESS;
}

/* Sizes, creates and builds one level. */
static bool make_level(struct rig *r, const struct level *l, bool host, struct accel *out)
{
   VkAccelerationStructureBuildSizesInfoKHR sizes = level_sizes(r, l, host);
   return accel_create(r, l->type, sizes.accelerationStructureSize, host, out) &&
          build_level(r, l, host, false, NULL, out);
}

struct scene {
   struct accel blas[BLAS_KINDS];
   struct accel tlas;
};

/* The TLAS over blas[] (one per instance). */
static bool make_tlas(struct rig *r, const struct accel *const blas[INSTANCES], bool host,
                      struct accel *tlas)
{
   struct level top;
   top_level(r, blas, host, &top);
   return make_level(r, &top, host, tlas);
}

static bool scene_build(struct rig *r, bool host, VkBuildAccelerationStructureFlagsKHR quad_flags,
                        struct scene *s)
{
   memset(s, 0, sizeof(*s));
   for (int k = 0; k < BLAS_KINDS; k++) {
      struct level l;
      blas_level(r, (enum blas_kind)k, host,
                 k == BLAS_QUAD ? quad_flags
                                : VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
                 &l);
      if (!make_level(r, &l, host, &s->blas[k]))
         return false;
   }
   const struct accel *refs[INSTANCES];
   for (int i = 0; i < INSTANCES; i++)
      refs[i] = &s->blas[instances[i].blas];
   return make_tlas(r, refs, host, &s->tlas);
}

static void scene_destroy(struct rig *r, struct scene *s)
{
   for (int k = 0; k < BLAS_KINDS; k++)
      accel_destroy(r, &s->blas[k]);
   accel_destroy(r, &s->tlas);
}

/* --- tracing ---------------------------------------------------------------------- */

/* std430 layout of the shader's Result (its Ray: struct ray). */

struct ray_result {
   uint32_t type; /* 0 none, 1 triangle, 2 generated */
   float t;
   int32_t primitive, custom_index, instance_id, geometry;
   float barycentrics[2];
   uint32_t front_face, candidates, pad[2];
};
_Static_assert(sizeof(struct ray) == 48 && sizeof(struct ray_result) == 48, "std430 layouts");

#define MAX_RAYS 32

/* Traces rays[] against tlas. update_after_bind: the structure's binding
 * is UPDATE_AFTER_BIND and its descriptor is written after the dispatch is
 * recorded. */
static bool trace(struct rig *r, const struct accel *tlas, const struct ray *rays, uint32_t n,
                  struct ray_result *out, bool update_after_bind)
{
   const VkDescriptorSetLayoutBinding bindings[3] = {
       {0, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   const VkDescriptorBindingFlags flags[3] = {VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT, 0, 0};
   VkDescriptorSetLayoutBindingFlagsCreateInfo binding_flags = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
       .bindingCount = 3,
       .pBindingFlags = flags};
   VkDescriptorSetLayoutCreateInfo lci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .pNext = update_after_bind ? &binding_flags : NULL,
       .flags = update_after_bind ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT : 0,
       .bindingCount = 3,
       .pBindings = bindings};
   struct ctu_program p = {0};
   VKT_CHECK(vkCreateDescriptorSetLayout(r->dev.device, &lci, NULL, &p.set_layout));
   p.layout = ctu_pipeline_layout(&r->dev, &p.set_layout, 1, sizeof(uint32_t));
   p.module = ctu_shader_module(&r->dev, "spirv14_ray_query_trace");
   VKT_CHECK(ctu_compute_pipeline(&r->dev, VK_NULL_HANDLE, p.module, p.layout, NULL, &p.pipeline));
   VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
   VkDescriptorPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .flags = update_after_bind ? VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT : 0,
       .maxSets = 1,
       .poolSizeCount = 2,
       .pPoolSizes = sizes};
   VKT_CHECK(vkCreateDescriptorPool(r->dev.device, &pci, NULL, &p.pool));
   if (!p.pipeline || !p.pool) {
      ctu_program_destroy(&r->dev, &p);
      return false;
   }
   VkDescriptorSet set = ctu_program_set(&r->dev, &p);

   struct vkt_buffer ray_buf, result_buf;
   VKT_CHECK(vkt_buffer_create(&r->dev, n * sizeof(*rays), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &ray_buf));
   VKT_CHECK(vkt_buffer_create(&r->dev, n * sizeof(*out), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &result_buf));
   memcpy(ray_buf.map, rays, n * sizeof(*rays));
   memset(result_buf.map, 0xcd, n * sizeof(*out));
   ctu_write_buffer(&r->dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ray_buf.buffer, 0,
                    VK_WHOLE_SIZE);
   ctu_write_buffer(&r->dev, set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, result_buf.buffer, 0,
                    VK_WHOLE_SIZE);
   if (!update_after_bind)
      ctu_write_accel(&r->dev, set, 0, tlas->handle);

   VkCommandBuffer cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
   accel_barrier(cmd);
   ctu_program_bind(cmd, &p, set);
   vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(n), &n);
   vkCmdDispatch(cmd, (n + 7) / 8, 1, 1);
   ctu_compute_to_host_barrier(cmd);
   /* Recorded with the binding unwritten; written before submission. */
   if (update_after_bind)
      ctu_write_accel(&r->dev, set, 0, tlas->handle);
   VkResult res = vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd);
   VKT_CHECK(res);
   memcpy(out, result_buf.map, n * sizeof(*out));
   vkt_buffer_destroy(&r->dev, &ray_buf);
   vkt_buffer_destroy(&r->dev, &result_buf);
   ctu_program_destroy(&r->dev, &p);
   return res == VK_SUCCESS;
}

/* --- expected values ------------------------------------------------------------- */

static struct ray ray_at(float x, float y, uint32_t mask)
{
   return (struct ray){.origin = {x, y, 0}, .direction = {0, 0, 1}, .tmax = 100, .cull_mask = mask};
}

static void sub3(const float a[3], const float b[3], float out[3])
{
   for (int i = 0; i < 3; i++)
      out[i] = a[i] - b[i];
}

static void cross3(const float a[3], const float b[3], float out[3])
{
   out[0] = a[1] * b[2] - a[2] * b[1];
   out[1] = a[2] * b[0] - a[0] * b[2];
   out[2] = a[0] * b[1] - a[1] * b[0];
}

static float dot3(const float a[3], const float b[3])
{
   return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The hit of a ray with triangle `primitive` of the quad placed at
 * (dx, 0, dz) (Moeller-Trumbore): t, barycentrics (weights of the
 * triangle's 2nd and 3rd vertex) and facing: front when the vertices appear
 * clockwise seen from the origin, i.e. when cross(v1 - v0, v2 - v0) points
 * against the direction (Vulkan spec, "Ray Triangle Culling";
 * docs/ray-query.md). */
static struct ray_result quad_hit(const struct ray *ray, uint32_t primitive, float dx, float dz)
{
   float v[3][3];
   for (int k = 0; k < 3; k++) {
      memcpy(v[k], quad[quad_indices[3 * primitive + k]], sizeof(v[k]));
      v[k][0] += dx;
      v[k][2] += dz;
   }
   float e1[3], e2[3], s[3], pvec[3], qvec[3], n[3];
   sub3(v[1], v[0], e1);
   sub3(v[2], v[0], e2);
   cross3(ray->direction, e2, pvec);
   double det = dot3(e1, pvec);
   sub3(ray->origin, v[0], s);
   double u = dot3(s, pvec) / det;
   cross3(s, e1, qvec);
   double w = dot3(ray->direction, qvec) / det;
   double t = dot3(e2, qvec) / det;
   cross3(e1, e2, n);
   return (struct ray_result){.type = 1,
                              .t = (float)t,
                              .primitive = (int32_t)primitive,
                              .barycentrics = {(float)u, (float)w},
                              .front_face = dot3(n, ray->direction) < 0};
}

static struct ray_result with_instance(struct ray_result h, uint32_t instance, uint32_t geometry)
{
   h.custom_index = (int32_t)instances[instance].custom;
   h.instance_id = (int32_t)instance;
   h.geometry = (int32_t)geometry;
   return h;
}

static const struct ray_result miss = {.type = 0, .primitive = -1};

static void check_result(uint32_t i, const struct ray_result *want, const struct ray_result *got,
                         uint32_t candidates)
{
   CHECK_MSG(got->type == want->type, "ray %u: committed type %u, expected %u", i, got->type,
             want->type);
   CHECK_MSG(got->candidates == candidates, "ray %u: %u candidates, expected %u", i,
             got->candidates, candidates);
   if (want->type == 0 || got->type != want->type)
      return;
   CHECK_MSG(fabsf(got->t - want->t) < 1e-4f, "ray %u: t %.6f, expected %.6f", i, got->t, want->t);
   CHECK_MSG(got->primitive == want->primitive && got->custom_index == want->custom_index &&
                 got->instance_id == want->instance_id && got->geometry == want->geometry,
             "ray %u: primitive %d custom %d instance %d geometry %d, expected %d %d %d %d", i,
             got->primitive, got->custom_index, got->instance_id, got->geometry, want->primitive,
             want->custom_index, want->instance_id, want->geometry);
   if (want->type != 1)
      return;
   CHECK_MSG(fabsf(got->barycentrics[0] - want->barycentrics[0]) < 1e-4f &&
                 fabsf(got->barycentrics[1] - want->barycentrics[1]) < 1e-4f,
             "ray %u: barycentrics (%.5f, %.5f), expected (%.5f, %.5f)", i, got->barycentrics[0],
             got->barycentrics[1], want->barycentrics[0], want->barycentrics[1]);
   CHECK_MSG(got->front_face == want->front_face, "ray %u: front face %u, expected %u", i,
             got->front_face, want->front_face);
}

/* The scene's rays and what each must give: `candidates` is how many
 * times Proceed returned true. */
struct ray_case {
   struct ray ray;
   struct ray_result want;
   uint32_t candidates;
};

static uint32_t scene_cases(struct ray_case *c)
{
   uint32_t n = 0;
   /* Opaque triangles of instance 0 (z = 5), both primitives. */
   c[n].ray = ray_at(0.25f, 0.25f, 0xff);
   c[n].want = with_instance(quad_hit(&c[n].ray, 0, 0, 5), 0, 0);
   n++;
   c[n].ray = ray_at(0.75f, 0.6f, 0xff);
   c[n].want = with_instance(quad_hit(&c[n].ray, 1, 0, 5), 0, 0);
   n++;
   /* Nothing there. */
   c[n].ray = ray_at(-5, 0.5f, 0xff);
   c[n].want = miss;
   n++;
   /* Cull mask: only instance 3 (z = 7); none at all. */
   c[n].ray = ray_at(0.25f, 0.25f, 0x08);
   c[n].want = with_instance(quad_hit(&c[n].ray, 0, 0, 7), 3, 0);
   n++;
   c[n].ray = ray_at(0.25f, 0.25f, 0x00);
   c[n].want = miss;
   n++;
   /* From above: instance 3's front face first. */
   c[n].ray = ray_at(0.25f, 0.25f, 0x09);
   c[n].ray.origin[2] = 10;
   c[n].ray.direction[2] = -1;
   c[n].want = with_instance(quad_hit(&c[n].ray, 0, 0, 7), 3, 0);
   n++;
   /* tmax before the first surface. */
   c[n].ray = ray_at(0.25f, 0.25f, 0xff);
   c[n].ray.tmax = 4;
   c[n].want = miss;
   n++;
   /* Back faces culled by the ray (instances 0 and 3 show their backs). */
   c[n].ray = ray_at(0.25f, 0.25f, 0x09);
   c[n].ray.flags = RAY_CULL_BACK_FACING;
   c[n].want = miss;
   n++;
   /* Instance 1, geometry 0 (non-opaque, z = 1 + 5): a candidate that is
    * committed only when the shader confirms it. */
   c[n].ray = ray_at(3.25f, 0.25f, 0x02);
   c[n].ray.mode = MODE_CONFIRM;
   c[n].want = with_instance(quad_hit(&c[n].ray, 0, 3, 6), 1, 0);
   c[n].candidates = 1;
   n++;
   c[n].ray = ray_at(3.25f, 0.25f, 0x02);
   c[n].want = miss;
   c[n].candidates = 1;
   n++;
   /* The same with gl_RayFlagsOpaqueEXT: committed without the shader. */
   c[n].ray = ray_at(3.75f, 0.6f, 0x02);
   c[n].ray.flags = RAY_OPAQUE;
   c[n].want = with_instance(quad_hit(&c[n].ray, 1, 3, 6), 1, 0);
   n++;
   /* Geometry 1 (opaque, x + 1 by its transform). */
   c[n].ray = ray_at(4.25f, 0.4f, 0x02);
   c[n].want = with_instance(quad_hit(&c[n].ray, 0, 4, 6), 1, 1);
   n++;
   /* Instance 2's box: an AABB candidate, committed by GenerateIntersection. */
   c[n].ray = ray_at(6.5f, 0.5f, 0x04);
   c[n].ray.mode = MODE_GENERATE;
   c[n].ray.generate_t = 5.5f;
   c[n].want = (struct ray_result){.type = 2, .t = 5.5f, .primitive = 0};
   c[n].want = with_instance(c[n].want, 2, 0);
   c[n].candidates = 1;
   n++;
   c[n].ray = ray_at(6.5f, 0.5f, 0x04);
   c[n].want = miss;
   c[n].candidates = 1;
   n++;
   return n;
}

/* Traces the scene's rays, plus one with TerminateOnFirstHit through
 * instances 0 and 3, whose hit may be either. */
static void check_scene(struct rig *r, const struct accel *tlas, bool update_after_bind)
{
   struct ray_case c[MAX_RAYS];
   memset(c, 0, sizeof(c));
   uint32_t n = scene_cases(c);
   struct ray rays[MAX_RAYS];
   for (uint32_t i = 0; i < n; i++)
      rays[i] = c[i].ray;
   rays[n] = ray_at(0.25f, 0.25f, 0x09);
   rays[n].flags = RAY_TERMINATE_ON_FIRST_HIT;
   struct ray_result got[MAX_RAYS];
   if (!trace(r, tlas, rays, n + 1, got, update_after_bind))
      return;
   for (uint32_t i = 0; i < n; i++)
      check_result(i, &c[i].want, &got[i], c[i].candidates);
   struct ray_result near = with_instance(quad_hit(&rays[n], 0, 0, 5), 0, 0);
   struct ray_result far = with_instance(quad_hit(&rays[n], 0, 0, 7), 3, 0);
   check_result(n, got[n].instance_id == 3 ? &far : &near, &got[n], 0);
}

/* --- cases ------------------------------------------------------------------------ */

TEST_CASE(device_built_scene_traces_known_rays)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   struct scene s;
   if (scene_build(&r, false, VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR, &s))
      check_scene(&r, &s.tlas, false);
   scene_destroy(&r, &s);
   rig_destroy(&r);
}

TEST_CASE(host_built_scene_traces_known_rays)
{
   struct rig r;
   if (!rig_create(&r) || !rig_require(&r, r.host_commands, "accelerationStructureHostCommands"))
      return;
   struct scene s;
   if (scene_build(&r, true, VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR, &s))
      check_scene(&r, &s.tlas, false);
   scene_destroy(&r, &s);
   rig_destroy(&r);
}

TEST_CASE(update_after_bind_descriptor_is_read_at_submission)
{
   struct rig r;
   if (!rig_create(&r) || !rig_require(&r, r.update_after_bind,
                                       "descriptorBindingAccelerationStructureUpdateAfterBind"))
      return;
   struct scene s;
   if (scene_build(&r, false, 0, &s))
      check_scene(&r, &s.tlas, true);
   scene_destroy(&r, &s);
   rig_destroy(&r);
}

/* Traces the first ray of the scene (instance 0, quad BLAS) through a TLAS
 * whose quad instances use `quad` instead; expects t = 5 + dz. */
static void check_quad_instance(struct rig *r, struct scene *s, const struct accel *quad_blas,
                                float dz)
{
   const struct accel *refs[INSTANCES];
   for (int i = 0; i < INSTANCES; i++)
      refs[i] = instances[i].blas == BLAS_QUAD ? quad_blas : &s->blas[instances[i].blas];
   struct accel tlas;
   if (make_tlas(r, refs, false, &tlas)) {
      struct ray rays[2] = {ray_at(0.25f, 0.25f, 0x01), ray_at(0.75f, 0.6f, 0x01)};
      struct ray_result got[2];
      if (trace(r, &tlas, rays, 2, got, false)) {
         for (uint32_t i = 0; i < 2; i++) {
            struct ray_result want = with_instance(quad_hit(&rays[i], i, 0, 5 + dz), 0, 0);
            check_result(i, &want, &got[i], 0);
         }
      }
   }
   accel_destroy(r, &tlas);
}

TEST_CASE(refit_moves_the_hit)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   struct scene s;
   if (scene_build(&r, false, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_UPDATE_BIT_KHR, &s)) {
      /* Move the quad's vertices up by 0.5 and update in place. */
      float *tri = input_at(&r, OFF_TRIANGLES);
      for (int i = 0; i < 6; i++)
         tri[3 * i + 2] = 0.5f;
      struct level l;
      blas_level(&r, BLAS_QUAD, false, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_UPDATE_BIT_KHR, &l);
      if (build_level(&r, &l, false, false, &s.blas[BLAS_QUAD], &s.blas[BLAS_QUAD]))
         check_quad_instance(&r, &s, &s.blas[BLAS_QUAD], 0.5f);
   }
   scene_destroy(&r, &s);
   rig_destroy(&r);
}

/* One acceleration-structure property of `as`, written by the device. */
static uint64_t device_property(struct rig *r, const struct accel *as, VkQueryType type)
{
   VkQueryPoolCreateInfo qci = {
       .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = type, .queryCount = 1};
   VkQueryPool pool;
   VKT_CHECK(vkCreateQueryPool(r->dev.device, &qci, NULL, &pool));
   VkCommandBuffer cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
   vkCmdResetQueryPool(cmd, pool, 0, 1);
   accel_barrier(cmd);
   vkCmdWriteAccelerationStructuresPropertiesKHR(cmd, 1, &as->handle, type, pool, 0);
   VKT_CHECK(vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd));
   uint64_t value = 0;
   VKT_CHECK(vkGetQueryPoolResults(r->dev.device, pool, 0, 1, sizeof(value), &value, sizeof(value),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
   vkDestroyQueryPool(r->dev.device, pool, NULL);
   return value;
}

static void copy_on_device(struct rig *r, const VkCopyAccelerationStructureInfoKHR *copy,
                           const VkCopyAccelerationStructureToMemoryInfoKHR *to_memory,
                           const VkCopyMemoryToAccelerationStructureInfoKHR *from_memory)
{
   VkCommandBuffer cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
   accel_barrier(cmd);
   if (copy)
      vkCmdCopyAccelerationStructureKHR(cmd, copy);
   if (to_memory)
      vkCmdCopyAccelerationStructureToMemoryKHR(cmd, to_memory);
   if (from_memory)
      vkCmdCopyMemoryToAccelerationStructureKHR(cmd, from_memory);
   /* Serialized data is written as a transfer write in the build stage. */
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT |
                                          VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
                         .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(
       cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR | VK_PIPELINE_STAGE_TRANSFER_BIT,
       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
   VKT_CHECK(vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd));
}

TEST_CASE(compacted_copy_traces_the_same)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   struct scene s;
   if (scene_build(&r, false, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR, &s)) {
      uint64_t size = device_property(&r, &s.blas[BLAS_QUAD],
                                      VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR);
      CHECK_MSG(size > 0 && size <= s.blas[BLAS_QUAD].storage.size,
                "compacted size %llu of a %llu-byte structure", (unsigned long long)size,
                (unsigned long long)s.blas[BLAS_QUAD].storage.size);
      struct accel compact = {0};
      if (size > 0 && accel_create(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, size, false,
                                   &compact)) {
         VkCopyAccelerationStructureInfoKHR copy = {
             .sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_INFO_KHR,
             .src = s.blas[BLAS_QUAD].handle,
             .dst = compact.handle,
             .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_COMPACT_KHR};
         copy_on_device(&r, &copy, NULL, NULL);
         /* The original goes away: the copy stands alone. */
         accel_destroy(&r, &s.blas[BLAS_QUAD]);
         check_quad_instance(&r, &s, &compact, 0);
      }
      accel_destroy(&r, &compact);
   }
   scene_destroy(&r, &s);
   rig_destroy(&r);
}

TEST_CASE(serialized_structure_deserializes_and_traces)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   struct scene s;
   if (!scene_build(&r, false, 0, &s)) {
      scene_destroy(&r, &s);
      rig_destroy(&r);
      return;
   }
   uint64_t size = device_property(&r, &s.blas[BLAS_QUAD],
                                   VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR);
   CHECK(size > 2 * VK_UUID_SIZE);
   struct vkt_buffer blob;
   VKT_CHECK(
       vkt_buffer_create(&r.dev, size,
                         VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                             VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR,
                         VKT_MEMORY_HOST, &blob));
   VkCopyAccelerationStructureToMemoryInfoKHR out = {
       .sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_TO_MEMORY_INFO_KHR,
       .src = s.blas[BLAS_QUAD].handle,
       .dst.deviceAddress = buffer_address(&r, blob.buffer),
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_SERIALIZE_KHR};
   copy_on_device(&r, NULL, &out, NULL);

   /* The header's two UUIDs say whether this device takes the data. */
   VkAccelerationStructureVersionInfoKHR version = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_VERSION_INFO_KHR,
       .pVersionData = blob.map};
   VkAccelerationStructureCompatibilityKHR compat =
       VK_ACCELERATION_STRUCTURE_COMPATIBILITY_MAX_ENUM_KHR;
   vkGetDeviceAccelerationStructureCompatibilityKHR(r.dev.device, &version, &compat);
   CHECK(compat == VK_ACCELERATION_STRUCTURE_COMPATIBILITY_COMPATIBLE_KHR);
   uint8_t foreign[2 * VK_UUID_SIZE];
   memcpy(foreign, blob.map, sizeof(foreign));
   foreign[3] ^= 0x5a; /* another driver, another format */
   foreign[VK_UUID_SIZE + 3] ^= 0x5a;
   version.pVersionData = foreign;
   vkGetDeviceAccelerationStructureCompatibilityKHR(r.dev.device, &version, &compat);
   CHECK(compat == VK_ACCELERATION_STRUCTURE_COMPATIBILITY_INCOMPATIBLE_KHR);

   struct accel copy;
   if (accel_create(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
                    s.blas[BLAS_QUAD].storage.size, false, &copy)) {
      VkCopyMemoryToAccelerationStructureInfoKHR in = {
          .sType = VK_STRUCTURE_TYPE_COPY_MEMORY_TO_ACCELERATION_STRUCTURE_INFO_KHR,
          .src.deviceAddress = buffer_address(&r, blob.buffer),
          .dst = copy.handle,
          .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_DESERIALIZE_KHR};
      copy_on_device(&r, NULL, NULL, &in);
      check_quad_instance(&r, &s, &copy, 0);
   }
   accel_destroy(&r, &copy);
   vkt_buffer_destroy(&r.dev, &blob);
   scene_destroy(&r, &s);
   rig_destroy(&r);
}

/* The host copy and property commands on host-built structures; the
 * deserialization runs as a deferred operation joined here. */
TEST_CASE(host_commands_compact_serialize_and_defer)
{
   struct rig r;
   if (!rig_create(&r) || !rig_require(&r, r.host_commands, "accelerationStructureHostCommands"))
      return;
   struct scene s;
   struct accel compact = {0}, copy = {0};
   void *blob = NULL;
   if (!scene_build(&r, true, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR, &s))
      goto done;
   uint64_t sizes[2] = {0, 0};
   VKT_CHECK(vkWriteAccelerationStructuresPropertiesKHR(
       r.dev.device, 1, &s.blas[BLAS_QUAD].handle,
       VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR, sizeof(sizes[0]), &sizes[0],
       sizeof(sizes[0])));
   VKT_CHECK(vkWriteAccelerationStructuresPropertiesKHR(
       r.dev.device, 1, &s.blas[BLAS_QUAD].handle,
       VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR, sizeof(sizes[1]), &sizes[1],
       sizeof(sizes[1])));
   CHECK(sizes[0] > 0 && sizes[0] <= s.blas[BLAS_QUAD].storage.size);
   CHECK(sizes[1] > 2 * VK_UUID_SIZE);
   if (!sizes[0] || !sizes[1] ||
       !accel_create(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, sizes[0], true,
                     &compact) ||
       !accel_create(&r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, sizes[0], true, &copy))
      goto done;
   VkCopyAccelerationStructureInfoKHR compaction = {
       .sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_INFO_KHR,
       .src = s.blas[BLAS_QUAD].handle,
       .dst = compact.handle,
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_COMPACT_KHR};
   VKT_CHECK(vkCopyAccelerationStructureKHR(r.dev.device, VK_NULL_HANDLE, &compaction));
   /* Serialized data has no alignment rule on the host; 16 is plenty. */
   blob = aligned_alloc(16, (sizes[1] + 15) / 16 * 16);
   VkCopyAccelerationStructureToMemoryInfoKHR out = {
       .sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_TO_MEMORY_INFO_KHR,
       .src = compact.handle,
       .dst.hostAddress = blob,
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_SERIALIZE_KHR};
   VKT_CHECK(vkCopyAccelerationStructureToMemoryKHR(r.dev.device, VK_NULL_HANDLE, &out));
   VkDeferredOperationKHR op;
   VKT_CHECK(vkCreateDeferredOperationKHR(r.dev.device, NULL, &op));
   VkCopyMemoryToAccelerationStructureInfoKHR in = {
       .sType = VK_STRUCTURE_TYPE_COPY_MEMORY_TO_ACCELERATION_STRUCTURE_INFO_KHR,
       .src.hostAddress = blob,
       .dst = copy.handle,
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_DESERIALIZE_KHR};
   VkResult res = vkCopyMemoryToAccelerationStructureKHR(r.dev.device, op, &in);
   CHECK(res == VK_SUCCESS || res == VK_OPERATION_DEFERRED_KHR ||
         res == VK_OPERATION_NOT_DEFERRED_KHR);
   if (res == VK_OPERATION_DEFERRED_KHR) {
      VkResult join;
      do
         join = vkDeferredOperationJoinKHR(r.dev.device, op);
      while (join == VK_THREAD_IDLE_KHR);
      CHECK(join == VK_SUCCESS || join == VK_THREAD_DONE_KHR);
      CHECK(vkGetDeferredOperationResultKHR(r.dev.device, op) == VK_SUCCESS);
   }
   vkDestroyDeferredOperationKHR(r.dev.device, op, NULL);
   check_quad_instance(&r, &s, &copy, 0);
done:
   free(blob);
   accel_destroy(&r, &compact);
   accel_destroy(&r, &copy);
   scene_destroy(&r, &s);
   rig_destroy(&r);
}

/* Traces the scene's rays through `tlas`, which must be empty: every ray
 * misses and no candidate is reported. */
static void check_every_ray_misses(struct rig *r, const struct accel *tlas)
{
   struct ray_case c[MAX_RAYS];
   struct ray rays[MAX_RAYS];
   struct ray_result got[MAX_RAYS];
   uint32_t n = scene_cases(c);
   for (uint32_t i = 0; i < n; i++)
      rays[i] = c[i].ray;
   if (trace(r, tlas, rays, n, got, false))
      for (uint32_t i = 0; i < n; i++)
         check_result(i, &miss, &got[i], 0);
}

/* Serialized data that fails validation: the structure inside the blob
 * (after the header's N bottom-level handles) loses its BVH magic. */
static void corrupt_serialized(uint8_t *blob)
{
   uint64_t handles;
   memcpy(&handles, blob + 48, sizeof(handles));
   memset(blob + 56 + 8 * handles, 0, 4);
}

/* A deserialization into a top level that fails (corrupt data) must leave
 * a valid empty TOP level (docs/acceleration-structures.md): a ray query
 * through it misses. A bottom level left there instead made the TTU fault
 * and lost the device. On the GPU timeline (a job) and, where reported, as
 * a host command. vkppu only: corrupt data is invalid usage elsewhere. */
TEST_CASE(failed_deserialization_leaves_an_empty_top_level)
{
   struct rig r;
   if (!rig_create(&r))
      return;
   if (!r.ctx.is_vkppu) {
      vkt_skip("corrupt serialized data is undefined behaviour on %s", r.ctx.props.deviceName);
      rig_destroy(&r);
      return;
   }
   struct scene s;
   struct vkt_buffer blob = {0};
   if (!scene_build(&r, false, 0, &s))
      goto done;
   uint64_t size =
       device_property(&r, &s.tlas, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR);
   CHECK(size > 56);
   VKT_CHECK(
       vkt_buffer_create(&r.dev, size,
                         VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                             VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR,
                         VKT_MEMORY_HOST, &blob));
   if (size <= 56 || !blob.buffer)
      goto done;
   VkCopyAccelerationStructureToMemoryInfoKHR out = {
       .sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_TO_MEMORY_INFO_KHR,
       .src = s.tlas.handle,
       .dst.deviceAddress = buffer_address(&r, blob.buffer),
       .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_SERIALIZE_KHR};
   copy_on_device(&r, NULL, &out, NULL);
   corrupt_serialized(blob.map);

   struct accel dst;
   if (accel_create(&r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, s.tlas.storage.size, false,
                    &dst)) {
      VkCopyMemoryToAccelerationStructureInfoKHR in = {
          .sType = VK_STRUCTURE_TYPE_COPY_MEMORY_TO_ACCELERATION_STRUCTURE_INFO_KHR,
          .src.deviceAddress = buffer_address(&r, blob.buffer),
          .dst = dst.handle,
          .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_DESERIALIZE_KHR};
      copy_on_device(&r, NULL, NULL, &in);
      check_every_ray_misses(&r, &dst);
   }
   accel_destroy(&r, &dst);

   if (r.host_commands && accel_create(&r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR,
                                       s.tlas.storage.size, true, &dst)) {
      VkCopyMemoryToAccelerationStructureInfoKHR in = {
          .sType = VK_STRUCTURE_TYPE_COPY_MEMORY_TO_ACCELERATION_STRUCTURE_INFO_KHR,
          .src.hostAddress = blob.map,
          .dst = dst.handle,
          .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_DESERIALIZE_KHR};
      static const char *const expected[] = {"invalid input", NULL};
      vkt_tolerate_begin(expected);
      VKT_CHECK_RESULT(vkCopyMemoryToAccelerationStructureKHR(r.dev.device, VK_NULL_HANDLE, &in),
                       VK_ERROR_UNKNOWN);
      CHECK(vkt_tolerate_end() == 1);
      check_every_ray_misses(&r, &dst);
   }
   accel_destroy(&r, &dst);
done:
   vkt_buffer_destroy(&r.dev, &blob);
   scene_destroy(&r, &s);
   rig_destroy(&r);
}

TEST_CASE(indirect_build_reads_its_ranges_from_memory)
{
   struct rig r;
   if (!rig_create(&r) || !rig_require(&r, r.indirect_build, "accelerationStructureIndirectBuild"))
      return;
   struct scene s;
   if (scene_build(&r, false, 0, &s)) {
      struct level l;
      blas_level(&r, BLAS_QUAD, false, 0, &l);
      struct accel quad_blas;
      VkAccelerationStructureBuildSizesInfoKHR sizes = level_sizes(&r, &l, false);
      if (accel_create(&r, l.type, sizes.accelerationStructureSize, false, &quad_blas) &&
          build_level(&r, &l, false, true, NULL, &quad_blas))
         check_quad_instance(&r, &s, &quad_blas, 0);
      accel_destroy(&r, &quad_blas);
   }
   scene_destroy(&r, &s);
   rig_destroy(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
