/* Compute dispatches checked word for word: vkCmdDispatch, vkCmdDispatchBase
 * (VK_KHR_device_group) and vkCmdDispatchIndirect with push constants and
 * gl_NumWorkGroups; several descriptor sets with uniform and storage
 * buffers, their dynamic variants and dynamic offsets that change between
 * dispatches of one command buffer; sets filled by copies and by an update
 * template; specialization constants; and pipelines created through a pipeline
 * cache, from its own data and from corrupted data.
 *
 * Registered for vkppu only once the shader compiler is built
 * (tests/api/CMakeLists.txt); until then it runs on lavapipe alone. */
#include <string.h>

#include "compute_test_util.h"

#define SENTINEL 0xAAAAAAAAu
#define INDEX_WG 64u /* local_size_x of compute_index.comp */

static const VkDescriptorSetLayoutBinding one_storage = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                         VK_SHADER_STAGE_COMPUTE_BIT, NULL};

static VkDescriptorPool create_pool(struct vkt_device *dev, uint32_t sets)
{
   VkDescriptorPoolSize sizes[] = {
       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4 * sets},
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4 * sets},
       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, sets},
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, sets},
   };
   VkDescriptorPoolCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = sets,
       .poolSizeCount = 4,
       .pPoolSizes = sizes,
   };
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorPool(dev->device, &ci, NULL, &pool));
   return pool;
}

static VkDescriptorSet allocate_set(struct vkt_device *dev, VkDescriptorPool pool,
                                    VkDescriptorSetLayout layout)
{
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &layout,
   };
   VkDescriptorSet set = VK_NULL_HANDLE;
   VKT_CHECK(vkAllocateDescriptorSets(dev->device, &ai, &set));
   return set;
}

static VkPipeline index_pipeline(struct vkt_device *dev, VkPipelineCache cache, VkShaderModule mod,
                                 VkPipelineLayout layout, VkPipelineCreateFlags flags)
{
   VkComputePipelineCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .flags = flags,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = mod,
                 .pName = "main"},
       .layout = layout,
   };
   VkPipeline pipe = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateComputePipelines(dev->device, cache, 1, &ci, NULL, &pipe));
   return pipe;
}

/* What compute_index.comp writes at element i of a dispatch of `groups`
 * workgroups with push constants (mul, add). */
static uint32_t index_value(uint32_t i, uint32_t mul, uint32_t add, uint32_t groups)
{
   return i * mul + add + (groups << 24);
}

/* Checks words [0, n): those in [first, end) hold index_value, the rest
 * SENTINEL. */
static void check_index_buffer(const uint32_t *v, uint32_t n, uint32_t first, uint32_t end,
                               uint32_t mul, uint32_t add, uint32_t groups, const char *what)
{
   uint32_t *expect = malloc(n * 4);
   for (uint32_t i = 0; i < n; i++)
      expect[i] = (i >= first && i < end) ? index_value(i, mul, add, groups) : SENTINEL;
   vkt_compare_words(expect, v, n * 4, what);
   free(expect);
}

struct index_rig {
   VkShaderModule mod;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkDescriptorPool pool;
};

static void index_rig_init(struct vkt_device *dev, struct index_rig *rig, uint32_t sets)
{
   rig->mod = ctu_shader_module(dev, "compute_index");
   rig->set_layout = ctu_set_layout(dev, &one_storage, 1);
   rig->layout = ctu_pipeline_layout(dev, &rig->set_layout, 1, 8);
   rig->pool = create_pool(dev, sets);
}

static void index_rig_finish(struct vkt_device *dev, struct index_rig *rig)
{
   vkDestroyDescriptorPool(dev->device, rig->pool, NULL);
   vkDestroyPipelineLayout(dev->device, rig->layout, NULL);
   vkDestroyDescriptorSetLayout(dev->device, rig->set_layout, NULL);
   vkDestroyShaderModule(dev->device, rig->mod, NULL);
}

