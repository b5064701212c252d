/* Soak, vkppu only, not part of the default ctest run (CMake option
 * VKPPU_SOAK_TESTS adds it as api.soak with label "soak"; or run
 * build/tests/api/api_soak). For VKPPU_SOAK_SECONDS (default 20)
 * VKPPU_SOAK_THREADS threads (default 4) share two devices, spread over every
 * queue of the universal family, and mix at random:
 *
 *   valid work: a dispatch of compute_index.comp with random push
 *   constants and 1..4 workgroups on a shared device, every word checked;
 *   faulting work: a device of the thread's own runs fault_bad_address.comp
 *   through an unmapped pointer, which must end in VK_ERROR_DEVICE_LOST;
 *   the device is then destroyed.
 *
 * The shared devices must never be lost and every result must be right,
 * whatever the other threads' devices do meanwhile. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "compute_test_util.h"

#define UNMAPPED_VA 0x7f00000000ull /* as in test_compute_faults.c */
#define WORKGROUP 64u
#define MAX_GROUPS 4u
#define SHARED_DEVICES 2u
#define MAX_THREADS 16u
#define SENTINEL 0xAAAAAAAAu

struct shared_device {
   struct vkt_device dev;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkShaderModule module;
   VkPipeline pipeline;
   /* vkQueueSubmit needs the queue externally synchronized. */
   pthread_mutex_t queue_lock[VKT_MAX_QUEUES_PER_FAMILY];
};

struct soak {
   struct vkt_context *ctx;
   struct shared_device shared[SHARED_DEVICES];
   double end;
   atomic_uint valid_runs, fault_runs, errors;
};

struct worker {
   struct soak *soak;
   unsigned index;
   uint64_t rng;
   char first_error[256];
};

static void worker_error(struct worker *w, const char *fmt, const char *what, long long value)
{
   if (atomic_fetch_add(&w->soak->errors, 1) == 0 || !w->first_error[0])
      snprintf(w->first_error, sizeof(w->first_error), fmt, what, value);
}

static VkResult submit_wait(struct vkt_device *dev, VkQueue queue, pthread_mutex_t *lock,
                            VkCommandBuffer cmd)
{
   VkResult r = vkEndCommandBuffer(cmd);
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fence = VK_NULL_HANDLE;
   if (r == VK_SUCCESS)
      r = vkCreateFence(dev->device, &fci, NULL, &fence);
   if (r == VK_SUCCESS) {
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
      if (lock)
         pthread_mutex_lock(lock);
      r = vkQueueSubmit(queue, 1, &si, fence);
      if (lock)
         pthread_mutex_unlock(lock);
      if (r == VK_SUCCESS)
         r = vkWaitForFences(dev->device, 1, &fence, VK_TRUE, VKT_WAIT_TIMEOUT_NS);
   }
   vkDestroyFence(dev->device, fence, NULL);
   return r;
}

static VkCommandBuffer begin(VkDevice device, VkCommandPool pool)
{
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   if (vkAllocateCommandBuffers(device, &ai, &cmd) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   vkBeginCommandBuffer(cmd, &bi);
   return cmd;
}

/* One compute_index.comp dispatch on a shared device, checked. */
static void valid_work(struct worker *w, struct shared_device *s, VkCommandPool cmd_pool,
                       VkDescriptorPool desc_pool)
{
   struct vkt_device *dev = &s->dev;
   const uint32_t family = w->soak->ctx->universal_family;
   const uint32_t queue = (w->index / SHARED_DEVICES) % dev->queue_count[family];
   const uint32_t groups = 1 + vkt_rand_next(&w->rng) % MAX_GROUPS;
   const uint32_t pc[2] = {vkt_rand_next(&w->rng) % 1000, vkt_rand_next(&w->rng)};
   struct vkt_buffer out;
   if (vkt_buffer_create(dev, groups * WORKGROUP * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         VKT_MEMORY_HOST, &out) != VK_SUCCESS) {
      worker_error(w, "%s: %lld", "cannot create a buffer", 0);
      return;
   }
   memset(out.map, 0xAA, groups * WORKGROUP * 4);
   vkResetDescriptorPool(dev->device, desc_pool, 0);
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = desc_pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &s->set_layout};
   VkDescriptorSet set = VK_NULL_HANDLE;
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   if (vkAllocateDescriptorSets(dev->device, &ai, &set) == VK_SUCCESS &&
       (cmd = begin(dev->device, cmd_pool))) {
      VkDescriptorBufferInfo bi = {out.buffer, 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet wr = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                 .dstSet = set,
                                 .descriptorCount = 1,
                                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                 .pBufferInfo = &bi};
      vkUpdateDescriptorSets(dev->device, 1, &wr, 0, NULL);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, 1, &set, 0, NULL);
      vkCmdPushConstants(cmd, s->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), pc);
      vkCmdDispatch(cmd, groups, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      VkResult r = submit_wait(dev, dev->queues[family][queue], &s->queue_lock[queue], cmd);
      if (r != VK_SUCCESS) {
         worker_error(w, "valid work on a shared device: %s (%lld)", vkt_result_name(r), r);
      } else {
         const uint32_t *v = out.map;
         for (uint32_t i = 0; i < groups * WORKGROUP; i++) {
            /* compute_index.comp: i * mul + add + (workgroups << 24) */
            uint32_t want = i * pc[0] + pc[1] + (groups << 24);
            if (v[i] != want) {
               worker_error(w, "valid work: %s %lld", "wrong word at index", i);
               break;
            }
         }
         atomic_fetch_add(&w->soak->valid_runs, 1);
      }
      vkFreeCommandBuffers(dev->device, cmd_pool, 1, &cmd);
   } else {
      worker_error(w, "%s: %lld", "cannot record valid work", 0);
   }
   vkt_buffer_destroy(dev, &out);
}

