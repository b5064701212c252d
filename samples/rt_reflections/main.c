/* rt_reflections: reflections with a ray-tracing pipeline
 * (VK_KHR_ray_tracing_pipeline). A reflective floor, an alpha-tested fence
 * (any-hit shader: a checkerboard of holes) and a reflective sphere that
 * only an intersection shader knows (an AABB in the acceleration
 * structure), under a sky. The closest-hit shader traces the reflections
 * recursively, up to --bounces (the pipeline's maxPipelineRayRecursionDepth
 * is bounces + 1). Prints the mean colour and writes an RGBA PNG.
 *
 * Exit status: 0 done (and --expect-mean-luma held), 1 failure, 2 bad
 * command line, 77 no device with ray-tracing pipelines (skipped). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel.h"
#include "camera_basis.h"
#include "png_write.h"

#define EXIT_SKIP 77
#define RT_STAGES                                                                                  \
   (VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |                         \
    VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_ANY_HIT_BIT_KHR |                               \
    VK_SHADER_STAGE_INTERSECTION_BIT_KHR)

struct options {
   uint32_t width, height, bounces;
   const char *output;
   bool validate, benchmark;
   double expect_mean_luma, tolerance;
};

/* shaders/reflect.rgen's push constants (std430). */
struct push_constants {
   float eye[4], right[4], up[4], forward[4];
   uint32_t width, height, bounces, unused;
};

/* --- scene ------------------------------------------------------------------------ */

/* Quads as two triangles (no index buffer): the floor (y = 0) and the
 * fence (z = 0 in its object space, x in [-2, 2], y in [0, 2]). */
static const float floor_vertices[6][3] = {{-4, 0, -4}, {-4, 0, 4}, {4, 0, 4},
                                           {-4, 0, -4}, {4, 0, 4},  {4, 0, -4}};
static const float fence_vertices[6][3] = {{-2, 0, 0}, {2, 0, 0}, {2, 2, 0},
                                           {-2, 0, 0}, {2, 2, 0}, {-2, 2, 0}};
static const VkAabbPositionsKHR sphere_box = {-0.6f, -0.6f, -0.6f, 0.6f, 0.6f, 0.6f};

enum { BLAS_FLOOR, BLAS_FENCE, BLAS_SPHERE, BLAS_COUNT };

struct scene {
   struct rq_buffer input; /* vertices, box, instances */
   struct rq_accel blas[BLAS_COUNT], tlas;
};

#define OFF_FLOOR 0
#define OFF_FENCE 128
#define OFF_BOX 256
#define OFF_INSTANCES 320

static VkResult build_blas(struct rq_context *ctx, struct scene *s, int which)
{
   struct rq_level_build lb = {
       .mode = RQ_BUILD_DEVICE,
       .type = VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
       .geometry = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR},
       .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
   };
   VkAccelerationStructureGeometryKHR *g = &lb.geometry;
   if (which == BLAS_SPHERE) {
      g->geometryType = VK_GEOMETRY_TYPE_AABBS_KHR;
      g->flags = VK_GEOMETRY_OPAQUE_BIT_KHR;
      g->geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){
          .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
          .data.deviceAddress = s->input.address + OFF_BOX,
          .stride = sizeof(VkAabbPositionsKHR)};
      lb.range.primitiveCount = 1;
   } else {
      g->geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR;
      /* The fence is not opaque: its any-hit shader cuts the holes. */
      g->flags = which == BLAS_FLOOR ? VK_GEOMETRY_OPAQUE_BIT_KHR
                                     : VK_GEOMETRY_NO_DUPLICATE_ANY_HIT_INVOCATION_BIT_KHR;
      g->geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
          .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
          .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
          .vertexData.deviceAddress =
              s->input.address + (which == BLAS_FLOOR ? OFF_FLOOR : OFF_FENCE),
          .vertexStride = 3 * sizeof(float),
          .maxVertex = 5,
          .indexType = VK_INDEX_TYPE_NONE_KHR};
      lb.range.primitiveCount = 2;
   }
   double seconds;
   bool gpu;
   return rq_accel_build(ctx, &lb, &s->blas[which], &seconds, &gpu);
}