TEST_CASE(dispatch_base_and_indirect_with_push_constants)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   enum { N = 4 * INDEX_WG, BUFS = 5 };
   struct index_rig rig;
   index_rig_init(&dev, &rig, BUFS);
   VkPipeline pipe = index_pipeline(&dev, VK_NULL_HANDLE, rig.mod, rig.layout,
                                    VK_PIPELINE_CREATE_DISPATCH_BASE_BIT);
   struct vkt_buffer out[BUFS], args;
   VkDescriptorSet sets[BUFS];
   for (int i = 0; i < BUFS; i++) {
      VKT_REQUIRE(vkt_buffer_create(&dev, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                    VKT_MEMORY_HOST, &out[i]));
      memset(out[i].map, 0xAA, N * 4);
      sets[i] = allocate_set(&dev, rig.pool, rig.set_layout);
      ctu_write_buffer(&dev, sets[i], 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out[i].buffer, 0,
                       VK_WHOLE_SIZE);
   }
   VKT_REQUIRE(
       vkt_buffer_create(&dev, 64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, VKT_MEMORY_HOST, &args));
   const uint32_t indirect[4] = {0xdead, 3, 1, 1}; /* at offset 4 */
   memcpy(args.map, indirect, sizeof(indirect));

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   const uint32_t pc0[2] = {3, 5}, pc1[2] = {7, 11};
   vkCmdPushConstants(cmd, rig.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc0);
   /* 0: a plain dispatch of every element. */
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rig.layout, 0, 1, &sets[0], 0,
                           NULL);
   vkCmdDispatch(cmd, 4, 1, 1);
   /* 2: three workgroups read from a buffer, at offset 4. (Before the
    * DispatchBase: lavapipe keeps the base for a following indirect
    * dispatch.) */
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rig.layout, 0, 1, &sets[2], 0,
                           NULL);
   vkCmdDispatchIndirect(cmd, args.buffer, 4);
   /* 1: the upper half through a base workgroup. */
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rig.layout, 0, 1, &sets[1], 0,
                           NULL);
   vkCmdDispatchBaseKHR(cmd, 2, 0, 0, 2, 1, 1);
   /* 3: push constants changed after the earlier dispatches recorded. */
   vkCmdPushConstants(cmd, rig.layout, VK_SHADER_STAGE_COMPUTE_BIT, 4, 4, &pc1[1]);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rig.layout, 0, 1, &sets[3], 0,
                           NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   /* 4: an empty dispatch writes nothing. */
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rig.layout, 0, 1, &sets[4], 0,
                           NULL);
   vkCmdDispatch(cmd, 0, 1, 1);
   ctu_compute_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));

   check_index_buffer(out[0].map, N, 0, N, 3, 5, 4, "vkCmdDispatch");
   check_index_buffer(out[1].map, N, 2 * INDEX_WG, N, 3, 5, 2, "vkCmdDispatchBase");
   check_index_buffer(out[2].map, N, 0, 3 * INDEX_WG, 3, 5, 3, "vkCmdDispatchIndirect");
   check_index_buffer(out[3].map, N, 0, INDEX_WG, 3, 11, 1, "push constants after an update");
   check_index_buffer(out[4].map, N, 0, 0, 0, 0, 0, "empty dispatch");

   for (int i = 0; i < BUFS; i++)
      vkt_buffer_destroy(&dev, &out[i]);
   vkt_buffer_destroy(&dev, &args);
   vkDestroyPipeline(dev.device, pipe, NULL);
   index_rig_finish(&dev, &rig);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(several_sets_with_dynamic_offsets_changing_between_dispatches)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   enum { N = 64, WG = 32, REGION = 1024, BIAS_STRIDE = 256 };
   VkShaderModule mod = ctu_shader_module(&dev, "compute_sets");
   const VkDescriptorSetLayoutBinding set0[] = {
       {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   /* Binding 1 is missing on purpose; binding 2 comes before 0 in the list. */
   const VkDescriptorSetLayoutBinding set1[] = {
       {2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayout layouts[2] = {ctu_set_layout(&dev, set0, 2),
                                       ctu_set_layout(&dev, set1, 2)};
   VkPipelineLayout layout = ctu_pipeline_layout(&dev, layouts, 2, 0);
   VkPipeline pipe;
   VKT_CHECK(ctu_compute_pipeline(&dev, VK_NULL_HANDLE, mod, layout, NULL, &pipe));
   VkDescriptorPool pool = create_pool(&dev, 3);

   struct vkt_buffer scale, in, out, bias;
   VKT_REQUIRE(
       vkt_buffer_create(&dev, 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, VKT_MEMORY_HOST, &scale));
   VKT_REQUIRE(
       vkt_buffer_create(&dev, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &in));
   VKT_REQUIRE(vkt_buffer_create(&dev, 2 * REGION, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   VKT_REQUIRE(vkt_buffer_create(&dev, 2 * BIAS_STRIDE, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &bias));
   *(uint32_t *)scale.map = 3;
   uint32_t *x = in.map;
   for (uint32_t i = 0; i < N; i++)
      x[i] = i * i + 1;
   memset(out.map, 0xAA, 2 * REGION);
   *(uint32_t *)bias.map = 1000;
   *(uint32_t *)((uint8_t *)bias.map + BIAS_STRIDE) = 2000;

   /* Set 0 is written in a staging set and copied; set 1 is written with
    * one call that covers both bindings. */
   VkDescriptorSet staging = allocate_set(&dev, pool, layouts[0]);
   VkDescriptorSet s0 = allocate_set(&dev, pool, layouts[0]);
   VkDescriptorSet s1 = allocate_set(&dev, pool, layouts[1]);
   ctu_write_buffer(&dev, staging, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, scale.buffer, 0, 16);
   ctu_write_buffer(&dev, staging, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, in.buffer, 0,
                    VK_WHOLE_SIZE);
   VkCopyDescriptorSet copy = {
       VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, NULL, staging, 0, 0, s0, 0, 0, 1};
   VkCopyDescriptorSet copy1 = {
       VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, NULL, staging, 1, 0, s0, 1, 0, 1};
   VkCopyDescriptorSet copies[2] = {copy, copy1};
   vkUpdateDescriptorSets(dev.device, 0, NULL, 2, copies);
   ctu_write_buffer(&dev, s1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, out.buffer, 0, N * 4);
   ctu_write_buffer(&dev, s1, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, bias.buffer, 0, 16);
   /* The staging set's contents were copied; changing it now must not
    * matter. */
   ctu_write_buffer(&dev, staging, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0,
                    VK_WHOLE_SIZE);

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   VkDescriptorSet both[2] = {s0, s1};
   /* Dynamic offsets in binding order of set 1: Out (binding 0), Bias (2). */
   const uint32_t first[2] = {0, 0}, second[2] = {REGION, BIAS_STRIDE};
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, both, 2, first);
   vkCmdDispatch(cmd, N / WG, 1, 1);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 1, 1, &s1, 2, second);
   vkCmdDispatch(cmd, N / WG, 1, 1);
   ctu_compute_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));

   uint32_t expect[2 * REGION / 4];
   for (uint32_t i = 0; i < 2 * REGION / 4; i++)
      expect[i] = SENTINEL;
   for (uint32_t i = 0; i < N; i++) {
      expect[i] = x[i] * 3 + 1000;
      expect[REGION / 4 + i] = x[i] * 3 + 2000;
   }
   vkt_compare_words(expect, out.map, 2 * REGION, "y = x * scale + bias at two dynamic offsets");

   vkt_buffer_destroy(&dev, &scale);
   vkt_buffer_destroy(&dev, &in);
   vkt_buffer_destroy(&dev, &out);
   vkt_buffer_destroy(&dev, &bias);
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev.device, layouts[0], NULL);
   vkDestroyDescriptorSetLayout(dev.device, layouts[1], NULL);
   vkDestroyShaderModule(dev.device, mod, NULL);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(template_written_set_and_specialization_constants)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   memset(&dev, 0, sizeof(dev));
   if (!vkt_context_create(&ctx))
      return;
   const char *ext[] = {VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE_EXTENSION_NAME};
   struct vkt_device_desc desc = {.extensions = ext, .extension_count = 1};
   VkResult dr = vkt_device_create(&ctx, &desc, &dev);
   if (dr != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "device with %s -> %s", ext[0], vkt_result_name(dr));
      vkt_context_destroy(&ctx);
      return;
   }
   enum { N = 64, LOCAL = 16 };
   VkShaderModule mod = ctu_shader_module(&dev, "compute_spec");
   VkDescriptorSetLayout set_layout = ctu_set_layout(&dev, &one_storage, 1);
   VkPipelineLayout layout = ctu_pipeline_layout(&dev, &set_layout, 1, 0);
   const uint32_t spec_data[2] = {LOCAL, 100};
   const VkSpecializationMapEntry map[2] = {{0, 0, 4}, {1, 4, 4}};
   VkSpecializationInfo spec = {2, map, sizeof(spec_data), spec_data};
   VkPipeline pipe;
   VKT_CHECK(ctu_compute_pipeline(&dev, VK_NULL_HANDLE, mod, layout, &spec, &pipe));
   VkDescriptorPool pool = create_pool(&dev, 1);
   VkDescriptorSet set = allocate_set(&dev, pool, set_layout);
   struct vkt_buffer out;
   VKT_REQUIRE(vkt_buffer_create(&dev, 2 * N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   memset(out.map, 0xAA, 2 * N * 4);

   struct {
      uint64_t unrelated;
      VkDescriptorBufferInfo info;
   } app = {42, {out.buffer, N * 4, N * 4}};
   VkDescriptorUpdateTemplateEntry entry = {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8, 0};
   VkDescriptorUpdateTemplateCreateInfo tci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
       .descriptorUpdateEntryCount = 1,
       .pDescriptorUpdateEntries = &entry,
       .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
       .descriptorSetLayout = set_layout,
   };
   VkDescriptorUpdateTemplate tmpl;
   VKT_REQUIRE(vkCreateDescriptorUpdateTemplateKHR(dev.device, &tci, NULL, &tmpl));
   vkUpdateDescriptorSetWithTemplateKHR(dev.device, set, tmpl, &app);

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
   vkCmdDispatch(cmd, N / LOCAL, 1, 1);
   ctu_compute_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   uint32_t expect[2 * N];
   for (uint32_t i = 0; i < 2 * N; i++)
      expect[i] = i < N ? SENTINEL : 100 + LOCAL;
   vkt_compare_words(expect, out.map, sizeof(expect), "specialized VALUE + local size");

   vkDestroyDescriptorUpdateTemplateKHR(dev.device, tmpl, NULL);
   vkt_buffer_destroy(&dev, &out);
   vkDestroyDescriptorPool(dev.device, pool, NULL);
   vkDestroyPipeline(dev.device, pipe, NULL);
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev.device, set_layout, NULL);
   vkDestroyShaderModule(dev.device, mod, NULL);
   vkt_teardown(&ctx, &dev);
}