/* fault_bad_address.comp on a device of this thread's own: it must be
 * lost, and nothing else. */
static void faulting_work(struct worker *w)
{
   struct vkt_context *ctx = w->soak->ctx;
   struct vkt_device own;
   if (!vkt_device_create_standard(ctx, &own)) {
      worker_error(w, "%s: %lld", "cannot create a device for faulting work", 0);
      return;
   }
   const VkDescriptorSetLayoutCreateInfo sci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   vkCreateDescriptorSetLayout(own.device, &sci, NULL, &set_layout);
   VkPipelineLayout layout = ctu_pipeline_layout(&own, &set_layout, 1, 16);
   VkShaderModule mod = ctu_shader_module(&own, "fault_bad_address");
   VkPipeline pipe = VK_NULL_HANDLE;
   struct vkt_buffer dest;
   VkCommandPool pool = VK_NULL_HANDLE;
   const VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .queueFamilyIndex = ctx->universal_family};
   if (ctu_compute_pipeline(&own, VK_NULL_HANDLE, mod, layout, NULL, &pipe) == VK_SUCCESS &&
       vkt_buffer_create(&own, WORKGROUP * 4,
                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT_KHR,
                         VKT_MEMORY_HOST, &dest) == VK_SUCCESS &&
       vkCreateCommandPool(own.device, &pci, NULL, &pool) == VK_SUCCESS) {
      VkBufferDeviceAddressInfoKHR info = {
          .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO_KHR, .buffer = dest.buffer};
      const uint64_t addresses[2] = {UNMAPPED_VA, vkGetBufferDeviceAddressKHR(own.device, &info)};
      VkCommandBuffer cmd = begin(own.device, pool);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
      vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(addresses), addresses);
      vkCmdDispatch(cmd, 1, 1, 1);
      VkResult r = submit_wait(&own, own.queue, NULL, cmd);
      if (r != VK_ERROR_DEVICE_LOST)
         worker_error(w, "faulting work ended in %s (%lld), not VK_ERROR_DEVICE_LOST",
                      vkt_result_name(r), r);
      else
         atomic_fetch_add(&w->soak->fault_runs, 1);
      vkFreeCommandBuffers(own.device, pool, 1, &cmd);
      vkDestroyCommandPool(own.device, pool, NULL);
      vkt_buffer_destroy(&own, &dest);
   } else {
      worker_error(w, "%s: %lld", "cannot record faulting work", 0);
   }
   vkDestroyPipeline(own.device, pipe, NULL);
   vkDestroyShaderModule(own.device, mod, NULL);
   vkDestroyPipelineLayout(own.device, layout, NULL);
   vkDestroyDescriptorSetLayout(own.device, set_layout, NULL);
   vkt_device_destroy(&own);
}