static VkResult scene_build(struct rq_context *ctx, struct scene *s)
{
   memset(s, 0, sizeof(*s));
   VkResult r = rq_buffer_create(
       ctx, OFF_INSTANCES + BLAS_COUNT * sizeof(VkAccelerationStructureInstanceKHR),
       VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
           VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
       true, &s->input);
   if (r != VK_SUCCESS)
      return r;
   uint8_t *map = s->input.map;
   memcpy(map + OFF_FLOOR, floor_vertices, sizeof(floor_vertices));
   memcpy(map + OFF_FENCE, fence_vertices, sizeof(fence_vertices));
   memcpy(map + OFF_BOX, &sphere_box, sizeof(sphere_box));
   for (int k = 0; k < BLAS_COUNT && r == VK_SUCCESS; k++)
      r = build_blas(ctx, s, k);
   if (r != VK_SUCCESS)
      return r;
   /* Instance i uses hit record i (shaders/reflect.rchit's colours). The
    * fence stands at z = 0.8, the sphere in front of it, to the right. */
   static const float translation[BLAS_COUNT][3] = {{0, 0, 0}, {0, 0, 0.8f}, {1.2f, 0.6f, 2.2f}};
   VkAccelerationStructureInstanceKHR *inst = (void *)(map + OFF_INSTANCES);
   for (uint32_t i = 0; i < BLAS_COUNT; i++)
      inst[i] = (VkAccelerationStructureInstanceKHR){
          .transform.matrix = {{1, 0, 0, translation[i][0]},
                               {0, 1, 0, translation[i][1]},
                               {0, 0, 1, translation[i][2]}},
          .mask = 0xff,
          .instanceShaderBindingTableRecordOffset = i,
          .flags = VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR,
          .accelerationStructureReference = s->blas[i].address};
   struct rq_level_build lb = {
       .mode = RQ_BUILD_DEVICE,
       .type = VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR,
       .geometry =
           {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
            .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
            .geometry.instances =
                {
                    .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
                    .data.deviceAddress = s->input.address + OFF_INSTANCES,
                }},
       .range = {.primitiveCount = BLAS_COUNT},
       .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
   };
   double seconds;
   bool gpu;
   return rq_accel_build(ctx, &lb, &s->tlas, &seconds, &gpu);
}

static void scene_destroy(struct rq_context *ctx, struct scene *s)
{
   rq_accel_destroy(ctx, &s->tlas);
   for (int k = 0; k < BLAS_COUNT; k++)
      rq_accel_destroy(ctx, &s->blas[k]);
   rq_buffer_destroy(ctx, &s->input);
}

/* --- pipeline and shader binding table --------------------------------------------- */

