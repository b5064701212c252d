/* The ambient-occlusion compute pass: shaders/ao.comp, its descriptor set
 * (TLAS, result, positions, indices) and one timed dispatch. The _sized and
 * _dispatch forms serve any shader with that descriptor set and 8x8
 * workgroups (samples/rq_shadows builds this file too). */
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
   uint32_t push_constant_bytes;
   /* The ray-tracing pipeline version (samples/rt_ambient_occlusion): its
    * shader binding table and the four regions of it. */
   struct rq_buffer shader_binding_table;
   VkStridedDeviceAddressRegionKHR raygen, miss, hit, callable;
};

/* Set 0 of every AO pass: TLAS, result, positions, indices
 * (ao_descriptors.c). */
enum {
   AO_BINDING_SCENE,
   AO_BINDING_RESULT,
   AO_BINDING_POSITIONS,
   AO_BINDING_INDICES,
   AO_BINDING_COUNT,
};
extern const VkDescriptorType ao_pass_binding_types[AO_BINDING_COUNT];
/* Writes the scene's and the pass's buffers into pass->pipe.set. */
void ao_pass_write_descriptors(struct rq_context *ctx, const struct rq_scene *scene,
                               struct ao_pass *pass);

VkResult ao_pass_create(struct rq_context *ctx, const char *spv_path, const struct rq_scene *scene,
                        uint32_t width, uint32_t height, struct ao_pass *pass);
/* Dispatches the pass over the whole image and waits; *seconds as
 * rq_commands_submit. */
VkResult ao_pass_run(struct rq_context *ctx, struct ao_pass *pass,
                     const struct ao_push_constants *params, double *seconds, bool *timed_on_gpu);
/* The same pass for another shader: a host-visible result buffer of
 * result_bytes and push_constant_bytes of push constants. */
VkResult ao_pass_create_sized(struct rq_context *ctx, const char *spv_path,
                              const struct rq_scene *scene, VkDeviceSize result_bytes,
                              uint32_t push_constant_bytes, struct ao_pass *pass);
/* One invocation per pixel of width x height, with push constants params
 * (push_constant_bytes of them); waits, *seconds as rq_commands_submit. */
VkResult ao_pass_dispatch(struct rq_context *ctx, struct ao_pass *pass, const void *params,
                          uint32_t width, uint32_t height, double *seconds, bool *timed_on_gpu);
void ao_pass_destroy(struct rq_context *ctx, struct ao_pass *pass);

#endif
