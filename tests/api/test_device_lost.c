/* vkppu only: what the driver does when the GPU faults. Work is pushed as raw
 * PPU methods with the private command vkCmdPushRawMethodsVKPPU (the word
 * format is hw/include/ppu/methods.h), so the test can ask the copy engine
 * for things no Vulkan command would: a copy from an unmapped address, an
 * unknown method, a stream of garbage. Each must lose only the device that
 * ran it (VK_ERROR_DEVICE_LOST from then on, a fault report on stderr), never
 * crash the process, and leave other devices working. Validation must stay
 * silent throughout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ppu/methods.h"
#include "stderr_capture.h"
#include "vk_test_context.h"

typedef void(VKAPI_PTR *PFN_vkCmdPushRawMethodsVKPPU)(VkCommandBuffer commandBuffer,
                                                      uint32_t wordCount, const uint32_t *pWords);

/* An address nothing maps: the brief's choice, far above any allocation. */
#define UNMAPPED_VA 0x7f00000000ull

static PFN_vkCmdPushRawMethodsVKPPU get_push_raw(struct vkt_device *dev)
{
   PFN_vkVoidFunction fn = vkGetDeviceProcAddr(dev->device, "vkCmdPushRawMethodsVKPPU");
   if (!fn)
      test_fail(__FILE__, __LINE__, "vkGetDeviceProcAddr(vkCmdPushRawMethodsVKPPU) is NULL");
   return (PFN_vkCmdPushRawMethodsVKPPU)fn;
}

/* COPY of len bytes from src to dst: six state methods in one INCR run, then
 * LAUNCH with the operation as immediate data. */
static uint32_t encode_copy(uint32_t *w, uint64_t src, uint64_t dst, uint64_t len)
{
   uint32_t n = 0;
   w[n++] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_ADDR_LO, 6);
   w[n++] = (uint32_t)src;
   w[n++] = (uint32_t)(src >> 32);
   w[n++] = (uint32_t)dst;
   w[n++] = (uint32_t)(dst >> 32);
   w[n++] = (uint32_t)len;
   w[n++] = (uint32_t)(len >> 32);
   w[n++] = PPU_MTHD_HDR(PPU_MTHD_IMMD, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_COPY);
   return n;
}

static VkDeviceAddress address_of(struct vkt_device *dev, VkBuffer buf)
{
   VkBufferDeviceAddressInfoKHR info = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO_KHR,
       .buffer = buf,
   };
   return vkGetBufferDeviceAddressKHR(dev->device, &info);
}

/* Messages excused while a device is lost on purpose and torn down:
 * - the driver's own report of the loss (an ERROR through debug utils);
 * - "in use" errors of validation layer 1.3.239 on destroying a lost
 *   device's fences, command buffers and pools. The spec requires those
 *   objects to be destroyed ("Lost Device": child objects are not destroyed
 *   implicitly and must still be destroyed), but this layer only retires a
 *   submission when a wait returns VK_SUCCESS, which never happens after a
 *   loss. */
static const char *const expected_after_loss[] = {
    "device lost",
    "VUID-vkDestroyFence-fence-01120",
    "VUID-vkFreeCommandBuffers-pCommandBuffers-00047",
    "VUID-vkDestroyCommandPool-commandPool-00041",
    NULL,
};

/* Records words into a fresh command buffer, submits it with a fence and
 * waits. Returns the wait's result (or the submit's, if that failed). When the
 * stream is meant to fault, the messages of expected_after_loss are excused. */
static VkResult run_raw(struct vkt_device *dev, const uint32_t *words, uint32_t count,
                        bool expect_loss)
{
   if (expect_loss)
      vkt_tolerate_begin(expected_after_loss);
   PFN_vkCmdPushRawMethodsVKPPU push_raw = get_push_raw(dev);
   if (!push_raw)
      return VK_ERROR_FEATURE_NOT_PRESENT;
   VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   if (!cmd)
      return VK_ERROR_UNKNOWN;
   push_raw(cmd, count, words);
   VkResult r = vkEndCommandBuffer(cmd);
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
         vkt_fatal_hang("a raw method stream");
   }
   /* On a lost device, every submitted command buffer counts as finished. */
   vkDestroyFence(dev->device, fence, NULL);
   vkFreeCommandBuffers(dev->device, dev->pools[dev->ctx->universal_family], 1, &cmd);
   if (expect_loss)
      vkt_tolerate_end();
   return r;
}

static void destroy_lost_device(struct vkt_device *dev)
{
   vkt_tolerate_begin(expected_after_loss);
   vkt_device_destroy(dev);
   vkt_tolerate_end();
}

