/* drv_compile_graphics (compiler.h): the fragment stage first, which
 * fixes the attribute slots (the locations it reads), then the vertex stage,
 * which writes exactly those slots. Both go through xl_compile_stage, the
 * compute path, with the graphics state of translate_graphics.h. */
#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "translate_graphics.h"

int drv_compile_graphics(const struct drv_graphics_compile_request *req,
                         struct drv_graphics_binary *out, char *err, size_t err_size)
{
   char scratch[8];
   err = xl_error_buffer(err, &err_size, scratch, sizeof(scratch));
   if (!req || !out) {
      snprintf(err, err_size, "compiler: no request");
      return 1;
   }
   memset(out, 0, sizeof(*out));
   if (req->samples != 0 && req->samples != 1 && req->samples != 4) {
      snprintf(err, err_size, "compiler: %u samples (1 or 4)", req->samples);
      return 1;
   }
   static const struct xl_gfx zero;
   struct xl_gfx g = zero;
   g.req = req;
   struct drv_compile_request fragment = req->fragment;
   fragment.abi = req->vertex.abi;
   fragment.max_registers = req->vertex.max_registers;
   fragment.debug_flags = req->vertex.debug_flags;
   if (req->fragment.spirv) {
      g.model = SPIRV_EXECUTION_MODEL_Fragment;
      if (xl_compile_stage(&fragment, g.model, &g, &out->fragment, err, err_size))
         return 1;
      out->fragment_info = g.info;
   }
   g.model = SPIRV_EXECUTION_MODEL_Vertex;
   if (xl_compile_stage(&req->vertex, g.model, &g, &out->vertex, err, err_size)) {
      drv_graphics_binary_free(out);
      return 1;
   }
   out->vertex_info = g.info;
   out->vertex_info.attribute_count = g.slot_count;
   memcpy(out->slot_location, g.slot_location, sizeof(out->slot_location));
   out->clip_distance_count = g.clip_distance_count;
   out->cull_distance_count = g.cull_distance_count;
   return 0;
}

void drv_graphics_binary_free(struct drv_graphics_binary *bin)
{
   if (!bin)
      return;
   drv_shader_binary_free(&bin->vertex);
   drv_shader_binary_free(&bin->fragment);
}
