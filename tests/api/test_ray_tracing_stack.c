/* The ray-tracing pipeline stack (VK_KHR_ray_tracing_pipeline, "Ray
 * Tracing Pipeline Stack") through the loader with validation on:
 * callables that call themselves or each other through the SBT, closest-hit
 * shaders that keep locals and built-ins across a traceRayEXT, the stack
 * sizes vkGetRayTracingShaderGroupStackSizeKHR reports, the stack set with
 * vkCmdSetRayTracingPipelineStackSizeKHR and the default one, and (vkppu
 * only) a recursion deeper than the stack losing the device.
 *
 * Every shader mixes values it computed before its inner call or trace with
 * what that call returned, so a callee that clobbered its caller's registers
 * or locals gives other numbers; each output word is compared exactly with
 * the same arithmetic done here (mixu is the shaders' mixu). The same
 * shaders and expectations run on lavapipe (lvp.ray_tracing_stack). */
#include <stdlib.h>
#include <string.h>

#include "ray_tracing_test_util.h"
#include "stderr_capture.h"

/* --- what the shaders compute ----------------------------------------------------- */

static uint32_t mixu(uint32_t a, uint32_t b)
{
   a = (a ^ (b * 0x9E3779B1u)) * 0x85EBCA6Bu;
   return a ^ (a >> 13);
}

/* rt_stack_callable.rgen: the lane's depth and seed. */
static uint32_t lane_depth(uint32_t lane, uint32_t fixed_depth, uint32_t depth_count)
{
   return fixed_depth ? fixed_depth : (lane * 5u + (lane >> 3)) % depth_count;
}

static uint32_t lane_seed(uint32_t lane)
{
   return lane * 0x01000193u + 0x811C9DC5u;
}

/* rt_stack_recursive.rcall at n levels to go with value v. */
static uint32_t self_call(uint32_t n, uint32_t v)
{
   uint32_t keep[4];
   for (uint32_t i = 0; i < 4; i++)
      keep[i] = mixu(v + i, n * 4u + i);
   uint32_t r = 0x2545F491u;
   if (n > 0)
      r = self_call(n - 1, keep[n & 3]);
   return mixu(keep[(r + n) & 3], r) + keep[0] * 3u + (keep[1] ^ keep[2]) + keep[3] * n;
}

static uint32_t mutual_b(uint32_t n, uint32_t v);

/* rt_stack_mutual_a.rcall / rt_stack_mutual_b.rcall. */
static uint32_t mutual_a(uint32_t n, uint32_t v)
{
   uint32_t keep[3] = {v * 3u + n, v ^ 0xA5A5A5A5u, mixu(v, n)};
   uint32_t r = n * 0x10001u;
   if (n > 0)
      r = mutual_b(n - 1, keep[2] + 1u);
   return mixu(keep[0] ^ r, keep[1]) + keep[2] * 5u;
}

static uint32_t mutual_b(uint32_t n, uint32_t v)
{
   uint32_t keep[3] = {v + 0x1000u * n, mixu(n, v), ~v};
   uint32_t r = 0xB0B0u + n;
   if (n > 0)
      r = mutual_a(n - 1, keep[1] ^ keep[2]);
   return (keep[r % 3u] * 9u) ^ mixu(r, keep[0]) ^ (keep[2] >> 3);
}

/* The raygen's word for a lane whose callable returned `value`. */
static uint32_t callable_word(uint32_t lane, uint32_t depth, uint32_t value)
{
   return value + lane_seed(lane) * 7u + depth;
}

/* --- scene: four triangles stacked up z (rt_stack_bounce.*) ----------------------- */

#define PLANES 4
#define CUSTOM_INDEX 7u
#define OFF_INSTANCE 256

