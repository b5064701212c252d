/* VK_KHR_ray_tracing_pipeline through the loader with validation on: every
 * shader stage and built-in, any-hit accept / ignore / terminate,
 * procedural hits, callables from raygen and closest-hit shaders, SBT
 * offsets, strides, miss indices and shader record data, ray flags
 * (culling, opaque, skip closest hit, primitive culling), tmin / tmax,
 * vkCmdTraceRaysIndirectKHR, pipeline libraries, and recursion to the
 * advertised maxRayRecursionDepth.
 *
 * The scene: four instances at z = 5 (translated by x = 0, 2, 4, 6) of an
 * opaque triangle, a non-opaque triangle, an opaque unit box (a sphere for
 * the intersection shader) and a bottom level of two opaque triangles
 * (geometry 1 beside geometry 0). shaders/rt_basic.* write what every
 * stage sees into a 32-word payload, which is compared with what is
 * computed here: integers exactly, floats to 1e-5. The same shaders give
 * the same results on lavapipe (lvp.ray_tracing_pipeline). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ray_tracing_test_util.h"

/* --- scene ------------------------------------------------------------------------ */

enum blas_kind { BLAS_OPAQUE, BLAS_NO_OPAQUE, BLAS_BOX, BLAS_TWO_GEOMETRIES, BLAS_KINDS };

#define INSTANCES 4
static const struct {
   enum blas_kind blas;
   float x;
   uint32_t custom, sbt;
} instances[INSTANCES] = {
    {BLAS_OPAQUE, 0, 10, 0},
    {BLAS_NO_OPAQUE, 2, 11, 1},
    {BLAS_BOX, 4, 12, 2},
    {BLAS_TWO_GEOMETRIES, 6, 13, 1},
};

/* In the object's z = 0 plane; a ray going +z sees the back face. */
static const float triangles[2][3][3] = {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
                                         {{1, 0, 0}, {2, 0, 0}, {1, 1, 0}}};
static const VkAabbPositionsKHR unit_box = {0, 0, 0, 1, 1, 1};

#define OFF_VERTICES 0
#define OFF_BOX 128
#define OFF_INSTANCES 192
#define INPUT_SIZE (OFF_INSTANCES + INSTANCES * sizeof(VkAccelerationStructureInstanceKHR))

struct scene {
   struct vkt_buffer input;
   struct atu_accel blas[BLAS_KINDS];
   struct atu_accel tlas;
};

static VkAccelerationStructureGeometryKHR triangle_geometry(VkDeviceAddress vertices, bool opaque)
{
   VkAccelerationStructureGeometryKHR g = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR,
       .flags = opaque ? VK_GEOMETRY_OPAQUE_BIT_KHR
                       : VK_GEOMETRY_NO_DUPLICATE_ANY_HIT_INVOCATION_BIT_KHR};
   g.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
       .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
       .vertexData.deviceAddress = vertices,
       .vertexStride = 3 * sizeof(float),
       .maxVertex = 2,
       .indexType = VK_INDEX_TYPE_NONE_KHR};
   return g;
}

static bool scene_build(struct rtu_rig *r, struct scene *s)
{
   memset(s, 0, sizeof(*s));
   VKT_CHECK(
       vkt_buffer_create(&r->dev, INPUT_SIZE,
                         VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
                             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                         VKT_MEMORY_HOST, &s->input));
   if (!s->input.map)
      return false;
   char *map = s->input.map;
   memcpy(map + OFF_VERTICES, triangles, sizeof(triangles));
   memcpy(map + OFF_BOX, &unit_box, sizeof(unit_box));
   VkDeviceAddress input = rtu_address(r, s->input.buffer);
   const uint32_t one[2] = {1, 1};
   for (int k = 0; k < BLAS_KINDS; k++) {
      VkAccelerationStructureGeometryKHR g[2];
      uint32_t count = 1;
      if (k == BLAS_BOX) {
         g[0] = (VkAccelerationStructureGeometryKHR){
             .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
             .geometryType = VK_GEOMETRY_TYPE_AABBS_KHR,
             .flags = VK_GEOMETRY_OPAQUE_BIT_KHR};
         g[0].geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){
             .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
             .data.deviceAddress = input + OFF_BOX,
             .stride = sizeof(VkAabbPositionsKHR)};
      } else {
         g[0] = triangle_geometry(input + OFF_VERTICES, k != BLAS_NO_OPAQUE);
         if (k == BLAS_TWO_GEOMETRIES) {
            g[1] = triangle_geometry(input + OFF_VERTICES + sizeof(triangles[0]), true);
            count = 2;
         }
      }
      if (!rtu_accel_build(r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, g, one, count,
                           &s->blas[k]))
         return false;
   }
   VkAccelerationStructureInstanceKHR *inst = (void *)(map + OFF_INSTANCES);
   for (uint32_t i = 0; i < INSTANCES; i++) {
      inst[i] = (VkAccelerationStructureInstanceKHR){
          .transform = {{{1, 0, 0, instances[i].x}, {0, 1, 0, 0}, {0, 0, 1, 5}}},
          .instanceCustomIndex = instances[i].custom,
          .mask = 0xff,
          .instanceShaderBindingTableRecordOffset = instances[i].sbt,
          .accelerationStructureReference = s->blas[instances[i].blas].address};
   }
   VkAccelerationStructureGeometryKHR top = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
       .geometry.instances = {
           .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
           .data.deviceAddress = input + OFF_INSTANCES}};
   const uint32_t count = INSTANCES;
   return rtu_accel_build(r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &top, &count, 1,
                          &s->tlas);
}

static void scene_destroy(struct rtu_rig *r, struct scene *s)
{
   atu_accel_destroy(&r->dev, &s->tlas);
   for (int k = 0; k < BLAS_KINDS; k++)
      atu_accel_destroy(&r->dev, &s->blas[k]);
   vkt_buffer_destroy(&r->dev, &s->input);
}

/* --- pipeline, SBT, launch -------------------------------------------------------- */

/* std430 Ray of rt_basic.rgen. */
struct ray {
   float origin[3], tmin;
   float direction[3], tmax;
   uint32_t flags, sbt_offset, sbt_stride, miss_index, callable_index, pad[3];
};

