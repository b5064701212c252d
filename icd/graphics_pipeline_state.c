/* The fixed-function state of vkCreateGraphicsPipelines translated into the
 * graphics engine's encodings (docs/graphics-hw.md "API mapping"), once, at
 * creation; draws copy the words, or take the command buffer's values for
 * the states the pipeline leaves dynamic (cmd_draw.c).
 *
 * What the device does not support (adjacency and patch topologies,
 * FILL_RECTANGLE, rasterization samples other than 1 and 4) is
 * refused with a message; the matching features are not reported, so only
 * an invalid application gets there. */
#include <string.h>

#include "vkppu_graphics.h"
#include "vkppu_image.h"

static bool has_dynamic(const VkPipelineDynamicStateCreateInfo *ds, VkDynamicState s)
{
   for (uint32_t i = 0; ds && i < ds->dynamicStateCount; i++)
      if (ds->pDynamicStates[i] == s)
         return true;
   return false;
}

static uint32_t dynamic_mask(const VkPipelineDynamicStateCreateInfo *ds)
{
   static const struct {
      VkDynamicState state;
      uint32_t bit;
   } map[] = {
       {VK_DYNAMIC_STATE_VIEWPORT, VKPPU_DYN_VIEWPORT},
       {VK_DYNAMIC_STATE_SCISSOR, VKPPU_DYN_SCISSOR},
       {VK_DYNAMIC_STATE_LINE_WIDTH, VKPPU_DYN_LINE_WIDTH},
       {VK_DYNAMIC_STATE_DEPTH_BIAS, VKPPU_DYN_DEPTH_BIAS},
       {VK_DYNAMIC_STATE_BLEND_CONSTANTS, VKPPU_DYN_BLEND_CONSTANTS},
       {VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VKPPU_DYN_STENCIL_COMPARE_MASK},
       {VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, VKPPU_DYN_STENCIL_WRITE_MASK},
       {VK_DYNAMIC_STATE_STENCIL_REFERENCE, VKPPU_DYN_STENCIL_REFERENCE},
       {VK_DYNAMIC_STATE_DEPTH_BOUNDS, VKPPU_DYN_DEPTH_BOUNDS},
       {VK_DYNAMIC_STATE_CULL_MODE, VKPPU_DYN_CULL_MODE},
       {VK_DYNAMIC_STATE_FRONT_FACE, VKPPU_DYN_FRONT_FACE},
       {VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY, VKPPU_DYN_TOPOLOGY},
       {VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT, VKPPU_DYN_VIEWPORT | VKPPU_DYN_VIEWPORT_COUNT},
       {VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT, VKPPU_DYN_SCISSOR | VKPPU_DYN_SCISSOR_COUNT},
       {VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, VKPPU_DYN_VERTEX_STRIDE},
       {VK_DYNAMIC_STATE_VERTEX_INPUT_EXT, VKPPU_DYN_VERTEX_INPUT | VKPPU_DYN_VERTEX_STRIDE},
       {VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, VKPPU_DYN_DEPTH_TEST_ENABLE},
       {VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE, VKPPU_DYN_DEPTH_WRITE_ENABLE},
       {VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, VKPPU_DYN_DEPTH_COMPARE_OP},
       {VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE, VKPPU_DYN_DEPTH_BOUNDS_TEST_ENABLE},
       {VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE, VKPPU_DYN_STENCIL_TEST_ENABLE},
       {VK_DYNAMIC_STATE_STENCIL_OP, VKPPU_DYN_STENCIL_OP},
       {VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE, VKPPU_DYN_RASTERIZER_DISCARD_ENABLE},
       {VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE, VKPPU_DYN_DEPTH_BIAS_ENABLE},
       {VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE, VKPPU_DYN_PRIMITIVE_RESTART_ENABLE},
       {VK_DYNAMIC_STATE_LOGIC_OP_EXT, VKPPU_DYN_LOGIC_OP},
   };
   uint32_t mask = 0;
   for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
      if (has_dynamic(ds, map[i].state))
         mask |= map[i].bit;
   return mask;
}

static uint32_t stencil_ops(const VkStencilOpState *s)
{
   return vkppu_gfx_stencil_ops_word(s->failOp, s->passOp, s->depthFailOp, s->compareOp);
}