/* Creates the index pipeline through `cache`, runs one dispatch of two
 * workgroups and checks it. */
static void run_through_cache(struct vkt_context *ctx, struct vkt_device *dev,
                              struct index_rig *rig, VkPipelineCache cache, const char *what)
{
   VkPipeline pipe = index_pipeline(dev, cache, rig->mod, rig->layout, 0);
   if (!pipe)
      return;
   struct vkt_buffer out;
   VKT_REQUIRE(vkt_buffer_create(dev, 2 * INDEX_WG * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   memset(out.map, 0xAA, 2 * INDEX_WG * 4);
   VkDescriptorSet set = allocate_set(dev, rig->pool, rig->set_layout);
   ctu_write_buffer(dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0, VK_WHOLE_SIZE);
   VkCommandBuffer cmd = vkt_cmd_begin(dev, ctx->universal_family);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   const uint32_t pc[2] = {2, 9};
   vkCmdPushConstants(cmd, rig->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rig->layout, 0, 1, &set, 0, NULL);
   vkCmdDispatch(cmd, 2, 1, 1);
   ctu_compute_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(dev, ctx->universal_family, 0, cmd));
   check_index_buffer(out.map, 2 * INDEX_WG, 0, 2 * INDEX_WG, 2, 9, 2, what);
   vkt_buffer_destroy(dev, &out);
   vkDestroyPipeline(dev->device, pipe, NULL);
}

TEST_CASE(pipeline_cache_round_trip_and_corrupted_data)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct index_rig rig;
   index_rig_init(&dev, &rig, 4);
   VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
   VkPipelineCache cache;
   VKT_REQUIRE(vkCreatePipelineCache(dev.device, &ci, NULL, &cache));
   run_through_cache(&ctx, &dev, &rig, cache, "pipeline compiled into a cache");
   size_t size = 0;
   VKT_CHECK(vkGetPipelineCacheData(dev.device, cache, &size, NULL));
   uint8_t *data = malloc(size);
   REQUIRE(data);
   VKT_CHECK(vkGetPipelineCacheData(dev.device, cache, &size, data));
   vkDestroyPipelineCache(dev.device, cache, NULL);
   if (ctx.is_vkppu)
      CHECK_MSG(size > 56, "cache holds a program: %zu bytes", size);