enum stage { ST_RAYGEN, ST_MISS, ST_CHIT, ST_AHIT, ST_INT, ST_CALL, ST_BIG_AHIT, STAGES };
static const struct rtu_stage basic_stages[STAGES] = {
    {"rt_basic.rgen", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
    {"rt_basic.rmiss", VK_SHADER_STAGE_MISS_BIT_KHR},
    {"rt_basic.rchit", VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR},
    {"rt_basic.rahit", VK_SHADER_STAGE_ANY_HIT_BIT_KHR},
    {"rt_basic.rint", VK_SHADER_STAGE_INTERSECTION_BIT_KHR},
    {"rt_basic.rcall", VK_SHADER_STAGE_CALLABLE_BIT_KHR},
    {"rt_bigframe.rahit", VK_SHADER_STAGE_ANY_HIT_BIT_KHR},
};
enum group {
   G_RAYGEN,
   G_MISS,
   G_TRI,
   G_TRI_AHIT,
   G_PROC,
   G_CALL,
   G_PROC_AHIT,
   G_TRI_BIG_AHIT,
   GROUPS
};

/* Hit records: group, value, any-hit mode (0 accept, 1 ignore, 2
 * terminate). Record = instance offset + geometry * stride + ray offset. */
static const struct rtu_sbt_record hit_records[] = {
    {G_TRI, {100, 0}},          {G_TRI_AHIT, {101, 0}}, {G_PROC, {102, 0}},
    {G_TRI_AHIT, {103, 1}},     {G_TRI_AHIT, {104, 2}}, {G_TRI, {105, 0}},
    {G_PROC_AHIT, {106, 0}},    /* the sphere with an any-hit shader that accepts */
    {G_TRI_BIG_AHIT, {107, 0}}, /* an any-hit shader with a 1 KiB frame */
};
static const struct rtu_sbt_record miss_records[] = {{G_MISS, {200}}, {G_MISS, {201}}};
static const struct rtu_sbt_record raygen_record[] = {{G_RAYGEN, {0}}};
static const struct rtu_sbt_record callable_records[] = {{G_CALL, {300}}};

#define WORDS 32
#define MAX_RAYS 32

struct launch {
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkDescriptorPool pool;
   VkDescriptorSet set;
   VkPipeline pipeline;
   VkPipeline libraries[2]; /* linked_pipeline's, kept while the pipeline is used */
   struct rtu_sbt sbt;
   struct vkt_buffer rays, out;
};

static void launch_destroy(struct rtu_rig *r, struct launch *l)
{
   VkDevice d = r->dev.device;
   if (l->pipeline)
      vkDestroyPipeline(d, l->pipeline, NULL);
   for (int i = 0; i < 2; i++)
      if (l->libraries[i])
         vkDestroyPipeline(d, l->libraries[i], NULL);
   vkt_buffer_destroy(&r->dev, &l->sbt.buffer);
   vkt_buffer_destroy(&r->dev, &l->rays);
   vkt_buffer_destroy(&r->dev, &l->out);
   if (l->pool)
      vkDestroyDescriptorPool(d, l->pool, NULL);
   if (l->layout)
      vkDestroyPipelineLayout(d, l->layout, NULL);
   if (l->set_layout)
      vkDestroyDescriptorSetLayout(d, l->set_layout, NULL);
}

/* Set 0: the TLAS (0), the rays (1), the output (2); a 4-byte push
 * constant. */
static bool launch_setup(struct rtu_rig *r, const struct scene *s, struct launch *l,
                         VkDeviceSize out_bytes)
{
   memset(l, 0, sizeof(*l));
   VkDevice d = r->dev.device;
   rtu_set_create(r, 4, &l->set_layout, &l->layout, &l->pool, &l->set);
   VKT_CHECK(vkt_buffer_create(&r->dev, MAX_RAYS * sizeof(struct ray),
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &l->rays));
   VKT_CHECK(vkt_buffer_create(&r->dev, out_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &l->out));
   if (!l->set || !l->rays.map || !l->out.map)
      return false;
   VkWriteDescriptorSetAccelerationStructureKHR as = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
       .accelerationStructureCount = 1,
       .pAccelerationStructures = &s->tlas.handle};
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .pNext = &as,
                             .dstSet = l->set,
                             .dstBinding = 0,
                             .descriptorCount = 1,
                             .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR};
   vkUpdateDescriptorSets(d, 1, &w, 0, NULL);
   ctu_write_buffer(&r->dev, l->set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, l->rays.buffer, 0,
                    VK_WHOLE_SIZE);
   ctu_write_buffer(&r->dev, l->set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, l->out.buffer, 0,
                    VK_WHOLE_SIZE);
   return true;
}

/* A width x height launch, with vkCmdTraceRaysIndirectKHR when indirect
 * (the launch size in a buffer written by the host). */
enum trace_command { TRACE_DIRECT, TRACE_INDIRECT, TRACE_INDIRECT2 };

/* The SBT regions and launch size of vkCmdTraceRaysIndirect2KHR. */
static VkTraceRaysIndirectCommand2KHR indirect2_command(const struct launch *l, uint32_t width,
                                                        uint32_t height)
{
   return (VkTraceRaysIndirectCommand2KHR){
       .raygenShaderRecordAddress = l->sbt.raygen.deviceAddress,
       .raygenShaderRecordSize = l->sbt.raygen.size,
       .missShaderBindingTableAddress = l->sbt.miss.deviceAddress,
       .missShaderBindingTableSize = l->sbt.miss.size,
       .missShaderBindingTableStride = l->sbt.miss.stride,
       .hitShaderBindingTableAddress = l->sbt.hit.deviceAddress,
       .hitShaderBindingTableSize = l->sbt.hit.size,
       .hitShaderBindingTableStride = l->sbt.hit.stride,
       .callableShaderBindingTableAddress = l->sbt.callable.deviceAddress,
       .callableShaderBindingTableSize = l->sbt.callable.size,
       .callableShaderBindingTableStride = l->sbt.callable.stride,
       .width = width,
       .height = height,
       .depth = 1};
}

