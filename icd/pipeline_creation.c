/* Pipeline creation feedback and cache control (see vkppu_pipeline.h). */
#include <time.h>

#include "vkppu_pipeline.h"

static uint64_t now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void vkppu_creation_begin(struct vkppu_creation *c, const void *next)
{
   c->feedback = NULL;
   for (const VkBaseInStructure *s = next; s; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)
         c->feedback = (const VkPipelineCreationFeedbackCreateInfo *)s;
   }
   c->start_ns = now_ns();
}

void vkppu_creation_end(const struct vkppu_creation *c, bool cache_hit, bool stage_feedback_valid)
{
   const VkPipelineCreationFeedbackCreateInfo *f = c->feedback;
   if (!f)
      return;
   VkPipelineCreationFeedback fb = {
       .flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
                (cache_hit ? VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT : 0),
       .duration = now_ns() - c->start_ns,
   };
   if (f->pPipelineCreationFeedback)
      *f->pPipelineCreationFeedback = fb;
   for (uint32_t i = 0;
        f->pPipelineStageCreationFeedbacks && i < f->pipelineStageCreationFeedbackCount; i++)
      f->pPipelineStageCreationFeedbacks[i] =
          stage_feedback_valid ? fb : (VkPipelineCreationFeedback){0};
}

bool vkppu_creation_stop(VkPipelineCreateFlags flags, VkResult r, VkResult *result)
{
   if (r == VK_SUCCESS)
      return false;
   /* An error outweighs VK_PIPELINE_COMPILE_REQUIRED (a success code). */
   if (r < 0 || *result == VK_SUCCESS)
      *result = r;
   return (flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0;
}