/* After a loss, the device keeps answering VK_ERROR_DEVICE_LOST. */
static void check_stays_lost(struct vkt_device *dev)
{
   vkt_tolerate_begin(expected_after_loss);
   VkFence fence = vkt_fence_create(dev, false);
   VKT_CHECK_RESULT(vkQueueSubmit(dev->queue, 0, NULL, fence), VK_ERROR_DEVICE_LOST);
   VkResult r = vkDeviceWaitIdle(dev->device);
   CHECK_MSG(r == VK_ERROR_DEVICE_LOST || r == VK_SUCCESS, "vkDeviceWaitIdle -> %s",
             vkt_result_name(r));
   vkDestroyFence(dev->device, fence, NULL);
   vkt_tolerate_end();
}

static bool skip_unless_vkppu(const struct vkt_context *ctx)
{
   if (ctx->is_vkppu)
      return false;
   vkt_skip("raw PPU methods exist only on vkppu (device is \"%s\")", ctx->props.deviceName);
   return true;
}

/* The control: the same COPY encoding with valid addresses moves data. It
 * also shows buffer device addresses are the GPU virtual addresses. */
TEST_CASE(raw_copy_between_device_addresses_moves_data)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   if (skip_unless_vkppu(&ctx)) {
      vkt_teardown(&ctx, &dev);
      return;
   }
   const VkDeviceSize size = 1u << 20;
   const VkBufferUsageFlags usage =
       VKT_USAGE_TRANSFER | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT_KHR;
   struct vkt_buffer src, dst;
   VKT_REQUIRE(vkt_buffer_create(&dev, size, usage, VKT_MEMORY_HOST, &src));
   VKT_REQUIRE(vkt_buffer_create(&dev, size, usage, VKT_MEMORY_HOST, &dst));
   vkt_fill_random(src.map, size, 120);
   memset(dst.map, 0, size);
   uint32_t words[16];
   uint32_t n =
       encode_copy(words, address_of(&dev, src.buffer), address_of(&dev, dst.buffer), size);
   VKT_CHECK(run_raw(&dev, words, n, false));
   vkt_compare_words(src.map, dst.map, size, "raw COPY");
   vkt_buffer_destroy(&dev, &dst);
   vkt_buffer_destroy(&dev, &src);
   vkt_teardown(&ctx, &dev);
}

/* Device A copies from an unmapped address while device B does a 4 MiB copy:
 * A is lost and reports the fault, B finishes correctly and keeps working. */
TEST_CASE(copy_from_unmapped_address_loses_only_its_device)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   if (skip_unless_vkppu(&ctx)) {
      vkt_context_destroy(&ctx);
      return;
   }
   struct vkt_device a, b;
   if (!vkt_device_create_standard(&ctx, &a) || !vkt_device_create_standard(&ctx, &b))
      return;
   const VkDeviceSize size = 4u << 20;
   struct vkt_buffer a_dst, b_src, b_dst;
   VKT_REQUIRE(vkt_buffer_create(&a, 4096,
                                 VKT_USAGE_TRANSFER | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT_KHR,
                                 VKT_MEMORY_HOST, &a_dst));
   VKT_REQUIRE(vkt_buffer_create(&b, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &b_src));
   VKT_REQUIRE(vkt_buffer_create(&b, size, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &b_dst));

   /* B's copy is submitted first, so it runs while A faults. */
   vkt_fill_random(b_src.map, size, 121);
   memset(b_dst.map, 0, size);
   VkCommandBuffer b_cmd = vkt_cmd_begin(&b, ctx.universal_family);
   REQUIRE(b_cmd);
   VkBufferCopy whole = {.size = size};
   vkCmdCopyBuffer(b_cmd, b_src.buffer, b_dst.buffer, 1, &whole);
   vkt_cmd_transfer_to_host_barrier(b_cmd);
   VKT_REQUIRE(vkEndCommandBuffer(b_cmd));
   VkFence b_fence = vkt_fence_create(&b, false);
   VkSubmitInfo b_submit = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &b_cmd,
   };
   VKT_CHECK(vkQueueSubmit(b.queue, 1, &b_submit, b_fence));

   uint32_t words[16];
   uint32_t n = encode_copy(words, UNMAPPED_VA, address_of(&a, a_dst.buffer), 4096);
   struct stderr_capture cap;
   REQUIRE(stderr_capture_begin(&cap));
   VkResult r = run_raw(&a, words, n, true);
   char *report = stderr_capture_end(&cap);
   CHECK_MSG(r == VK_ERROR_DEVICE_LOST, "waiting for the faulting copy -> %s", vkt_result_name(r));
   CHECK_MSG(text_contains_nocase(report, "copy"),
             "the fault report does not name the copy engine");
   CHECK_MSG(text_contains_nocase(report, "7f00000000"), "the fault report does not give 0x%llx",
             UNMAPPED_VA);
   /* The method that faulted is LAUNCH (0x010) of the copy subchannel. */
   CHECK_MSG(text_contains_nocase(report, "launch") || text_contains_nocase(report, "0x010") ||
                 text_contains_nocase(report, "0x10"),
             "the fault report does not name the method (LAUNCH, 0x010)");
   free(report);
   check_stays_lost(&a);

   r = vkWaitForFences(b.device, 1, &b_fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
   if (r == VK_TIMEOUT)
      vkt_fatal_hang("device B's copy");
   VKT_CHECK(r);
   vkt_compare_words(b_src.map, b_dst.map, size, "device B's copy while A faulted");
   vkDestroyFence(b.device, b_fence, NULL);
   vkFreeCommandBuffers(b.device, b.pools[ctx.universal_family], 1, &b_cmd);

   /* B still takes new work. */
   vkt_fill_random(b_src.map, size, 122);
   b_cmd = vkt_cmd_begin(&b, ctx.universal_family);
   REQUIRE(b_cmd);
   vkCmdCopyBuffer(b_cmd, b_src.buffer, b_dst.buffer, 1, &whole);
   vkt_cmd_transfer_to_host_barrier(b_cmd);
   VKT_CHECK(vkt_cmd_submit_wait(&b, ctx.universal_family, 0, b_cmd));
   vkt_compare_words(b_src.map, b_dst.map, size, "device B after A was lost");

   vkt_buffer_destroy(&b, &b_dst);
   vkt_buffer_destroy(&b, &b_src);
   vkt_buffer_destroy(&a, &a_dst);
   vkt_device_destroy(&b);
   destroy_lost_device(&a);
   vkt_context_destroy(&ctx);
}