static bool launch_run(struct rtu_rig *r, struct launch *l, uint32_t width, uint32_t height,
                       uint32_t push, enum trace_command how)
{
   struct vkt_buffer size = {0};
   if (how != TRACE_DIRECT) {
      VKT_CHECK(vkt_buffer_create(&r->dev, sizeof(VkTraceRaysIndirectCommand2KHR),
                                  VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                      VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                  VKT_MEMORY_HOST, &size));
      if (!size.map)
         return false;
      if (how == TRACE_INDIRECT2)
         *(VkTraceRaysIndirectCommand2KHR *)size.map = indirect2_command(l, width, height);
      else
         *(VkTraceRaysIndirectCommandKHR *)size.map =
             (VkTraceRaysIndirectCommandKHR){width, height, 1};
   }
   VkCommandBuffer cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, l->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, l->layout, 0, 1, &l->set, 0,
                           NULL);
   vkCmdPushConstants(cmd, l->layout, RTU_ALL_STAGES, 0, 4, &push);
   if (how == TRACE_INDIRECT2)
      vkCmdTraceRaysIndirect2KHR(cmd, rtu_address(r, size.buffer));
   else if (how == TRACE_INDIRECT)
      vkCmdTraceRaysIndirectKHR(cmd, &l->sbt.raygen, &l->sbt.miss, &l->sbt.hit, &l->sbt.callable,
                                rtu_address(r, size.buffer));
   else
      vkCmdTraceRaysKHR(cmd, &l->sbt.raygen, &l->sbt.miss, &l->sbt.hit, &l->sbt.callable, width,
                        height, 1);
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
   VkResult res = vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd);
   vkt_buffer_destroy(&r->dev, &size);
   if (res != VK_SUCCESS)
      test_fail(__FILE__, __LINE__, "vkCmdTraceRays%sKHR -> %s",
                how == TRACE_INDIRECT2  ? "Indirect2"
                : how == TRACE_INDIRECT ? "Indirect"
                                        : "",
                vkt_result_name(res));
   return res == VK_SUCCESS;
}

/* --- expected payloads ------------------------------------------------------------ */

/* Payload words (rt_basic.*): */
enum word {
   W_STAGE = 0, /* 1 closest hit, 2 miss, 0 neither */
   W_T = 1,     /* gl_RayTmaxEXT */
   W_CUSTOM = 2,
   W_INSTANCE = 3,
   W_PRIMITIVE = 4,
   W_GEOMETRY = 5,
   W_HIT_KIND = 6,
   W_RECORD = 7,
   W_ATTRIB = 8, /* 2 words */
   W_ANY_HITS = 10,
   W_FLAGS = 11,
   W_OBJECT_ORIGIN = 12, /* 3 */
   W_TMIN = 15,
   W_WORLD_DIRECTION = 16, /* 3 */
   W_CHIT_CALLABLE = 19,
   W_RAYGEN_CALLABLE = 20,
   W_WORLD_ORIGIN = 21, /* 3 */
   W_OBJECT_TO_WORLD_X = 24,
   W_WORLD_TO_OBJECT_X = 25,
   W_OBJECT_DIRECTION_Z = 26,
   W_ANY_HIT_T = 27,
   W_LAUNCH_ID = 28,
   W_LAUNCH_SIZE = 29,
   W_LAUNCH_Y = 30,
   W_ANY_HIT_KIND = 31,
};
static const bool is_float_word[WORDS] = {
    [W_T] = true,
    [W_ATTRIB] = true,
    [W_ATTRIB + 1] = true,
    [W_OBJECT_ORIGIN] = true,
    [13] = true,
    [14] = true,
    [W_TMIN] = true,
    [W_WORLD_DIRECTION] = true,
    [17] = true,
    [18] = true,
    [W_WORLD_ORIGIN] = true,
    [22] = true,
    [23] = true,
    [W_OBJECT_TO_WORLD_X] = true,
    [W_WORLD_TO_OBJECT_X] = true,
    [W_OBJECT_DIRECTION_Z] = true,
    [W_ANY_HIT_T] = true,
};