/* Triangle k (primitive k) lies in z = k + 1 and covers x + y < 8. */
static void plane_vertices(float v[PLANES][3][3])
{
   for (int k = 0; k < PLANES; k++) {
      const float z = (float)(k + 1);
      const float tri[3][3] = {{0, 0, z}, {8, 0, z}, {0, 8, z}};
      memcpy(v[k], tri, sizeof(tri));
   }
}

/* rt_stack_bounce.rchit at depth d (its hit: primitive d - 1 at t = d) for
 * a ray from x = ox8 / 8; rt_stack_bounce.rmiss past the last trace. */
static uint32_t bounce_hit(uint32_t d, uint32_t limit, uint32_t value, uint32_t ox8)
{
   const uint32_t prim = d - 1, t16 = 16 * d;
   uint32_t keep[4];
   for (uint32_t i = 0; i < 4; i++)
      keep[i] = mixu(value + i, d * 16u + prim * 4u + i);
   uint32_t inner = 0x600Du;
   if (d < limit)
      inner = bounce_hit(d + 1, limit, keep[d & 3], ox8);
   return mixu(keep[(inner + d) & 3] ^ inner, prim * 1000u + t16) + keep[3] * CUSTOM_INDEX + ox8 +
          (keep[1] ^ keep[2]);
}

static uint32_t bounce_word(uint32_t x, uint32_t y, uint32_t width)
{
   const uint32_t lane = y * width + x;
   if (lane % 7 == 3)
      return 0x4D155u + 1 * 0x100u + 100u; /* the miss shader at depth 1, tmax 100 */
   return bounce_hit(1, 1 + lane % 4, lane * 0x9E3779B1u, 1 + 2 * (x % 8));
}

/* --- rig: device, scene, set, output ---------------------------------------------- */

#define MAX_WORDS 1024

/* Set 0 is rt_basic.*'s (the TLAS at 0, storage buffers at 1 and 2) so
 * stack_sizes can make its pipeline too; the stack shaders write binding 2.
 * Push constants: two words (rt_stack_callable.rgen's Params). */
struct rig {
   struct rtu_rig r;
   struct vkt_buffer input, out;
   struct atu_accel blas, tlas;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkDescriptorPool pool;
   VkDescriptorSet set;
   VkPipeline pipeline;
   struct rtu_sbt sbt;
};

static bool scene_build(struct rig *g)
{
   struct rtu_rig *r = &g->r;
   VKT_CHECK(
       vkt_buffer_create(&r->dev, OFF_INSTANCE + sizeof(VkAccelerationStructureInstanceKHR),
                         VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
                             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                         VKT_MEMORY_HOST, &g->input));
   if (!g->input.map)
      return false;
   float vertices[PLANES][3][3];
   plane_vertices(vertices);
   memcpy(g->input.map, vertices, sizeof(vertices));
   VkDeviceAddress input = rtu_address(r, g->input.buffer);
   VkAccelerationStructureGeometryKHR tris = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR,
       .flags = VK_GEOMETRY_OPAQUE_BIT_KHR};
   tris.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
       .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
       .vertexData.deviceAddress = input,
       .vertexStride = 3 * sizeof(float),
       .maxVertex = 3 * PLANES - 1,
       .indexType = VK_INDEX_TYPE_NONE_KHR};
   const uint32_t planes = PLANES, one = 1;
   if (!rtu_accel_build(r, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &tris, &planes, 1,
                        &g->blas))
      return false;
   VkAccelerationStructureInstanceKHR *inst = (void *)((char *)g->input.map + OFF_INSTANCE);
   *inst = (VkAccelerationStructureInstanceKHR){
       .transform = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}},
       .instanceCustomIndex = CUSTOM_INDEX,
       .mask = 0xff,
       .accelerationStructureReference = g->blas.address};
   VkAccelerationStructureGeometryKHR top = {
       .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
       .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
       .geometry.instances = {
           .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
           .data.deviceAddress = input + OFF_INSTANCE}};
   return rtu_accel_build(r, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &top, &one, 1, &g->tlas);
}