   /* The data round trips into a new cache that serves the pipeline. */
   ci.initialDataSize = size;
   ci.pInitialData = data;
   VKT_REQUIRE(vkCreatePipelineCache(dev.device, &ci, NULL, &cache));
   run_through_cache(&ctx, &dev, &rig, cache, "pipeline from a loaded cache");

   /* Merging the loaded cache into an empty one carries its programs. */
   VkPipelineCache merged;
   ci.initialDataSize = 0;
   ci.pInitialData = NULL;
   VKT_REQUIRE(vkCreatePipelineCache(dev.device, &ci, NULL, &merged));
   VKT_CHECK(vkMergePipelineCaches(dev.device, merged, 1, &cache));
   size_t merged_size = 0;
   VKT_CHECK(vkGetPipelineCacheData(dev.device, merged, &merged_size, NULL));
   if (ctx.is_vkppu)
      CHECK_EQ_U64(merged_size, size);
   vkDestroyPipelineCache(dev.device, merged, NULL);
   vkDestroyPipelineCache(dev.device, cache, NULL);
   ci.initialDataSize = size;
   ci.pInitialData = data;

   /* Corrupted in the payload (the program's code): ignored, never run. */
   data[size - 5] ^= 0x40;
   VKT_REQUIRE(vkCreatePipelineCache(dev.device, &ci, NULL, &cache));
   run_through_cache(&ctx, &dev, &rig, cache, "pipeline from a corrupted cache");
   vkDestroyPipelineCache(dev.device, cache, NULL);
   free(data);
   index_rig_finish(&dev, &rig);
   vkt_teardown(&ctx, &dev);
}

