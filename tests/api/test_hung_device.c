/* vkppu only: work that never ends, with the default watchdog (no
 * VKPPU_WATCHDOG_WARP_INSTRUCTIONS, unlike test_compute_faults.c). A shader
 * that loops forever must lose its device within 10 s whatever the host
 * waits with (a fence, vkQueueWaitIdle, vkDeviceWaitIdle), and
 * vkDestroyDevice on a device whose grid still runs (an endless loop, or a
 * 65535 x 65535 x 65535 dispatch that would take years, a draw whose
 * fragment shader never ends) must return within a second. Another device
 * of the process keeps computing throughout.
 * docs/compute.md, "Watchdog", says how the bound is kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphics_test_util.h"
#include "stderr_capture.h"

#define WORKGROUP 64u /* local_size_x of both shaders */

/* The bounds are the release build's. Under ASan+UBSan (the second build of
 * tools/run-tests.sh) the model runs many times slower and the case checks
 * memory safety: the bounds widen 20x and the full-chip hang, the slowest
 * to stop, is left out. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED true
#else
#define SANITIZED false
#endif
#define SLOWDOWN (SANITIZED ? 20.0 : 1.0)
#define HANG_BOUND_S (10.0 * SLOWDOWN)
#define DESTROY_BOUND_S (1.0 * SLOWDOWN)

/* The loss's own report, and the "in use" errors the validation layer gives
 * when a lost device's objects are destroyed (as in test_compute_faults.c). */
static const char *const expected_after_loss[] = {
    "device lost",
    "VUID-vkDestroyFence-fence-01120",
    "VUID-vkFreeCommandBuffers-pCommandBuffers-00047",
    "VUID-vkDestroyCommandPool-commandPool-00041",
    NULL,
};

/* Destroying objects (and the device) while their work is still running
 * breaks the spec's "in use" rules on purpose: the validation layer says so
 * for every object, each message naming the object "in use". */
static const char *const expected_while_running[] = {
    "in use",
    "VUID-vkDestroyDevice-device-05137", /* objects the device still had */
    "VUID-vkDestroyDevice-device-00378",
    NULL,
};

/* `shader` submitted once: keep_going 1 never ends, 0 ends at once.
 * fault_endless_loop writes a storage buffer (binding 0, a word per
 * invocation along x); hang_touching_nothing uses no descriptor. */
struct endless_job {
   struct ctu_program prog;
   struct vkt_buffer buf;
   VkCommandBuffer cmd;
   VkFence fence;
};

static bool endless_job_submit(struct vkt_device *dev, const char *shader, uint32_t keep_going,
                               uint32_t gx, uint32_t gy, uint32_t gz, struct endless_job *j)
{
   memset(j, 0, sizeof(*j));
   VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   if (!ctu_program_create(dev, shader, &binding, 1, sizeof(keep_going), 1, &j->prog))
      return false;
   VkDescriptorSet set = ctu_program_set(dev, &j->prog);
   /* hang_touching_nothing declares no buffer: its binding stays unwritten. */
   if (strcmp(shader, "hang_touching_nothing")) {
      VKT_CHECK(vkt_buffer_create(dev, (VkDeviceSize)gx * WORKGROUP * 4,
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_DEVICE, &j->buf));
      if (!j->buf.buffer)
         return false;
      ctu_write_buffer(dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, j->buf.buffer, 0,
                       VK_WHOLE_SIZE);
   }
   j->cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   ctu_program_bind(j->cmd, &j->prog, set);
   vkCmdPushConstants(j->cmd, j->prog.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(keep_going),
                      &keep_going);
   vkCmdDispatch(j->cmd, gx, gy, gz);
   VKT_CHECK(vkEndCommandBuffer(j->cmd));
   j->fence = vkt_fence_create(dev, false);
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &j->cmd};
   VkResult r = vkQueueSubmit(dev->queue, 1, &si, j->fence);
   VKT_CHECK(r);
   return r == VK_SUCCESS;
}