static uint32_t fbits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static float bitsf(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

#define NONE 0xffffffffu
#define UP 1.0f
#define DOWN -1.0f

/* A ray from (x, y, 0) along z (UP reaches the instances at z = 5). */
static struct ray aim(float x, float y, float dz)
{
   return (struct ray){.origin = {x, y, 0},
                       .tmin = 0,
                       .direction = {0, 0, dz},
                       .tmax = 100,
                       .sbt_stride = 1,
                       .callable_index = NONE};
}

struct rt_case {
   const char *name;
   struct ray ray;
   uint32_t words[WORDS]; /* expected; launch words are filled in */
};

static void world_ray_words(struct rt_case *c)
{
   for (int k = 0; k < 3; k++) {
      c->words[W_WORLD_DIRECTION + k] = fbits(c->ray.direction[k]);
      c->words[W_WORLD_ORIGIN + k] = fbits(c->ray.origin[k]);
   }
   c->words[W_FLAGS] = c->ray.flags;
   c->words[W_TMIN] = fbits(c->ray.tmin);
}

static void expect_miss(struct rt_case *c, uint32_t record)
{
   memset(c->words, 0, sizeof(c->words));
   c->words[W_STAGE] = 2;
   c->words[W_T] = fbits(c->ray.tmax);
   c->words[W_RECORD] = record;
   world_ray_words(c);
}

/* A closest hit on instance i at t = 5 with barycentrics / attributes
 * (a0, a1). */
static void expect_hit(struct rt_case *c, uint32_t i, uint32_t geometry, uint32_t kind,
                       uint32_t record, float a0, float a1)
{
   memset(c->words, 0, sizeof(c->words));
   c->words[W_STAGE] = 1;
   c->words[W_T] = fbits(5.0f);
   c->words[W_CUSTOM] = instances[i].custom;
   c->words[W_INSTANCE] = i;
   c->words[W_GEOMETRY] = geometry;
   c->words[W_HIT_KIND] = kind;
   c->words[W_RECORD] = record;
   c->words[W_ATTRIB] = fbits(a0);
   c->words[W_ATTRIB + 1] = fbits(a1);
   c->words[W_OBJECT_ORIGIN] = fbits(c->ray.origin[0] - instances[i].x);
   c->words[W_OBJECT_ORIGIN + 1] = fbits(c->ray.origin[1]);
   c->words[W_OBJECT_ORIGIN + 2] = fbits(-5.0f);
   c->words[W_OBJECT_TO_WORLD_X] = fbits(instances[i].x);
   c->words[W_WORLD_TO_OBJECT_X] = fbits(-instances[i].x);
   c->words[W_OBJECT_DIRECTION_Z] = fbits(c->ray.direction[2]);
   world_ray_words(c);
}

/* The any-hit shader ran once on instance 1 (t = 5, back face). */
static void expect_any_hit(struct rt_case *c)
{
   c->words[W_ANY_HITS] = 1;
   c->words[W_ANY_HIT_T] = fbits(5.0f);
   c->words[W_ANY_HIT_KIND] = 0xff + 0x100;
}

static bool close_to(float got, float want)
{
   return fabsf(got - want) <= 1e-5f * fmaxf(1.0f, fabsf(want));
}

static void check_words(const struct rt_case *c, const uint32_t *got)
{
   for (int k = 0; k < WORDS; k++) {
      bool ok =
          is_float_word[k] ? close_to(bitsf(got[k]), bitsf(c->words[k])) : got[k] == c->words[k];
      CHECK_MSG(ok, "%s: word %d is 0x%08x (%g), want 0x%08x (%g)", c->name, k, got[k],
                (double)bitsf(got[k]), c->words[k], (double)bitsf(c->words[k]));
   }
}

/* The rt_basic groups from two libraries: the miss group, then the hit and
 * callable groups; the pipeline itself has only the raygen group, so the
 * groups are numbered as in basic_pipeline (own groups first, then the
 * libraries' in order). */
static VkResult linked_pipeline(struct rtu_rig *r, struct launch *l)
{
   const VkRayTracingShaderGroupTypeKHR
       tri = VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR,
       proc = VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR;
   const uint32_t none = VK_SHADER_UNUSED_KHR;
   static const struct rtu_stage miss_stages[1] = {
       {"rt_basic.rmiss", VK_SHADER_STAGE_MISS_BIT_KHR}};
   static const struct rtu_stage hit_stages[5] = {
       {"rt_basic.rchit", VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR},
       {"rt_basic.rahit", VK_SHADER_STAGE_ANY_HIT_BIT_KHR},
       {"rt_basic.rint", VK_SHADER_STAGE_INTERSECTION_BIT_KHR},
       {"rt_basic.rcall", VK_SHADER_STAGE_CALLABLE_BIT_KHR},
       {"rt_bigframe.rahit", VK_SHADER_STAGE_ANY_HIT_BIT_KHR}};
   VkRayTracingShaderGroupCreateInfoKHR miss_groups[1] = {rtu_general_group(0)};
   VkRayTracingShaderGroupCreateInfoKHR hit_groups[6] = {
       rtu_hit_group(tri, 0, none, none), rtu_hit_group(tri, 0, 1, none),
       rtu_hit_group(proc, 0, none, 2),   rtu_general_group(3),
       rtu_hit_group(proc, 0, 1, 2),      rtu_hit_group(tri, 0, 4, none)};
   VkRayTracingShaderGroupCreateInfoKHR raygen_group[1] = {rtu_general_group(0)};
   VkPipeline *libraries = l->libraries;
   struct rtu_linking library = {.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR};
   VkResult res = rtu_pipeline_create_linked(r, miss_stages, 1, miss_groups, 1, 1, l->layout,
                                             &library, &libraries[0]);
   if (res == VK_SUCCESS)
      res = rtu_pipeline_create_linked(r, hit_stages, 5, hit_groups, 6, 1, l->layout, &library,
                                       &libraries[1]);
   struct rtu_linking linked = {.libraries = libraries, .library_count = 2};
   if (res == VK_SUCCESS)
      res = rtu_pipeline_create_linked(r, basic_stages, 1, raygen_group, 1, 1, l->layout, &linked,
                                       &l->pipeline);
   return res;
}

static void basic_groups(VkRayTracingShaderGroupCreateInfoKHR out[GROUPS])
{
   const VkRayTracingShaderGroupCreateInfoKHR groups[GROUPS] = {
       [G_RAYGEN] = rtu_general_group(ST_RAYGEN),
       [G_MISS] = rtu_general_group(ST_MISS),
       [G_TRI] = rtu_hit_group(VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR, ST_CHIT,
                               VK_SHADER_UNUSED_KHR, VK_SHADER_UNUSED_KHR),
       [G_TRI_AHIT] = rtu_hit_group(VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR,
                                    ST_CHIT, ST_AHIT, VK_SHADER_UNUSED_KHR),
       [G_PROC] = rtu_hit_group(VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR, ST_CHIT,
                                VK_SHADER_UNUSED_KHR, ST_INT),
       [G_CALL] = rtu_general_group(ST_CALL),
       [G_PROC_AHIT] = rtu_hit_group(VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR,
                                     ST_CHIT, ST_AHIT, ST_INT),
       [G_TRI_BIG_AHIT] = rtu_hit_group(VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR,
                                        ST_CHIT, ST_BIG_AHIT, VK_SHADER_UNUSED_KHR),
   };
   memcpy(out, groups, sizeof(groups));
}

static bool basic_pipeline(struct rtu_rig *r, struct launch *l, bool from_libraries,
                           VkPipelineCreateFlags create_flags)
{
   VkRayTracingShaderGroupCreateInfoKHR groups[GROUPS];
   basic_groups(groups);
   struct rtu_linking flags = {.flags = create_flags};
   VkResult res = from_libraries
                      ? linked_pipeline(r, l)
                      : rtu_pipeline_create_linked(r, basic_stages, STAGES, groups, GROUPS, 1,
                                                   l->layout, &flags, &l->pipeline);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateRayTracingPipelinesKHR -> %s", vkt_result_name(res));
      return false;
   }
   const struct rtu_sbt_record *regions[4] = {raygen_record, miss_records, hit_records,
                                              callable_records};
   const uint32_t counts[4] = {1, 2, 8, 1};
   return rtu_sbt_create(r, l->pipeline, GROUPS, regions, counts, &l->sbt);
}

