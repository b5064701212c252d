/* See compiler_test_util.h. */
#include "compiler_test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader_abi.h"
#include "test_harness.h"

bool ctu_init(struct ctu *t)
{
   memset(t, 0, sizeof(*t));
   return hwc_init(&t->h, NULL);
}

void ctu_finish(struct ctu *t)
{
   hwc_finish(&t->h);
}

uint64_t ctu_buffer(struct ctu *t, const void *data, uint32_t size)
{
   uint64_t bytes = ((uint64_t)size + 4095) & ~4095ull;
   uint64_t va = hwt_alloc_mapped(&t->h.t, bytes ? bytes : 4096, true);
   if (data && size)
      hwt_write(&t->h.t.mem, t->h.t.pd, va, data, size);
   return va;
}

void ctu_read(struct ctu *t, uint64_t va, void *dst, uint32_t size)
{
   hwt_read(&t->h.t.mem, t->h.t.pd, va, dst, size);
}

void ctu_bind(struct ctu_dispatch *d, uint32_t set, uint32_t binding, uint64_t va, uint32_t range)
{
   if (d->binding_count >= CTU_MAX_BINDINGS)
      return;
   struct ctu_binding *b = &d->bindings[d->binding_count++];
   memset(b, 0, sizeof(*b));
   b->set = set;
   b->binding = binding;
   b->va = va;
   b->range = range;
}

uint32_t *ctu_load_spirv(const char *shader, size_t *word_count)
{
   char path[512];
   snprintf(path, sizeof(path), "%s/%s.spv", COMPILER_TEST_SHADER_DIR, shader);
   FILE *f = fopen(path, "rb");
   if (!f) {
      test_fail(__FILE__, __LINE__, "cannot open %s", path);
      return NULL;
   }
   fseek(f, 0, SEEK_END);
   long size = ftell(f);
   fseek(f, 0, SEEK_SET);
   uint32_t *words = malloc(size > 0 ? (size_t)size : 4);
   if (!words || size <= 0 || fread(words, 1, (size_t)size, f) != (size_t)size) {
      fclose(f);
      free(words);
      test_fail(__FILE__, __LINE__, "cannot read %s", path);
      return NULL;
   }
   fclose(f);
   *word_count = (size_t)size / 4;
   return words;
}

int ctu_compile_words(const uint32_t *words, size_t count, struct drv_shader_binary *bin, char *err,
                      size_t err_size)
{
   struct drv_pipeline_abi abi = {0};
   struct drv_compile_request req = {.spirv = words,
                                     .word_count = count,
                                     .entry_point = "main",
                                     .abi = &abi,
                                     .max_registers = 255};
   return drv_compile_compute(&req, bin, err, err_size);
}

int ctu_compile_with_bindings(const uint32_t *words, size_t count,
                              const enum drv_binding_kind *kinds, uint32_t n, char *err,
                              size_t err_size)
{
   struct drv_binding_layout b[8];
   n = n < 8 ? n : 8;
   for (uint32_t i = 0; i < n; i++)
      b[i] = (struct drv_binding_layout){0, i, kinds[i], i * 512, 4, -1};
   struct drv_pipeline_abi abi = {b, n, 0, 0};
   struct drv_compile_request req = {.spirv = words,
                                     .word_count = count,
                                     .entry_point = "main",
                                     .abi = &abi,
                                     .max_registers = 255};
   struct drv_shader_binary bin;
   int rc = drv_compile_compute(&req, &bin, err, err_size);
   if (!rc)
      drv_shader_binary_free(&bin);
   return rc;
}

#define CTU_BINDING_BYTES (4u * DRV_COMBINED_DESCRIPTOR_SIZE)

void ctu_bind_image(struct ctu_dispatch *d, uint32_t set, uint32_t binding, uint32_t element,
                    enum drv_binding_kind kind, const struct ppu_texture_header *tex,
                    const struct ppu_sampler_header *sampler)
{
   ctu_bind(d, set, binding, 0, 0);
   struct ctu_binding *b = &d->bindings[d->binding_count - 1];
   b->image = true;
   b->kind = kind;
   b->element = element;
   if (tex)
      b->tex = *tex;
   if (sampler)
      b->sampler = *sampler;
}

