/* The ambient-occlusion compute pass: shaders/ao.comp, its descriptor set
 * (TLAS, result, positions, indices) and one timed dispatch. */
#ifndef AO_PASS_H
#define AO_PASS_H

#include "accel.h"

#define AO_WORKGROUP 8u       /* local_size_x and _y of shaders/ao.comp */
#define AO_MISSED 0xffffffffu /* result of a pixel whose primary ray hit nothing */

/* The shader's push constant block, member for member (std430). */
struct ao_push_constants {
   float eye[3], ao_radius;
   float right[3], scene_diagonal; /* right: unit right * tan(fov / 2) */
   float up[3], unused0;           /* unit true up * tan(fov / 2) */
   float forward[3], unused1;      /* unit view direction */
   uint32_t width, height, spp, unused2;
};

struct ao_pass {
   struct vk_sample_compute_pipeline pipe;
   struct rq_buffer result; /* per pixel: AO rays that escaped, or AO_MISSED */
};

VkResult ao_pass_create(struct rq_context *ctx, const char *spv_path, const struct rq_scene *scene,
                        uint32_t width, uint32_t height, struct ao_pass *pass);
/* Dispatches the pass over the whole image and waits; *seconds as
 * rq_commands_submit. */
VkResult ao_pass_run(struct rq_context *ctx, struct ao_pass *pass,
                     const struct ao_push_constants *params, double *seconds, bool *timed_on_gpu);
void ao_pass_destroy(struct rq_context *ctx, struct ao_pass *pass);

#endif