/* Traces rays[] (width of them) over a width x height launch of the
 * rt_basic pipeline, the output filled with `fill` bytes first, and copies
 * out_words words of the output to out. */
struct trace_mode {
   bool indirect;                      /* vkCmdTraceRaysIndirectKHR */
   bool indirect2;                     /* vkCmdTraceRaysIndirect2KHR (skipped without it) */
   bool from_libraries;                /* linked_pipeline */
   VkPipelineCreateFlags create_flags; /* e.g. SKIP_AABBS (not with from_libraries) */
   bool vkppu_only;                    /* skipped on another driver */
};

static bool trace_basic(const struct ray *rays, uint32_t width, uint32_t height,
                        struct trace_mode mode, uint8_t fill, uint32_t *out, size_t out_words)
{
   struct rtu_rig r;
   if (!rtu_rig_create(&r))
      return false;
   if (mode.vkppu_only && !r.ctx.is_vkppu) {
      vkt_skip("%s: checked on vkppu only (see the case)", r.ctx.props.deviceName);
      vkt_teardown(&r.ctx, &r.dev);
      return false;
   }
   if (mode.indirect2 && !r.maintenance1) {
      vkt_skip("%s does not offer rayTracingPipelineTraceRaysIndirect2", r.ctx.props.deviceName);
      vkt_teardown(&r.ctx, &r.dev);
      return false;
   }
   struct scene s;
   struct launch l;
   memset(&l, 0, sizeof(l));
   bool ok = scene_build(&r, &s) && launch_setup(&r, &s, &l, out_words * 4) &&
             basic_pipeline(&r, &l, mode.from_libraries, mode.create_flags);
   if (ok) {
      memcpy(l.rays.map, rays, width * sizeof(*rays));
      memset(l.out.map, fill, out_words * 4);
      ok = launch_run(&r, &l, width, height, 0,
                      mode.indirect2  ? TRACE_INDIRECT2
                      : mode.indirect ? TRACE_INDIRECT
                                      : TRACE_DIRECT);
      if (ok)
         memcpy(out, l.out.map, out_words * 4);
   }
   launch_destroy(&r, &l);
   scene_destroy(&r, &s);
   vkt_teardown(&r.ctx, &r.dev);
   return ok;
}

/* --- cases ------------------------------------------------------------------------ */

static void check_every_stage(struct trace_mode mode)
{
   struct rt_case cases[MAX_RAYS];
   uint32_t n = 0;
   struct rt_case *c;

#define NEW_CASE(label, x, y, dz)                                                                  \
   do {                                                                                            \
      c = &cases[n++];                                                                             \
      c->name = (label);                                                                           \
      c->ray = aim((x), (y), (dz));                                                                \
   } while (0)

   NEW_CASE("opaque triangle", 0.25f, 0.25f, UP);
   expect_hit(c, 0, 0, 0xff, 100, 0.25f, 0.25f);

   NEW_CASE("any-hit accepts", 2.25f, 0.5f, UP);
   expect_hit(c, 1, 0, 0xff, 101, 0.25f, 0.5f);
   expect_any_hit(c);

   NEW_CASE("any-hit ignores", 2.25f, 0.5f, UP);
   c->ray.sbt_offset = 2;
   expect_miss(c, 200);
   expect_any_hit(c);

   NEW_CASE("any-hit terminates", 2.25f, 0.5f, UP);
   c->ray.sbt_offset = 3;
   expect_hit(c, 1, 0, 0xff, 104, 0.25f, 0.5f);
   expect_any_hit(c);

   NEW_CASE("procedural hit: the closest report wins", 4.5f, 0.5f, UP);
   expect_hit(c, 2, 0, 7, 102, 0.25f, 0.75f);

   NEW_CASE("miss index 1", 0.25f, 0.25f, DOWN);
   c->ray.miss_index = 1;
   expect_miss(c, 201);

   NEW_CASE("cull back facing", 0.25f, 0.25f, UP);
   c->ray.flags = 0x10;
   expect_miss(c, 200);

   NEW_CASE("front face is not culled by cull back facing", 0.25f, 0.25f, DOWN);
   c->ray.origin[2] = 10;
   c->ray.flags = 0x10;
   expect_hit(c, 0, 0, 0xfe, 100, 0.25f, 0.25f);
   c->words[W_OBJECT_ORIGIN + 2] = fbits(5.0f);

   NEW_CASE("skip closest hit", 0.25f, 0.25f, UP);
   c->ray.flags = 0x08;
   memset(c->words, 0, sizeof(c->words));

   NEW_CASE("opaque flag skips any-hit", 2.25f, 0.5f, UP);
   c->ray.flags = 0x01;
   expect_hit(c, 1, 0, 0xff, 101, 0.25f, 0.5f);

   NEW_CASE("tmax before the hit", 0.25f, 0.25f, UP);
   c->ray.tmax = 4;
   expect_miss(c, 200);

   NEW_CASE("tmin beyond the hit", 0.25f, 0.25f, UP);
   c->ray.tmin = 6;
   expect_miss(c, 200);

   NEW_CASE("callable from raygen", 0.25f, 0.25f, UP);
   c->ray.callable_index = 0;
   expect_hit(c, 0, 0, 0xff, 100, 0.25f, 0.25f);
   c->words[W_RAYGEN_CALLABLE] = 7 * 3 + 300;

   NEW_CASE("sbt stride times geometry index, callable from closest hit", 7.25f, 0.25f, UP);
   c->ray.sbt_stride = 4;
   expect_hit(c, 3, 1, 0xff, 105, 0.25f, 0.25f);
   c->words[W_CHIT_CALLABLE] = 5 * 3 + 300;

   NEW_CASE("skip triangles", 0.25f, 0.25f, UP);
   c->ray.flags = 0x100;
   expect_miss(c, 200);

   NEW_CASE("skip AABBs", 4.5f, 0.5f, UP);
   c->ray.flags = 0x200;
   expect_miss(c, 200);

   NEW_CASE("sbt offset picks another record", 0.25f, 0.25f, UP);
   c->ray.sbt_offset = 5;
   expect_hit(c, 0, 0, 0xff, 105, 0.25f, 0.25f);

   /* An any-hit shader whose frame is 1 KiB of locals, on the default stack
    * (the spec's formula over the pipeline's stages). */
   NEW_CASE("any-hit with a 1 KiB frame on the default stack", 2.25f, 0.5f, UP);
   c->ray.sbt_offset = 6;
   expect_hit(c, 1, 0, 0xff, 107, 0.25f, 0.5f);
   expect_any_hit(c);

   /* The box is opaque: its group's any-hit shader does not run. */
   NEW_CASE("an opaque AABB runs no any-hit", 4.5f, 0.5f, UP);
   c->ray.sbt_offset = 4;
   expect_hit(c, 2, 0, 7, 106, 0.25f, 0.75f);
#undef NEW_CASE

   uint32_t *out = calloc(MAX_RAYS * WORDS, 4);
   struct ray rays[MAX_RAYS];
   for (uint32_t i = 0; i < n; i++)
      rays[i] = cases[i].ray;
   if (out && trace_basic(rays, n, 1, mode, 0xab, out, MAX_RAYS * WORDS)) {
      for (uint32_t i = 0; i < n; i++) {
         cases[i].words[W_LAUNCH_ID] = i;
         cases[i].words[W_LAUNCH_SIZE] = n;
         cases[i].words[W_LAUNCH_Y] = 10;
         check_words(&cases[i], out + (size_t)i * WORDS);
      }
   }
   free(out);
}

