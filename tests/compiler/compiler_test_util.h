/* Helpers for the compiler tests: compile a glslang-built shader with
 * drv_compile_compute, lay out buffers, descriptor sets and constant bank 0
 * as driver/shader_abi.h says, launch on the PPU model and read back. */
#ifndef COMPILER_TEST_UTIL_H
#define COMPILER_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"
#include "compute_test_util.h"

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

struct ctu {
   struct hwc h;
};

bool ctu_init(struct ctu *t);
void ctu_finish(struct ctu *t);
/* A zero-filled buffer of size bytes, with data copied in when given. */
uint64_t ctu_buffer(struct ctu *t, const void *data, uint32_t size);
void ctu_read(struct ctu *t, uint64_t va, void *dst, uint32_t size);
/* Adds a storage-buffer binding (set, binding) for va. */
void ctu_bind(struct ctu_dispatch *d, uint32_t set, uint32_t binding, uint64_t va, uint32_t range);
/* Compiles, lays out and runs; false (after a test failure) on any error. */
bool ctu_run(struct ctu *t, const struct ctu_dispatch *d);
/* Compiles only; returns drv_compile_compute's result with its message. */
int ctu_compile_words(const uint32_t *words, size_t count, struct drv_shader_binary *bin, char *err,
                      size_t err_size);
/* Reads a shader's SPIR-V words (malloc'd); NULL after a test failure. */
uint32_t *ctu_load_spirv(const char *shader, size_t *word_count);

/* Float comparison within ulps units in the last place. */
bool ctu_float_near(float got, float want, uint32_t ulps);

#endif /* COMPILER_TEST_UTIL_H */
