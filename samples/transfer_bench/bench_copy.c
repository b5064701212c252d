/* vkCmdCopyBuffer throughput: one whole-buffer copy between two buffers of
 * the same memory kind. */
#include <stdlib.h>

#include "bench_throughput.h"
#include "cpu_reference.h"
#include "data_pattern.h"
#include "gpu_buffer_io.h"
#include "gpu_submit.h"

/* Written over the destination before every run: the source never holds a
 * whole buffer of it, so a run that copies nothing, or only part, fails. */
#define POISON_WORD 0xdeadbeefu

struct copy_state {
   struct gpu_buffer src;
   uint8_t *expected; /* what src holds, kept on the host to check against */
};

static VkResult copy_prepare(struct throughput_target *target, void **state_out)
{
   struct copy_state *state = calloc(1, sizeof(*state));
   *state_out = state;
   if (!state)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   state->expected = malloc(target->size);
   if (!state->expected)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   pattern_fill(state->expected, target->size, target->seed);
   VkResult result = gpu_buffer_create(target->dev, target->kind, target->size, &state->src);
   if (result != VK_SUCCESS)
      return result;
   return gpu_buffer_write(target->dev, &state->src, target->staging, state->expected);
}

struct poison_fill {
   VkBuffer dst;
};

static void record_poison(VkCommandBuffer cmd, void *user)
{
   const struct poison_fill *poison = user;
   vkCmdFillBuffer(cmd, poison->dst, 0, VK_WHOLE_SIZE, POISON_WORD);
}

static VkResult copy_before_run(struct throughput_target *target, void *state, uint32_t run)
{
   (void)state;
   (void)run;
   struct poison_fill poison = {target->dst.buffer};
   return gpu_submit_and_wait(target->dev, record_poison, &poison, NULL);
}

static void copy_record(VkCommandBuffer cmd, const struct throughput_target *target, void *state)
{
   const struct copy_state *copy = state;
   const VkBufferCopy region = {.srcOffset = 0, .dstOffset = 0, .size = target->size};
   vkCmdCopyBuffer(cmd, copy->src.buffer, target->dst.buffer, 1, &region);
}

static bool copy_check(const struct throughput_target *target, void *state, uint32_t run,
                       const void *contents, const char *what)
{
   (void)run;
   const struct copy_state *copy = state;
   return pattern_matches(contents, copy->expected, target->size, what);
}

static void copy_release(struct throughput_target *target, void *state)
{
   struct copy_state *copy = state;
   if (!copy)
      return;
   gpu_buffer_destroy(target->dev, &copy->src);
   free(copy->expected);
   free(copy);
}

const struct throughput_op bench_copy_op = {
    .name = "copy",
    .cpu_reference = "memcpy",
    .seed_base = 0xc0b1c0b1u,
    .cpu_seconds = cpu_reference_memcpy_seconds,
    .prepare = copy_prepare,
    .before_run = copy_before_run,
    .record = copy_record,
    .check = copy_check,
    .release = copy_release,
};