enum { ST_RAYGEN, ST_MISS, ST_HIT, ST_FENCE, ST_SPHERE, ST_COUNT };
static const struct {
   const char *file;
   VkShaderStageFlagBits stage;
} stage_files[ST_COUNT] = {
    [ST_RAYGEN] = {"reflect.rgen.spv", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
    [ST_MISS] = {"sky.rmiss.spv", VK_SHADER_STAGE_MISS_BIT_KHR},
    [ST_HIT] = {"reflect.rchit.spv", VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR},
    [ST_FENCE] = {"fence.rahit.spv", VK_SHADER_STAGE_ANY_HIT_BIT_KHR},
    [ST_SPHERE] = {"sphere.rint.spv", VK_SHADER_STAGE_INTERSECTION_BIT_KHR},
};
enum { G_RAYGEN, G_MISS, G_FLOOR, G_FENCE, G_SPHERE, G_COUNT };

/* Hit records: colour + reflectivity, object-space normal (triangles). */
static const float hit_data[3][8] = {
    {0.55f, 0.55f, 0.6f, 0.5f, 0, 1, 0, 0}, /* floor: half mirror */
    {0.8f, 0.35f, 0.15f, 0.0f, 0, 0, 1, 0}, /* fence */
    {0.9f, 0.9f, 0.95f, 0.7f, 0, 0, 0, 0},  /* sphere: mostly mirror */
};

struct pass {
   struct vk_sample_compute_pipeline pipe; /* set, layouts, the pipeline */
   struct rq_buffer image, sbt;
   VkStridedDeviceAddressRegionKHR raygen, miss, hit, callable;
};

static VkRayTracingShaderGroupCreateInfoKHR group(VkRayTracingShaderGroupTypeKHR type,
                                                  uint32_t general, uint32_t closest, uint32_t any,
                                                  uint32_t intersection)
{
   return (VkRayTracingShaderGroupCreateInfoKHR){
       .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
       .type = type,
       .generalShader = general,
       .closestHitShader = closest,
       .anyHitShader = any,
       .intersectionShader = intersection};
}

static VkResult create_pipeline(struct rq_context *ctx, const struct options *o, struct pass *p)
{
   VkShaderModule modules[ST_COUNT] = {0};
   VkPipelineShaderStageCreateInfo stages[ST_COUNT];
   VkResult r = VK_SUCCESS;
   for (int i = 0; i < ST_COUNT && r == VK_SUCCESS; i++) {
      char path[1024];
      snprintf(path, sizeof(path), "%s/%s", RT_REFLECTIONS_SPV_DIR, stage_files[i].file);
      r = vk_sample_shader_module_create(ctx->device, RQ_TAG, path, &modules[i]);
      stages[i] = (VkPipelineShaderStageCreateInfo){
          .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
          .stage = stage_files[i].stage,
          .module = modules[i],
          .pName = "main"};
   }
   const uint32_t none = VK_SHADER_UNUSED_KHR;
   const VkRayTracingShaderGroupTypeKHR
       general = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR,
       triangles = VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR,
       procedural = VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR;
   const VkRayTracingShaderGroupCreateInfoKHR groups[G_COUNT] = {
       [G_RAYGEN] = group(general, ST_RAYGEN, none, none, none),
       [G_MISS] = group(general, ST_MISS, none, none, none),
       [G_FLOOR] = group(triangles, none, ST_HIT, none, none),
       [G_FENCE] = group(triangles, none, ST_HIT, ST_FENCE, none),
       [G_SPHERE] = group(procedural, none, ST_HIT, none, ST_SPHERE),
   };
   if (r == VK_SUCCESS) {
      VkRayTracingPipelineCreateInfoKHR ci = {
          .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
          .stageCount = ST_COUNT,
          .pStages = stages,
          .groupCount = G_COUNT,
          .pGroups = groups,
          .maxPipelineRayRecursionDepth = o->bounces + 1,
          .layout = p->pipe.layout};
      r = vkCreateRayTracingPipelinesKHR(ctx->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &ci, NULL,
                                         &p->pipe.pipeline);
      if (r != VK_SUCCESS)
         fprintf(stderr, "%s: vkCreateRayTracingPipelinesKHR: %s\n", RQ_TAG,
                 vk_sample_result_string(r));
   }
   for (int i = 0; i < ST_COUNT; i++)
      if (modules[i])
         vkDestroyShaderModule(ctx->device, modules[i], NULL);
   return r;
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a)
{
   return (v + a - 1) / a * a;
}

/* Regions at the base alignment: raygen, miss, then the three hit records
 * (handle + 32 bytes of hit_data). */
static VkResult create_sbt(struct rq_context *ctx, struct pass *p)
{
   VkPhysicalDeviceRayTracingPipelinePropertiesKHR rt = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &rt};
   vkGetPhysicalDeviceProperties2(ctx->physical_device, &p2);
   uint32_t hs = rt.shaderGroupHandleSize;
   if (hs > 64)
      return VK_ERROR_FEATURE_NOT_PRESENT;
   uint8_t handles[G_COUNT * 64];
   CHECK_VK(vkGetRayTracingShaderGroupHandlesKHR(ctx->device, p->pipe.pipeline, 0, G_COUNT,
                                                 G_COUNT * hs, handles));
   VkDeviceSize stride = align_up(hs + sizeof(hit_data[0]), rt.shaderGroupHandleAlignment);
   VkDeviceSize base = rt.shaderGroupBaseAlignment;
   VkDeviceSize offsets[3] = {0, align_up(stride, base), 0};
   offsets[2] = align_up(offsets[1] + stride, base);
   CHECK_VK(rq_buffer_create(ctx, offsets[2] + 3 * stride + base,
                             VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR |
                                 VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                             true, &p->sbt));
   VkDeviceAddress start = align_up(p->sbt.address, base);
   uint8_t *map = (uint8_t *)p->sbt.map + (start - p->sbt.address);
   memcpy(map + offsets[0], handles + G_RAYGEN * hs, hs);
   memcpy(map + offsets[1], handles + G_MISS * hs, hs);
   for (int i = 0; i < 3; i++) {
      memcpy(map + offsets[2] + i * stride, handles + (G_FLOOR + i) * hs, hs);
      memcpy(map + offsets[2] + i * stride + hs, hit_data[i], sizeof(hit_data[i]));
   }
   p->raygen = (VkStridedDeviceAddressRegionKHR){start + offsets[0], stride, stride};
   p->miss = (VkStridedDeviceAddressRegionKHR){start + offsets[1], stride, stride};
   p->hit = (VkStridedDeviceAddressRegionKHR){start + offsets[2], stride, 3 * stride};
   p->callable = (VkStridedDeviceAddressRegionKHR){0, 0, 0};
   return VK_SUCCESS;
}

