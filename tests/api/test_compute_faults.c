/* vkppu only: shaders that fault. A load through a pointer to an unmapped
 * address and a loop that never ends must each lose only the device that ran
 * them — VK_ERROR_DEVICE_LOST on the wait, a fault report on stderr that names
 * the compute engine, the address or the watchdog, the PC and the shader —
 * while a second device of the process keeps computing correct results.
 *
 * The watchdog budget comes from VKPPU_WATCHDOG_WARP_INSTRUCTIONS (read when a
 * device is created, docs/driver.md); every case sets a small one first so an
 * endless shader is stopped in well under a second. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compute_test_util.h"
#include "ray_query_test_util.h"
#include "stderr_capture.h"

/* An address nothing maps, as in test_device_lost.c. */
#define UNMAPPED_VA 0x7f00000000ull
#define WATCHDOG_BUDGET "200000"
#define WORKGROUP 64u /* local_size_x of every shader used here */
#define SENTINEL 0xAAAAAAAAu

/* One dispatch of `groups` workgroups of shader `name` with one storage
 * buffer (binding 0, filled with SENTINEL) and `push` as push constants; the
 * pipeline gets `debug_name` if given. Returns the wait's result; on success
 * the buffer's words are in out_words (when given). */
struct dispatch {
   const char *shader;
   const char *debug_name;
   const void *push;
   uint32_t push_size;
   uint32_t groups;
   uint32_t *out_words; /* groups * WORKGROUP words, or NULL */
};

static VkResult run_dispatch(struct vkt_device *dev, const struct dispatch *d, bool expect_loss)
{
   const VkDeviceSize size = (VkDeviceSize)d->groups * WORKGROUP * 4;
   struct vkt_buffer buf;
   VkResult r =
       vkt_buffer_create(dev, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &buf);
   if (r != VK_SUCCESS)
      return r;
   for (VkDeviceSize i = 0; i < size / 4; i++)
      ((uint32_t *)buf.map)[i] = SENTINEL;
   VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   VkDescriptorSetLayout set_layout = ctu_set_layout(dev, &binding, 1);
   VkPipelineLayout layout = ctu_pipeline_layout(dev, &set_layout, 1, d->push_size);
   VkShaderModule mod = ctu_shader_module(dev, d->shader);
   VkPipeline pipe = VK_NULL_HANDLE;
   r = ctu_compute_pipeline(dev, VK_NULL_HANDLE, mod, layout, NULL, &pipe);
   VKT_CHECK(r);
   if (pipe && d->debug_name) {
      VkDebugUtilsObjectNameInfoEXT ni = {
          .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
          .objectType = VK_OBJECT_TYPE_PIPELINE,
          .objectHandle = (uint64_t)pipe,
          .pObjectName = d->debug_name,
      };
      VKT_CHECK(vkSetDebugUtilsObjectNameEXT(dev->device, &ni));
   }
   VkDescriptorPoolSize pool_size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
   VkDescriptorPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &pool_size,
   };
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateDescriptorPool(dev->device, &pci, NULL, &pool));
   VkDescriptorSet set = VK_NULL_HANDLE;
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &set_layout,
   };
   VKT_CHECK(vkAllocateDescriptorSets(dev->device, &ai, &set));
   ctu_write_buffer(dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buf.buffer, 0, VK_WHOLE_SIZE);

   if (r == VK_SUCCESS && pipe) {
      if (expect_loss)
         vkt_tolerate_begin(ctu_device_loss_messages);
      VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
      if (d->push_size)
         vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, d->push_size, d->push);
      vkCmdDispatch(cmd, d->groups, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      r = vkEndCommandBuffer(cmd);
      VkFence fence = vkt_fence_create(dev, false);
      if (r == VK_SUCCESS) {
         VkSubmitInfo si = {
             .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
             .commandBufferCount = 1,
             .pCommandBuffers = &cmd,
         };
         r = vkQueueSubmit(dev->queue, 1, &si, fence);
         if (r == VK_SUCCESS)
            r = vkWaitForFences(dev->device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
         if (r == VK_TIMEOUT)
            vkt_fatal_hang(d->shader);
      }
      /* On a lost device, every submitted command buffer counts as finished. */
      vkDestroyFence(dev->device, fence, NULL);
      vkFreeCommandBuffers(dev->device, dev->pools[dev->ctx->universal_family], 1, &cmd);
      if (expect_loss)
         vkt_tolerate_end();
      if (r == VK_SUCCESS && d->out_words)
         memcpy(d->out_words, buf.map, (size_t)size);
   }
   vkDestroyDescriptorPool(dev->device, pool, NULL);
   vkDestroyPipeline(dev->device, pipe, NULL);
   vkDestroyShaderModule(dev->device, mod, NULL);
   vkDestroyPipelineLayout(dev->device, layout, NULL);
   vkDestroyDescriptorSetLayout(dev->device, set_layout, NULL);
   vkt_buffer_destroy(dev, &buf);
   return r;
}

