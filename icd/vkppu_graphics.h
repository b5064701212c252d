/* Graphics pipelines and the graphics state of a command buffer
 * (docs/graphics.md).
 *
 * A graphics pipeline is its vertex and fragment programs, compiled and
 * linked by drv_compile_graphics, in GPU memory, plus its fixed-function
 * state already translated into the graphics engine's encodings
 * (hw/include/ppu/graphics.h, docs/graphics-hw.md "API mapping"). Each draw
 * (cmd_draw.c) writes the program descriptors with a constant bank 0 of its
 * own (push constants, sets, vertex buffers: a snapshot, as Vulkan wants),
 * then every state group of the graphics subchannel, so no draw depends on
 * what an earlier command buffer left latched in the channel.
 */
#ifndef VKPPU_GRAPHICS_H
#define VKPPU_GRAPHICS_H

#include <ppu/graphics.h>

#include "vkppu_cmd_buffer.h"
#include "vkppu_image.h"
#include "vkppu_pipeline.h"
#include "vkppu_render_pass.h"

/* Draws one vkCmdDrawMulti*EXT takes (maxMultiDrawCount): their records
 * share one 64 KiB upload chunk. */
#define VKPPU_MAX_MULTI_DRAW_COUNT 2048u

/* Everything a draw needs of a graphics pipeline. */
struct vkppu_gfx_pipeline {
   /* Descriptors with cbank[0] left for the draw; fragment.program_va 0:
    * no fragment program. */
   struct ppu_gfx_program vertex, fragment;
   uint32_t scratch_size; /* SCRATCH_SIZE for these programs' records */
   uint32_t vertex_stride[DRV_ABI_MAX_VERTEX_BUFFERS];
   uint32_t dynamic; /* VKPPU_DYN_* */
   /* The static values of every state a pipeline may leave dynamic; a
    * draw takes each from here or from the command buffer by `dynamic`. */
   struct vkppu_gfx_dynamic values;
   /* The subpass's depth/stencil attachment has these aspects: depth and
    * stencil tests are off without them, whatever the state says. */
   bool has_depth, has_stencil;
   /* Encoded state words (ppu/graphics.h) that are never dynamic. */
   uint32_t depth_clamp, polygon_mode;
   uint32_t blend[PPU_GFX_COLOR_TARGETS][2];
   uint32_t alpha_to_coverage, sample_mask, clip_distance_mask, cull_distance_mask;
   uint32_t samples_log2; /* SAMPLES_LOG2: 0 or 2 (rasterizationSamples 1 or 4) */
   /* SAMPLE_SHADING: the fragment program runs once per sample (4x only);
    * the state sets the pipeline's request, the compile the final word. */
   uint32_t sample_shading;
   uint32_t logic_op_enable; /* LOGIC_OP bit 4; the op is values.logic_op */
   uint32_t pixel_order;     /* enum ppu_gfx_pixel_order (VK_AMD_rasterization_order) */
   /* VKPPU_DYN_VERTEX_INPUT: the sources to compile the programs again for
    * each vertex input state draws use (graphics_pipeline_variants.c). */
   struct vkppu_gfx_variants *variants;
};

/* One compile of a pipeline's programs, in GPU memory: both programs in
 * bo (registered for fault reports), their descriptors, and what the
 * pipeline takes from the compile. */
struct vkppu_gfx_programs {
   struct drv_bo *bo;
   uint64_t bytes;
   struct ppu_gfx_program vertex, fragment; /* fragment.program_va 0: none */
   struct drv_graphics_program_info vertex_info, fragment_info;
   uint32_t clip_distance_count, cull_distance_count;
};

/* Compiles req and uploads the programs (graphics_pipeline.c); errors are
 * reported with their reason, as from `caller`. `name` labels the code in
 * fault reports. */
VkResult vkppu_gfx_build_programs(struct vkppu_device *dev, struct vkppu_pipeline *pipe,
                                  const struct drv_graphics_compile_request *req,
                                  const char *caller, const char *name,
                                  struct vkppu_gfx_programs *out);
void vkppu_gfx_programs_free(struct vkppu_device *dev, struct vkppu_gfx_programs *p);

/* Dynamic vertex input (graphics_pipeline_variants.c): keeps copies of the
 * compile's sources; the programs for the command buffer's vertex input
 * state (compiled on first use, then kept until the pipeline goes), or
 * NULL after a reported error; the copies freed. */
VkResult vkppu_gfx_variants_init(struct vkppu_device *dev, struct vkppu_pipeline *pipe,
                                 const struct drv_graphics_compile_request *req);
const struct vkppu_gfx_programs *vkppu_gfx_variant(struct vkppu_device *dev,
                                                   struct vkppu_pipeline *pipe,
                                                   const struct vkppu_gfx_dynamic *state);
void vkppu_gfx_variants_free(struct vkppu_device *dev, struct vkppu_gfx_pipeline *g);

/* The encodings shared by pipelines and the dynamic-state commands. */
static inline uint32_t vkppu_gfx_cull_word(VkCullModeFlags cull)
{
   return (uint32_t)cull & (PPU_GFX_CULL_FRONT | PPU_GFX_CULL_BACK);
}
/* COUNTER_CLOCKWISE (0) is the hardware's POSITIVE_AREA (0). */
static inline uint32_t vkppu_gfx_front_face_word(VkFrontFace f)
{
   return f == VK_FRONT_FACE_CLOCKWISE ? 1u : 0u;
}
/* Stencil ops and compare use the API's numbers in the hardware fields. */
static inline uint32_t vkppu_gfx_stencil_ops_word(VkStencilOp fail, VkStencilOp pass,
                                                  VkStencilOp depth_fail, VkCompareOp compare)
{
   return PPU_GFX_STENCIL_OPS(fail, pass, depth_fail, compare);
}