struct ppu_texture_header ctu_image(struct ctu *t, enum ppu_tex_format format, enum ppu_tex_dim dim,
                                    uint32_t width, uint32_t height, uint32_t depth,
                                    uint32_t levels, uint32_t layers)
{
   struct ppu_texture_header h;
   memset(&h, 0, sizeof(h));
   h.format = (uint16_t)format;
   h.dim = (uint8_t)dim;
   h.swizzle = PPU_TEX_SWIZZLE_IDENTITY;
   h.width = width;
   h.height = height;
   h.depth = depth;
   h.image_levels = (uint8_t)levels;
   h.level_count = (uint8_t)levels;
   h.layer_count = layers;
   if (dim == PPU_TEX_DIM_BUFFER) {
      /* Texel buffers are linear: one row of width elements. */
      h.layout = PPU_TEX_LAYOUT_LINEAR;
      h.row_pitch = width * ppu_tex_format_bytes(format);
      h.layer_stride = h.row_pitch;
   } else {
      h.layout = PPU_TEX_LAYOUT_BLOCK_LINEAR;
      h.block_height_log2 = 1;
      h.layer_stride = ppu_tex_layer_size(&h);
   }
   uint64_t bytes = h.layer_stride * layers;
   h.address = ctu_buffer(t, NULL, (uint32_t)bytes);
   return h;
}

void ctu_texel_write(struct ctu *t, const struct ppu_texture_header *h, unsigned level,
                     uint32_t layer, uint32_t x, uint32_t y, uint32_t z, const void *texel)
{
   uint32_t bytes = ppu_tex_format_bytes(h->format);
   hwt_write(&t->h.t.mem, t->h.t.pd,
             h->address + ppu_tex_byte_offset(h, level, layer, x * bytes, y, z), texel, bytes);
}

void ctu_texel_read(struct ctu *t, const struct ppu_texture_header *h, unsigned level,
                    uint32_t layer, uint32_t x, uint32_t y, uint32_t z, void *texel)
{
   uint32_t bytes = ppu_tex_format_bytes(h->format);
   hwt_read(&t->h.t.mem, t->h.t.pd,
            h->address + ppu_tex_byte_offset(h, level, layer, x * bytes, y, z), texel, bytes);
}

struct ppu_sampler_header ctu_sampler(enum ppu_tex_filter filter, enum ppu_tex_filter mip,
                                      enum ppu_tex_address_mode address)
{
   struct ppu_sampler_header s;
   memset(&s, 0, sizeof(s));
   s.mag_filter = s.min_filter = (uint8_t)filter;
   s.mip_filter = (uint8_t)mip;
   s.address_u = s.address_v = s.address_w = (uint8_t)address;
   s.max_lod = 1000.0f;
   s.max_anisotropy = 1.0f;
   return s;
}

static enum drv_binding_kind binding_kind(const struct ctu_binding *b)
{
   if (b->image)
      return b->kind;
   return b->acceleration_structure ? DRV_BINDING_ACCELERATION_STRUCTURE
          : b->uniform              ? DRV_BINDING_UNIFORM_BUFFER
                                    : DRV_BINDING_STORAGE_BUFFER;
}

/* One descriptor as driver/shader_abi.h lays it out for its kind. */
static void write_descriptor(struct ctu *t, const struct ctu_binding *b, uint64_t binding_va)
{
   struct hwt *hw = &t->h.t;
   enum drv_binding_kind kind = binding_kind(b);
   uint64_t va = binding_va + (uint64_t)b->element * drv_descriptor_stride(kind);
   if (!b->image) {
      struct drv_buffer_descriptor desc = {b->va, b->range, 0};
      hwt_write(&hw->mem, hw->pd, va, &desc, sizeof(desc));
   } else if (kind == DRV_BINDING_SAMPLER) {
      hwt_write(&hw->mem, hw->pd, va, &b->sampler, sizeof(b->sampler));
   } else {
      hwt_write(&hw->mem, hw->pd, va, &b->tex, sizeof(b->tex));
      if (kind == DRV_BINDING_COMBINED_IMAGE_SAMPLER)
         hwt_write(&hw->mem, hw->pd, va + DRV_COMBINED_SAMPLER_OFFSET, &b->sampler,
                   sizeof(b->sampler));
   }
}

