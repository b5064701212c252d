/* drv_compile_compute (compiler.h): parse and specialize the SPIR-V
 * (vkppu_spirv), translate the entry point to IR (translate_*.c), allocate
 * registers (regalloc.c), resolve labels and encode (hw/src/isa.c). */
#include "compiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_frames.h"
#include "ir.h"
#include "ppu/qmd.h"
#include "optimize.h"
#include "regalloc.h"
#include "translate.h"
#include "translate_graphics.h"

static int fail(char *err, size_t err_size, const char *msg)
{
   snprintf(err, err_size, "%s", msg);
   return 1;
}

bool xl_specialize(struct spirv_module *m, const struct drv_spec_value *spec, uint32_t spec_count,
                   struct spirv_error *e)
{
   if (!spec_count)
      return true;
   struct spirv_specialization_entry *entries = calloc(spec_count, sizeof(*entries));
   uint64_t *data = calloc(spec_count, sizeof(*data));
   bool ok = entries && data;
   for (uint32_t i = 0; ok && i < spec_count; i++) {
      entries[i].constant_id = spec[i].id;
      entries[i].offset = i * 8;
      entries[i].size = spec[i].size;
      data[i] = spec[i].bits; /* little-endian host: the low bytes first */
   }
   if (ok)
      ok = spirv_module_specialize(m, entries, spec_count, data, spec_count * sizeof(*data), e);
   else
      snprintf(e->message, sizeof(e->message), "compiler: out of memory");
   free(entries);
   free(data);
   return ok;
}

/* Label addresses (byte offsets from the program start) and encoding. */
static bool encode(const struct ir_program *p, struct drv_shader_binary *out)
{
   uint32_t *label_addr = calloc(p->label_count, sizeof(*label_addr));
   uint32_t real = 0;
   if (!label_addr)
      return false;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      if (p->insns[i].is_label)
         label_addr[p->insns[i].label] = real * PPU_INSN_BYTES;
      else
         real++;
   }
   out->code = calloc((size_t)(real ? real : 1) * PPU_INSN_WORDS, sizeof(uint32_t));
   if (!out->code) {
      free(label_addr);
      return false;
   }
   uint32_t n = 0;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (in->is_label)
         continue;
      struct ppu_insn_fields f = in->f;
      if (in->label)
         f.imm = label_addr[in->label];
      ppu_insn_encode(&f, &out->code[n * PPU_INSN_WORDS]);
      n++;
   }
   out->code_words = n * PPU_INSN_WORDS;
   free(label_addr);
   return true;
}

static void print_isa(const struct drv_shader_binary *bin)
{
   size_t size = (size_t)bin->code_words * 40 + 64;
   char *text = malloc(size);
   if (!text)
      return;
   ppu_disasm_program(bin->code, (size_t)bin->code_words * 4, text, size);
   fprintf(stderr, "vkppu: compiled program (%u registers, %u B shared, %u B local)\n%s",
           bin->register_count, bin->shared_memory_size, bin->local_memory_size, text);
   free(text);
}

/* Optimizes, allocates registers and encodes a translated program. */
int xl_finish_program(struct ir_program *ir, uint32_t local_size, bool promote_locals,
                      uint32_t max_registers, uint32_t debug_flags, const char *name,
                      struct drv_shader_binary *out, char *err, size_t err_size)
{
   if (ir->out_of_memory)
      return fail(err, err_size, "compiler: out of memory");
   if (local_size > PPU_QMD_LOCAL_MAX_SIZE) {
      snprintf(err, err_size, "compiler: %u bytes of local memory per invocation exceed %u",
               local_size, PPU_QMD_LOCAL_MAX_SIZE);
      return 1;
   }
   if (ir_optimize(ir, promote_locals))
      local_size = 0;
   /* Out-of-line functions: their frames live on the stack, which the
    * caller sizes; below it are the stack slot and the root's frame
    * (frame 0, call_frames.h). */
   if (ir->frame_count) {
      if (!ir_lower_call_frames(ir, err, err_size))
         return 1;
      local_size = IR_STACK_BASE + ir->frames[0].frame_bytes;
   }
   if (debug_flags & DRV_COMPILE_DEBUG_PRINT_IR) {
      fprintf(stderr, "vkppu: IR of \"%s\"\n", name);
      ir_print(ir, stderr);
   }
   uint32_t max_regs = max_registers ? max_registers : PPU_REG_COUNT_MAX;
   if (!regalloc_run(ir, max_regs, &local_size, PPU_QMD_LOCAL_MAX_SIZE, &out->register_count, err,
                     err_size))
      return ir->out_of_memory ? 1 : XL_COMPILE_OUT_OF_REGISTERS;
   if (!encode(ir, out))
      return fail(err, err_size, "compiler: out of memory");
   out->local_memory_size = (local_size + 15) & ~15u;
   if (debug_flags & DRV_COMPILE_DEBUG_PRINT_ISA)
      print_isa(out);
   return 0;
}