/* compute_index.comp on a healthy device: word i = i * 3 + 7 + (groups << 24). */
static void check_device_computes(struct vkt_device *dev, const char *what)
{
   const uint32_t groups = 4;
   uint32_t push[2] = {3, 7};
   uint32_t *got = calloc(groups * WORKGROUP, 4);
   uint32_t *want = calloc(groups * WORKGROUP, 4);
   REQUIRE(got && want);
   for (uint32_t i = 0; i < groups * WORKGROUP; i++)
      want[i] = i * 3 + 7 + (groups << 24);
   struct dispatch d = {
       .shader = "compute_index",
       .push = push,
       .push_size = sizeof(push),
       .groups = groups,
       .out_words = got,
   };
   VKT_CHECK(run_dispatch(dev, &d, false));
   vkt_compare_words(want, got, groups * WORKGROUP * 4, what);
   free(want);
   free(got);
}

static void destroy_lost_device(struct vkt_device *dev)
{
   vkt_tolerate_begin(ctu_device_loss_messages);
   vkt_device_destroy(dev);
   vkt_tolerate_end();
}

/* Two standard devices (buffer device address on) after setting a small
 * watchdog budget; false (case skipped or failed) when they cannot be had. */
static bool setup_two_devices(struct vkt_context *ctx, struct vkt_device *a, struct vkt_device *b)
{
   setenv("VKPPU_WATCHDOG_WARP_INSTRUCTIONS", WATCHDOG_BUDGET, 1);
   if (!vkt_context_create(ctx))
      return false;
   if (!ctx->is_vkppu) {
      vkt_skip("shader faults are checked on vkppu only (device is \"%s\")", ctx->props.deviceName);
      vkt_context_destroy(ctx);
      return false;
   }
   if (!vkt_device_create_standard(ctx, a))
      return false;
   if (!vkt_device_create_standard(ctx, b)) {
      vkt_device_destroy(a);
      return false;
   }
   return true;
}

TEST_CASE(shader_load_from_unmapped_address_loses_only_its_device)
{
   struct vkt_context ctx;
   struct vkt_device a, b;
   if (!setup_two_devices(&ctx, &a, &b))
      return;
   struct vkt_buffer dest;
   VKT_REQUIRE(vkt_buffer_create(&a, 2 * WORKGROUP * 4,
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT_KHR,
                                 VKT_MEMORY_HOST, &dest));
   VkBufferDeviceAddressInfoKHR dest_info = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO_KHR,
       .buffer = dest.buffer,
   };
   uint64_t addresses[2] = {UNMAPPED_VA, vkGetBufferDeviceAddressKHR(a.device, &dest_info)};
   struct dispatch d = {
       .shader = "fault_bad_address",
       .debug_name = "reads-through-a-bad-pointer",
       .push = addresses,
       .push_size = sizeof(addresses),
       .groups = 2,
   };
   struct stderr_capture cap;
   REQUIRE(stderr_capture_begin(&cap));
   VkResult r = run_dispatch(&a, &d, true);
   char *report = stderr_capture_end(&cap);
   CHECK_MSG(r == VK_ERROR_DEVICE_LOST, "waiting for the faulting dispatch -> %s",
             vkt_result_name(r));
   CHECK_MSG(text_contains_nocase(report, "compute"),
             "the fault report does not name engine COMPUTE");
   CHECK_MSG(text_contains_nocase(report, "unmapped"),
             "the fault report does not say MMU_UNMAPPED");
   CHECK_MSG(text_contains_nocase(report, "7f00000000"), "the fault report does not give 0x%llx",
             UNMAPPED_VA);
   CHECK_MSG(text_contains_nocase(report, "shader: reads-through-a-bad-pointer"),
             "the fault report does not name the shader by its debug name");
   CHECK_MSG(text_contains_nocase(report, "= program start 0x"),
             "the fault report does not give the PC relative to the program");
   free(report);

   check_device_computes(&b, "device B after A's shader faulted");
   vkt_device_destroy(&b);
   vkt_buffer_destroy(&a, &dest);
   destroy_lost_device(&a);
   vkt_context_destroy(&ctx);
}

/* A ray query on a garbage acceleration-structure address (the shader
 * makes one from a 64-bit push constant, OpConvertUToAccelerationStructure-
 * KHR) ends in VK_ERROR_DEVICE_LOST and a fault report, never a crash. */