/* Destroys what was made; on a lost device too (see stack_overflow). */
static void rig_destroy(struct rig *g)
{
   struct rtu_rig *r = &g->r;
   VkDevice d = r->dev.device;
   if (g->pipeline)
      vkDestroyPipeline(d, g->pipeline, NULL);
   vkt_buffer_destroy(&r->dev, &g->sbt.buffer);
   if (g->pool)
      vkDestroyDescriptorPool(d, g->pool, NULL);
   if (g->layout)
      vkDestroyPipelineLayout(d, g->layout, NULL);
   if (g->set_layout)
      vkDestroyDescriptorSetLayout(d, g->set_layout, NULL);
   atu_accel_destroy(&r->dev, &g->tlas);
   atu_accel_destroy(&r->dev, &g->blas);
   vkt_buffer_destroy(&r->dev, &g->input);
   vkt_buffer_destroy(&r->dev, &g->out);
   vkt_teardown(&r->ctx, &r->dev);
}

/* The device, the scene, the set and a MAX_WORDS-word output; false (case
 * skipped or failed, everything destroyed) when they cannot be had. */
static bool rig_create(struct rig *g)
{
   memset(g, 0, sizeof(*g));
   if (!rtu_rig_create(&g->r))
      return false;
   struct rtu_rig *r = &g->r;
   rtu_set_create(r, 8, &g->set_layout, &g->layout, &g->pool, &g->set);
   VKT_CHECK(vkt_buffer_create(&r->dev, MAX_WORDS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &g->out));
   if (!g->set || !g->out.map || !scene_build(g)) {
      rig_destroy(g);
      return false;
   }
   ctu_write_accel(&r->dev, g->set, 0, g->tlas.handle);
   ctu_write_buffer(&r->dev, g->set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, g->out.buffer, 0,
                    VK_WHOLE_SIZE);
   ctu_write_buffer(&r->dev, g->set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, g->out.buffer, 0,
                    VK_WHOLE_SIZE);
   return true;
}

/* g->pipeline from these stages and groups (group 0 the raygen; the SBT's
 * regions: raygen group 0, miss groups, hit groups, callable groups). */
struct pipeline_desc {
   const struct rtu_stage *stages;
   uint32_t stage_count;
   const VkRayTracingShaderGroupCreateInfoKHR *groups;
   uint32_t group_count;
   uint32_t max_recursion;
   bool dynamic_stack_size;
   const uint32_t *miss_groups, *hit_groups, *callable_groups;
   uint32_t miss_count, hit_count, callable_count;
};

static bool rig_pipeline(struct rig *g, const struct pipeline_desc *p)
{
   struct rtu_linking linking = {.dynamic_stack_size = p->dynamic_stack_size};
   VkResult res =
       rtu_pipeline_create_linked(&g->r, p->stages, p->stage_count, p->groups, p->group_count,
                                  p->max_recursion, g->layout, &linking, &g->pipeline);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateRayTracingPipelinesKHR -> %s", vkt_result_name(res));
      g->pipeline = VK_NULL_HANDLE;
      return false;
   }
   struct rtu_sbt_record records[3][8];
   const uint32_t *lists[3] = {p->miss_groups, p->hit_groups, p->callable_groups};
   const uint32_t counts[4] = {1, p->miss_count, p->hit_count, p->callable_count};
   for (int k = 0; k < 3; k++)
      for (uint32_t i = 0; i < counts[k + 1] && i < 8; i++)
         records[k][i] = (struct rtu_sbt_record){lists[k][i], {0}};
   static const struct rtu_sbt_record raygen[1] = {{0, {0}}};
   const struct rtu_sbt_record *regions[4] = {raygen, records[0], records[1], records[2]};
   return rtu_sbt_create(&g->r, g->pipeline, p->group_count, regions, counts, &g->sbt);
}