/* Translates, optimizes, allocates and encodes the entry point. Returns
 * 0, 1 on an error, or XL_COMPILE_OUT_OF_REGISTERS. */
static int compile_entry(struct spirv_module *m, const struct drv_compile_request *req,
                         const struct spirv_entry_point *ep, const char *name, bool promote_locals,
                         struct xl_gfx *gfx, struct drv_shader_binary *out, char *err,
                         size_t err_size)
{
   int rc = 1;
   struct ir_program ir;
   ir_init(&ir);
   struct xl_ctx c;
   memset(&c, 0, sizeof(c));
   c.m = m;
   c.req = req;
   c.ir = &ir;
   c.err = err;
   c.err_size = err_size;
   c.gfx = gfx;
   c.bound = spirv_module_bound(m);
   c.global_ptrs = calloc(c.bound, sizeof(*c.global_ptrs));
   if (!c.global_ptrs) {
      fail(err, err_size, "compiler: out of memory");
      goto done;
   }
   const struct spirv_function *fn = spirv_function_by_id(m, ep->function_id);
   if (gfx)
      xl_gfx_reset(gfx, ep);
   if (!xl_setup_globals(&c) || (gfx && !xl_gfx_begin(&c)) || !xl_translate_entry(&c, fn) ||
       (gfx && !xl_gfx_end(&c)))
      goto done;
   ir_emit(&ir, PPU_OP_EXIT); /* every path has exited already; a safe end */
   if (c.shared_size > 49152u) {
      snprintf(err, err_size, "compiler: %u bytes of shared memory exceed 49152", c.shared_size);
      goto done;
   }
   out->shared_memory_size = (c.shared_size + 15) & ~15u;
   rc = xl_finish_program(&ir, c.local_size, promote_locals, req->max_registers, req->debug_flags,
                          name, out, err, err_size);
   goto done;
done:
   free(c.global_ptrs);
   free(c.pool);
   ir_free(&ir);
   return rc;
}

int xl_compile_stage(const struct drv_compile_request *req, uint32_t model, struct xl_gfx *gfx,
                     struct drv_shader_binary *out, char *err, size_t err_size)
{
   memset(out, 0, sizeof(*out));
   if (!req->spirv || !req->word_count)
      return fail(err, err_size, "compiler: empty SPIR-V module");
   struct spirv_error e;
   memset(&e, 0, sizeof(e));
   struct spirv_module *m = spirv_module_parse(req->spirv, req->word_count, &e);
   if (!m)
      return fail(err, err_size, e.message);
   int rc = 1;
   if (!xl_specialize(m, req->spec, req->spec_count, &e)) {
      fail(err, err_size, e.message);
      goto done;
   }
   const char *name = req->entry_point ? req->entry_point : "main";
   const struct spirv_entry_point *ep = spirv_find_entry_point(m, name, model);
   if (!ep) {
      snprintf(err, err_size, "compiler: no %s entry point named \"%s\"",
               model == SPIRV_EXECUTION_MODEL_Vertex     ? "Vertex"
               : model == SPIRV_EXECUTION_MODEL_Fragment ? "Fragment"
                                                         : "GLCompute",
               name);
      goto done;
   }
   if (model == SPIRV_EXECUTION_MODEL_GLCompute &&
       !spirv_entry_point_workgroup_size(m, ep, out->workgroup_size, &e)) {
      fail(err, err_size, e.message);
      goto done;
   }
   /* Promoting local variables to registers raises register pressure:
    * when that does not fit, keep them in local memory instead. */
   rc = compile_entry(m, req, ep, name, true, gfx, out, err, err_size);
   if (rc == XL_COMPILE_OUT_OF_REGISTERS) {
      drv_shader_binary_free(out);
      rc = compile_entry(m, req, ep, name, false, gfx, out, err, err_size) ? 1 : 0;
   }
done:
   if (rc)
      drv_shader_binary_free(out);
   spirv_module_destroy(m);
   return rc;
}

int drv_compile_compute(const struct drv_compile_request *req, struct drv_shader_binary *out,
                        char *err, size_t err_size)
{
   char scratch[8];
   err = xl_error_buffer(err, &err_size, scratch, sizeof(scratch));
   if (!req || !out)
      return fail(err, err_size, "compiler: no request");
   return xl_compile_stage(req, SPIRV_EXECUTION_MODEL_GLCompute, NULL, out, err, err_size);
}

void drv_shader_binary_free(struct drv_shader_binary *bin)
{
   if (!bin)
      return;
   free(bin->code);
   bin->code = NULL;
   bin->code_words = 0;
}