TEST_CASE(ray_query_on_a_garbage_acceleration_structure_address_loses_the_device)
{
   struct vkt_context ctx;
   if (!rqu_context_create(&ctx))
      return;
   VkPhysicalDeviceFeatures core = {.shaderInt64 = VK_TRUE};
   VkPhysicalDeviceRayQueryFeaturesKHR rq = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR, .rayQuery = VK_TRUE};
   VkPhysicalDeviceAccelerationStructureFeaturesKHR as = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
       .pNext = &rq,
       .accelerationStructure = VK_TRUE};
   static const char *const exts[] = {VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
                                      VK_KHR_RAY_QUERY_EXTENSION_NAME,
                                      VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
                                      VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME,
                                      VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME,
                                      VK_KHR_MAINTENANCE_3_EXTENSION_NAME,
                                      VK_KHR_SPIRV_1_4_EXTENSION_NAME,
                                      VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME};
   struct vkt_device_desc desc = {.extensions = exts,
                                  .extension_count = sizeof(exts) / sizeof(exts[0]),
                                  .features = &core,
                                  .feature_chain = &as};
   struct vkt_device dev;
   VkResult r = vkt_device_create(&ctx, &desc, &dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with ray queries -> %s", vkt_result_name(r));
      vkt_context_destroy(&ctx);
      return;
   }
   const uint64_t address = UNMAPPED_VA;
   struct dispatch d = {
       .shader = "spirv14_fault_bad_acceleration_structure",
       .debug_name = "traces-a-garbage-structure",
       .push = &address,
       .push_size = sizeof(address),
       .groups = 1,
   };
   struct stderr_capture cap;
   REQUIRE(stderr_capture_begin(&cap));
   r = run_dispatch(&dev, &d, true);
   char *report = stderr_capture_end(&cap);
   CHECK_MSG(r == VK_ERROR_DEVICE_LOST, "waiting for the faulting dispatch -> %s",
             vkt_result_name(r));
   CHECK_MSG(text_contains_nocase(report, "7f00000000"), "the fault report does not give 0x%llx",
             UNMAPPED_VA);
   CHECK_MSG(text_contains_nocase(report, "shader: traces-a-garbage-structure"),
             "the fault report does not name the shader");
   free(report);
   destroy_lost_device(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(shader_that_never_ends_is_stopped_by_the_watchdog)
{
   struct vkt_context ctx;
   struct vkt_device a, b;
   if (!setup_two_devices(&ctx, &a, &b))
      return;
   uint32_t keep_going = 1;
   struct dispatch d = {
       .shader = "fault_endless_loop",
       .push = &keep_going,
       .push_size = sizeof(keep_going),
       .groups = 2,
   };
   struct stderr_capture cap;
   REQUIRE(stderr_capture_begin(&cap));
   double start = vkt_seconds();
   VkResult r = run_dispatch(&a, &d, true);
   double seconds = vkt_seconds() - start;
   char *report = stderr_capture_end(&cap);
   CHECK_MSG(r == VK_ERROR_DEVICE_LOST, "waiting for the endless dispatch -> %s",
             vkt_result_name(r));
   printf("  the watchdog (%s warp instructions) stopped the shader after %.2f s\n",
          WATCHDOG_BUDGET, seconds);
   CHECK_MSG(text_contains_nocase(report, "compute"),
             "the fault report does not name engine COMPUTE");
   CHECK_MSG(text_contains_nocase(report, "watchdog"), "the fault report does not say WATCHDOG");
   /* Unnamed, the pipeline is named by its handle and entry point. */
   CHECK_MSG(text_contains_nocase(report, "shader: compute pipeline 0x") &&
                 text_contains_nocase(report, "entry main"),
             "the fault report does not name the pipeline and its entry point");
   CHECK_MSG(text_contains_nocase(report, "= program start 0x"),
             "the fault report does not give the PC relative to the program");
   free(report);

   check_device_computes(&b, "device B after A's shader hung");
   vkt_device_destroy(&b);
   destroy_lost_device(&a);
   vkt_context_destroy(&ctx);
}

/* A budget that is not a number is reported when the device is created, and
 * the default is kept: the device works. */
TEST_CASE(bad_watchdog_budget_is_reported_and_the_default_kept)
{
   setenv("VKPPU_WATCHDOG_WARP_INSTRUCTIONS", "lots", 1);
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   if (!ctx.is_vkppu) {
      vkt_skip("VKPPU_WATCHDOG_WARP_INSTRUCTIONS is vkppu's (device is \"%s\")",
               ctx.props.deviceName);
      vkt_context_destroy(&ctx);
      return;
   }
   struct vkt_device dev;
   struct stderr_capture cap;
   REQUIRE(stderr_capture_begin(&cap));
   bool created = vkt_device_create_standard(&ctx, &dev);
   char *text = stderr_capture_end(&cap);
   setenv("VKPPU_WATCHDOG_WARP_INSTRUCTIONS", WATCHDOG_BUDGET, 1);
   CHECK_MSG(text_contains_nocase(text, "VKPPU_WATCHDOG_WARP_INSTRUCTIONS=\"lots\"") &&
                 text_contains_nocase(text, "keeping the default"),
             "no message about the bad VKPPU_WATCHDOG_WARP_INSTRUCTIONS");
   free(text);
   if (created) {
      check_device_computes(&dev, "a device created with a bad watchdog budget");
      vkt_device_destroy(&dev);
   }
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