/* Fills g's fixed-function state from ci for subpass sp of pass
 * (graphics_pipeline_state.c); NULL, or why the state is refused. */
const char *vkppu_gfx_pipeline_state(struct vkppu_gfx_pipeline *g,
                                     const VkGraphicsPipelineCreateInfo *ci,
                                     const struct vkppu_subpass *sp,
                                     const struct vkppu_render_pass *pass);

/* Bytes of SCRATCH_SIZE for the largest programs (32 attribute slots):
 * 32 vertex records and one primitive record, rounded up to 256. */
#define VKPPU_GFX_SCRATCH_BYTES                                                                    \
   ((32u * PPU_GFX_VERTEX_STRIDE(PPU_GFX_MAX_ATTRIBUTES) +                                         \
     PPU_GFX_PRIMITIVE_STRIDE(PPU_GFX_MAX_ATTRIBUTES) + 255u) &                                    \
    ~255u)

/* Rectangle clears of one attachment's view (cmd_clear_rect.c): the
 * aspects of `aspects` over rect in `layers` layers from the view's first,
 * value as the copy engine's CLEAR_VALUE words. A rectangle that covers the
 * whole level is CLEAR_IMAGE; any other is a BLIT from a 1x1 image of the
 * same format that CLEAR_IMAGE wrote. */
void vkppu_cmd_clear_view_rect(struct vkppu_command_buffer *cmd,
                               const struct vkppu_image_view *view, VkImageAspectFlags aspects,
                               const VkRect2D *rect, uint32_t base_layer, uint32_t layer_count,
                               const uint32_t value[4]);
/* The copy engine's CLEAR_VALUE words for a VkClearValue of an attachment
 * with these aspects. */
void vkppu_clear_value_words(const VkClearValue *v, VkImageAspectFlags aspects, uint32_t out[4]);

/* A render pass instance (cmd_render_pass.c), for render passes and dynamic
 * rendering alike: begin records pass, framebuffer and area for draws and
 * clears the attachments whose load op is CLEAR (values indexed by
 * attachment); end finishes the instance. */
void vkppu_cmd_pass_instance_begin(struct vkppu_command_buffer *cmd,
                                   const struct vkppu_render_pass *pass,
                                   const struct vkppu_framebuffer *fb, const VkRect2D *area,
                                   const VkClearValue *values, uint32_t value_count);
void vkppu_cmd_pass_instance_end(struct vkppu_command_buffer *cmd);

/* Frees the framebuffers vkCmdBeginRenderPass made of imageless ones and
 * their views (cmd_render_pass.c; reset, free). */
void vkppu_cmd_imageless_release(struct vkppu_command_buffer *cmd);

/* Writes the targets and render area of the current render pass instance
 * into the channel (cmd_draw.c), for secondaries whose draws leave them
 * (vkppu_gfx_cmd_state::targets_inherited). */
void vkppu_cmd_emit_targets(struct vkppu_command_buffer *cmd);

/* One incrementing method group of the graphics subchannel
 * (gfx_methods.c). */
void vkppu_gfx_emit(struct drv_pushbuf *pb, uint32_t method, uint32_t count, const uint32_t *words);
/* The 8 words of a render-target group (COLOR_TARGET, DEPTH_TARGET,
 * RESOLVE_TARGET) for `level` and `layer` of img seen as `format`; EXTENT in
 * pixels (half the texels of a 4x image). */
void vkppu_gfx_target_words(const struct vkppu_image *img, VkFormat format, uint32_t level,
                            uint32_t layer, uint32_t w[8]);

/* A 4x image's level and layers resolved into a 1x image (cmd_resolve.c). */
struct vkppu_resolve_side {
   const struct vkppu_image *image;
   VkFormat format; /* of the view or the image */
   uint32_t level, layer;
};
/* RESOLVE of `area` (pixels, the same in both images) over `layer_count`
 * layers: the colour aspect with color_mode, or the depth aspect with
 * depth_mode and the stencil aspect with stencil_mode (VK_RESOLVE_MODE_NONE:
 * not resolved). The modes RESOLVE has: AVERAGE (not for integer formats or
 * stencil), SAMPLE_ZERO, MIN, MAX. Returns why nothing was recorded, or
 * NULL. */
const char *vkppu_cmd_resolve(struct vkppu_command_buffer *cmd,
                              const struct vkppu_resolve_side *src,
                              const struct vkppu_resolve_side *dst,
                              VkResolveModeFlagBits color_mode, VkResolveModeFlagBits depth_mode,
                              VkResolveModeFlagBits stencil_mode, const VkRect2D *area,
                              uint32_t layer_count);

/* The VERTEX_BUFFER feature: the formats the compiler's vertex fetch
 * decodes (vertex_formats.c, docs/compiler.md "Graphics stages"). */
bool vkppu_vertex_format_supported(VkFormat format);

#endif /* VKPPU_GRAPHICS_H */
