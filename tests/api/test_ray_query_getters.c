/* VK_KHR_ray_query getters and ray/instance/geometry flags, through the
 * loader with validation on (test_ray_query.c covers builds, copies and
 * the basic hit getters). One tiny scene: a single triangle in two bottom
 * levels (non-opaque with NO_DUPLICATE_ANY_HIT; opaque) and a unit box in
 * a third, instanced thirteen times: a triangle and a box rotated, scaled
 * and translated, one triangle mirrored, the others translated, with
 * FORCE_OPAQUE / FORCE_NO_OPAQUE / FLIP_FACING / CULL_DISABLE. The rays
 * are traced by shaders/spirv14_rq_getters.comp, which records the
 * world-ray getters and every getter of the first candidate and of the
 * committed intersection. Each value is compared with what is computed
 * here: integers and flags exactly; t, barycentrics, object-space rays and
 * matrices to 1e-5 relative. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accel_test_util.h"
#include "compute_test_util.h"
#include "ray_query_test_util.h"
#include "vk_test_context.h"

/* --- device ----------------------------------------------------------------------- */

struct rig {
   struct vkt_context ctx;
   struct vkt_device dev;
   VkDeviceSize scratch_align;
};

static bool rig_create(struct rig *r)
{
   memset(r, 0, sizeof(*r));
   if (!rqu_context_create(&r->ctx))
      return false;
   VkPhysicalDeviceAccelerationStructurePropertiesKHR props = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &props};
   vkGetPhysicalDeviceProperties2KHR(r->ctx.physical_device, &p2);
   r->scratch_align = props.minAccelerationStructureScratchOffsetAlignment;
   if (r->scratch_align == 0)
      r->scratch_align = 1;
   /* Only what this test uses. */
   struct rqu_features features;
   return rqu_device_create(&r->ctx, rqu_features_minimal(&features), &r->dev);
}

static VkDeviceAddress address_of(struct rig *r, VkBuffer buffer)
{
   return atu_buffer_address(&r->dev, buffer);
}

/* --- scene ------------------------------------------------------------------------ */

enum blas_kind { BLAS_NO_OPAQUE, BLAS_OPAQUE, BLAS_BOX, BLAS_KINDS };

/* The one triangle, in the object's z = 0 plane: its normal
 * cross(v1 - v0, v2 - v0) is +z, so a ray going +z sees its back. */
