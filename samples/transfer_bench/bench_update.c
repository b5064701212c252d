/* vkCmdUpdateBuffer throughput: the whole buffer written from data carried
 * inside the command buffer, in the largest chunks the command allows. */
#include <stdlib.h>

#include "bench_throughput.h"
#include "cpu_reference.h"
#include "data_pattern.h"

/* The valid-usage rules of vkCmdUpdateBuffer cap dataSize at 65536 bytes and
 * want it a multiple of 4. */
#define UPDATE_CHUNK_BYTES ((size_t)65536)

struct update_state {
   uint8_t *data; /* this run's data */
};

static VkResult update_prepare(struct throughput_target *target, void **state_out)
{
   struct update_state *state = calloc(1, sizeof(*state));
   *state_out = state;
   if (!state)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   state->data = malloc(target->size);
   return state->data ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
}

static VkResult update_before_run(struct throughput_target *target, void *state, uint32_t run)
{
   /* New data every run, so every run has to land to pass the check. */
   struct update_state *update = state;
   pattern_fill(update->data, target->size, pattern_word(target->seed, run));
   return VK_SUCCESS;
}

static void update_record(VkCommandBuffer cmd, const struct throughput_target *target, void *state)
{
   const struct update_state *update = state;
   for (size_t offset = 0; offset < target->size; offset += UPDATE_CHUNK_BYTES) {
      size_t chunk = target->size - offset;
      if (chunk > UPDATE_CHUNK_BYTES)
         chunk = UPDATE_CHUNK_BYTES;
      vkCmdUpdateBuffer(cmd, target->dst.buffer, offset, chunk, update->data + offset);
   }
}

static bool update_check(const struct throughput_target *target, void *state, uint32_t run,
                         const void *contents, const char *what)
{
   (void)run;
   const struct update_state *update = state;
   return pattern_matches(contents, update->data, target->size, what);
}

static void update_release(struct throughput_target *target, void *state)
{
   (void)target;
   struct update_state *update = state;
   if (!update)
      return;
   free(update->data);
   free(update);
}

const struct throughput_op bench_update_op = {
    .name = "update",
    .cpu_reference = "memcpy",
    .seed_base = 0x0bda0bdau,
    .cpu_seconds = cpu_reference_memcpy_seconds,
    .prepare = update_prepare,
    .before_run = update_before_run,
    .record = update_record,
    .check = update_check,
    .release = update_release,
};