static void endless_job_destroy(struct vkt_device *dev, struct endless_job *j)
{
   if (j->fence)
      vkDestroyFence(dev->device, j->fence, NULL);
   if (j->cmd)
      vkFreeCommandBuffers(dev->device, dev->pools[dev->ctx->universal_family], 1, &j->cmd);
   ctu_program_destroy(dev, &j->prog);
   vkt_buffer_destroy(dev, &j->buf);
}

/* compute_index.comp on a healthy device: word i = i * 3 + 7 + (groups << 24). */
static void check_device_computes(struct vkt_device *dev, const char *what)
{
   const uint32_t groups = 4, n = groups * WORKGROUP;
   VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct ctu_program prog;
   struct vkt_buffer buf;
   if (!ctu_program_create(dev, "compute_index", &binding, 1, 8, 1, &prog))
      return;
   VKT_CHECK(
       vkt_buffer_create(dev, n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &buf));
   if (buf.buffer) {
      VkDescriptorSet set = ctu_program_set(dev, &prog);
      ctu_write_buffer(dev, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buf.buffer, 0,
                       VK_WHOLE_SIZE);
      uint32_t push[2] = {3, 7};
      VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
      ctu_program_bind(cmd, &prog, set);
      vkCmdPushConstants(cmd, prog.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
      vkCmdDispatch(cmd, groups, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      VkResult r = vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd);
      CHECK_MSG(r == VK_SUCCESS, "%s: dispatch -> %s", what, vkt_result_name(r));
      if (r == VK_SUCCESS) {
         const uint32_t *got = buf.map;
         uint32_t bad = 0;
         for (uint32_t i = 0; i < n; i++)
            bad += got[i] != i * 3 + 7 + (groups << 24);
         CHECK_MSG(bad == 0, "%s: %u of %u words wrong", what, bad, n);
      }
   }
   vkt_buffer_destroy(dev, &buf);
   ctu_program_destroy(dev, &prog);
}

/* A context on vkppu with the default watchdog; false (skipped) elsewhere. */
static bool default_watchdog_context(struct vkt_context *ctx)
{
   unsetenv("VKPPU_WATCHDOG_WARP_INSTRUCTIONS");
   unsetenv("VKPPU_HW_CONFIG"); /* the default chip */
   if (!vkt_context_create(ctx))
      return false;
   if (!ctx->is_vkppu) {
      vkt_skip("hung work is checked on vkppu only (device is \"%s\")", ctx->props.deviceName);
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

enum host_wait { WAIT_FENCE, WAIT_QUEUE_IDLE, WAIT_DEVICE_IDLE };
static const char *const wait_names[] = {"vkWaitForFences", "vkQueueWaitIdle", "vkDeviceWaitIdle"};

/* The endless loop in `groups` workgroups on a new device, waited for with
 * `wait`: VK_ERROR_DEVICE_LOST within HANG_BOUND_S and a WATCHDOG report;
 * `other` computes before and after. */
static void check_hang_is_stopped(struct vkt_context *ctx, struct vkt_device *other,
                                  uint32_t groups, enum host_wait wait)
{
   struct vkt_device dev;
   if (!vkt_device_create_standard(ctx, &dev))
      return;
   struct stderr_capture cap;
   REQUIRE(stderr_capture_begin(&cap));
   vkt_tolerate_begin(expected_after_loss);
   struct endless_job job;
   VkResult r = VK_ERROR_UNKNOWN;
   double start = vkt_seconds(), seconds = 0;
   if (endless_job_submit(&dev, "fault_endless_loop", 1, groups, 1, 1, &job)) {
      start = vkt_seconds();
      if (wait == WAIT_FENCE)
         r = vkWaitForFences(dev.device, 1, &job.fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
      else if (wait == WAIT_QUEUE_IDLE)
         r = vkQueueWaitIdle(dev.queue);
      else
         r = vkDeviceWaitIdle(dev.device);
      seconds = vkt_seconds() - start;
      if (r == VK_TIMEOUT)
         vkt_fatal_hang("an endless shader under the default watchdog");
   }
   /* Every other wait of the lost device answers at once. */
   double after = vkt_seconds();
   VkResult fence_r = VK_ERROR_DEVICE_LOST, queue_r = VK_ERROR_DEVICE_LOST,
            device_r = VK_ERROR_DEVICE_LOST;
   if (job.fence) {
      fence_r = vkWaitForFences(dev.device, 1, &job.fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
      queue_r = vkQueueWaitIdle(dev.queue);
      device_r = vkDeviceWaitIdle(dev.device);
   }
   double later_waits = vkt_seconds() - after;
   endless_job_destroy(&dev, &job);
   vkt_device_destroy(&dev);
   vkt_tolerate_end();
   char *report = stderr_capture_end(&cap);

   printf("  %u workgroups of %u threads, %s: %s after %.2f s (later waits %.3f s)\n", groups,
          WORKGROUP, wait_names[wait], vkt_result_name(r), seconds, later_waits);
   CHECK_MSG(r == VK_ERROR_DEVICE_LOST, "%s on the endless dispatch -> %s", wait_names[wait],
             vkt_result_name(r));
   CHECK_MSG(seconds <= HANG_BOUND_S, "%s returned after %.2f s, more than %.0f s",
             wait_names[wait], seconds, HANG_BOUND_S);
   CHECK_MSG(fence_r == VK_ERROR_DEVICE_LOST && queue_r == VK_ERROR_DEVICE_LOST &&
                 device_r == VK_ERROR_DEVICE_LOST,
             "later waits -> %s, %s, %s", vkt_result_name(fence_r), vkt_result_name(queue_r),
             vkt_result_name(device_r));
   CHECK_MSG(later_waits < 0.5 * SLOWDOWN, "later waits on the lost device took %.2f s",
             later_waits);
   CHECK_MSG(report && strstr(report, "WATCHDOG"), "the fault report does not say WATCHDOG");
   free(report);
   check_device_computes(other, "the other device after a hang");
}

TEST_CASE(hung_shader_loses_its_device_within_ten_seconds)
{
   struct vkt_context ctx;
   if (!default_watchdog_context(&ctx))
      return;
   struct vkt_device other;
   if (vkt_device_create_standard(&ctx, &other)) {
      check_device_computes(&other, "the other device before");
      /* One workgroup: two warps on one SM, so one host thread runs the
       * hang (the slowest to count up); then a grid filling every SM. */
      check_hang_is_stopped(&ctx, &other, 1, WAIT_FENCE);
      if (!SANITIZED)
         check_hang_is_stopped(&ctx, &other, 1024, WAIT_QUEUE_IDLE);
      check_hang_is_stopped(&ctx, &other, 3, WAIT_DEVICE_IDLE);
      vkt_device_destroy(&other);
   }
   vkt_context_destroy(&ctx);
}

/* A device whose per-warp watchdog is off (the chip's configuration is read
 * at vkCreateDevice): only vkDestroyDevice can stop its endless work, so a
 * watchdog firing first cannot hide a destroy that waits. */
static bool device_without_warp_watchdog(struct vkt_context *ctx, struct vkt_device *dev)
{
   setenv("VKPPU_HW_CONFIG", "default,compute.watchdog_instructions_per_warp=0", 1);
   bool ok = vkt_device_create_standard(ctx, dev);
   unsetenv("VKPPU_HW_CONFIG");
   return ok;
}

/* Submits work that is still running DESTROY_AFTER_MS later (its fence is
 * not signaled), then destroys everything without waiting, as a program
 * that gives up on hung work does (destroying objects in use is its
 * mistake): vkDestroyDevice returns within DESTROY_BOUND_S. The grid reads
 * no memory but its program, already in the SMs' instruction caches, so
 * freeing the objects does not end it: vkDestroyDevice has to. */
#define DESTROY_AFTER_MS 300
static void check_destroy_while_running(struct vkt_context *ctx, struct vkt_device *other,
                                        uint32_t keep_going, uint32_t gx, uint32_t gy, uint32_t gz)
{
   struct vkt_device dev;
   if (!device_without_warp_watchdog(ctx, &dev))
      return;
   struct endless_job job;
   vkt_tolerate_begin(expected_while_running);
   if (endless_job_submit(&dev, "hang_touching_nothing", keep_going, gx, gy, gz, &job)) {
      vkt_sleep_ms(DESTROY_AFTER_MS);
      VkResult status = vkGetFenceStatus(dev.device, job.fence);
      CHECK_MSG(status == VK_NOT_READY, "the grid is not running any more: fence -> %s",
                vkt_result_name(status));
   }
   double start = vkt_seconds();
   endless_job_destroy(&dev, &job);
   for (uint32_t f = 0; f < VKT_MAX_FAMILIES; f++)
      if (dev.pools[f])
         vkDestroyCommandPool(dev.device, dev.pools[f], NULL);
   double device_start = vkt_seconds();
   vkDestroyDevice(dev.device, NULL);
   double end = vkt_seconds();
   vkt_tolerate_end();
   printf("  dispatch (%u, %u, %u), keep_going %u: vkDestroyDevice took %.3f s (with the "
          "objects %.3f s)\n",
          gx, gy, gz, keep_going, end - device_start, end - start);
   CHECK_MSG(end - device_start <= DESTROY_BOUND_S,
             "vkDestroyDevice with a grid running took %.2f s", end - device_start);
   check_device_computes(other, "the other device after one was destroyed mid-grid");
}

TEST_CASE(destroying_a_device_with_a_grid_running_returns_within_a_second)
{
   struct vkt_context ctx;
   if (!default_watchdog_context(&ctx))
      return;
   struct vkt_device other;
   if (vkt_device_create_standard(&ctx, &other)) {
      check_destroy_while_running(&ctx, &other, 1, 1024, 1, 1);
      /* 2^48 workgroups that each end at once: no watchdog fires (warps end
       * all along), it would simply take years. */
      check_destroy_while_running(&ctx, &other, 0, 65535, 65535, 65535);
      vkt_device_destroy(&other);
   }
   vkt_context_destroy(&ctx);
}

/* A 32 x 32 draw of gfx_hang.frag on `dev`, submitted with `fence`; the
 * objects go to the caller for destruction. */
struct hung_draw {
   struct gtarget target;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   struct vkt_buffer vertices;
   VkCommandBuffer cmd;
   VkFence fence;
};

static bool hung_draw_submit(struct vkt_device *dev, struct hung_draw *h)
{
   memset(h, 0, sizeof(*h));
   static const float white[4] = {1, 1, 1, 1};
   if (!gtu_target_create(dev, VK_FORMAT_UNDEFINED, &h->target))
      return false;
   h->layout = gtu_empty_layout(dev);
   struct gtu_pipeline_desc d = {
       .fs = "gfx_hang.frag", .layout = h->layout, .pass = h->target.pass};
   VKT_CHECK(gtu_pipeline(dev, &d, &h->pipeline));
   struct gvertex v[6];
   gtu_rect(v, 0, 0, GW, GH, 0.5f, white);
   if (!h->pipeline ||
       !gtu_data_buffer(dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &h->vertices))
      return false;
   h->cmd = gtu_begin(dev, &h->target, white, 1, 0);
   vkCmdBindPipeline(h->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, h->pipeline);
   gtu_bind_vertex_buffer(h->cmd, &h->vertices);
   vkCmdDraw(h->cmd, 6, 1, 0, 0);
   vkCmdEndRenderPass(h->cmd);
   VKT_CHECK(vkEndCommandBuffer(h->cmd));
   h->fence = vkt_fence_create(dev, false);
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &h->cmd};
   VkResult r = vkQueueSubmit(dev->queue, 1, &si, h->fence);
   VKT_CHECK(r);
   return r == VK_SUCCESS;
}

static void hung_draw_destroy(struct vkt_device *dev, struct hung_draw *h)
{
   if (h->fence)
      vkDestroyFence(dev->device, h->fence, NULL);
   if (h->cmd)
      vkFreeCommandBuffers(dev->device, dev->pools[dev->ctx->universal_family], 1, &h->cmd);
   vkt_buffer_destroy(dev, &h->vertices);
   vkDestroyPipeline(dev->device, h->pipeline, NULL);
   vkDestroyPipelineLayout(dev->device, h->layout, NULL);
   gtu_target_destroy(dev, &h->target);
}

/* Fragment warps run on the model thread inside their channel's turn, not
 * on the compute workers: the same watchdog stops them, and destroying the
 * device stops a draw in progress. */
TEST_CASE(hung_fragment_shader_is_stopped_and_its_device_destroyed_in_time)
{
   struct vkt_context ctx;
   if (!default_watchdog_context(&ctx))
      return;
   struct vkt_device other, dev;
   if (!vkt_device_create_standard(&ctx, &other)) {
      vkt_context_destroy(&ctx);
      return;
   }
   struct hung_draw h;
   if (vkt_device_create_standard(&ctx, &dev)) {
      struct stderr_capture cap;
      REQUIRE(stderr_capture_begin(&cap));
      vkt_tolerate_begin(expected_after_loss);
      VkResult r = VK_ERROR_UNKNOWN;
      double seconds = 0;
      if (hung_draw_submit(&dev, &h)) {
         double start = vkt_seconds();
         r = vkWaitForFences(dev.device, 1, &h.fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
         seconds = vkt_seconds() - start;
         if (r == VK_TIMEOUT)
            vkt_fatal_hang("an endless fragment shader under the default watchdog");
      }
      hung_draw_destroy(&dev, &h);
      vkt_device_destroy(&dev);
      vkt_tolerate_end();
      char *report = stderr_capture_end(&cap);
      printf("  endless fragment shader, vkWaitForFences: %s after %.2f s\n", vkt_result_name(r),
             seconds);
      CHECK_MSG(r == VK_ERROR_DEVICE_LOST, "waiting for the endless draw -> %s",
                vkt_result_name(r));
      CHECK_MSG(seconds <= HANG_BOUND_S, "the endless draw was stopped after %.2f s", seconds);
      CHECK_MSG(report && strstr(report, "WATCHDOG"), "the fault report does not say WATCHDOG");
      free(report);
   }
   if (device_without_warp_watchdog(&ctx, &dev)) {
      vkt_tolerate_begin(expected_while_running);
      if (hung_draw_submit(&dev, &h)) {
         vkt_sleep_ms(DESTROY_AFTER_MS);
         VkResult status = vkGetFenceStatus(dev.device, h.fence);
         CHECK_MSG(status == VK_NOT_READY, "the draw is not running any more: fence -> %s",
                   vkt_result_name(status));
      }
      hung_draw_destroy(&dev, &h);
      for (uint32_t f = 0; f < VKT_MAX_FAMILIES; f++)
         if (dev.pools[f])
            vkDestroyCommandPool(dev.device, dev.pools[f], NULL);
      double start = vkt_seconds();
      vkDestroyDevice(dev.device, NULL);
      double seconds = vkt_seconds() - start;
      vkt_tolerate_end();
      printf("  endless fragment shader: vkDestroyDevice took %.3f s\n", seconds);
      CHECK_MSG(seconds <= DESTROY_BOUND_S, "vkDestroyDevice during an endless draw took %.2f s",
                seconds);
   }
   check_device_computes(&other, "the other device after the endless draws");
   vkt_device_destroy(&other);
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