static bool program_kept(const struct ctu *t, const struct ctu_dispatch *d,
                         const struct drv_binding_layout *layouts, uint32_t layout_count)
{
   const struct ctu_program *p = &t->program;
   return t->reuse_program && !d->spec_count && !d->debug_flags && !getenv("VKPPU_DEBUG") &&
          strcmp(p->shader, d->shader) == 0 && p->layout_count == layout_count &&
          !memcmp(p->layouts, layouts, layout_count * sizeof(*layouts)) &&
          p->push_size == d->push_size && p->robust == d->robust &&
          p->max_registers == d->max_registers;
}

/* Compiles d's shader and uploads it into t->program (kept for the next
 * dispatch when t->reuse_program). */
static bool compile_program(struct ctu *t, const struct ctu_dispatch *d,
                            const struct drv_binding_layout *layouts, uint32_t layout_count)
{
   size_t count = 0;
   uint32_t *words = ctu_load_spirv(d->shader, &count);
   if (!words)
      return false;
   struct drv_pipeline_abi abi = {layouts, layout_count, d->push_size, d->robust};
   struct drv_compile_request req = {.spirv = words,
                                     .word_count = count,
                                     .entry_point = "main",
                                     .spec = d->spec,
                                     .spec_count = d->spec_count,
                                     .abi = &abi,
                                     .max_registers = d->max_registers ? d->max_registers : 255,
                                     .debug_flags = d->debug_flags};
   if (getenv("VKPPU_DEBUG")) {
      if (strstr(getenv("VKPPU_DEBUG"), "ir"))
         req.debug_flags |= DRV_COMPILE_DEBUG_PRINT_IR;
      if (strstr(getenv("VKPPU_DEBUG"), "isa"))
         req.debug_flags |= DRV_COMPILE_DEBUG_PRINT_ISA;
   }
   struct drv_shader_binary bin;
   char err[512];
   int rc = drv_compile_compute(&req, &bin, err, sizeof(err));
   free(words);
   if (rc) {
      test_fail(__FILE__, __LINE__, "%s: %s", d->shader, err);
      t->program.shader[0] = 0;
      return false;
   }
   struct ctu_program *p = &t->program;
   p->va = ctu_buffer(t, bin.code, bin.code_words * 4);
   p->register_count = bin.register_count;
   p->shared_memory_size = bin.shared_memory_size;
   p->local_memory_size = bin.local_memory_size;
   for (int k = 0; k < 3; k++)
      p->workgroup_size[k] = bin.workgroup_size[k];
   drv_shader_binary_free(&bin);
   snprintf(p->shader, sizeof(p->shader), "%s", d->shader);
   memcpy(p->layouts, layouts, layout_count * sizeof(*layouts));
   p->layout_count = layout_count;
   p->push_size = d->push_size;
   p->robust = d->robust;
   p->max_registers = d->max_registers;
   return true;
}