static void *worker_main(void *arg)
{
   struct worker *w = arg;
   struct shared_device *s = &w->soak->shared[w->index % SHARED_DEVICES];
   VkCommandPool cmd_pool = VK_NULL_HANDLE;
   VkDescriptorPool desc_pool = VK_NULL_HANDLE;
   const VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .queueFamilyIndex = w->soak->ctx->universal_family};
   const VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
   const VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                           .maxSets = 1,
                                           .poolSizeCount = 1,
                                           .pPoolSizes = &size};
   if (vkCreateCommandPool(s->dev.device, &cpi, NULL, &cmd_pool) != VK_SUCCESS ||
       vkCreateDescriptorPool(s->dev.device, &dpi, NULL, &desc_pool) != VK_SUCCESS) {
      worker_error(w, "%s: %lld", "cannot create the thread's pools", 0);
   } else {
      while (vkt_seconds() < w->soak->end) {
         /* One faulting run in eight: a device creation is slower than a
          * dispatch. */
         if (vkt_rand_next(&w->rng) % 8 == 0)
            faulting_work(w);
         else
            valid_work(w, s, cmd_pool, desc_pool);
      }
   }
   vkDestroyDescriptorPool(s->dev.device, desc_pool, NULL);
   vkDestroyCommandPool(s->dev.device, cmd_pool, NULL);
   return NULL;
}

static unsigned env_number(const char *name, unsigned fallback, unsigned max)
{
   const char *v = getenv(name);
   unsigned n = v ? (unsigned)strtoul(v, NULL, 10) : fallback;
   return n == 0 ? fallback : n > max ? max : n;
}

TEST_CASE(threads_devices_and_queues_mix_valid_and_faulting_work)
{
   const unsigned seconds = env_number("VKPPU_SOAK_SECONDS", 20, 24 * 3600);
   const unsigned threads = env_number("VKPPU_SOAK_THREADS", 4, MAX_THREADS);
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   if (!ctx.is_vkppu) {
      vkt_skip("faulting work is for vkppu only (device is \"%s\")", ctx.props.deviceName);
      vkt_context_destroy(&ctx);
      return;
   }
   static struct soak soak;
   memset(&soak, 0, sizeof(soak));
   soak.ctx = &ctx;
   const VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                 VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   unsigned made = 0;
   for (; made < SHARED_DEVICES; made++) {
      struct shared_device *s = &soak.shared[made];
      if (!vkt_device_create_standard(&ctx, &s->dev))
         break;
      for (unsigned q = 0; q < VKT_MAX_QUEUES_PER_FAMILY; q++)
         pthread_mutex_init(&s->queue_lock[q], NULL);
      s->set_layout = ctu_set_layout(&s->dev, &binding, 1);
      s->layout = ctu_pipeline_layout(&s->dev, &s->set_layout, 1, 8);
      s->module = ctu_shader_module(&s->dev, "compute_index");
      VKT_CHECK(
          ctu_compute_pipeline(&s->dev, VK_NULL_HANDLE, s->module, s->layout, NULL, &s->pipeline));
   }
   if (made == SHARED_DEVICES && !test_current_failed()) {
      /* Lost devices' messages come from any thread, all run long. */
      vkt_tolerate_begin(ctu_device_loss_messages);
      soak.end = vkt_seconds() + seconds;
      static struct worker workers[MAX_THREADS];
      pthread_t tid[MAX_THREADS];
      for (unsigned t = 0; t < threads; t++) {
         workers[t] = (struct worker){.soak = &soak, .index = t, .rng = 0x50a4 + t};
         REQUIRE(pthread_create(&tid[t], NULL, worker_main, &workers[t]) == 0);
      }
      for (unsigned t = 0; t < threads; t++) {
         pthread_join(tid[t], NULL);
         if (workers[t].first_error[0])
            test_fail(__FILE__, __LINE__, "thread %u: %s", t, workers[t].first_error);
      }
      vkt_tolerate_end();
      printf("  %u threads, %u s: %u valid dispatches checked, %u devices lost on purpose, "
             "%u errors\n",
             threads, seconds, atomic_load(&soak.valid_runs), atomic_load(&soak.fault_runs),
             atomic_load(&soak.errors));
      CHECK(atomic_load(&soak.errors) == 0);
      CHECK(atomic_load(&soak.valid_runs) > 0 && atomic_load(&soak.fault_runs) > 0);
   }
   for (unsigned d = 0; d < made; d++) {
      struct shared_device *s = &soak.shared[d];
      /* The shared devices were never lost: idle waits succeed. */
      CHECK_MSG(vkDeviceWaitIdle(s->dev.device) == VK_SUCCESS, "shared device %u was lost", d);
      vkDestroyPipeline(s->dev.device, s->pipeline, NULL);
      vkDestroyShaderModule(s->dev.device, s->module, NULL);
      vkDestroyPipelineLayout(s->dev.device, s->layout, NULL);
      vkDestroyDescriptorSetLayout(s->dev.device, s->set_layout, NULL);
      vkt_device_destroy(&s->dev);
      for (unsigned q = 0; q < VKT_MAX_QUEUES_PER_FAMILY; q++)
         pthread_mutex_destroy(&s->queue_lock[q]);
   }
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