/* The stack size of one shader of a group (VUID-03609: never an unused one). */
static VkDeviceSize stack_size(struct rig *g, uint32_t group, VkShaderGroupShaderKHR shader)
{
   return vkGetRayTracingShaderGroupStackSizeKHR(g->r.dev.device, g->pipeline, group, shader);
}

#define NO_STACK_SIZE UINT64_MAX

/* Errors validation 1.3.239 gives when a lost device's objects are
 * destroyed (see test_device_lost.c), and the loss's own report. The
 * "in use" ones of the objects the lost trace used are listed too: the
 * layer may still count that submission as running, and destroying them is
 * what the spec asks of an application on a lost device. */
static const char *const expected_after_loss[] = {
    "device lost",
    "VUID-vkDestroyFence-fence-01120",
    "VUID-vkFreeCommandBuffers-pCommandBuffers-00047",
    "VUID-vkDestroyCommandPool-commandPool-00041",
    "VUID-vkDestroyPipeline-pipeline-00765",
    "VUID-vkDestroyBuffer-buffer-00922",
    "VUID-vkDestroyDescriptorPool-descriptorPool-00303",
    "VUID-vkDestroyAccelerationStructureKHR-accelerationStructure-02442",
    NULL,
};

/* A width x height launch of g->pipeline with push constants `push`, the
 * stack set to `stack` unless NO_STACK_SIZE (the pipeline then has no
 * dynamic stack size); with vkCmdTraceRaysIndirect2KHR of the command at
 * indirect2 unless 0. Returns the submit's or wait's result; the caller
 * checks it. */