static VkResult pass_create(struct rq_context *ctx, const struct scene *s, const struct options *o,
                            struct pass *p)
{
   memset(p, 0, sizeof(*p));
   static const VkDescriptorType types[2] = {VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
                                             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
   VkResult r = rq_buffer_create(ctx, (VkDeviceSize)o->width * o->height * 4,
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, &p->image);
   if (r == VK_SUCCESS)
      r = vk_sample_descriptor_set_create(ctx->device, RQ_TAG, types, 2, RT_STAGES, &p->pipe);
   if (r == VK_SUCCESS) {
      VkPushConstantRange range = {RT_STAGES, 0, sizeof(struct push_constants)};
      VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                         .setLayoutCount = 1,
                                         .pSetLayouts = &p->pipe.set_layout,
                                         .pushConstantRangeCount = 1,
                                         .pPushConstantRanges = &range};
      r = vkCreatePipelineLayout(ctx->device, &plci, NULL, &p->pipe.layout);
   }
   if (r == VK_SUCCESS)
      r = create_pipeline(ctx, o, p);
   if (r == VK_SUCCESS)
      r = create_sbt(ctx, p);
   if (r != VK_SUCCESS)
      return r;
   VkWriteDescriptorSetAccelerationStructureKHR as = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
       .accelerationStructureCount = 1,
       .pAccelerationStructures = &s->tlas.handle};
   VkDescriptorBufferInfo image = {p->image.buffer, 0, VK_WHOLE_SIZE};
   VkWriteDescriptorSet w[2] = {
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .pNext = &as,
        .dstSet = p->pipe.set,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = types[0]},
       {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = p->pipe.set,
        .dstBinding = 1,
        .descriptorCount = 1,
        .descriptorType = types[1],
        .pBufferInfo = &image},
   };
   vkUpdateDescriptorSets(ctx->device, 2, w, 0, NULL);
   return VK_SUCCESS;
}

static VkResult pass_run(struct rq_context *ctx, struct pass *p, const struct push_constants *pc,
                         double *seconds, bool *timed_on_gpu)
{
   VkCommandBuffer cmd;
   VkResult r = rq_commands_begin(ctx, &cmd);
   if (r != VK_SUCCESS)
      return r;
   VkMemoryBarrier built = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
                            .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                        VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR, 0, 1, &built, 0, NULL, 0,
                        NULL);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, p->pipe.pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, p->pipe.layout, 0, 1,
                           &p->pipe.set, 0, NULL);
   vkCmdPushConstants(cmd, p->pipe.layout, RT_STAGES, 0, sizeof(*pc), pc);
   vkCmdTraceRaysKHR(cmd, &p->raygen, &p->miss, &p->hit, &p->callable, pc->width, pc->height, 1);
   VkMemoryBarrier written = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                              .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                              .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &written, 0, NULL, 0, NULL);
   return rq_commands_submit(ctx, cmd, seconds, timed_on_gpu);
}

static void pass_destroy(struct rq_context *ctx, struct pass *p)
{
   if (ctx->device)
      vk_sample_compute_pipeline_destroy(ctx->device, &p->pipe);
   rq_buffer_destroy(ctx, &p->sbt);
   rq_buffer_destroy(ctx, &p->image);
}

/* --- main ------------------------------------------------------------------------- */