/* One stream per case, each on a fresh device: unknown methods and an
 * unknown subchannel. */
TEST_CASE(unknown_methods_lose_the_device)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   if (skip_unless_vkppu(&ctx)) {
      vkt_context_destroy(&ctx);
      return;
   }
   const struct {
      const char *what;
      uint32_t words[2];
   } streams[] = {
       {"unassigned copy method 0x01f", {PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, 0x01f, 1), 0}},
       {"copy method past the end (0x100)",
        {PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_COPY, 0x100, 1), 0}},
       {"subchannel 6", {PPU_MTHD_HDR(PPU_MTHD_INCR, 6, 0, 1), 0}},
       {"header type 0", {PPU_MTHD_HDR(0, PPU_SUBCH_HOST, PPU_HOST_NOP, 1), 0}},
   };
   for (size_t i = 0; i < sizeof(streams) / sizeof(streams[0]); i++) {
      struct vkt_device dev;
      if (!vkt_device_create_standard(&ctx, &dev))
         break;
      struct stderr_capture cap;
      REQUIRE(stderr_capture_begin(&cap));
      VkResult r = run_raw(&dev, streams[i].words, 2, true);
      char *report = stderr_capture_end(&cap);
      CHECK_MSG(r == VK_ERROR_DEVICE_LOST, "%s -> %s", streams[i].what, vkt_result_name(r));
      CHECK_MSG(report && report[0], "%s: no fault report", streams[i].what);
      free(report);
      check_stays_lost(&dev);
      destroy_lost_device(&dev);
   }
   vkt_context_destroy(&ctx);
}

/* Pseudo-random words: the device is lost, the process lives on. */
TEST_CASE(garbage_stream_loses_the_device_without_crashing)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   if (skip_unless_vkppu(&ctx)) {
      vkt_context_destroy(&ctx);
      return;
   }
   enum { WORDS = 2048 };
   uint32_t *words = malloc(WORDS * sizeof(*words));
   REQUIRE(words);
   for (uint64_t seed = 1; seed <= 4; seed++) {
      struct vkt_device dev;
      if (!vkt_device_create_standard(&ctx, &dev))
         break;
      vkt_fill_random(words, WORDS * sizeof(*words), 1000 + seed);
      struct stderr_capture cap;
      REQUIRE(stderr_capture_begin(&cap));
      VkResult r = run_raw(&dev, words, WORDS, true);
      char *report = stderr_capture_end(&cap);
      CHECK_MSG(r == VK_ERROR_DEVICE_LOST, "garbage seed %llu -> %s", (unsigned long long)seed,
                vkt_result_name(r));
      free(report);
      check_stays_lost(&dev);
      destroy_lost_device(&dev);
   }
   free(words);
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
