/* Draw commands: vkCmdBindVertexBuffers(2), vkCmdBindIndexBuffer, vkCmdDraw,
 * vkCmdDrawIndexed, vkCmdDrawIndirect, vkCmdDrawIndexedIndirect and their
 * Count variants (VK_KHR_draw_indirect_count).
 *
 * Each draw writes into upload memory the two program descriptors and a
 * constant bank 0 (push constants, sets, dynamic offsets and the vertex
 * buffer records of driver/shader_abi.h), then every state group of the
 * graphics subchannel (docs/graphics-hw.md "Methods"): targets of the
 * current subpass, render area, viewport, scissor, raster, depth/stencil
 * and blend state, programs, index buffer; then DRAW or DRAW_INDIRECT.
 * Writing everything per draw (about 150 words) keeps a draw independent
 * of what other command buffers left latched in the channel; the one
 * exception is a secondary inside dynamic rendering, whose targets and
 * render area are the primary's (cmd_rendering.c). */
#include "gpu_memory.h"
#include "method_encoder.h"
#include "vkppu_graphics.h"
#include "vkppu_memory.h"

static uint32_t f2u(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static const struct vkppu_image_view *attachment_view(const struct vkppu_gfx_cmd_state *s,
                                                      uint32_t a)
{
   if (a == VK_ATTACHMENT_UNUSED || a >= s->framebuffer->attachment_count)
      return NULL;
   return s->framebuffer->attachments[a];
}

static uint32_t clamp_coord(int64_t v)
{
   return v < 0 ? 0u : v > PPU_GFX_MAX_FRAMEBUFFER ? PPU_GFX_MAX_FRAMEBUFFER : (uint32_t)v;
}

/* The target group of attachment `a` (multiview draws reach each view's
 * layer through LAYER_OFFSET), or false when the draw must leave it disabled:
 * unused, or not of the draw's sample count (invalid usage:
 * rasterizationSamples must be the attachments' count; the ROP would
 * address a 1x image as 4x). samples_log2 UINT32_MAX: any count (targets
 * written for secondaries, before any pipeline is known). */
static bool attachment_target(const struct vkppu_gfx_cmd_state *s, uint32_t a,
                              uint32_t samples_log2, uint32_t w[8])
{
   const struct vkppu_image_view *v = attachment_view(s, a);
   if (!v || (samples_log2 != UINT32_MAX && v->image->samples != 1u << samples_log2))
      return false;
   vkppu_gfx_target_words(v->image, v->format, v->range.baseMipLevel, v->range.baseArrayLayer, w);
   return true;
}

/* The target groups of the current subpass; returns the mask of enabled
 * color targets. */
static uint32_t emit_target_groups(struct drv_pushbuf *pb, const struct vkppu_gfx_cmd_state *s,
                                   uint32_t samples_log2)
{
   const struct vkppu_subpass *sp = &s->pass->subpasses[s->subpass];
   uint32_t t[9 * 8] = {0}; /* COLOR_TARGET(0..7), DEPTH_TARGET: contiguous */
   uint32_t enabled = 0;
   for (uint32_t i = 0; i < sp->color_count && i < PPU_GFX_COLOR_TARGETS; i++) {
      if (attachment_target(s, sp->colors[i].attachment, samples_log2, &t[8 * i]))
         enabled |= 1u << i;
   }
   if (sp->has_depth_stencil)
      attachment_target(s, sp->depth_stencil.attachment, samples_log2, &t[64]);
   vkppu_gfx_emit(pb, PPU_GFX_COLOR_TARGET_BASE, 72, t);
   return enabled;
}

/* The color targets an inheriting secondary's primary has set: those with a
 * format (an attachment without a view has none). */
static uint32_t inherited_targets(const struct vkppu_gfx_cmd_state *s)
{
   const struct vkppu_subpass *sp = &s->pass->subpasses[s->subpass];
   uint32_t enabled = 0;
   for (uint32_t i = 0; i < sp->color_count && i < PPU_GFX_COLOR_TARGETS; i++)
      if (sp->colors[i].attachment != VK_ATTACHMENT_UNUSED)
         enabled |= 1u << i;
   return enabled;
}

/* SAMPLES_LOG2, SAMPLE_MASK, RENDER_AREA and LAYER_COUNT: the layers a
 * primitive's gl_Layer may pick, the framebuffer's; in a multiview subpass,
 * whose draws run once per view with LAYER_OFFSET = the view, up to its
 * highest view. */
static void emit_render_area(struct drv_pushbuf *pb, const struct vkppu_gfx_cmd_state *s,
                             uint32_t samples_log2, uint32_t sample_mask)
{
   const VkRect2D *ra = &s->render_area;
   uint32_t x0 = clamp_coord(ra->offset.x), y0 = clamp_coord(ra->offset.y);
   uint32_t x1 = clamp_coord((int64_t)ra->offset.x + ra->extent.width);
   uint32_t y1 = clamp_coord((int64_t)ra->offset.y + ra->extent.height);
   uint32_t view_mask = s->pass ? s->pass->subpasses[s->subpass].view_mask : 0;
   uint32_t layers = view_mask        ? 32u - (uint32_t)__builtin_clz(view_mask)
                     : s->framebuffer ? s->framebuffer->layers
                                      : 1u;
   const uint32_t area[5] = {samples_log2, sample_mask, x0 | y0 << 16, x1 | y1 << 16, layers};
   vkppu_gfx_emit(pb, PPU_GFX_SAMPLES_LOG2, 5, area);
}

void vkppu_cmd_emit_targets(struct vkppu_command_buffer *cmd)
{
   if (!cmd->gfx.pass || !cmd->gfx.framebuffer)
      return;
   emit_target_groups(&cmd->pb, &cmd->gfx, UINT32_MAX);
   emit_render_area(&cmd->pb, &cmd->gfx, 0, 0xfu);
}

_Static_assert(VKPPU_MAX_VIEWPORTS == PPU_GFX_VIEWPORTS, "one VIEWPORT group per viewport");

/* How many viewports (or scissors) a draw sets: the pipeline's count, or
 * with VIEWPORT/SCISSOR_WITH_COUNT (count_bit) the command buffer's, kept
 * within the hardware's groups whatever an invalid command buffer says. */
static uint32_t state_count(const struct vkppu_gfx_pipeline *g, uint32_t count_bit,
                            uint32_t dynamic_count, uint32_t fixed_count)
{
   uint32_t n = (g->dynamic & count_bit) ? dynamic_count : fixed_count;
   return n < 1 ? 1 : n > VKPPU_MAX_VIEWPORTS ? VKPPU_MAX_VIEWPORTS : n;
}

/* VIEWPORT(0..n-1) and SCISSOR(0..n-1); a primitive's provoking vertex
 * picks one of them (its viewport index). */
static void emit_viewports(struct drv_pushbuf *pb, const struct vkppu_gfx_cmd_state *s,
                           const struct vkppu_gfx_pipeline *g)
{
   const struct vkppu_gfx_dynamic *dyn = &s->dynamic, *fixed = &g->values;
   const VkViewport *vps = (g->dynamic & VKPPU_DYN_VIEWPORT) ? dyn->viewport : fixed->viewport;
   uint32_t n =
       state_count(g, VKPPU_DYN_VIEWPORT_COUNT, dyn->viewport_count, fixed->viewport_count);
   uint32_t viewport[8 * VKPPU_MAX_VIEWPORTS];
   for (uint32_t i = 0; i < n; i++) {
      const VkViewport *vp = &vps[i];
      float dmin = vp->minDepth < vp->maxDepth ? vp->minDepth : vp->maxDepth;
      float dmax = vp->minDepth < vp->maxDepth ? vp->maxDepth : vp->minDepth;
      uint32_t *w = &viewport[8 * i];
      w[0] = f2u(vp->width / 2);
      w[1] = f2u(vp->height / 2);
      w[2] = f2u(vp->maxDepth - vp->minDepth);
      w[3] = f2u(vp->x + vp->width / 2);
      w[4] = f2u(vp->y + vp->height / 2);
      w[5] = f2u(vp->minDepth);
      w[6] = f2u(dmin);
      w[7] = f2u(dmax);
   }
   vkppu_gfx_emit(pb, PPU_GFX_VIEWPORT(0), 8 * n, viewport);

   const VkRect2D *scs = (g->dynamic & VKPPU_DYN_SCISSOR) ? dyn->scissor : fixed->scissor;
   n = state_count(g, VKPPU_DYN_SCISSOR_COUNT, dyn->scissor_count, fixed->scissor_count);
   uint32_t scissor[2 * VKPPU_MAX_VIEWPORTS];
   for (uint32_t i = 0; i < n; i++) {
      const VkRect2D *sc = &scs[i];
      uint32_t sx0 = clamp_coord(sc->offset.x), sy0 = clamp_coord(sc->offset.y);
      uint32_t sx1 = clamp_coord((int64_t)sc->offset.x + sc->extent.width);
      uint32_t sy1 = clamp_coord((int64_t)sc->offset.y + sc->extent.height);
      scissor[2 * i] = sx0 | sy0 << 16;
      scissor[2 * i + 1] = sx1 | sy1 << 16;
   }
   vkppu_gfx_emit(pb, PPU_GFX_SCISSOR(0), 2 * n, scissor);
}

/* Targets, render area, the view's LAYER_OFFSET, viewports and scissors;
 * returns the mask of enabled color targets. A secondary that inherits its
 * targets keeps the ones, and the render area, the primary set: it writes
 * only the sample mask and the view. */
static uint32_t emit_targets(struct drv_pushbuf *pb, const struct vkppu_gfx_cmd_state *s,
                             const struct vkppu_gfx_pipeline *g, uint32_t view)
{
   uint32_t enabled;
   vkppu_gfx_emit(pb, PPU_GFX_LAYER_OFFSET, 1, &view);
   if (s->targets_inherited) {
      enabled = inherited_targets(s);
      const uint32_t samples[2] = {g->samples_log2, g->sample_mask}; /* SAMPLES_LOG2, SAMPLE_MASK */
      vkppu_gfx_emit(pb, PPU_GFX_SAMPLES_LOG2, 2, samples);
   } else {
      enabled = emit_target_groups(pb, s, g->samples_log2);
      emit_render_area(pb, s, g->samples_log2, g->sample_mask);
   }

   emit_viewports(pb, s, g);
   return enabled;
}

/* A state's value for this draw: the command buffer's where the pipeline
 * declared it dynamic, else the pipeline's. */
#define PICK(bit, field) ((g->dynamic & (bit)) ? d->field : p->field)

static void emit_fixed_function(struct drv_pushbuf *pb, const struct vkppu_gfx_cmd_state *s,
                                const struct vkppu_gfx_pipeline *g)
{
   const struct vkppu_gfx_dynamic *d = &s->dynamic, *p = &g->values;
   const float *bias = (g->dynamic & VKPPU_DYN_DEPTH_BIAS) ? d->depth_bias : p->depth_bias;
   const float line = PICK(VKPPU_DYN_LINE_WIDTH, line_width);
   const uint32_t raster[17] = {
       PICK(VKPPU_DYN_TOPOLOGY, topology),
       PICK(VKPPU_DYN_PRIMITIVE_RESTART_ENABLE, primitive_restart),
       0, /* provoking vertex: first, as Vulkan's default */
       PICK(VKPPU_DYN_CULL_MODE, cull),
       PICK(VKPPU_DYN_FRONT_FACE, front_face),
       g->polygon_mode,
       g->depth_clamp,
       PICK(VKPPU_DYN_DEPTH_BIAS_ENABLE, depth_bias_enable),
       f2u(bias[0]),
       f2u(bias[2]),
       f2u(bias[1]),
       /* LINE_WIDTH takes a positive float: lineWidthRange keeps valid
        * widths inside [1, 16]; others are invalid usage. */
       f2u(line >= 1.0f && line <= 16.0f ? line : 1.0f),
       PICK(VKPPU_DYN_RASTERIZER_DISCARD_ENABLE, rasterizer_discard),
       g->pixel_order,
       g->sample_shading,
       g->clip_distance_mask,
       g->cull_distance_mask,
   };
   vkppu_gfx_emit(pb, PPU_GFX_TOPOLOGY, 17, raster);

   const uint32_t *cmp = (g->dynamic & VKPPU_DYN_STENCIL_COMPARE_MASK) ? d->stencil_compare_mask
                                                                       : p->stencil_compare_mask;
   const uint32_t *wr =
       (g->dynamic & VKPPU_DYN_STENCIL_WRITE_MASK) ? d->stencil_write_mask : p->stencil_write_mask;
   const uint32_t *ref =
       (g->dynamic & VKPPU_DYN_STENCIL_REFERENCE) ? d->stencil_reference : p->stencil_reference;
   const uint32_t *ops = (g->dynamic & VKPPU_DYN_STENCIL_OP) ? d->stencil_ops : p->stencil_ops;
   /* Tests need their aspect in the subpass's attachment; Vulkan writes
    * depth only where the depth test is on. */
   const bool depth_test = g->has_depth && PICK(VKPPU_DYN_DEPTH_TEST_ENABLE, depth_test_enable);
   const bool depth_write = PICK(VKPPU_DYN_DEPTH_WRITE_ENABLE, depth_write_enable);
   const bool bounds_test =
       g->has_depth && PICK(VKPPU_DYN_DEPTH_BOUNDS_TEST_ENABLE, depth_bounds_test_enable);
   const bool stencil_test =
       g->has_stencil && PICK(VKPPU_DYN_STENCIL_TEST_ENABLE, stencil_test_enable);
   static const float no_bounds[2] = {0.0f, 1.0f};
   const float *bounds = !bounds_test                            ? no_bounds
                         : (g->dynamic & VKPPU_DYN_DEPTH_BOUNDS) ? d->depth_bounds
                                                                 : p->depth_bounds;
   const uint32_t zs[10] = {
       depth_test ? 1u | (depth_write ? 2u : 0u) : 0u,
       depth_test ? PICK(VKPPU_DYN_DEPTH_COMPARE_OP, depth_compare) : 0u,
       bounds_test,
       f2u(bounds[0]),
       f2u(bounds[1]),
       stencil_test,
       stencil_test ? ops[0] : 0u,
       PPU_GFX_STENCIL_MASKS(cmp[0] & 0xffu, wr[0] & 0xffu, ref[0] & 0xffu),
       stencil_test ? ops[1] : 0u,
       PPU_GFX_STENCIL_MASKS(cmp[1] & 0xffu, wr[1] & 0xffu, ref[1] & 0xffu),
   };
   vkppu_gfx_emit(pb, PPU_GFX_DEPTH_TEST, 10, zs);

   vkppu_gfx_emit(pb, PPU_GFX_BLEND_BASE, 2 * PPU_GFX_COLOR_TARGETS, &g->blend[0][0]);
   const float *bc =
       (g->dynamic & VKPPU_DYN_BLEND_CONSTANTS) ? d->blend_constants : p->blend_constants;
   const uint32_t logic_op =
       g->logic_op_enable ? g->logic_op_enable | PICK(VKPPU_DYN_LOGIC_OP, logic_op) : 0u;
   const uint32_t blend_shared[6] = {f2u(bc[0]), f2u(bc[1]), f2u(bc[2]),
                                     f2u(bc[3]), logic_op,   g->alpha_to_coverage};
   vkppu_gfx_emit(pb, PPU_GFX_BLEND_CONSTANT_R, 6, blend_shared);
}

#undef PICK

/* Everything but the draw method itself for one view (multiview: the
 * view index, which is also the layer drawn; else 0); false when nothing
 * can be drawn (no pipeline, no render pass, out of memory). */
static bool prepare_draw(struct vkppu_command_buffer *cmd, uint32_t view)
{
   struct vkppu_gfx_cmd_state *s = &cmd->gfx;
   if (!s->pipeline || !s->pipeline->gfx || !s->pass || (!s->framebuffer && !s->targets_inherited))
      return false; /* VUID-vkCmdDraw-None-08606, renderpass */
   const struct vkppu_gfx_pipeline *g = s->pipeline->gfx;
   if (!s->scratch_va) {
      void *unused;
      if (!vkppu_cmd_upload_alloc(cmd, VKPPU_GFX_SCRATCH_BYTES, 256, &s->scratch_va, &unused))
         return false;
   }
   /* Descriptors and constant bank 0 of this draw. */
   uint64_t va;
   void *map;
   const uint32_t bytes = 2 * PPU_GFX_PROGRAM_SIZE + DRV_ABI_GFX_CBANK0_SIZE;
   if (!vkppu_cmd_upload_alloc(cmd, bytes, PPU_GFX_PROGRAM_SIZE, &va, &map))
      return false;
   uint8_t *cbank = (uint8_t *)map + 2 * PPU_GFX_PROGRAM_SIZE;
   const uint64_t cbank_va = va + 2 * PPU_GFX_PROGRAM_SIZE;
   const struct vkppu_bind_state *b = &cmd->graphics;
   memset(cbank, 0, DRV_ABI_GFX_CBANK0_SIZE);
   memcpy(cbank + DRV_ABI_CBANK_PUSH_CONSTANTS, b->push_constants, DRV_ABI_PUSH_CONSTANTS_SIZE);
   memcpy(cbank + DRV_ABI_CBANK_SET_ADDRESSES, b->set_va, sizeof(b->set_va));
   memcpy(cbank + DRV_ABI_CBANK_DYNAMIC_OFFSETS, b->dynamic_offsets, sizeof(b->dynamic_offsets));
   memcpy(cbank + DRV_ABI_CBANK_VIEW_INDEX, &view, sizeof(view));
   for (uint32_t i = 0; i < DRV_ABI_MAX_VERTEX_BUFFERS; i++) {
      uint64_t size = s->vertex_buffers[i].size;
      struct drv_vertex_buffer_record rec = {
          .address = s->vertex_buffers[i].va,
          .size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size,
          .stride = (g->dynamic & VKPPU_DYN_VERTEX_STRIDE) ? s->dynamic.vertex_stride[i]
                                                           : g->vertex_stride[i],
      };
      memcpy(cbank + DRV_ABI_CBANK_VERTEX_BUFFERS + i * DRV_ABI_VERTEX_BUFFER_RECORD, &rec,
             sizeof(rec));
   }

   struct drv_pushbuf *pb = &cmd->pb;
   const uint32_t scratch[3] = {drv_lo32(s->scratch_va), drv_hi32(s->scratch_va), g->scratch_size};
   vkppu_gfx_emit(pb, PPU_GFX_SCRATCH_ADDR_LO, 3, scratch);
   uint32_t enabled = emit_targets(pb, s, g, view);
   emit_fixed_function(pb, s, g);

   struct ppu_gfx_program vd = g->vertex, fd = g->fragment;
   if (g->dynamic & VKPPU_DYN_VERTEX_INPUT) {
      /* The programs compiled for this vertex input state. */
      const struct vkppu_gfx_programs *v =
          vkppu_gfx_variant(cmd->base.device, (struct vkppu_pipeline *)s->pipeline, &s->dynamic);
      if (!v)
         return false;
      vd = v->vertex;
      fd = v->fragment;
   }
   vd.cbank[0].va = cbank_va;
   vd.cbank[0].size = DRV_ABI_GFX_CBANK0_SIZE;
   memcpy(map, &vd, sizeof(vd));
   uint64_t fs_va = 0;
   if (fd.program_va) {
      fd.cbank[0].va = cbank_va;
      fd.cbank[0].size = DRV_ABI_GFX_CBANK0_SIZE;
      /* Outputs without a target (VK_ATTACHMENT_UNUSED, or beyond the
       * subpass's attachments) are discarded, as Vulkan says. */
      fd.output_mask &= enabled;
      memcpy((uint8_t *)map + PPU_GFX_PROGRAM_SIZE, &fd, sizeof(fd));
      fs_va = va + PPU_GFX_PROGRAM_SIZE;
   }
   const uint32_t programs[4] = {drv_lo32(va), drv_hi32(va), drv_lo32(fs_va), drv_hi32(fs_va)};
   vkppu_gfx_emit(pb, PPU_GFX_VERTEX_PROGRAM_LO, 4, programs);
   return true;
}

static void emit_index_buffer(struct vkppu_command_buffer *cmd)
{
   const struct vkppu_gfx_cmd_state *s = &cmd->gfx;
   uint64_t limit = s->index_bytes ? s->index_size / s->index_bytes : 0;
   const uint32_t w[4] = {drv_lo32(s->index_va), drv_hi32(s->index_va),
                          s->index_bytes ? s->index_bytes : 4u,
                          limit > UINT32_MAX ? UINT32_MAX : (uint32_t)limit};
   vkppu_gfx_emit(&cmd->pb, PPU_GFX_INDEX_ADDR_LO, 4, w);
}

/* The views a draw renders: the subpass's multiview view mask, or view 0
 * alone. Multiview runs the whole draw once per view, with gl_ViewIndex
 * and the target layer set to the view (Vulkan "Multiview"). */
static uint32_t draw_views(const struct vkppu_command_buffer *cmd)
{
   const struct vkppu_gfx_cmd_state *s = &cmd->gfx;
   uint32_t mask = s->pass ? s->pass->subpasses[s->subpass].view_mask : 0;
   return mask ? mask : 1u;
}

static void draw(struct vkppu_command_buffer *cmd, uint32_t first, uint32_t count,
                 uint32_t first_instance, uint32_t instances, int32_t vertex_offset, bool indexed)
{
   if (count == 0 || instances == 0)
      return;
   for (uint32_t views = draw_views(cmd); views; views &= views - 1) {
      if (!prepare_draw(cmd, (uint32_t)__builtin_ctz(views)))
         return;
      if (indexed)
         emit_index_buffer(cmd);
      const uint32_t w[6] = {first,
                             count,
                             first_instance,
                             instances,
                             (uint32_t)vertex_offset,
                             indexed ? PPU_GFX_DRAW_FLAG_INDEXED : 0u};
      vkppu_gfx_emit(&cmd->pb, PPU_GFX_DRAW_FIRST, 6, w);
   }
}

/* count_va 0: draw_count draws; else the count is read from count_va when
 * the draw executes and draw_count is its upper bound. */
static void draw_indirect(struct vkppu_command_buffer *cmd, uint64_t args, uint32_t draw_count,
                          uint32_t stride, bool indexed, uint64_t count_va)
{
   if (draw_count == 0)
      return;
   uint32_t record = indexed ? sizeof(struct ppu_gfx_draw_indexed_indirect)
                             : sizeof(struct ppu_gfx_draw_indirect);
   /* With one draw the stride is unused (Vulkan allows any). */
   if (draw_count <= 1 && count_va == 0)
      stride = record;
   const uint32_t w[7] = {drv_lo32(args),
                          drv_hi32(args),
                          stride,
                          draw_count,
                          drv_lo32(count_va),
                          drv_hi32(count_va),
                          (indexed ? PPU_GFX_DRAW_FLAG_INDEXED : 0u) |
                              (count_va ? PPU_GFX_DRAW_FLAG_COUNT_FROM_MEMORY : 0u)};
   for (uint32_t views = draw_views(cmd); views; views &= views - 1) {
      if (!prepare_draw(cmd, (uint32_t)__builtin_ctz(views)))
         return;
      if (indexed)
         emit_index_buffer(cmd);
      vkppu_gfx_emit(&cmd->pb, PPU_GFX_INDIRECT_ADDR_LO, 7, w);
   }
}

/* sizes NULL: each buffer to its end; strides NULL: keep the strides
 * (vkCmdBindVertexBuffers2 with VERTEX_INPUT_BINDING_STRIDE dynamic). */
static void bind_vertex_buffers(struct vkppu_command_buffer *cmd, uint32_t first, uint32_t count,
                                const VkBuffer *buffers, const VkDeviceSize *offsets,
                                const VkDeviceSize *sizes, const VkDeviceSize *strides)
{
   for (uint32_t i = 0; i < count; i++) {
      uint32_t b = first + i;
      if (b >= DRV_ABI_MAX_VERTEX_BUFFERS)
         break; /* VUID-vkCmdBindVertexBuffers-firstBinding-00624 */
      if (strides)
         cmd->gfx.dynamic.vertex_stride[b] = strides[i] > UINT32_MAX ? 0u : (uint32_t)strides[i];
      const struct vkppu_buffer *buf = vkppu_buffer_from_handle(buffers[i]);
      if (!buf || offsets[i] > buf->size) {
         cmd->gfx.vertex_buffers[b].va = 0; /* nullDescriptor style: unbound */
         cmd->gfx.vertex_buffers[b].size = 0;
         continue;
      }
      uint64_t size = buf->size - offsets[i];
      if (sizes && sizes[i] != VK_WHOLE_SIZE && sizes[i] < size)
         size = sizes[i];
      cmd->gfx.vertex_buffers[b].va = buf->va + offsets[i];
      cmd->gfx.vertex_buffers[b].size = size;
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBindVertexBuffers(VkCommandBuffer commandBuffer,
                                                      uint32_t firstBinding, uint32_t bindingCount,
                                                      const VkBuffer *pBuffers,
                                                      const VkDeviceSize *pOffsets)
{
   bind_vertex_buffers(vkppu_command_buffer_from_handle(commandBuffer), firstBinding, bindingCount,
                       pBuffers, pOffsets, NULL, NULL);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBindVertexBuffers2(VkCommandBuffer commandBuffer,
                                                       uint32_t firstBinding, uint32_t bindingCount,
                                                       const VkBuffer *pBuffers,
                                                       const VkDeviceSize *pOffsets,
                                                       const VkDeviceSize *pSizes,
                                                       const VkDeviceSize *pStrides)
{
   bind_vertex_buffers(vkppu_command_buffer_from_handle(commandBuffer), firstBinding, bindingCount,
                       pBuffers, pOffsets, pSizes, pStrides);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBindIndexBuffer(VkCommandBuffer commandBuffer, VkBuffer buffer,
                                                    VkDeviceSize offset, VkIndexType indexType)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   VKPPU_FROM_HANDLE(vkppu_buffer, buf, buffer);
   struct vkppu_gfx_cmd_state *s = &cmd->gfx;
   s->index_bytes = indexType == VK_INDEX_TYPE_UINT16      ? 2u
                    : indexType == VK_INDEX_TYPE_UINT8_EXT ? 1u
                                                           : 4u;
   if (!buf || offset > buf->size) {
      s->index_va = 0;
      s->index_size = 0;
      return;
   }
   s->index_va = buf->va + offset;
   s->index_size = buf->size - offset;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDraw(VkCommandBuffer commandBuffer, uint32_t vertexCount,
                                         uint32_t instanceCount, uint32_t firstVertex,
                                         uint32_t firstInstance)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   draw(cmd, firstVertex, vertexCount, firstInstance, instanceCount, 0, false);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDrawIndexed(VkCommandBuffer commandBuffer, uint32_t indexCount,
                                                uint32_t instanceCount, uint32_t firstIndex,
                                                int32_t vertexOffset, uint32_t firstInstance)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   draw(cmd, firstIndex, indexCount, firstInstance, instanceCount, vertexOffset, true);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDrawIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer,
                                                 VkDeviceSize offset, uint32_t drawCount,
                                                 uint32_t stride)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   draw_indirect(cmd, vkppu_buffer_address(buffer, offset), drawCount, stride, false, 0);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDrawIndexedIndirect(VkCommandBuffer commandBuffer,
                                                        VkBuffer buffer, VkDeviceSize offset,
                                                        uint32_t drawCount, uint32_t stride)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   draw_indirect(cmd, vkppu_buffer_address(buffer, offset), drawCount, stride, true, 0);
}

/* VK_KHR_draw_indirect_count: the front end reads the count from memory
 * when the draw executes (DRAW_FLAG_COUNT_FROM_MEMORY) and draws
 * min(count, maxDrawCount) records. */
static void draw_indirect_count(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                VkBuffer countBuffer, VkDeviceSize countBufferOffset,
                                uint32_t maxDrawCount, uint32_t stride, bool indexed)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   uint64_t count_va = vkppu_buffer_address(countBuffer, countBufferOffset);
   if (count_va)
      draw_indirect(cmd, vkppu_buffer_address(buffer, offset), maxDrawCount, stride, indexed,
                    count_va);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDrawIndirectCount(VkCommandBuffer commandBuffer,
                                                      VkBuffer buffer, VkDeviceSize offset,
                                                      VkBuffer countBuffer,
                                                      VkDeviceSize countBufferOffset,
                                                      uint32_t maxDrawCount, uint32_t stride)
{
   draw_indirect_count(commandBuffer, buffer, offset, countBuffer, countBufferOffset, maxDrawCount,
                       stride, false);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDrawIndexedIndirectCount(VkCommandBuffer commandBuffer,
                                                             VkBuffer buffer, VkDeviceSize offset,
                                                             VkBuffer countBuffer,
                                                             VkDeviceSize countBufferOffset,
                                                             uint32_t maxDrawCount, uint32_t stride)
{
   draw_indirect_count(commandBuffer, buffer, offset, countBuffer, countBufferOffset, maxDrawCount,
                       stride, true);
}

/* VK_EXT_multi_draw: the draws become records of a DRAW_INDIRECT in the
 * command buffer's upload memory, so the graphics engine numbers them for
 * DrawIndex as it numbers indirect draws. */
static void *multi_draw_records(struct vkppu_command_buffer *cmd, uint32_t count, uint32_t record,
                                uint64_t *va)
{
   void *map = NULL;
   if (count > VKPPU_MAX_MULTI_DRAW_COUNT) {
      /* VUID-vkCmdDrawMultiEXT-drawCount-04935: say so, draw nothing. */
      vkppu_report(cmd->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCmdDrawMulti*EXT: drawCount %u exceeds maxMultiDrawCount %u; nothing is "
                   "drawn",
                   count, VKPPU_MAX_MULTI_DRAW_COUNT);
      return NULL;
   }
   if (!vkppu_cmd_upload_alloc(cmd, count * record, 16, va, &map))
      return NULL;
   return map;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDrawMultiEXT(VkCommandBuffer commandBuffer, uint32_t drawCount,
                                                 const VkMultiDrawInfoEXT *pVertexInfo,
                                                 uint32_t instanceCount, uint32_t firstInstance,
                                                 uint32_t stride)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   uint64_t va;
   struct ppu_gfx_draw_indirect *rec =
       drawCount ? multi_draw_records(cmd, drawCount, sizeof(*rec), &va) : NULL;
   if (!rec)
      return;
   for (uint32_t i = 0; i < drawCount; i++) {
      const VkMultiDrawInfoEXT *d =
          (const VkMultiDrawInfoEXT *)(const void *)((const uint8_t *)pVertexInfo +
                                                     (size_t)i * stride);
      rec[i] = (struct ppu_gfx_draw_indirect){d->vertexCount, instanceCount, d->firstVertex,
                                              firstInstance};
   }
   draw_indirect(cmd, va, drawCount, sizeof(*rec), false, 0);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdDrawMultiIndexedEXT(
    VkCommandBuffer commandBuffer, uint32_t drawCount, const VkMultiDrawIndexedInfoEXT *pIndexInfo,
    uint32_t instanceCount, uint32_t firstInstance, uint32_t stride, const int32_t *pVertexOffset)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   uint64_t va;
   struct ppu_gfx_draw_indexed_indirect *rec =
       drawCount ? multi_draw_records(cmd, drawCount, sizeof(*rec), &va) : NULL;
   if (!rec)
      return;
   for (uint32_t i = 0; i < drawCount; i++) {
      const VkMultiDrawIndexedInfoEXT *d =
          (const VkMultiDrawIndexedInfoEXT *)(const void *)((const uint8_t *)pIndexInfo +
                                                            (size_t)i * stride);
      rec[i] = (struct ppu_gfx_draw_indexed_indirect){
          d->indexCount, instanceCount, d->firstIndex,
          pVertexOffset ? *pVertexOffset : d->vertexOffset, firstInstance};
   }
   draw_indirect(cmd, va, drawCount, sizeof(*rec), true, 0);
}