bool ctu_run(struct ctu *t, const struct ctu_dispatch *d)
{
   /* Descriptor sets: binding n at byte n * CTU_BINDING_BYTES of its set
    * (room for arrays of up to 4 descriptors of any kind). */
   struct drv_binding_layout layouts[CTU_MAX_BINDINGS];
   uint64_t set_va[DRV_ABI_MAX_SETS] = {0};
   uint32_t cbank[DRV_ABI_CBANK0_SIZE / 4] = {0};
   uint32_t dyn_count = 0, layout_count = 0;
   for (uint32_t i = 0; i < d->binding_count; i++) {
      const struct ctu_binding *b = &d->bindings[i];
      if (!set_va[b->set])
         set_va[b->set] = ctu_buffer(t, NULL, CTU_MAX_BINDINGS * CTU_BINDING_BYTES);
      uint32_t offset = b->binding * CTU_BINDING_BYTES;
      write_descriptor(t, b, set_va[b->set] + offset);
      struct drv_binding_layout *l = NULL;
      for (uint32_t k = 0; k < layout_count; k++)
         if (layouts[k].set == b->set && layouts[k].binding == b->binding)
            l = &layouts[k];
      if (!l) {
         l = &layouts[layout_count++];
         *l = (struct drv_binding_layout){.set = b->set,
                                          .binding = b->binding,
                                          .kind = binding_kind(b),
                                          .offset = offset,
                                          .array_size = 0,
                                          .dynamic_index = b->dynamic ? (int32_t)dyn_count : -1};
      }
      if (b->element + 1 > l->array_size)
         l->array_size = b->element + 1;
      if (b->dynamic)
         cbank[(DRV_ABI_CBANK_DYNAMIC_OFFSETS / 4) + dyn_count++] = b->dyn_offset;
   }
   for (uint32_t s = 0; s < DRV_ABI_MAX_SETS; s++)
      memcpy(&cbank[(DRV_ABI_CBANK_SET_ADDRESSES + 8 * s) / 4], &set_va[s], 8);
   if (d->push_size)
      memcpy(cbank, d->push, d->push_size);
   uint32_t groups[3];
   for (int k = 0; k < 3; k++) {
      groups[k] = d->groups[k] ? d->groups[k] : 1;
      cbank[DRV_ABI_CBANK_NUM_WORKGROUPS / 4 + k] = groups[k];
   }
   /* Constant bank, then program: the order of the allocations (and so
    * every address) as before programs were kept. */
   uint64_t cb_va = ctu_buffer(t, cbank, sizeof(cbank));
   if (!program_kept(t, d, layouts, layout_count) && !compile_program(t, d, layouts, layout_count))
      return false;
   const struct ctu_program *p = &t->program;
   struct ppu_qmd q;
   hwc_qmd_defaults(&t->h, &q, p->va);
   q.register_count = p->register_count;
   q.shared_memory_size = p->shared_memory_size;
   q.local_memory_size = p->local_memory_size;
   for (int k = 0; k < 3; k++) {
      q.workgroup_size[k] = p->workgroup_size[k];
      q.grid_size[k] = groups[k];
   }
   q.cbank[0].va = cb_va;
   q.cbank[0].size = DRV_ABI_CBANK0_SIZE;
   struct ppu_fault f;
   if (!hwc_launch(&t->h, &q, 0, &f)) {
      char report[1024];
      ppu_fault_format(t->h.c.ch, &f, report, sizeof(report));
      test_fail(__FILE__, __LINE__, "%s faulted:\n%s", d->shader, report);
      hwt_channel_restart(&t->h.c, "compute");
      return false;
   }
   return true;
}

void ctu_check_corruptions(const char *shader, uint32_t seed, int iterations,
                           ctu_compile_fn compile)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv(shader, &n);
   uint32_t *copy = words && n > 5 ? malloc(n * 4) : NULL;
   if (!copy) {
      test_fail(__FILE__, __LINE__, "%s: no module to corrupt", shader);
      free(words);
      return;
   }
   char err[256];
   for (int iter = 0; iter < iterations; iter++) {
      memcpy(copy, words, n * 4);
      for (int k = 0; k < 3; k++) {
         seed = seed * 1103515245u + 12345u;
         size_t at = 5 + (seed >> 4) % (n - 5);
         seed = seed * 1103515245u + 12345u;
         copy[at] ^= 1u << (seed % 32);
      }
      err[0] = '\0';
      if (compile(copy, n, err, sizeof(err)) && !err[0])
         test_fail(__FILE__, __LINE__, "%s iteration %d: error without a message", shader, iter);
   }
   free(copy);
   free(words);
}

bool ctu_float_near(float got, float want, uint32_t ulps)
{
   if (isnan(want))
      return isnan(got);
   if (got == want)
      return true;
   int32_t a, b;
   memcpy(&a, &got, 4);
   memcpy(&b, &want, 4);
   if ((a < 0) != (b < 0))
      return false;
   int64_t d = (int64_t)a - (int64_t)b;
   return (d < 0 ? -d : d) <= ulps;
}
