/* vkCmdFillBuffer throughput: one whole-buffer fill with a 32-bit word. */
#include <stdlib.h>

#include "bench_throughput.h"
#include "cpu_reference.h"
#include "data_pattern.h"

struct fill_state {
   uint32_t word; /* this run's fill value */
};

static VkResult fill_prepare(struct throughput_target *target, void **state_out)
{
   (void)target;
   *state_out = calloc(1, sizeof(struct fill_state));
   return *state_out ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
}

static VkResult fill_before_run(struct throughput_target *target, void *state, uint32_t run)
{
   /* A new word every run: a run that fills nothing leaves the previous
    * run's word behind and fails the check. */
   struct fill_state *fill = state;
   fill->word = pattern_word(target->seed, run);
   return VK_SUCCESS;
}

static void fill_record(VkCommandBuffer cmd, const struct throughput_target *target, void *state)
{
   const struct fill_state *fill = state;
   vkCmdFillBuffer(cmd, target->dst.buffer, 0, VK_WHOLE_SIZE, fill->word);
}

static bool fill_check(const struct throughput_target *target, void *state, uint32_t run,
                       const void *contents, const char *what)
{
   (void)run;
   const struct fill_state *fill = state;
   return pattern_matches_word(contents, target->size, fill->word, what);
}

static void fill_release(struct throughput_target *target, void *state)
{
   (void)target;
   free(state);
}

const struct throughput_op bench_fill_op = {
    .name = "fill",
    .cpu_reference = "memset",
    .seed_base = 0xf111f111u,
    .cpu_seconds = cpu_reference_memset_seconds,
    .prepare = fill_prepare,
    .before_run = fill_before_run,
    .record = fill_record,
    .check = fill_check,
    .release = fill_release,
};