/* Every family with COMPUTE runs a dispatch on its first queue; vkppu has
 * one without GRAPHICS (an exclusive compute family). */
TEST_CASE(dispatch_on_every_compute_family)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct index_rig rig;
   index_rig_init(&dev, &rig, VKT_MAX_FAMILIES);
   VkPipeline pipe = index_pipeline(&dev, VK_NULL_HANDLE, rig.mod, rig.layout, 0);
   bool exclusive = false;
   for (uint32_t f = 0; f < ctx.family_count; f++) {
      VkQueueFlags flags = ctx.families[f].queueFlags;
      if (!(flags & VK_QUEUE_COMPUTE_BIT) || dev.queue_count[f] == 0)
         continue;
      exclusive |= !(flags & VK_QUEUE_GRAPHICS_BIT);
      struct vkt_buffer out;
      VKT_REQUIRE(vkt_buffer_create(&dev, 2 * INDEX_WG * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                    VKT_MEMORY_HOST, &out));
      memset(out.map, 0xAA, 2 * INDEX_WG * 4);
      VkDescriptorSet set = allocate_set(&dev, rig.pool, rig.set_layout);
      ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0,
                       VK_WHOLE_SIZE);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, f);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
      const uint32_t pc[2] = {2, f};
      vkCmdPushConstants(cmd, rig.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rig.layout, 0, 1, &set, 0, NULL);
      vkCmdDispatch(cmd, 2, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, f, 0, cmd));
      char what[48];
      snprintf(what, sizeof(what), "dispatch on family %u", f);
      check_index_buffer(out.map, 2 * INDEX_WG, 0, 2 * INDEX_WG, 2, f, 2, what);
      vkt_buffer_destroy(&dev, &out);
   }
   if (ctx.is_vkppu)
      CHECK_MSG(exclusive, "vkppu reports no compute family without graphics");
   vkDestroyPipeline(dev.device, pipe, NULL);
   index_rig_finish(&dev, &rig);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(dispatch_recorded_in_a_secondary_command_buffer)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct index_rig rig;
   index_rig_init(&dev, &rig, 1);
   VkPipeline pipe = index_pipeline(&dev, VK_NULL_HANDLE, rig.mod, rig.layout, 0);
   struct vkt_buffer out;
   VKT_REQUIRE(vkt_buffer_create(&dev, 4 * INDEX_WG * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 VKT_MEMORY_HOST, &out));
   memset(out.map, 0xAA, 4 * INDEX_WG * 4);
   VkDescriptorSet set = allocate_set(&dev, rig.pool, rig.set_layout);
   ctu_write_buffer(&dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0, VK_WHOLE_SIZE);

   VkCommandBufferAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = dev.pools[ctx.universal_family],
       .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
       .commandBufferCount = 1,
   };
   VkCommandBuffer secondary;
   VKT_REQUIRE(vkAllocateCommandBuffers(dev.device, &ai, &secondary));
   VkCommandBufferInheritanceInfo inherit = {.sType =
                                                 VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
   VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                     .pInheritanceInfo = &inherit};
   VKT_CHECK(vkBeginCommandBuffer(secondary, &begin));
   const uint32_t pc[2] = {5, 1};
   vkCmdBindPipeline(secondary, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdPushConstants(secondary, rig.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
   vkCmdBindDescriptorSets(secondary, VK_PIPELINE_BIND_POINT_COMPUTE, rig.layout, 0, 1, &set, 0,
                           NULL);
   vkCmdDispatch(secondary, 4, 1, 1);
   VKT_CHECK(vkEndCommandBuffer(secondary));

   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   vkCmdExecuteCommands(cmd, 1, &secondary);
   ctu_compute_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   check_index_buffer(out.map, 4 * INDEX_WG, 0, 4 * INDEX_WG, 5, 1, 4, "secondary dispatch");

   vkFreeCommandBuffers(dev.device, dev.pools[ctx.universal_family], 1, &secondary);
   vkt_buffer_destroy(&dev, &out);
   vkDestroyPipeline(dev.device, pipe, NULL);
   index_rig_finish(&dev, &rig);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