const char *vkppu_gfx_pipeline_state(struct vkppu_gfx_pipeline *g,
                                     const VkGraphicsPipelineCreateInfo *ci,
                                     const struct vkppu_subpass *sp,
                                     const struct vkppu_render_pass *pass)
{
   g->dynamic = dynamic_mask(ci->pDynamicState);
   struct vkppu_gfx_dynamic *v = &g->values;
   const VkPipelineRasterizationStateCreateInfo *rs = ci->pRasterizationState;
   if (!rs)
      return "pRasterizationState is required";
   v->rasterizer_discard = rs->rasterizerDiscardEnable ? 1u : 0u;
   /* With a dynamic enable, the states rasterization needs are required
    * as if it were off (spec: VkGraphicsPipelineCreateInfo). */
   const bool discard =
       v->rasterizer_discard && !(g->dynamic & VKPPU_DYN_RASTERIZER_DISCARD_ENABLE);

   const VkPipelineInputAssemblyStateCreateInfo *ia = ci->pInputAssemblyState;
   if (!ia)
      return "pInputAssemblyState is required";
   /* The first six topologies have the same numbers in the hardware. */
   if ((uint32_t)ia->topology > VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN)
      return "adjacency and patch topologies are not supported";
   v->topology = (uint32_t)ia->topology;
   v->primitive_restart = ia->primitiveRestartEnable ? 1u : 0u;

   /* FILL, LINE and POINT have the hardware's numbers (0, 1, 2). */
   if ((uint32_t)rs->polygonMode > VK_POLYGON_MODE_POINT)
      return "only the polygon modes FILL, LINE and POINT are supported";
   g->polygon_mode = (uint32_t)rs->polygonMode;
   v->cull = vkppu_gfx_cull_word(rs->cullMode);
   v->front_face = vkppu_gfx_front_face_word(rs->frontFace);
   /* Near/far clipping follows depthClampEnable unless
    * VK_EXT_depth_clip_enable sets it apart. */
   g->depth_clamp = rs->depthClampEnable ? PPU_GFX_DEPTH_CLAMP_CLAMP : 0u;
   const VkPipelineRasterizationDepthClipStateCreateInfoEXT *clip = vkppu_find_in_chain(
       rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT);
   if (clip && rs->depthClampEnable && clip->depthClipEnable)
      g->depth_clamp |= PPU_GFX_DEPTH_CLAMP_CLIP;
   if (clip && !rs->depthClampEnable && !clip->depthClipEnable)
      g->depth_clamp |= PPU_GFX_DEPTH_CLAMP_NO_CLIP;
   v->depth_bias_enable = rs->depthBiasEnable ? 1u : 0u;
   g->values.depth_bias[0] = rs->depthBiasConstantFactor;
   g->values.depth_bias[1] = rs->depthBiasClamp;
   g->values.depth_bias[2] = rs->depthBiasSlopeFactor;
   g->values.line_width = rs->lineWidth;
   /* VK_AMD_rasterization_order: RELAXED lets the engine drop the ordering
    * of fragments within a draw where the result cannot change. */
   for (const VkBaseInStructure *n = rs->pNext; n; n = n->pNext) {
      if (n->sType == VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_RASTERIZATION_ORDER_AMD) {
         const VkPipelineRasterizationStateRasterizationOrderAMD *o = (const void *)n;
         g->pixel_order = o->rasterizationOrder == VK_RASTERIZATION_ORDER_RELAXED_AMD
                              ? PPU_GFX_PIXEL_ORDER_RELAXED
                              : PPU_GFX_PIXEL_ORDER_ORDERED;
      }
   }

   if (!discard) {
      const VkPipelineViewportStateCreateInfo *vs = ci->pViewportState;
      /* With VIEWPORT_WITH_COUNT / SCISSOR_WITH_COUNT the counts are 0 and
       * the command buffer sets them with the viewports and scissors. */
      if (!vs)
         return "pViewportState is required";
      bool vp_count = g->dynamic & VKPPU_DYN_VIEWPORT_COUNT;
      bool sc_count = g->dynamic & VKPPU_DYN_SCISSOR_COUNT;
      if ((!vp_count && (vs->viewportCount < 1 || vs->viewportCount > VKPPU_MAX_VIEWPORTS)) ||
          (!sc_count && (vs->scissorCount < 1 || vs->scissorCount > VKPPU_MAX_VIEWPORTS)))
         return "1 to 16 viewports and scissors (maxViewports)";
      g->values.viewport_count = vp_count ? 0 : vs->viewportCount;
      g->values.scissor_count = sc_count ? 0 : vs->scissorCount;
      if (!(g->dynamic & VKPPU_DYN_VIEWPORT)) {
         if (!vs->pViewports)
            return "pViewports is required when the viewport is not dynamic";
         memcpy(g->values.viewport, vs->pViewports, vs->viewportCount * sizeof(VkViewport));
      }
      if (!(g->dynamic & VKPPU_DYN_SCISSOR)) {
         if (!vs->pScissors)
            return "pScissors is required when the scissor is not dynamic";
         memcpy(g->values.scissor, vs->pScissors, vs->scissorCount * sizeof(VkRect2D));
      }
      const VkPipelineMultisampleStateCreateInfo *ms = ci->pMultisampleState;
      if (!ms)
         return "pMultisampleState is required";
      if (ms->rasterizationSamples != VK_SAMPLE_COUNT_1_BIT &&
          ms->rasterizationSamples != VK_SAMPLE_COUNT_4_BIT)
         return "rasterizationSamples must be 1 or 4 (the ROP's sample counts)";
      g->samples_log2 = ms->rasterizationSamples == VK_SAMPLE_COUNT_4_BIT ? 2u : 0u;
      /* Vulkan "Sample Shading": at least ceil(minSampleShading * samples)
       * invocations per pixel; more than one at 4x means once per sample
       * (the engine's only other rate). The compiler may still imply it. */
      g->sample_shading =
          ms->sampleShadingEnable && g->samples_log2 == 2 && ms->minSampleShading * 4.0f > 1.0f
              ? 1u
              : 0u;
      /* Samples beyond rasterizationSamples do not exist: at 1x only bit 0
       * counts (the raster engine reads sample 0 of the mask). */
      g->sample_mask = ms->pSampleMask ? ms->pSampleMask[0] & 0xfu : 0xfu;
      /* ALPHA_TO_COVERAGE bit 1: alpha becomes 1 after coverage took it. */
      g->alpha_to_coverage =
          (ms->alphaToCoverageEnable ? 1u : 0u) | (ms->alphaToOneEnable ? 2u : 0u);
   }

   if (sp->has_depth_stencil && sp->depth_stencil.attachment != VK_ATTACHMENT_UNUSED) {
      const struct vkppu_format_info *f =
          vkppu_format_info(pass->attachments[sp->depth_stencil.attachment].format);
      g->has_depth = (f->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0;
      g->has_stencil = (f->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) != 0;
   }
   /* The draw combines these with has_depth / has_stencil (cmd_draw.c). */
   const VkPipelineDepthStencilStateCreateInfo *dss = ci->pDepthStencilState;
   if (dss && !discard && (g->has_depth || g->has_stencil)) {
      v->depth_bounds_test_enable = dss->depthBoundsTestEnable ? 1u : 0u;
      v->depth_bounds[0] = dss->minDepthBounds;
      v->depth_bounds[1] = dss->maxDepthBounds;
      v->depth_test_enable = dss->depthTestEnable ? 1u : 0u;
      v->depth_write_enable = dss->depthWriteEnable ? 1u : 0u;
      v->depth_compare = (uint32_t)dss->depthCompareOp; /* the API's numbers */
      v->stencil_test_enable = dss->stencilTestEnable ? 1u : 0u;
      v->stencil_ops[0] = stencil_ops(&dss->front);
      v->stencil_ops[1] = stencil_ops(&dss->back);
      const VkStencilOpState *face[2] = {&dss->front, &dss->back};
      for (unsigned i = 0; i < 2; i++) {
         g->values.stencil_compare_mask[i] = face[i]->compareMask & 0xffu;
         g->values.stencil_write_mask[i] = face[i]->writeMask & 0xffu;
         g->values.stencil_reference[i] = face[i]->reference & 0xffu;
      }
   }

   /* pColorBlendState is ignored when the subpass uses no color attachment
    * (spec, VkGraphicsPipelineCreateInfo): every reference UNUSED, or, with
    * dynamic rendering, every format UNDEFINED. Nothing is written then. */
   bool uses_color = false;
   for (uint32_t i = 0; i < sp->color_count; i++)
      uses_color |= sp->colors[i].attachment != VK_ATTACHMENT_UNUSED;
   const VkPipelineColorBlendStateCreateInfo *cb = ci->pColorBlendState;
   if (uses_color && !discard) {
      if (!cb || cb->attachmentCount < sp->color_count)
         return "pColorBlendState needs one attachment per color attachment of the subpass";
      /* Logic ops use the API's numbers; enabling them turns blending off
       * for every target (the ROP does, as Vulkan says). */
      g->logic_op_enable = cb->logicOpEnable ? 1u << 4 : 0u;
      v->logic_op = (uint32_t)cb->logicOp & 0xfu;
      for (uint32_t i = 0; i < sp->color_count && i < PPU_GFX_COLOR_TARGETS; i++) {
         const VkPipelineColorBlendAttachmentState *a = &cb->pAttachments[i];
         g->blend[i][0] = PPU_GFX_BLEND_EQUATION(a->srcColorBlendFactor, a->dstColorBlendFactor,
                                                 a->colorBlendOp, a->srcAlphaBlendFactor,
                                                 a->dstAlphaBlendFactor, a->alphaBlendOp);
         if ((uint32_t)a->colorBlendOp >= PPU_GFX_BLEND_OP_COUNT ||
             (uint32_t)a->alphaBlendOp >= PPU_GFX_BLEND_OP_COUNT)
            return "advanced blend operations are not supported";
         /* Integer targets never blend (the ROP ignores the enable). */
         g->blend[i][1] = (a->blendEnable ? 1u : 0u) | ((uint32_t)a->colorWriteMask & 0xfu) << 4;
      }
      memcpy(g->values.blend_constants, cb->blendConstants, sizeof(g->values.blend_constants));
   }
   return NULL;
}
