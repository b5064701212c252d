/* VK_EXT_vertex_input_dynamic_state. The compiler specializes a vertex
 * program's attribute fetch for one vertex input state (formats, offsets,
 * bindings, input rates), so a pipeline whose vertex input is dynamic keeps
 * copies of everything its compile took (the SPIR-V of both stages, entry
 * points, specialization, the layout's ABI) and compiles its programs again
 * for each vertex input state a draw uses, on first use: a variant. The
 * variants stay until the pipeline is destroyed, since recorded draws point
 * at their code. Recording threads may ask concurrently: a mutex guards the
 * list. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "program_names.h"
#include "vkppu_graphics.h"

/* A pipeline keeps at most this many vertex input states compiled; a
 * command buffer that cycles through more gets an error, not unbounded
 * growth. */
#define MAX_VARIANTS 64u

struct variant {
   struct drv_vertex_attribute attributes[DRV_GFX_MAX_SLOTS];
   struct drv_vertex_binding bindings[DRV_ABI_MAX_VERTEX_BUFFERS];
   uint32_t attribute_count, binding_count;
   struct vkppu_gfx_programs programs;
};

struct vkppu_gfx_variants {
   pthread_mutex_t lock;
   /* Owned copies of the creation-time request's pointers. */
   struct drv_graphics_compile_request req;
   struct drv_binding_layout *abi_bindings;
   struct drv_pipeline_abi abi;
   struct variant *variants[MAX_VARIANTS];
   uint32_t count;
};

static void *copy_of(const void *src, size_t bytes)
{
   if (!bytes)
      return NULL;
   void *p = malloc(bytes);
   if (p)
      memcpy(p, src, bytes);
   return p;
}

/* Copies a stage's request: SPIR-V, entry point, specialization. */
static bool copy_stage(struct drv_compile_request *dst, const struct drv_compile_request *src,
                       const struct drv_pipeline_abi *abi)
{
   *dst = *src;
   dst->abi = abi;
   if (!src->spirv)
      return true;
   dst->spirv = copy_of(src->spirv, src->word_count * sizeof(uint32_t));
   dst->entry_point = src->entry_point ? strdup(src->entry_point) : NULL;
   dst->spec = copy_of(src->spec, src->spec_count * sizeof(*src->spec));
   return dst->spirv && (!src->entry_point || dst->entry_point) && (!src->spec_count || dst->spec);
}

static void free_stage(struct drv_compile_request *r)
{
   free((void *)r->spirv);
   free((void *)r->entry_point);
   free((void *)r->spec);
}

VkResult vkppu_gfx_variants_init(struct vkppu_device *dev, struct vkppu_pipeline *pipe,
                                 const struct drv_graphics_compile_request *req)
{
   (void)dev;
   struct vkppu_gfx_variants *v = calloc(1, sizeof(*v));
   if (!v)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   pipe->gfx->variants = v;
   pthread_mutex_init(&v->lock, NULL);
   const struct drv_pipeline_abi *abi = req->vertex.abi;
   v->abi = *abi;
   v->abi_bindings = copy_of(abi->bindings, abi->binding_count * sizeof(*abi->bindings));
   v->abi.bindings = v->abi_bindings;
   v->req = *req;
   v->req.attributes = NULL;
   v->req.bindings = NULL;
   v->req.attribute_count = v->req.binding_count = 0;
   v->req.vertex_input_unknown = 0;
   bool ok = (!abi->binding_count || v->abi_bindings) &&
             copy_stage(&v->req.vertex, &req->vertex, &v->abi) &&
             copy_stage(&v->req.fragment, &req->fragment, &v->abi);
   return ok ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
}

void vkppu_gfx_variants_free(struct vkppu_device *dev, struct vkppu_gfx_pipeline *g)
{
   struct vkppu_gfx_variants *v = g->variants;
   if (!v)
      return;
   for (uint32_t i = 0; i < v->count; i++) {
      vkppu_gfx_programs_free(dev, &v->variants[i]->programs);
      free(v->variants[i]);
   }
   free_stage(&v->req.vertex);
   free_stage(&v->req.fragment);
   free(v->abi_bindings);
   pthread_mutex_destroy(&v->lock);
   free(v);
   g->variants = NULL;
}

static bool same_state(const struct variant *a, const struct vkppu_gfx_dynamic *s)
{
   return a->attribute_count == s->vertex_attribute_count &&
          a->binding_count == s->vertex_binding_count &&
          !memcmp(a->attributes, s->vertex_attributes,
                  s->vertex_attribute_count * sizeof(a->attributes[0])) &&
          !memcmp(a->bindings, s->vertex_bindings,
                  s->vertex_binding_count * sizeof(a->bindings[0]));
}

/* Compiles the variant for state s; NULL after a reported error. */
static struct variant *compile_variant(struct vkppu_device *dev, struct vkppu_pipeline *pipe,
                                       struct vkppu_gfx_variants *v,
                                       const struct vkppu_gfx_dynamic *s)
{
   struct variant *n = calloc(1, sizeof(*n));
   if (!n)
      return NULL;
   memcpy(n->attributes, s->vertex_attributes,
          s->vertex_attribute_count * sizeof(n->attributes[0]));
   memcpy(n->bindings, s->vertex_bindings, s->vertex_binding_count * sizeof(n->bindings[0]));
   n->attribute_count = s->vertex_attribute_count;
   n->binding_count = s->vertex_binding_count;
   struct drv_graphics_compile_request req = v->req;
   req.attributes = n->attributes;
   req.attribute_count = n->attribute_count;
   req.bindings = n->bindings;
   req.binding_count = n->binding_count;
   char name[DRV_PROGRAM_NAME_SIZE];
   snprintf(name, sizeof(name), "graphics pipeline 0x%llx, vertex input variant %u",
            (unsigned long long)(uintptr_t)pipe, v->count);
   if (vkppu_gfx_build_programs(dev, pipe, &req,
                                "draw with the vertex input state of vkCmdSetVertexInputEXT", name,
                                &n->programs) != VK_SUCCESS) {
      free(n);
      return NULL;
   }
   return n;
}

const struct vkppu_gfx_programs *vkppu_gfx_variant(struct vkppu_device *dev,
                                                   struct vkppu_pipeline *pipe,
                                                   const struct vkppu_gfx_dynamic *state)
{
   struct vkppu_gfx_variants *v = pipe->gfx->variants;
   if (!v)
      return NULL;
   const struct vkppu_gfx_programs *found = NULL;
   pthread_mutex_lock(&v->lock);
   for (uint32_t i = 0; i < v->count && !found; i++)
      if (same_state(v->variants[i], state))
         found = &v->variants[i]->programs;
   if (!found && v->count == MAX_VARIANTS) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "draw: the pipeline already has %u compiled vertex input states; this "
                   "draw's is not compiled and the draw is dropped",
                   MAX_VARIANTS);
   } else if (!found) {
      struct variant *n = compile_variant(dev, pipe, v, state);
      if (n) {
         v->variants[v->count++] = n;
         found = &n->programs;
      }
   }
   pthread_mutex_unlock(&v->lock);
   return found;
}