static const float triangle[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
static const VkAabbPositionsKHR unit_box = {0, 0, 0, 1, 1, 1};

#define INSTANCES 13
#define FORCE_OPAQUE VK_GEOMETRY_INSTANCE_FORCE_OPAQUE_BIT_KHR
#define FORCE_NO_OPAQUE VK_GEOMETRY_INSTANCE_FORCE_NO_OPAQUE_BIT_KHR
#define FLIP_FACING VK_GEOMETRY_INSTANCE_TRIANGLE_FLIP_FACING_BIT_KHR
#define CULL_DISABLE VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR
/* The object-to-world matrices of instances 0 and 10 rotate, scale and
 * translate (instance_matrix()); instance 11 mirrors z; the others
 * translate by (x, 0, z).
 * Instances 8 and 9 stand one behind the other. */
static const struct {
   enum blas_kind blas;
   float x, z;
   uint32_t custom, sbt;
   VkGeometryInstanceFlagsKHR flags;
} instances[INSTANCES] = {
    {BLAS_NO_OPAQUE, -20, 5, 0xfedcba, 7, 0},
    {BLAS_NO_OPAQUE, 10, 5, 101, 1, FORCE_OPAQUE},
    {BLAS_OPAQUE, 20, 5, 102, 2, FORCE_NO_OPAQUE},
    {BLAS_OPAQUE, 30, 5, 103, 3, FLIP_FACING},
    {BLAS_OPAQUE, 40, 5, 104, 4, CULL_DISABLE},
    {BLAS_OPAQUE, 50, 5, 105, 5, 0},
    {BLAS_BOX, 60, 5, 106, 6, 0},
    {BLAS_BOX, 70, 5, 107, 0xabcdef, FORCE_NO_OPAQUE},
    {BLAS_NO_OPAQUE, 80, 5, 108, 8, 0},
    {BLAS_NO_OPAQUE, 80, 8, 109, 9, 0},
    {BLAS_BOX, -40, 5, 110, 10, 0},
    {BLAS_OPAQUE, 90, 5, 111, 11, 0},
    {BLAS_NO_OPAQUE, 100, 5, 112, 12, FLIP_FACING | CULL_DISABLE},
};

/* Row-major 3x4 object-to-world matrix, as the instance record holds it. */
static void instance_matrix(uint32_t i, float m[3][4])
{
   memset(m, 0, 12 * sizeof(float));
   if (i != 0 && i != 10) {
      m[0][0] = m[1][1] = m[2][2] = 1;
      m[0][3] = instances[i].x;
      m[2][3] = instances[i].z;
      if (i == 11)
         m[2][2] = -1; /* a mirror: z = -z */
      return;
   }
   /* Rz(30 degrees) * Rx(20 degrees) * diag(2, 1.5, 0.5), then translated. */
   const double pi = 3.14159265358979323846;
   double cz = cos(pi / 6), sz = sin(pi / 6), cx = cos(pi / 9), sx = sin(pi / 9);
   double rot[3][3] = {{cz, -sz * cx, sz * sx}, {sz, cz * cx, -cz * sx}, {0, sx, cx}};
   const double scale[3] = {2, 1.5, 0.5};
   const float translation[3] = {instances[i].x, 1.25f, instances[i].z};
   for (int row = 0; row < 3; row++) {
      for (int col = 0; col < 3; col++)
         m[row][col] = (float)(rot[row][col] * scale[col]);
      m[row][3] = translation[row];
   }
}

/* The inverse of m (computed in double). */
static void invert_matrix(const float m[3][4], double inv[3][4])
{
   double a[3][3];
   for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
         a[i][j] = m[i][j];
   double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
   for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
         /* Cofactor of a[j][i]. */
         int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
         inv[i][j] = (a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0]) / det;
      }
   }
   for (int i = 0; i < 3; i++)
      inv[i][3] = -(inv[i][0] * m[0][3] + inv[i][1] * m[1][3] + inv[i][2] * m[2][3]);
}

/* A structure of one geometry, built on the rig's universal queue. */
static bool accel_build(struct rig *r, VkAccelerationStructureTypeKHR type,
                        const VkAccelerationStructureGeometryKHR *geometry, uint32_t primitives,
                        struct atu_accel *out)
{
   return atu_accel_build(&r->dev, r->ctx.universal_family, r->scratch_align, type, geometry,
                          &primitives, 1, out);
}

/* Build inputs in one host-visible buffer (16-byte aligned where the spec
 * wants it). */
#define OFF_VERTICES 0
#define OFF_BOX 64
#define OFF_INSTANCES 128
#define INPUT_SIZE (OFF_INSTANCES + INSTANCES * sizeof(VkAccelerationStructureInstanceKHR))

struct scene {
   struct vkt_buffer input;
   struct atu_accel blas[BLAS_KINDS];
   struct atu_accel tlas;
};

static bool scene_build(struct rig *r, struct scene *s)
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
   memcpy(map + OFF_VERTICES, triangle, sizeof(triangle));
   memcpy(map + OFF_BOX, &unit_box, sizeof(unit_box));
   VkDeviceAddress input = address_of(r, s->input.buffer);

   for (int k = 0; k < BLAS_KINDS; k++) {
      VkAccelerationStructureGeometryKHR g = {
          .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR};
      if (k == BLAS_BOX) {
         g.geometryType = VK_GEOMETRY_TYPE_AABBS_KHR;
         g.flags = VK_GEOMETRY_OPAQUE_BIT_KHR;
         g.geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){
             .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
             .data.deviceAddress = input + OFF_BOX,
             .stride = sizeof(VkAabbPositionsKHR)};
      } else {
         g.geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR;
         g.flags = k == BLAS_OPAQUE ? VK_GEOMETRY_OPAQUE_BIT_KHR
                                    : VK_GEOMETRY_NO_DUPLICATE_ANY_HIT_INVOCATION_BIT_KHR;
         g.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
             .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
             .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
             .vertexData.deviceAddress = input + OFF_VERTICES,
             .vertexStride = 3 * sizeof(float),
             .maxVertex = 2,
             .indexType = VK_INDEX_TYPE_NONE_KHR};
      }
      if (!accel_build(r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &g, 1, &s->blas[k]))
         return false;
   }

   VkAccelerationStructureInstanceKHR *inst = (void *)(map + OFF_INSTANCES);
   for (uint32_t i = 0; i < INSTANCES; i++) {
      inst[i] = (VkAccelerationStructureInstanceKHR){
          .instanceCustomIndex = instances[i].custom,
          .mask = 0xff,
          .instanceShaderBindingTableRecordOffset = instances[i].sbt,
          .flags = instances[i].flags,
          .accelerationStructureReference = s->blas[instances[i].blas].address};
      instance_matrix(i, inst[i].transform.matrix);
   }
   VkAccelerationStructureGeometryKHR top = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
       .geometry.instances = {
           .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
           .data.deviceAddress = input + OFF_INSTANCES}};
   return accel_build(r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &top, INSTANCES, &s->tlas);
}

