/* Helpers for the compiler tests: compile a glslang-built shader with
 * drv_compile_compute, lay out buffers, descriptor sets and constant bank 0
 * as driver/shader_abi.h says, launch on the PPU model and read back. */
#ifndef COMPILER_TEST_UTIL_H
#define COMPILER_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"
#include "compute_test_util.h"
#include "ppu/texture.h"

#define CTU_MAX_BINDINGS 16

struct ctu_binding {
   uint32_t set, binding;
   uint64_t va;                 /* buffer address (descriptor address) */
   uint32_t range;              /* bytes */
   bool uniform;                /* uniform buffer (else storage) */
   bool acceleration_structure; /* va is a BVH header; range is unused */
   bool dynamic;                /* dynamic descriptor: dyn_offset is added */
   uint32_t dyn_offset;
   uint32_t element; /* array element of an arrayed binding (< 4) */
   /* Image, sampler and texel-buffer descriptors (image set): the headers
    * are written inline as driver/shader_abi.h says for kind. */
   bool image;
   enum drv_binding_kind kind;
   struct ppu_texture_header tex;
   struct ppu_sampler_header sampler;
};

struct ctu_dispatch {
   const char *shader; /* file name without .spv */
   uint32_t groups[3]; /* 0 means 1 */
   struct ctu_binding bindings[CTU_MAX_BINDINGS];
   uint32_t binding_count;
   const void *push;
   uint32_t push_size;
   const struct drv_spec_value *spec;
   uint32_t spec_count;
   uint32_t debug_flags;
   bool robust;            /* robustBufferAccess: the compiler bounds-checks */
   uint32_t max_registers; /* 0: 255 */
};

/* A compiled and uploaded program, kept for the next dispatch of the same
 * shader with the same layout (struct ctu's reuse_program). */
struct ctu_program {
   char shader[512]; /* "" : none kept */
   struct drv_binding_layout layouts[CTU_MAX_BINDINGS];
   uint32_t layout_count, push_size, max_registers;
   bool robust;
   uint64_t va;
   uint32_t register_count, shared_memory_size, local_memory_size, workgroup_size[3];
};

struct ctu {
   struct hwc h;
   /* Opt in (the ray-tracing benchmarks do): ctu_run compiles a shader
    * once and launches the same uploaded program again while shader and
    * layout stay the same (no specialization or debug flags), as an
    * application dispatches one pipeline many times. The SM translator
    * keys its translations on the program's address: an upload per
    * dispatch is translated anew every time it runs long. */
   bool reuse_program;
   struct ctu_program program;
};

bool ctu_init(struct ctu *t);
void ctu_finish(struct ctu *t);
/* A zero-filled buffer of size bytes, with data copied in when given. */
uint64_t ctu_buffer(struct ctu *t, const void *data, uint32_t size);
void ctu_read(struct ctu *t, uint64_t va, void *dst, uint32_t size);
/* Adds a storage-buffer binding (set, binding) for va. */
void ctu_bind(struct ctu_dispatch *d, uint32_t set, uint32_t binding, uint64_t va, uint32_t range);
/* Adds an image, sampler, combined or texel-buffer descriptor (element of
 * binding); tex or sampler may be NULL when the kind has none. */
void ctu_bind_image(struct ctu_dispatch *d, uint32_t set, uint32_t binding, uint32_t element,
                    enum drv_binding_kind kind, const struct ppu_texture_header *tex,
                    const struct ppu_sampler_header *sampler);

/* A texture header for an image of the given shape (block-linear with
 * block height 1, or linear for texel buffers), all levels and layers in
 * the view; memory is allocated and zeroed, address and layer_stride set. */
struct ppu_texture_header ctu_image(struct ctu *t, enum ppu_tex_format format, enum ppu_tex_dim dim,
                                    uint32_t width, uint32_t height, uint32_t depth,
                                    uint32_t levels, uint32_t layers);
/* Writes or reads one texel (format bytes) of a level and layer at x, y, z. */
void ctu_texel_write(struct ctu *t, const struct ppu_texture_header *h, unsigned level,
                     uint32_t layer, uint32_t x, uint32_t y, uint32_t z, const void *texel);
void ctu_texel_read(struct ctu *t, const struct ppu_texture_header *h, unsigned level,
                    uint32_t layer, uint32_t x, uint32_t y, uint32_t z, void *texel);
/* A sampler header: filter for mag/min, mip filter, one address mode. */
struct ppu_sampler_header ctu_sampler(enum ppu_tex_filter filter, enum ppu_tex_filter mip,
                                      enum ppu_tex_address_mode address);

/* Compiles, lays out and runs; false (after a test failure) on any error. */
bool ctu_run(struct ctu *t, const struct ctu_dispatch *d);
/* Compiles only; returns drv_compile_compute's result with its message. */
int ctu_compile_words(const uint32_t *words, size_t count, struct drv_shader_binary *bin, char *err,
                      size_t err_size);
/* Compiles only, with set 0 bindings 0..n-1 of the given kinds (at most
 * 8); returns drv_compile_compute's result with its message. */
int ctu_compile_with_bindings(const uint32_t *words, size_t count,
                              const enum drv_binding_kind *kinds, uint32_t n, char *err,
                              size_t err_size);
/* Reads a shader's SPIR-V words (malloc'd); NULL after a test failure. */
uint32_t *ctu_load_spirv(const char *shader, size_t *word_count);

/* Flips 3 random bits (from seed) of a shader's words, iterations times,
 * and compiles each copy with compile: either result is fine, but an error
 * must come with a message (and nothing may crash: ASan runs these). */
typedef int (*ctu_compile_fn)(const uint32_t *words, size_t count, char *err, size_t err_size);
void ctu_check_corruptions(const char *shader, uint32_t seed, int iterations,
                           ctu_compile_fn compile);

/* Float comparison within ulps units in the last place. */
bool ctu_float_near(float got, float want, uint32_t ulps);

#endif /* COMPILER_TEST_UTIL_H */