static VkResult rig_trace_with(struct rig *g, uint32_t width, uint32_t height,
                               const uint32_t push[2], VkDeviceSize stack,
                               VkDeviceAddress indirect2)
{
   struct rtu_rig *r = &g->r;
   struct vkt_device *dev = &r->dev;
   memset(g->out.map, 0xab, MAX_WORDS * 4);
   VkCommandBuffer cmd = vkt_cmd_begin(dev, r->ctx.universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, g->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, g->layout, 0, 1, &g->set, 0,
                           NULL);
   vkCmdPushConstants(cmd, g->layout, RTU_ALL_STAGES, 0, 8, push);
   if (stack != NO_STACK_SIZE)
      vkCmdSetRayTracingPipelineStackSizeKHR(cmd, (uint32_t)stack);
   if (indirect2)
      vkCmdTraceRaysIndirect2KHR(cmd, indirect2);
   else
      vkCmdTraceRaysKHR(cmd, &g->sbt.raygen, &g->sbt.miss, &g->sbt.hit, &g->sbt.callable, width,
                        height, 1);
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
   VkResult res = vkEndCommandBuffer(cmd);
   VkFence fence = vkt_fence_create(dev, false);
   if (res == VK_SUCCESS) {
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
      res = vkQueueSubmit(dev->queue, 1, &si, fence);
      if (res == VK_SUCCESS)
         res = vkWaitForFences(dev->device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
      if (res == VK_TIMEOUT)
         vkt_fatal_hang("vkCmdTraceRaysKHR");
   }
   /* On a lost device every submitted command buffer counts as finished. */
   vkDestroyFence(dev->device, fence, NULL);
   vkFreeCommandBuffers(dev->device, dev->pools[r->ctx.universal_family], 1, &cmd);
   return res;
}

static VkResult rig_trace(struct rig *g, uint32_t width, uint32_t height, const uint32_t push[2],
                          VkDeviceSize stack)
{
   return rig_trace_with(g, width, height, push, stack, 0);
}

/* Compares the first `count` output words with `expected`. */
static void check_output(struct rig *g, const uint32_t *expected, uint32_t count, const char *what)
{
   vkt_compare_words(expected, g->out.map, (size_t)count * 4, what);
}

/* --- callable pipelines ----------------------------------------------------------- */

#define WIDTH 16
#define HEIGHT 8
#define LANES (WIDTH * HEIGHT)

static const struct rtu_stage recursive_stages[2] = {
    {"rt_stack_callable.rgen", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
    {"rt_stack_recursive.rcall", VK_SHADER_STAGE_CALLABLE_BIT_KHR},
};
static const struct rtu_stage mutual_stages[3] = {
    {"rt_stack_callable.rgen", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
    {"rt_stack_mutual_a.rcall", VK_SHADER_STAGE_CALLABLE_BIT_KHR},
    {"rt_stack_mutual_b.rcall", VK_SHADER_STAGE_CALLABLE_BIT_KHR},
};
static const uint32_t callable_records[2] = {1, 2};

/* The pipeline of rt_stack_callable.rgen and `callables` callables (group
 * i + 1 is callable record i). No traces, so recursion depth 0. */
static bool callable_pipeline(struct rig *g, const struct rtu_stage *stages, uint32_t callables,
                              bool dynamic_stack_size)
{
   VkRayTracingShaderGroupCreateInfoKHR groups[3];
   for (uint32_t i = 0; i <= callables; i++)
      groups[i] = rtu_general_group(i);
   struct pipeline_desc p = {.stages = stages,
                             .stage_count = 1 + callables,
                             .groups = groups,
                             .group_count = 1 + callables,
                             .max_recursion = 0,
                             .dynamic_stack_size = dynamic_stack_size,
                             .callable_groups = callable_records,
                             .callable_count = callables};
   return rig_pipeline(g, &p);
}

/* raygen + frames x the largest callable, from the reported sizes. */
static VkDeviceSize callable_stack(struct rig *g, uint32_t callables, uint32_t frames)
{
   VkDeviceSize raygen = stack_size(g, 0, VK_SHADER_GROUP_SHADER_GENERAL_KHR), callable = 0;
   for (uint32_t i = 1; i <= callables; i++) {
      VkDeviceSize s = stack_size(g, i, VK_SHADER_GROUP_SHADER_GENERAL_KHR);
      callable = s > callable ? s : callable;
   }
   printf("  stack sizes: raygen %llu, callable %llu; stack %u x callable = %llu bytes\n",
          (unsigned long long)raygen, (unsigned long long)callable, frames,
          (unsigned long long)(raygen + frames * callable));
   return raygen + frames * callable;
}

/* Every lane's expected word for depths by lane (rt_stack_callable.rgen). */
static void expect_callables(uint32_t *expected, bool mutual, uint32_t fixed_depth,
                             uint32_t depth_count)
{
   for (uint32_t lane = 0; lane < LANES; lane++) {
      uint32_t n = lane_depth(lane, fixed_depth, depth_count), v = lane_seed(lane);
      expected[lane] = callable_word(lane, n, mutual ? mutual_a(n, v) : self_call(n, v));
   }
}

/* Lanes recursing 0..depths-1 callables deep (the self-calling callable,
 * or A and B calling each other when mutual), with the stack set for
 * `depths` callable frames, or the default stack when !dynamic. */
static void run_callables(bool mutual, uint32_t depths, bool dynamic, const char *what)
{
   struct rig g;
   if (!rig_create(&g))
      return;
   uint32_t callables = mutual ? 2 : 1;
   if (callable_pipeline(&g, mutual ? mutual_stages : recursive_stages, callables, dynamic)) {
      const uint32_t push[2] = {0, depths};
      VkDeviceSize stack = dynamic ? callable_stack(&g, callables, depths) : NO_STACK_SIZE;
      VkResult res = rig_trace(&g, WIDTH, HEIGHT, push, stack);
      CHECK_MSG(res == VK_SUCCESS, "%s, depths 0..%u -> %s", what, depths - 1,
                vkt_result_name(res));
      uint32_t expected[LANES];
      expect_callables(expected, mutual, 0, depths);
      if (res == VK_SUCCESS)
         check_output(&g, expected, LANES, what);
   }
   rig_destroy(&g);
}

/* Depths 0..7 by lane (8 callable frames at most, the stack set for 8). */
TEST_CASE(recursive_callable)
{
   run_callables(false, 8, true, "recursive callable");
}

/* A -> B -> A ... with depths 0..9 by lane: 10 callable frames at most. */
TEST_CASE(mutual_recursion)
{
   run_callables(true, 10, true, "mutually recursive callables");
}

/* Without the dynamic state the stack is the spec's default: raygen + 2 x
 * callable (no hit or miss shaders), room for raygen -> C -> C, depths 0
 * and 1. */
TEST_CASE(default_stack_holds_two_callable_levels)
{
   run_callables(false, 2, false, "self-calling callable on the default stack");
}

/* --- closest-hit recursion -------------------------------------------------------- */

#define BOUNCE_DEPTH 4

/* maxPipelineRayRecursionDepth 4 and the default stack, which the spec
 * sizes for it: raygen + max(chit, miss) x 4. Lanes go 1..4 traces deep
 * (one in seven misses at once), 8 x 4 tiles of them per warp. */
TEST_CASE(closest_hit_recursion_keeps_locals)
{
   struct rig g;
   if (!rig_create(&g))
      return;
   if (g.r.rt.maxRayRecursionDepth < BOUNCE_DEPTH) {
      vkt_skip("maxRayRecursionDepth %u < %u", g.r.rt.maxRayRecursionDepth, BOUNCE_DEPTH);
      rig_destroy(&g);
      return;
   }
   static const struct rtu_stage stages[3] = {
       {"rt_stack_bounce.rgen", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
       {"rt_stack_bounce.rmiss", VK_SHADER_STAGE_MISS_BIT_KHR},
       {"rt_stack_bounce.rchit", VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR},
   };
   const VkRayTracingShaderGroupCreateInfoKHR groups[3] = {
       rtu_general_group(0), rtu_general_group(1),
       rtu_hit_group(VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR, 2,
                     VK_SHADER_UNUSED_KHR, VK_SHADER_UNUSED_KHR)};
   static const uint32_t miss[1] = {1}, hit[1] = {2};
   struct pipeline_desc p = {.stages = stages,
                             .stage_count = 3,
                             .groups = groups,
                             .group_count = 3,
                             .max_recursion = BOUNCE_DEPTH,
                             .miss_groups = miss,
                             .miss_count = 1,
                             .hit_groups = hit,
                             .hit_count = 1};
   if (rig_pipeline(&g, &p)) {
      const uint32_t push[2] = {0, 0};
      VkResult res = rig_trace(&g, WIDTH, HEIGHT, push, NO_STACK_SIZE);
      CHECK_MSG(res == VK_SUCCESS, "closest-hit recursion -> %s", vkt_result_name(res));
      uint32_t expected[LANES];
      for (uint32_t y = 0; y < HEIGHT; y++)
         for (uint32_t x = 0; x < WIDTH; x++)
            expected[y * WIDTH + x] = bounce_word(x, y, WIDTH);
      if (res == VK_SUCCESS)
         check_output(&g, expected, LANES, "closest-hit recursion words");
   }
   rig_destroy(&g);
}

/* --- stack sizes ------------------------------------------------------------------ */

/* Every shader each group has, asked twice: the same answer. vkppu's
 * frames are whole words and every stage has one (its return address at
 * least), so there every size is nonzero and a multiple of 4; the spec
 * requires neither, so elsewhere they are only printed. Unused slots are
 * not asked: VUID-vkGetRayTracingShaderGroupStackSizeKHR-groupShader-03609
 * forbids it. */
static void check_group_sizes(struct rig *g, const VkRayTracingShaderGroupCreateInfoKHR *groups,
                              uint32_t count, const char *pipeline)
{
   for (uint32_t i = 0; i < count; i++) {
      const struct {
         uint32_t stage;
         VkShaderGroupShaderKHR which;
         const char *name;
      } slots[4] = {
          {groups[i].generalShader, VK_SHADER_GROUP_SHADER_GENERAL_KHR, "general"},
          {groups[i].closestHitShader, VK_SHADER_GROUP_SHADER_CLOSEST_HIT_KHR, "closest hit"},
          {groups[i].anyHitShader, VK_SHADER_GROUP_SHADER_ANY_HIT_KHR, "any hit"},
          {groups[i].intersectionShader, VK_SHADER_GROUP_SHADER_INTERSECTION_KHR, "intersection"},
      };
      for (int k = 0; k < 4; k++) {
         if (slots[k].stage == VK_SHADER_UNUSED_KHR)
            continue;
         VkDeviceSize a = stack_size(g, i, slots[k].which), b = stack_size(g, i, slots[k].which);
         printf("  %s group %u %s: %llu bytes\n", pipeline, i, slots[k].name,
                (unsigned long long)a);
         CHECK_MSG(a == b, "%s group %u %s: %llu bytes, then %llu", pipeline, i, slots[k].name,
                   (unsigned long long)a, (unsigned long long)b);
         if (g->r.ctx.is_vkppu) {
            CHECK_MSG(a != 0 && a % 4 == 0, "%s group %u %s: %llu bytes", pipeline, i,
                      slots[k].name, (unsigned long long)a);
         }
      }
   }
}

/* rt_basic.*: every stage kind, with the groups of test_ray_tracing_pipeline.c. */
TEST_CASE(stack_sizes)
{
   struct rig g;
   if (!rig_create(&g))
      return;
   static const struct rtu_stage stages[6] = {
       {"rt_basic.rgen", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
       {"rt_basic.rmiss", VK_SHADER_STAGE_MISS_BIT_KHR},
       {"rt_basic.rchit", VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR},
       {"rt_basic.rahit", VK_SHADER_STAGE_ANY_HIT_BIT_KHR},
       {"rt_basic.rint", VK_SHADER_STAGE_INTERSECTION_BIT_KHR},
       {"rt_basic.rcall", VK_SHADER_STAGE_CALLABLE_BIT_KHR},
   };
   const VkRayTracingShaderGroupTypeKHR
       tri = VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR,
       proc = VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR;
   const uint32_t none = VK_SHADER_UNUSED_KHR;
   const VkRayTracingShaderGroupCreateInfoKHR groups[6] = {
       rtu_general_group(0),
       rtu_general_group(1),
       rtu_hit_group(tri, 2, none, none),
       rtu_hit_group(tri, 2, 3, none),
       rtu_hit_group(proc, 2, none, 4),
       rtu_general_group(5),
   };
   /* The self-calling callable's pipeline too. */
   const VkRayTracingShaderGroupCreateInfoKHR self_groups[2] = {rtu_general_group(0),
                                                                rtu_general_group(1)};
   const struct {
      const char *name;
      const struct rtu_stage *stages;
      const VkRayTracingShaderGroupCreateInfoKHR *groups;
      uint32_t count;
   } pipelines[2] = {{"rt_basic", stages, groups, 6},
                     {"rt_stack_recursive", recursive_stages, self_groups, 2}};
   for (int p = 0; p < 2; p++) {
      g.pipeline = VK_NULL_HANDLE;
      VkResult res =
          rtu_pipeline_create(&g.r, pipelines[p].stages, pipelines[p].count, pipelines[p].groups,
                              pipelines[p].count, 1, g.layout, &g.pipeline);
      CHECK_MSG(res == VK_SUCCESS, "%s pipeline -> %s", pipelines[p].name, vkt_result_name(res));
      if (res != VK_SUCCESS) {
         g.pipeline = VK_NULL_HANDLE;
         continue;
      }
      check_group_sizes(&g, pipelines[p].groups, pipelines[p].count, pipelines[p].name);
      vkDestroyPipeline(g.r.dev.device, g.pipeline, NULL);
      g.pipeline = VK_NULL_HANDLE;
   }
   rig_destroy(&g);
}

/* --- stack overflow (vkppu) ------------------------------------------------------- */

/* Depth 100 on a stack of raygen + 2 callables (set, or the default):
 * undefined behaviour in Vulkan, so vkppu alone is held to its contract: the
 * frame beyond the thread's local memory faults, the device is lost with a
 * report naming local memory, and the process goes on. */
static void check_overflow(bool dynamic_stack_size)
{
   struct rig g;
   if (!rig_create(&g))
      return;
   if (!g.r.ctx.is_vkppu) {
      vkt_skip("a stack overflow is undefined behaviour; checked on vkppu only (device is \"%s\")",
               g.r.ctx.props.deviceName);
      rig_destroy(&g);
      return;
   }
   if (callable_pipeline(&g, recursive_stages, 1, dynamic_stack_size)) {
      const uint32_t push[2] = {100, 1};
      VkDeviceSize stack = dynamic_stack_size ? callable_stack(&g, 1, 2) : NO_STACK_SIZE;
      struct stderr_capture cap;
      if (stderr_capture_begin(&cap)) {
         vkt_tolerate_begin(expected_after_loss);
         VkResult res = rig_trace(&g, WIDTH, HEIGHT, push, stack);
         vkt_tolerate_end();
         char *report = stderr_capture_end(&cap);
         CHECK_MSG(res == VK_ERROR_DEVICE_LOST, "depth 100 on a 2-callable stack -> %s",
                   vkt_result_name(res));
         CHECK_MSG(text_contains_nocase(report, "local memory"),
                   "the fault report does not mention local memory");
         free(report);
      } else {
         test_fail(__FILE__, __LINE__, "cannot capture stderr");
      }
   }
   vkt_tolerate_begin(expected_after_loss);
   rig_destroy(&g);
   vkt_tolerate_end();
}

TEST_CASE(stack_overflow_loses_the_device)
{
   check_overflow(true);
}

TEST_CASE(default_stack_overflow_loses_the_device)
{
   check_overflow(false);
}

/* vkCmdTraceRaysIndirect2KHR reading its command from memory nothing is
 * mapped at: the device is lost with a report naming the command and the
 * address (vkppu only: elsewhere it is undefined behaviour). */
TEST_CASE(indirect2_from_unmapped_memory_loses_the_device)
{
   struct rig g;
   if (!rig_create(&g))
      return;
   if (!g.r.ctx.is_vkppu || !g.r.maintenance1) {
      vkt_skip("an unmapped indirect address is undefined behaviour; checked on vkppu only");
      rig_destroy(&g);
      return;
   }
   if (callable_pipeline(&g, recursive_stages, 1, false)) {
      const uint32_t push[2] = {1, 1};
      struct stderr_capture cap;
      if (stderr_capture_begin(&cap)) {
         vkt_tolerate_begin(expected_after_loss);
         VkResult res = rig_trace_with(&g, WIDTH, HEIGHT, push, NO_STACK_SIZE, 0x7f0000000000ull);
         vkt_tolerate_end();
         char *report = stderr_capture_end(&cap);
         CHECK_MSG(res == VK_ERROR_DEVICE_LOST, "unmapped indirect command -> %s",
                   vkt_result_name(res));
         CHECK_MSG(text_contains_nocase(report, "vkCmdTraceRaysIndirect2KHR") &&
                       text_contains_nocase(report, "0x7f0000000000"),
                   "the report does not name the command and its address");
         free(report);
      } else {
         test_fail(__FILE__, __LINE__, "cannot capture stderr");
      }
   }
   vkt_tolerate_begin(expected_after_loss);
   rig_destroy(&g);
   vkt_tolerate_end();
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