static void scene_destroy(struct rig *r, struct scene *s)
{
   atu_accel_destroy(&r->dev, &s->tlas);
   for (int k = 0; k < BLAS_KINDS; k++)
      atu_accel_destroy(&r->dev, &s->blas[k]);
   vkt_buffer_destroy(&r->dev, &s->input);
}

/* --- tracing ---------------------------------------------------------------------- */

/* std430 layouts of the shader's Hit and Result (its Ray: struct ray). */

struct hit {
   uint32_t type;
   float t;
   int32_t custom_index, instance_id;
   uint32_t sbt_offset;
   int32_t geometry, primitive;
   uint32_t front_face, aabb_opaque;
   float barycentrics[2];
   float object_origin[3], object_direction[3];
   float object_to_world[12], world_to_object[12];
   uint32_t pad[3];
};

struct result {
   float world_origin[3], world_direction[3], tmin;
   uint32_t flags, candidates;
   int32_t last_instance; /* of the last triangle candidate */
   float last_t;
   uint32_t pad;
   struct hit candidate, committed;
};
_Static_assert(sizeof(struct ray) == 48 && sizeof(struct hit) == 176 &&
                   sizeof(struct result) == 400,
               "std430 layouts");

/* Traces rays[] against tlas, one invocation each. */
static bool trace(struct rig *r, const struct atu_accel *tlas, const struct ray *rays, uint32_t n,
                  struct result *out)
{
   const VkDescriptorSetLayoutBinding bindings[3] = {
       {0, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   struct ctu_program p;
   if (!ctu_program_create(&r->dev, "spirv14_rq_getters", bindings, 3, sizeof(uint32_t), 1, &p)) {
      ctu_program_destroy(&r->dev, &p);
      return false;
   }
   VkDescriptorSet set = ctu_program_set(&r->dev, &p);
   struct vkt_buffer ray_buf = {0}, result_buf = {0};
   VKT_CHECK(vkt_buffer_create(&r->dev, n * sizeof(*rays), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &ray_buf));
   VKT_CHECK(vkt_buffer_create(&r->dev, n * sizeof(*out), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &result_buf));
   VkResult res = VK_ERROR_OUT_OF_HOST_MEMORY;
   if (ray_buf.map && result_buf.map) {
      memcpy(ray_buf.map, rays, n * sizeof(*rays));
      memset(result_buf.map, 0, n * sizeof(*out));
      ctu_write_buffer(&r->dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ray_buf.buffer, 0,
                       VK_WHOLE_SIZE);
      ctu_write_buffer(&r->dev, set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, result_buf.buffer, 0,
                       VK_WHOLE_SIZE);
      ctu_write_accel(&r->dev, set, 0, tlas->handle);
      VkCommandBuffer cmd = vkt_cmd_begin(&r->dev, r->ctx.universal_family);
      VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
                            .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
      ctu_program_bind(cmd, &p, set);
      vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(n), &n);
      vkCmdDispatch(cmd, (n + 7) / 8, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      res = vkt_cmd_submit_wait(&r->dev, r->ctx.universal_family, 0, cmd);
      VKT_CHECK(res);
      if (res == VK_SUCCESS)
         memcpy(out, result_buf.map, n * sizeof(*out));
   }
   vkt_buffer_destroy(&r->dev, &ray_buf);
   vkt_buffer_destroy(&r->dev, &result_buf);
   ctu_program_destroy(&r->dev, &p);
   return res == VK_SUCCESS;
}

/* --- expected values -------------------------------------------------------------- */

#define UP 1.0f    /* +z: sees the triangle's back */
#define DOWN -1.0f /* -z: sees its front */

/* A ray at instance i's object point (px, py, 0), coming from 4 units
 * before it along the world direction (0, 0, dz) (instance 0: along a
 * slanted direction). */
static struct ray aim(uint32_t i, float px, float py, float dz, uint32_t flags, uint32_t mode)
{
   float m[3][4];
   instance_matrix(i, m);
   float dir[3] = {0, 0, dz};
   if (i == 0 || i == 10) {
      dir[0] = 0.25f;
      dir[1] = -0.5f;
   }
   struct ray ray = {.tmin = 0.125f,
                     .tmax = 100,
                     .flags = flags,
                     .cull_mask = 0xff,
                     .mode = mode,
                     .generate_t = 4.5f};
   for (int k = 0; k < 3; k++) {
      ray.direction[k] = dir[k];
      ray.origin[k] = m[k][0] * px + m[k][1] * py + m[k][3] - 4 * dir[k];
   }
   return ray;
}

/* What the getters of an intersection with instance i must give for ray:
 * the object-space ray by the inverse transform, the hit on the triangle
 * (whose plane is the object's z = 0, so t and the barycentrics follow
 * directly) or the box's entry t. */
static struct hit expected_hit(uint32_t i, const struct ray *ray, uint32_t type)
{
   struct hit h = {.type = type,
                   .custom_index = (int32_t)instances[i].custom,
                   .instance_id = (int32_t)i,
                   .sbt_offset = instances[i].sbt};
   float m[3][4];
   double inv[3][4], o[3], d[3];
   instance_matrix(i, m);
   invert_matrix(m, inv);
   for (int k = 0; k < 3; k++) {
      o[k] = inv[k][3];
      d[k] = 0;
      for (int c = 0; c < 3; c++) {
         o[k] += inv[k][c] * ray->origin[c];
         d[k] += inv[k][c] * ray->direction[c];
      }
      h.object_origin[k] = (float)o[k];
      h.object_direction[k] = (float)d[k];
      for (int c = 0; c < 4; c++) {
         h.object_to_world[k * 4 + c] = m[k][c];
         h.world_to_object[k * 4 + c] = (float)inv[k][c];
      }
   }
   double t = -o[2] / d[2];
   h.t = (float)t;
   h.barycentrics[0] = (float)(o[0] + t * d[0]);
   h.barycentrics[1] = (float)(o[1] + t * d[1]);
   bool front = d[2] < 0; /* against the normal +z */
   h.front_face = (instances[i].flags & FLIP_FACING) ? !front : front;
   return h;
}

/* The case being checked, named in every message. */
static const char *case_name = "";
#define EXPECT(cond, fmt, ...) CHECK_MSG(cond, "%s: " fmt, case_name, __VA_ARGS__)

static bool close_to(float got, float want)
{
   return fabsf(got - want) <= 1e-5f * fmaxf(1.0f, fabsf(want));
}

static void check_floats(const char *what, const float *got, const float *want, int n)
{
   for (int k = 0; k < n; k++)
      EXPECT(close_to(got[k], want[k]), "%s[%d] = %.7g, expected %.7g", what, k, got[k], want[k]);
}

/* Compares one intersection's getters; `kind` names it in messages.
 * candidate: type 0 triangle, 1 AABB; committed: 1 triangle, 2 generated. */
static void check_hit(const char *kind, const struct hit *got, const struct hit *want,
                      bool candidate)
{
   bool triangle = candidate ? want->type == 0 : want->type == 1;
   EXPECT(got->type == want->type, "%s type %u, expected %u", kind, got->type, want->type);
   if (got->type != want->type)
      return;
   EXPECT(got->custom_index == want->custom_index && got->instance_id == want->instance_id &&
              got->sbt_offset == want->sbt_offset && got->geometry == 0 && got->primitive == 0,
          "%s custom %#x instance %d sbt %#x geometry %d primitive %d, expected %#x %d %#x 0 0",
          kind, (unsigned)got->custom_index, got->instance_id, got->sbt_offset, got->geometry,
          got->primitive, (unsigned)want->custom_index, want->instance_id, want->sbt_offset);
   char what[64];
   snprintf(what, sizeof(what), "%s object ray origin", kind);
   check_floats(what, got->object_origin, want->object_origin, 3);
   snprintf(what, sizeof(what), "%s object ray direction", kind);
   check_floats(what, got->object_direction, want->object_direction, 3);
   snprintf(what, sizeof(what), "%s object to world", kind);
   check_floats(what, got->object_to_world, want->object_to_world, 12);
   snprintf(what, sizeof(what), "%s world to object", kind);
   check_floats(what, got->world_to_object, want->world_to_object, 12);
   if (triangle || !candidate)
      EXPECT(close_to(got->t, want->t), "%s t %.7g, expected %.7g", kind, got->t, want->t);
   if (triangle) {
      snprintf(what, sizeof(what), "%s barycentrics", kind);
      check_floats(what, got->barycentrics, want->barycentrics, 2);
      EXPECT(got->front_face == want->front_face, "%s front face %u, expected %u", kind,
             got->front_face, want->front_face);
   } else if (candidate) {
      EXPECT(got->aabb_opaque == want->aabb_opaque, "%s AABB opaque %u, expected %u", kind,
             got->aabb_opaque, want->aabb_opaque);
   }
}

#define EITHER -2

/* One ray and what it must give. cand_instance: the instance of the first
 * candidate (-1: none); committed_instance likewise. */
struct rq_case {
   const char *name;
   struct ray ray;
   uint32_t candidates;
   int cand_instance;
   uint32_t aabb_opaque;
   uint32_t committed_type; /* 0 none, 1 triangle, 2 generated */
   int committed_instance;
};

static void check_case(const struct rq_case *c, const struct result *got)
{
   case_name = c->name;
   const struct ray *ray = &c->ray;
   EXPECT(!memcmp(got->world_origin, ray->origin, sizeof(ray->origin)) &&
              !memcmp(got->world_direction, ray->direction, sizeof(ray->direction)),
          "world ray (%g %g %g) (%g %g %g), expected (%g %g %g) (%g %g %g)", got->world_origin[0],
          got->world_origin[1], got->world_origin[2], got->world_direction[0],
          got->world_direction[1], got->world_direction[2], ray->origin[0], ray->origin[1],
          ray->origin[2], ray->direction[0], ray->direction[1], ray->direction[2]);
   EXPECT(got->tmin == ray->tmin, "tmin %g, expected %g", got->tmin, ray->tmin);
   EXPECT(got->flags == ray->flags, "ray flags %#x, expected %#x", got->flags, ray->flags);
   EXPECT(got->candidates == c->candidates, "%u candidates, expected %u", got->candidates,
          c->candidates);
   if (c->cand_instance == -1) {
      EXPECT(got->candidate.type == ~0u, "candidate of type %u, expected none",
             got->candidate.type);
   } else {
      /* EITHER: instance 8 or 9, whichever came first. */
      uint32_t i = c->cand_instance == EITHER ? (uint32_t)got->candidate.instance_id
                                              : (uint32_t)c->cand_instance;
      EXPECT(i < INSTANCES && (c->cand_instance != EITHER || i == 8 || i == 9),
             "candidate instance %d", (int)i);
      if (i >= INSTANCES)
         i = 8;
      bool box = instances[i].blas == BLAS_BOX;
      struct hit want = expected_hit(i, ray, box ? 1 : 0);
      want.aabb_opaque = c->aabb_opaque;
      check_hit("candidate", &got->candidate, &want, true);
   }
   /* The last triangle candidate: the first again when there was one, the
    * other of instances 8 and 9 when there were two. */
   if (c->cand_instance != -1 && got->candidate.type == 0) {
      int first = got->candidate.instance_id;
      int last = c->candidates == 2 ? (first == 8 ? 9 : 8) : first;
      EXPECT(got->last_instance == last, "last candidate of instance %d, expected %d",
             got->last_instance, last);
      if (last >= 0 && last < INSTANCES) {
         struct hit want = expected_hit((uint32_t)last, ray, 0);
         EXPECT(close_to(got->last_t, want.t), "last candidate t %.7g, expected %.7g", got->last_t,
                want.t);
      }
   }
   EXPECT(got->committed.type == c->committed_type, "committed type %u, expected %u",
          got->committed.type, c->committed_type);
   if (c->committed_type != 0 && got->committed.type == c->committed_type) {
      /* EITHER: the candidate that was confirmed. */
      int i = c->committed_instance == EITHER ? got->candidate.instance_id : c->committed_instance;
      if (i < 0 || i >= INSTANCES)
         i = 8;
      struct hit want = expected_hit((uint32_t)i, ray, c->committed_type);
      if (c->committed_type == 2)
         want.t = ray->generate_t;
      check_hit("committed", &got->committed, &want, false);
   }
}

#define MAX_CASES 40

static void run_cases(const struct rq_case *cases, uint32_t n)
{
   REQUIRE(n <= MAX_CASES);
   struct rig r;
   if (!rig_create(&r))
      return;
   struct scene s;
   struct ray rays[MAX_CASES];
   struct result got[MAX_CASES];
   for (uint32_t i = 0; i < n; i++)
      rays[i] = cases[i].ray;
   if (scene_build(&r, &s) && trace(&r, &s.tlas, rays, n, got))
      for (uint32_t i = 0; i < n; i++)
         check_case(&cases[i], &got[i]);
   scene_destroy(&r, &s);
   vkt_teardown(&r.ctx, &r.dev);
}

/* --- cases ------------------------------------------------------------------------ */

/* Instance 0 (rotated, scaled, translated; non-opaque geometry with
 * NO_DUPLICATE_ANY_HIT): every getter of the candidate and of the
 * committed hit, plus the AABB instances' candidates and generated hits. */
TEST_CASE(getters_of_candidates_and_committed_hits)
{
   const struct rq_case cases[] = {
       {"transformed, confirmed", aim(0, 0.25f, 0.25f, UP, 0, MODE_CONFIRM), 1, 0, 0, 1, 0},
       {"transformed, other point", aim(0, 0.6f, 0.125f, UP, 0, MODE_CONFIRM), 1, 0, 0, 1, 0},
       {"transformed, not confirmed", aim(0, 0.25f, 0.25f, UP, 0, 0), 1, 0, 0, 0, -1},
       {"transformed, opaque ray", aim(0, 0.25f, 0.25f, UP, RAY_OPAQUE, 0), 0, -1, 0, 1, 0},
       {"transformed, miss", aim(0, 0.75f, 0.75f, UP, 0, MODE_CONFIRM), 0, -1, 0, 0, -1},
       {"box, generated", aim(6, 0.5f, 0.5f, UP, 0, MODE_GENERATE), 1, 6, 1, 2, 6},
       {"box, not generated", aim(6, 0.5f, 0.5f, UP, 0, 0), 1, 6, 1, 0, -1},
       {"transformed box, generated", aim(10, 0.5f, 0.5f, UP, 0, MODE_GENERATE), 1, 10, 1, 2, 10},
       {"forced non-opaque box, generated", aim(7, 0.25f, 0.75f, UP, 0, MODE_GENERATE), 1, 7, 0, 2,
        7},
   };
   run_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Opacity: geometry flag, instance FORCE_OPAQUE / FORCE_NO_OPAQUE, ray
 * OPAQUE / NO_OPAQUE, and culling by it (AABBs included). */
TEST_CASE(opacity_flags_and_opacity_culling)
{
   const uint32_t C = MODE_CONFIRM, G = MODE_GENERATE;
   const struct rq_case cases[] = {
       {"no-opaque geometry, cull no-opaque", aim(0, 0.25f, 0.25f, UP, RAY_CULL_NO_OPAQUE, C), 0,
        -1, 0, 0, -1},
       {"no-opaque geometry, cull opaque", aim(0, 0.25f, 0.25f, UP, RAY_CULL_OPAQUE, C), 1, 0, 0, 1,
        0},
       {"force opaque", aim(1, 0.25f, 0.25f, UP, 0, C), 0, -1, 0, 1, 1},
       {"force opaque, cull opaque", aim(1, 0.25f, 0.25f, UP, RAY_CULL_OPAQUE, C), 0, -1, 0, 0, -1},
       {"force opaque, no-opaque ray", aim(1, 0.25f, 0.25f, UP, RAY_NO_OPAQUE, 0), 1, 1, 0, 0, -1},
       {"force opaque, cull no-opaque", aim(1, 0.25f, 0.25f, UP, RAY_CULL_NO_OPAQUE, C), 0, -1, 0,
        1, 1},
       {"force no-opaque", aim(2, 0.25f, 0.25f, UP, 0, 0), 1, 2, 0, 0, -1},
       {"force no-opaque, confirmed", aim(2, 0.25f, 0.25f, UP, 0, C), 1, 2, 0, 1, 2},
       {"force no-opaque, opaque ray", aim(2, 0.25f, 0.25f, UP, RAY_OPAQUE, 0), 0, -1, 0, 1, 2},
       {"force no-opaque, cull no-opaque", aim(2, 0.25f, 0.25f, UP, RAY_CULL_NO_OPAQUE, C), 0, -1,
        0, 0, -1},
       {"force no-opaque, cull opaque", aim(2, 0.25f, 0.25f, UP, RAY_CULL_OPAQUE, C), 1, 2, 0, 1,
        2},
       {"opaque geometry, no-opaque ray", aim(5, 0.25f, 0.25f, UP, RAY_NO_OPAQUE, C), 1, 5, 0, 1,
        5},
       /* Every flag the getter must return as given; the candidate is
        * confirmed and TerminateOnFirstHit ends the traversal there. */
       {"no-opaque ray, more flags",
        aim(5, 0.25f, 0.25f, UP,
            RAY_NO_OPAQUE | RAY_TERMINATE_ON_FIRST_HIT | RAY_SKIP_CLOSEST_HIT |
                RAY_CULL_FRONT_FACING,
            C),
        1, 5, 0, 1, 5},
       {"opaque geometry, cull opaque", aim(5, 0.25f, 0.25f, UP, RAY_CULL_OPAQUE, C), 0, -1, 0, 0,
        -1},
       {"opaque box, cull opaque", aim(6, 0.5f, 0.5f, UP, RAY_CULL_OPAQUE, G), 0, -1, 0, 0, -1},
       {"opaque box, cull no-opaque", aim(6, 0.5f, 0.5f, UP, RAY_CULL_NO_OPAQUE, G), 1, 6, 1, 2, 6},
       {"opaque box, no-opaque ray", aim(6, 0.5f, 0.5f, UP, RAY_NO_OPAQUE, G), 1, 6, 0, 2, 6},
       {"forced no-opaque box, opaque ray", aim(7, 0.5f, 0.5f, UP, RAY_OPAQUE, G), 1, 7, 1, 2, 7},
       {"forced no-opaque box, cull no-opaque", aim(7, 0.5f, 0.5f, UP, RAY_CULL_NO_OPAQUE, G), 0,
        -1, 0, 0, -1},
       {"forced no-opaque box, cull opaque", aim(7, 0.5f, 0.5f, UP, RAY_CULL_OPAQUE, G), 1, 7, 0, 2,
        7},
   };
   run_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Facing: the ray's CULL_FRONT/BACK_FACING against plain, FLIP_FACING and
 * FACING_CULL_DISABLE instances (all opaque), from both sides. */
TEST_CASE(facing_flags_and_facing_culling)
{
   const uint32_t FRONT = RAY_CULL_FRONT_FACING, BACK = RAY_CULL_BACK_FACING;
   const struct rq_case cases[] = {
       {"plain, back face, cull front", aim(5, 0.25f, 0.25f, UP, FRONT, 0), 0, -1, 0, 1, 5},
       {"plain, front face", aim(5, 0.25f, 0.25f, DOWN, 0, 0), 0, -1, 0, 1, 5},
       {"plain, front face, cull front", aim(5, 0.25f, 0.25f, DOWN, FRONT, 0), 0, -1, 0, 0, -1},
       {"flipped, from below", aim(3, 0.25f, 0.25f, UP, 0, 0), 0, -1, 0, 1, 3},
       {"flipped, from below, cull front", aim(3, 0.25f, 0.25f, UP, FRONT, 0), 0, -1, 0, 0, -1},
       {"flipped, from below, cull back", aim(3, 0.25f, 0.25f, UP, BACK, 0), 0, -1, 0, 1, 3},
       {"flipped, from above, cull back", aim(3, 0.25f, 0.25f, DOWN, BACK, 0), 0, -1, 0, 0, -1},
       {"cull disabled, back face, cull back", aim(4, 0.25f, 0.25f, UP, BACK, 0), 0, -1, 0, 1, 4},
       {"flipped, cull disabled, cull front", aim(12, 0.25f, 0.25f, UP, FRONT, MODE_CONFIRM), 1, 12,
        0, 1, 12},
       {"flipped, cull disabled, cull back", aim(12, 0.25f, 0.25f, DOWN, BACK, MODE_CONFIRM), 1, 12,
        0, 1, 12},
       {"cull disabled, front face, cull front", aim(4, 0.25f, 0.25f, DOWN, FRONT, 0), 0, -1, 0, 1,
        4},
       /* Facing is decided in object space ("Ray Triangle Culling"; an
        * instance transform does not change the winding): seen from below,
        * instance 11 (z mirrored) shows its front. */
       {"mirrored, from below", aim(11, 0.25f, 0.25f, UP, 0, 0), 0, -1, 0, 1, 11},
       {"mirrored, from below, cull front", aim(11, 0.25f, 0.25f, UP, FRONT, 0), 0, -1, 0, 0, -1},
       {"mirrored, from below, cull back", aim(11, 0.25f, 0.25f, UP, BACK, 0), 0, -1, 0, 1, 11},
       /* Instance 0's transform keeps the facing of its object space: a ray
        * going up sees the back (the other cases check the front-face
        * getter against the object-space test). */
       {"transformed, back face, cull back", aim(0, 0.25f, 0.25f, UP, BACK | RAY_OPAQUE, 0), 0, -1,
        0, 0, -1},
       {"transformed, back face, cull front", aim(0, 0.25f, 0.25f, UP, FRONT | RAY_OPAQUE, 0), 0,
        -1, 0, 1, 0},
   };
   run_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* rayQueryTerminateEXT mid-traversal: instances 8 and 9 stand one behind
 * the other, both non-opaque, so the ray meets two candidates unless the
 * shader terminates at the first; after termination Proceed returns false
 * and the committed hit is whatever was committed before. */
TEST_CASE(terminate_ends_traversal)
{
   const struct rq_case cases[] = {
       {"two candidates, none taken", aim(8, 0.25f, 0.25f, UP, 0, 0), 2, EITHER, 0, 0, -1},
       {"terminated at the first", aim(8, 0.25f, 0.25f, UP, 0, MODE_TERMINATE), 1, EITHER, 0, 0,
        -1},
       {"confirmed, then terminated", aim(8, 0.25f, 0.25f, UP, 0, MODE_CONFIRM | MODE_TERMINATE), 1,
        EITHER, 0, 1, EITHER},
   };
   run_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

static struct ray between(struct ray ray, float tmin, float tmax)
{
   ray.tmin = tmin;
   ray.tmax = tmax;
   return ray;
}

/* [tmin, tmax] around one of instances 8 (t = 4) and 9 (t = 7): one
 * candidate, and the tmin getter gives the ray's tmin. */
TEST_CASE(tmin_and_tmax_bound_the_candidates)
{
   const struct ray ray = aim(8, 0.25f, 0.25f, UP, 0, MODE_CONFIRM);
   const struct rq_case cases[] = {
       {"tmin past the first", between(ray, 5, 100), 1, 9, 0, 1, 9},
       {"tmax before the second", between(ray, 0, 5), 1, 8, 0, 1, 8},
       {"between the two", between(ray, 4.5f, 6.5f), 0, -1, 0, 0, -1},
   };
   run_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