/* A pipeline created with SKIP_AABBS skips the box, but its shaders see
 * the ray flags the trace passed, not the pipeline's flag
 * (IncomingRayFlagsKHR): a triangle hit with OPAQUE, the box a miss. */
TEST_CASE(pipeline_skip_flags_are_not_incoming_ray_flags)
{
   struct rt_case cases[2];
   cases[0].name = "triangle, opaque flag, SKIP_AABBS pipeline";
   cases[0].ray = aim(0.25f, 0.25f, UP);
   cases[0].ray.flags = 0x01;
   expect_hit(&cases[0], 0, 0, 0xff, 100, 0.25f, 0.25f);
   cases[1].name = "the box, SKIP_AABBS pipeline";
   cases[1].ray = aim(4.5f, 0.5f, UP);
   expect_miss(&cases[1], 200);
   struct ray rays[2] = {cases[0].ray, cases[1].ray};
   uint32_t out[2 * WORDS];
   struct trace_mode mode = {.create_flags = VK_PIPELINE_CREATE_RAY_TRACING_SKIP_AABBS_BIT_KHR};
   if (trace_basic(rays, 2, 1, mode, 0xab, out, 2 * WORDS)) {
      for (uint32_t i = 0; i < 2; i++) {
         cases[i].words[W_LAUNCH_ID] = i;
         cases[i].words[W_LAUNCH_SIZE] = 2;
         cases[i].words[W_LAUNCH_Y] = 10;
         check_words(&cases[i], out + (size_t)i * WORDS);
      }
   }
}

/* The ray's NO_OPAQUE flag makes the opaque box non-opaque, so its group's
 * any-hit shader runs for both reports, the entry (kind 7) last (Vulkan
 * "Ray Opacity Culling": the ray flag takes precedence over the geometry's
 * and the instance's; the CTS's incomingrayflagsext.aabs.*.ahit cases
 * expect the same). Lavapipe 25 runs no any-hit here, so vkppu only. */
TEST_CASE(no_opaque_ray_flag_runs_any_hit_on_an_opaque_aabb)
{
   struct rt_case c;
   c.name = "no-opaque ray flag on the opaque box";
   c.ray = aim(4.5f, 0.5f, UP);
   c.ray.sbt_offset = 4;
   c.ray.flags = 0x02;
   expect_hit(&c, 2, 0, 7, 106, 0.25f, 0.75f);
   c.words[W_ANY_HITS] = 2;
   c.words[W_ANY_HIT_T] = fbits(5.0f);
   c.words[W_ANY_HIT_KIND] = 7 + 0x100;
   c.words[W_LAUNCH_ID] = 0;
   c.words[W_LAUNCH_SIZE] = 1;
   c.words[W_LAUNCH_Y] = 10;
   uint32_t out[WORDS];
   struct trace_mode mode = {.vkppu_only = true};
   if (trace_basic(&c.ray, 1, 1, mode, 0xab, out, WORDS))
      check_words(&c, out);
}

TEST_CASE(every_stage_built_in_and_sbt_record)
{
   check_every_stage((struct trace_mode){.indirect = false});
}

/* The same rays with the launch size read from a buffer. */
TEST_CASE(trace_rays_indirect_gives_the_same_payloads)
{
   check_every_stage((struct trace_mode){.indirect = true});
}

/* The same rays with the SBT regions and the launch size read from a
 * buffer (VK_KHR_ray_tracing_maintenance1). */
TEST_CASE(trace_rays_indirect2_gives_the_same_payloads)
{
   check_every_stage((struct trace_mode){.indirect2 = true});
}

/* gl_CullMaskEXT (VK_KHR_ray_tracing_maintenance1) in a miss shader: the
 * cull mask each launch traced with. */
