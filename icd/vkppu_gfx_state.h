/* The graphics state a command buffer records against (vkppu_graphics.h
 * has the rest of graphics): apart so that vkppu_cmd_buffer.h can embed it
 * without the pipeline and render-pass headers. */
#ifndef VKPPU_GFX_STATE_H
#define VKPPU_GFX_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"
#include "shader_abi.h"
#include "vkppu_object.h"

struct vkppu_pipeline;
struct vkppu_render_pass;
struct vkppu_framebuffer;

/* Vulkan 1.0 dynamic states a pipeline can leave to the command buffer. */
#define VKPPU_DYN_VIEWPORT (1u << 0)
#define VKPPU_DYN_SCISSOR (1u << 1)
#define VKPPU_DYN_LINE_WIDTH (1u << 2)
#define VKPPU_DYN_DEPTH_BIAS (1u << 3)
#define VKPPU_DYN_BLEND_CONSTANTS (1u << 4)
#define VKPPU_DYN_STENCIL_COMPARE_MASK (1u << 5)
#define VKPPU_DYN_STENCIL_WRITE_MASK (1u << 6)
#define VKPPU_DYN_STENCIL_REFERENCE (1u << 7)
#define VKPPU_DYN_DEPTH_BOUNDS (1u << 8)
/* VK_EXT_extended_dynamic_state. VIEWPORT_WITH_COUNT and SCISSOR_WITH_COUNT
 * are VKPPU_DYN_VIEWPORT and _SCISSOR with the _COUNT bits: the count is
 * dynamic too. */
#define VKPPU_DYN_CULL_MODE (1u << 9)
#define VKPPU_DYN_FRONT_FACE (1u << 10)
#define VKPPU_DYN_TOPOLOGY (1u << 11)
#define VKPPU_DYN_VERTEX_STRIDE (1u << 12)
#define VKPPU_DYN_DEPTH_TEST_ENABLE (1u << 13)
#define VKPPU_DYN_DEPTH_WRITE_ENABLE (1u << 14)
#define VKPPU_DYN_DEPTH_COMPARE_OP (1u << 15)
#define VKPPU_DYN_DEPTH_BOUNDS_TEST_ENABLE (1u << 16)
#define VKPPU_DYN_STENCIL_TEST_ENABLE (1u << 17)
#define VKPPU_DYN_STENCIL_OP (1u << 18)
/* VK_EXT_extended_dynamic_state2. */
#define VKPPU_DYN_RASTERIZER_DISCARD_ENABLE (1u << 19)
#define VKPPU_DYN_DEPTH_BIAS_ENABLE (1u << 20)
#define VKPPU_DYN_PRIMITIVE_RESTART_ENABLE (1u << 21)
#define VKPPU_DYN_LOGIC_OP (1u << 22)
#define VKPPU_DYN_VIEWPORT_COUNT (1u << 23)
#define VKPPU_DYN_SCISSOR_COUNT (1u << 24)
/* VK_EXT_vertex_input_dynamic_state (the strides come with it). */
#define VKPPU_DYN_VERTEX_INPUT (1u << 25)

/* maxViewports: the graphics engine's VIEWPORT(i) and SCISSOR(i) groups
 * (PPU_GFX_VIEWPORTS). */
#define VKPPU_MAX_VIEWPORTS 16u

/* The values of the dynamic states, in a pipeline (its static values) and
 * in a command buffer (the vkCmdSet* ones). Index [0] front, [1] back. */
struct vkppu_gfx_dynamic {
   VkViewport viewport[VKPPU_MAX_VIEWPORTS];
   VkRect2D scissor[VKPPU_MAX_VIEWPORTS];
   uint32_t viewport_count, scissor_count;
   float line_width;
   float depth_bias[3]; /* constant, clamp, slope */
   float blend_constants[4];
   float depth_bounds[2]; /* min, max */
   uint32_t stencil_compare_mask[2], stencil_write_mask[2], stencil_reference[2];
   /* Extended dynamic state, in the graphics engine's encodings
    * (ppu/graphics.h): TOPOLOGY, CULL_MODE, FRONT_FACE, the 0/1 enables,
    * DEPTH_COMPARE and STENCIL_OPS words, the LOGIC_OP op (bits 3..0). */
   uint32_t cull, front_face, topology;
   uint32_t depth_test_enable, depth_write_enable, depth_compare, depth_bounds_test_enable;
   uint32_t stencil_test_enable, stencil_ops[2];
   uint32_t rasterizer_discard, depth_bias_enable, primitive_restart, logic_op;
   uint32_t vertex_stride[DRV_ABI_MAX_VERTEX_BUFFERS]; /* vkCmdBindVertexBuffers2 */
   /* vkCmdSetVertexInputEXT, as the compiler takes a vertex input state. */
   struct drv_vertex_attribute vertex_attributes[DRV_GFX_MAX_SLOTS];
   struct drv_vertex_binding vertex_bindings[DRV_ABI_MAX_VERTEX_BUFFERS];
   uint32_t vertex_attribute_count, vertex_binding_count;
};

/* The command buffer's graphics state (cmd_draw.c, cmd_render_pass.c,
 * cmd_dynamic_state.c); cleared when the command buffer is reset. */
struct vkppu_gfx_cmd_state {
   const struct vkppu_pipeline *pipeline;
   struct vkppu_gfx_dynamic dynamic;
   struct {
      uint64_t va;
      uint64_t size;
   } vertex_buffers[DRV_ABI_MAX_VERTEX_BUFFERS];
   uint64_t index_va, index_size; /* bytes from the bound offset */
   uint32_t index_bytes;          /* 1, 2 or 4 */
   /* The render pass instance. */
   const struct vkppu_render_pass *pass;
   const struct vkppu_framebuffer *framebuffer;
   uint32_t subpass;
   VkRect2D render_area;
   /* A secondary inside dynamic rendering: there is no framebuffer; the
    * primary's vkCmdBeginRendering wrote targets and render area into the
    * channel (cmd_rendering.c), and draws leave them as they are. */
   bool targets_inherited;
   uint64_t scratch_va; /* upload memory for one batch's records, 0 until the first draw */
   uint32_t scratch_size;
};

#endif /* VKPPU_GFX_STATE_H */