static int parse(int argc, char **argv, struct options *o)
{
   *o = (struct options){.width = 256,
                         .height = 192,
                         .bounces = 2,
                         .output = "rt_reflections.png",
                         .expect_mean_luma = NAN,
                         .tolerance = 0.01};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!strcmp(a, "--validate")) {
         o->validate = true;
      } else if (!strcmp(a, "--benchmark")) {
         o->benchmark = true;
      } else if (v && !strcmp(a, "--width")) {
         o->width = (uint32_t)strtoul(v, NULL, 10), i++;
      } else if (v && !strcmp(a, "--height")) {
         o->height = (uint32_t)strtoul(v, NULL, 10), i++;
      } else if (v && !strcmp(a, "--bounces")) {
         o->bounces = (uint32_t)strtoul(v, NULL, 10), i++;
      } else if (v && !strcmp(a, "--output")) {
         o->output = v, i++;
      } else if (v && !strcmp(a, "--expect-mean-luma")) {
         o->expect_mean_luma = strtod(v, NULL), i++;
      } else if (v && !strcmp(a, "--tolerance")) {
         o->tolerance = strtod(v, NULL), i++;
      } else {
         fprintf(stderr,
                 "usage: %s [--width N] [--height N] [--bounces N] [--output FILE.png] "
                 "[--validate] [--benchmark] [--expect-mean-luma L] [--tolerance T]\n",
                 argv[0]);
         return 2;
      }
   }
   if (!o->width || !o->height || o->width > 8192 || o->height > 8192 || o->bounces > 7) {
      fprintf(stderr, "%s: sizes must be 1..8192 and bounces 0..7\n", RQ_TAG);
      return 2;
   }
   return 0;
}

static int run(struct rq_context *ctx, const struct options *o)
{
   struct push_constants pc = {.width = o->width, .height = o->height, .bounces = o->bounces};
   const float eye[3] = {1.6f, 2.2f, 6.5f}, look_at[3] = {0, 0.6f, 0};
   float fov = 50.0f * (float)o->height / (float)o->width + 10.0f;
   if (!camera_basis(eye, look_at, fov, pc.forward, pc.right, pc.up))
      return 1;
   memcpy(pc.eye, eye, sizeof(eye));
   struct scene s;
   struct pass p = {0};
   double seconds = 0;
   bool gpu = false;
   VkResult r = scene_build(ctx, &s);
   if (r == VK_SUCCESS)
      r = pass_create(ctx, &s, o, &p);
   if (r == VK_SUCCESS)
      r = pass_run(ctx, &p, &pc, &seconds, &gpu);
   if (r == VK_TIMEOUT)
      return 1;
   int status = 1;
   if (r == VK_SUCCESS) {
      const uint8_t *rgba = p.image.map;
      double sum[3] = {0, 0, 0};
      uint64_t pixels = (uint64_t)o->width * o->height;
      for (uint64_t i = 0; i < pixels; i++)
         for (int c = 0; c < 3; c++)
            sum[c] += rgba[4 * i + c] / 255.0;
      double mean[3] = {sum[0] / pixels, sum[1] / pixels, sum[2] / pixels};
      double luma = 0.2126 * mean[0] + 0.7152 * mean[1] + 0.0722 * mean[2];
      printf("%s: %s: %ux%u, %u bounces: mean colour %.4f %.4f %.4f, luma %.4f\n", RQ_TAG,
             ctx->properties.deviceName, o->width, o->height, o->bounces, mean[0], mean[1], mean[2],
             luma);
      if (o->benchmark)
         printf("%s: trace %.3f ms (%s) for %llu camera rays\n", RQ_TAG, seconds * 1e3,
                gpu ? "timestamps" : "host clock", (unsigned long long)pixels);
      bool ok = png_rgba_write(o->output, rgba, o->width, o->height);
      if (ok)
         printf("%s: wrote %s\n", RQ_TAG, o->output);
      if (!isnan(o->expect_mean_luma)) {
         bool near = fabs(luma - o->expect_mean_luma) <= o->tolerance;
         printf("%s: check mean luma %.4f, expected %.4f +- %.4f: %s\n", RQ_TAG, luma,
                o->expect_mean_luma, o->tolerance, near ? "ok" : "FAILED");
         ok = ok && near;
      }
      status = ok ? 0 : 1;
   }
   pass_destroy(ctx, &p);
   scene_destroy(ctx, &s);
   return status;
}

int main(int argc, char **argv)
{
   struct options o;
   int status = parse(argc, argv, &o);
   if (status)
      return status;
   struct rq_context ctx;
   VkResult r = rq_context_init(&ctx, o.validate);
   if (r == VK_ERROR_EXTENSION_NOT_PRESENT) {
      printf("%s: SKIP: no Vulkan device with ray-tracing pipelines here\n", RQ_TAG);
      status = EXIT_SKIP;
   } else if (r != VK_SUCCESS) {
      status = 1;
   } else {
      status = run(&ctx, &o);
   }
   if (ctx.inst.error_messages) {
      fprintf(stderr, "%s: %u validation error messages\n", RQ_TAG, ctx.inst.error_messages);
      status = 1;
   }
   rq_context_finish(&ctx);
   return status;
}