TEST_CASE(cull_mask_reaches_the_miss_shader)
{
   struct rtu_rig r;
   if (!rtu_rig_create(&r))
      return;
   if (!r.maintenance1) {
      vkt_skip("%s does not offer VK_KHR_ray_tracing_maintenance1", r.ctx.props.deviceName);
      vkt_teardown(&r.ctx, &r.dev);
      return;
   }
   struct scene s;
   struct launch l;
   memset(&l, 0, sizeof(l));
   static const struct rtu_stage stages[2] = {
       {"rt_cullmask.rgen", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
       {"rt_cullmask.rmiss", VK_SHADER_STAGE_MISS_BIT_KHR},
   };
   VkRayTracingShaderGroupCreateInfoKHR groups[2] = {rtu_general_group(0), rtu_general_group(1)};
   if (scene_build(&r, &s) && launch_setup(&r, &s, &l, 64 * 8)) {
      VkResult res = rtu_pipeline_create(&r, stages, 2, groups, 2, 1, l.layout, &l.pipeline);
      CHECK_MSG(res == VK_SUCCESS, "pipeline -> %s", vkt_result_name(res));
      static const struct rtu_sbt_record rg[1] = {{0, {0}}}, miss[1] = {{1, {0}}};
      const struct rtu_sbt_record *regions[4] = {rg, miss, NULL, NULL};
      const uint32_t counts[4] = {1, 1, 0, 0};
      if (res == VK_SUCCESS && rtu_sbt_create(&r, l.pipeline, 2, regions, counts, &l.sbt) &&
          launch_run(&r, &l, 64, 1, 0, TRACE_DIRECT)) {
         const uint32_t *out = l.out.map;
         for (uint32_t x = 0; x < 64; x++) {
            uint32_t mask = (x * 37u + 5u) & 0xffu;
            CHECK_MSG(out[2 * x] == 2000 && out[2 * x + 1] == mask,
                      "launch %u: miss %u, cull mask %u (traced with %u)", x, out[2 * x],
                      out[2 * x + 1], mask);
         }
      }
   }
   launch_destroy(&r, &l);
   scene_destroy(&r, &s);
   vkt_teardown(&r.ctx, &r.dev);
}

/* One acceleration-structure property written by the device into a query
 * pool. */
static uint64_t device_property(struct rtu_rig *r, VkAccelerationStructureKHR as, VkQueryType type)
{
   VkQueryPoolCreateInfo qci = {
       .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = type, .queryCount = 1};
   VkQueryPool pool;
   VKT_CHECK(vkCreateQueryPool(r->dev.device, &qci, NULL, &pool));
   VkCommandBuffer cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
   vkCmdResetQueryPool(cmd, pool, 0, 1);
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
                         .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                        VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR, 0, 1, &mb, 0, NULL,
                        0, NULL);
   vkCmdWriteAccelerationStructuresPropertiesKHR(cmd, 1, &as, type, pool, 0);
   VKT_CHECK(vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd));
   uint64_t value = UINT64_MAX;
   VKT_CHECK(vkGetQueryPoolResults(r->dev.device, pool, 0, 1, sizeof(value), &value, sizeof(value),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
   vkDestroyQueryPool(r->dev.device, pool, NULL);
   return value;
}

/* VK_KHR_ray_tracing_maintenance1's queries: a structure's size fits the
 * storage it was built in; serialized, a TLAS names one bottom-level
 * structure per instance, a BLAS none. */
TEST_CASE(size_and_bottom_level_pointer_queries)
{
   struct rtu_rig r;
   if (!rtu_rig_create(&r))
      return;
   if (!r.maintenance1) {
      vkt_skip("%s does not offer VK_KHR_ray_tracing_maintenance1", r.ctx.props.deviceName);
      vkt_teardown(&r.ctx, &r.dev);
      return;
   }
   struct scene s;
   if (scene_build(&r, &s)) {
      uint64_t tlas_size =
          device_property(&r, s.tlas.handle, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR);
      CHECK_MSG(tlas_size > 0 && tlas_size <= s.tlas.storage.size, "TLAS size %llu of %llu bytes",
                (unsigned long long)tlas_size, (unsigned long long)s.tlas.storage.size);
      uint64_t blas_size =
          device_property(&r, s.blas[0].handle, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR);
      CHECK_MSG(blas_size > 0 && blas_size <= s.blas[0].storage.size,
                "BLAS size %llu of %llu bytes", (unsigned long long)blas_size,
                (unsigned long long)s.blas[0].storage.size);
      uint64_t pointers = device_property(
          &r, s.tlas.handle,
          VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR);
      CHECK_MSG(pointers == INSTANCES, "a TLAS of %u instances: %llu BLAS pointers", INSTANCES,
                (unsigned long long)pointers);
      pointers = device_property(
          &r, s.blas[0].handle,
          VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR);
      CHECK_MSG(pointers == 0, "a BLAS: %llu BLAS pointers", (unsigned long long)pointers);
   }
   scene_destroy(&r, &s);
   vkt_teardown(&r.ctx, &r.dev);
}

/* The same rays with the miss, hit and callable groups from two pipeline
 * libraries linked into the raygen's pipeline. */
TEST_CASE(pipeline_libraries_give_the_same_payloads)
{
   check_every_stage((struct trace_mode){.from_libraries = true});
}

/* Capture/replay: handles captured from one pipeline are the handles of a
 * pipeline created with them; a handle replayed at another group index is
 * refused with VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS. */
TEST_CASE(capture_replay_handles_are_honoured)
{
   struct rtu_rig r;
   if (!rtu_rig_create(&r))
      return;
   if (!r.capture_replay) {
      vkt_skip("%s has no rayTracingPipelineShaderGroupHandleCaptureReplay",
               r.ctx.props.deviceName);
      vkt_teardown(&r.ctx, &r.dev);
      return;
   }
   struct scene s;
   struct launch l;
   memset(&l, 0, sizeof(l));
   memset(&s, 0, sizeof(s));
   uint32_t size = r.rt.shaderGroupHandleCaptureReplaySize;
   uint8_t *captured = calloc(GROUPS, size), *replayed = calloc(GROUPS, size);
   const VkPipelineCreateFlags flag =
       VK_PIPELINE_CREATE_RAY_TRACING_SHADER_GROUP_HANDLE_CAPTURE_REPLAY_BIT_KHR;
   struct rtu_linking capture = {.flags = flag};
   VkRayTracingShaderGroupCreateInfoKHR groups[GROUPS];
   basic_groups(groups);
   if (captured && replayed && launch_setup(&r, &s, &l, 4 * WORDS) &&
       rtu_pipeline_create_linked(&r, basic_stages, STAGES, groups, GROUPS, 1, l.layout, &capture,
                                  &l.pipeline) == VK_SUCCESS) {
      VKT_CHECK(vkGetRayTracingCaptureReplayShaderGroupHandlesKHR(
          r.dev.device, l.pipeline, 0, GROUPS, (size_t)GROUPS * size, captured));
      for (uint32_t g = 0; g < GROUPS; g++)
         groups[g].pShaderGroupCaptureReplayHandle = captured + (size_t)g * size;
      VkPipeline replay = VK_NULL_HANDLE;
      VkResult res = rtu_pipeline_create_linked(&r, basic_stages, STAGES, groups, GROUPS, 1,
                                                l.layout, &capture, &replay);
      CHECK_MSG(res == VK_SUCCESS, "replaying the captured handles -> %s", vkt_result_name(res));
      if (res == VK_SUCCESS) {
         VKT_CHECK(vkGetRayTracingShaderGroupHandlesKHR(r.dev.device, replay, 0, GROUPS,
                                                        (size_t)GROUPS * size, replayed));
         CHECK_MSG(memcmp(captured, replayed, (size_t)GROUPS * size) == 0,
                   "the replayed pipeline's handles differ from the captured ones");
         vkDestroyPipeline(r.dev.device, replay, NULL);
      }
      /* Two groups' handles swapped. */
      groups[G_TRI].pShaderGroupCaptureReplayHandle = captured + (size_t)G_TRI_AHIT * size;
      groups[G_TRI_AHIT].pShaderGroupCaptureReplayHandle = captured + (size_t)G_TRI * size;
      static const char *const excused[] = {"capture/replay handle", NULL};
      vkt_tolerate_begin(excused);
      replay = VK_NULL_HANDLE;
      res = rtu_pipeline_create_linked(&r, basic_stages, STAGES, groups, GROUPS, 1, l.layout,
                                       &capture, &replay);
      vkt_tolerate_end();
      CHECK_MSG(res == VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS, "swapped handles -> %s",
                vkt_result_name(res));
      if (replay)
         vkDestroyPipeline(r.dev.device, replay, NULL);
   }
   free(captured);
   free(replayed);
   launch_destroy(&r, &l);
   scene_destroy(&r, &s);
   vkt_teardown(&r.ctx, &r.dev);
}

/* A 2D launch: every invocation, and only those, runs (gl_LaunchIDEXT and
 * gl_LaunchSizeEXT in both dimensions, a partial last workgroup). */
static void check_2d_launch(bool indirect)
{
   const uint32_t w = MAX_RAYS, h = 3, words = MAX_RAYS * 8 * WORDS;
   uint32_t *out = calloc(words, 4);
   struct ray rays[MAX_RAYS];
   for (uint32_t i = 0; i < w; i++)
      rays[i] = aim(0.25f, 0.25f, DOWN);
   /* The shader writes row x only (launch y is in word 30). */
   if (out && trace_basic(rays, w, h, (struct trace_mode){.indirect = indirect}, 0, out, words)) {
      for (uint32_t i = 0; i < w; i++) {
         CHECK_MSG(out[i * WORDS + W_LAUNCH_SIZE] == w, "launch %u: size %u", i,
                   out[i * WORDS + W_LAUNCH_SIZE]);
         uint32_t y = out[i * WORDS + W_LAUNCH_Y];
         CHECK_MSG(y >= 10 * h && y < 10 * h + h, "launch %u: y word %u", i, y);
         CHECK_MSG(out[i * WORDS + W_STAGE] == 2, "launch %u: stage %u", i,
                   out[i * WORDS + W_STAGE]);
      }
      /* Nothing beyond the launch was written. */
      for (uint32_t i = w * WORDS; i < words; i++)
         CHECK_MSG(out[i] == 0, "word %u beyond the launch is 0x%x", i, out[i]);
   }
   free(out);
}

TEST_CASE(launch_ids_cover_a_2d_launch)
{
   check_2d_launch(false);
}

TEST_CASE(launch_ids_cover_an_indirect_2d_launch)
{
   check_2d_launch(true);
}

/* Recursion to the advertised maxRayRecursionDepth: the closest-hit
 * shader traces again until the depth reaches it. */
TEST_CASE(recursion_to_the_advertised_depth)
{
   struct rtu_rig r;
   if (!rtu_rig_create(&r))
      return;
   uint32_t depth = r.rt.maxRayRecursionDepth;
   CHECK_MSG(depth >= 1, "maxRayRecursionDepth %u", depth);
   struct scene s;
   struct launch l;
   memset(&l, 0, sizeof(l));
   static const struct rtu_stage stages[3] = {
       {"rt_recurse.rgen", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
       {"rt_recurse.rmiss", VK_SHADER_STAGE_MISS_BIT_KHR},
       {"rt_recurse.rchit", VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR},
   };
   VkRayTracingShaderGroupCreateInfoKHR groups[3] = {
       rtu_general_group(0), rtu_general_group(1),
       rtu_hit_group(VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR, 2,
                     VK_SHADER_UNUSED_KHR, VK_SHADER_UNUSED_KHR)};
   if (scene_build(&r, &s) && launch_setup(&r, &s, &l, 64 * 8)) {
      VkResult res = rtu_pipeline_create(&r, stages, 3, groups, 3, depth, l.layout, &l.pipeline);
      CHECK_MSG(res == VK_SUCCESS, "pipeline of recursion depth %u -> %s", depth,
                vkt_result_name(res));
      static const struct rtu_sbt_record rg[1] = {{0, {0}}}, miss[1] = {{1, {0}}};
      struct rtu_sbt_record hits[2] = {{2, {0}}, {2, {0}}};
      const struct rtu_sbt_record *regions[4] = {rg, miss, hits, NULL};
      const uint32_t counts[4] = {1, 1, 2, 0};
      if (res == VK_SUCCESS && rtu_sbt_create(&r, l.pipeline, 3, regions, counts, &l.sbt) &&
          launch_run(&r, &l, 40, 1, depth, TRACE_DIRECT)) {
         const uint32_t *out = l.out.map;
         for (uint32_t i = 0; i < 40; i++) {
            CHECK_MSG(out[2 * i] == depth, "launch %u reached depth %u, want %u", i, out[2 * i],
                      depth);
            CHECK_MSG(out[2 * i + 1] == depth * (depth + 1) / 2, "launch %u: sum %u, want %u", i,
                      out[2 * i + 1], depth * (depth + 1) / 2);
         }
      }
   }
   launch_destroy(&r, &l);
   scene_destroy(&r, &s);
   vkt_teardown(&r.ctx, &r.dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
