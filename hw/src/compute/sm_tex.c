/* The SM side of the texture instructions (docs/isa.md "Textures",
 * docs/texture-unit.md). TEX, TLD and TLD4 go to the SM's texture unit
 * (texture/tex_unit.h) as a batch of one operation over the warp's 8 quads;
 * TXQ reads the header; SULD, SUST and SUATOM address storage images
 * through the texture address unit and access memory on the SM's MMU port
 * like the LSU.
 *
 * Headers come from the VAs in each executing lane's ra (texture) and rb
 * (sampler) pairs, so descriptors may differ per lane. Lanes are served in
 * lane order; the first fault stops the warp with the instruction's PC.
 *
 * Helper lanes: a quad's lanes that do not execute the instruction still
 * hand their coordinate registers to the texture queue, and implicit LOD
 * uses them for the quad's derivatives (Vulkan's helper invocations); they
 * get no result and their headers are not read. Registers of a lane that
 * never ran the code computing the coordinates hold whatever they held,
 * which Vulkan allows: derivatives are only defined in uniform control
 * flow.
 */
#include <string.h>

#include "compute/sm_operands.h"
#include "ppu/mmu_format.h"
#include "texture/tex_header.h"
#include "texture/texel_codec.h"

static bool reg_ok(unsigned r, unsigned width, uint32_t count)
{
   return r == PPU_RZ || (r % width == 0 && r + width <= count);
}

const char *ppu_tex_check_operands(const struct ppu_insn_fields *f, uint32_t count)
{
   const char *sig = ppu_op_signature(f->op);
   unsigned rd = f->op == PPU_OP_SUATOM ? 1 : 4;
   unsigned rb = f->op == PPU_OP_SUST                                 ? 4
                 : f->op == PPU_OP_SUATOM && f->subop != PPU_ATOM_CAS ? 1
                                                                      : 2;
   if (strchr(sig, 'd') && !reg_ok(f->rd, rd, count))
      return "rd beyond the register count or misaligned";
   if (!reg_ok(f->ra, 2, count))
      return "ra beyond the register count or misaligned";
   if (strchr(sig, 'r') && !reg_ok(f->rb, rb, count))
      return "rb beyond the register count or misaligned";
   if (f->rc != PPU_RZ && f->rc + ppu_tex_coord_words(f) > count)
      return "coordinate vector beyond the register count";
   return NULL;
}

/* Word k of the coordinate vector (RZ reads zeros). */
static const uint32_t *coord_word(const struct ppu_exec *x, unsigned k)
{
   return ppu_reg_src(x->w, x->f->rc == PPU_RZ ? PPU_RZ : x->f->rc + k);
}

static enum ppu_exec_result lane_fault(struct ppu_exec *x, unsigned l, const struct ppu_fault *tf)
{
   ppu_exec_fault(x, tf->kind, tf->address, tf->write, "lane %u: %s", l, tf->detail);
   return PPU_EXEC_FAULT;
}

/* The lane's texture header (and sampler when smp is given), checked
 * against the instruction's view type. Consecutive lanes usually share
 * their VAs, so the last header read is reused. */
struct header_reuse {
   bool tex_valid, smp_valid;
   uint64_t tex_va, smp_va;
   struct ppu_texture_header tex;
   struct ppu_sampler_header smp;
};

static bool lane_headers(struct ppu_exec *x, unsigned l, struct header_reuse *r,
                         struct ppu_texture_header *tex, struct ppu_sampler_header *smp)
{
   const struct ppu_insn_fields *f = x->f;
   struct ppu_fault tf;
   uint64_t va = v64(ppu_src64(x->w, f->ra), l);
   if (!r->tex_valid || r->tex_va != va) {
      r->tex_valid = false;
      if (!ppu_tex_header_fetch(&x->sm->mmu, x->grid->pd_pa, va, &r->tex, &tf)) {
         lane_fault(x, l, &tf);
         return false;
      }
      const char *why = ppu_tex_header_matches_dim(&r->tex, f->mode);
      if (why) {
         ppu_exec_fault(x, PPU_FAULT_BAD_TEXTURE_HEADER, va, false,
                        "lane %u: texture header at 0x%llx: %s", l, (unsigned long long)va, why);
         return false;
      }
      /* Vulkan reads multisampled images with OpImageFetch (TLD) and
       * queries alone: no sampler filters samples, and storage access to
       * them (shaderStorageImageMultisample) is not offered. */
      if (r->tex.samples_log2 && f->op != PPU_OP_TLD && f->op != PPU_OP_TXQ) {
         ppu_exec_fault(x, PPU_FAULT_BAD_TEXTURE_HEADER, va, false,
                        "lane %u: texture header at 0x%llx: a 4x view is read by TLD and "
                        "TXQ only",
                        l, (unsigned long long)va);
         return false;
      }
      r->tex_valid = true;
      r->tex_va = va;
   }
   *tex = r->tex;
   if (!smp)
      return true;
   va = v64(ppu_src64(x->w, f->rb), l);
   if (!r->smp_valid || r->smp_va != va) {
      r->smp_valid = false;
      if (!ppu_tex_sampler_fetch(&x->sm->mmu, x->grid->pd_pa, va, &r->smp, &tf)) {
         lane_fault(x, l, &tf);
         return false;
      }
      r->smp_valid = true;
      r->smp_va = va;
   }
   *smp = r->smp;
   return true;
}

struct writeback {
   struct ppu_exec *x;
   uint32_t active;
};

/* The SM reads a quad's values from the TRB (last use) into rd..rd+3. */
static void write_quad(void *ctx, unsigned op, unsigned quad, const uint32_t value[4][4])
{
   struct writeback *wb = ctx;
   (void)op;
   for (unsigned l = 0; l < 4; l++) {
      unsigned lane = 4 * quad + l;
      if (!((wb->active >> lane) & 1u))
         continue;
      for (unsigned c = 0; c < 4; c++)
         ppu_reg_dst(wb->x->w, wb->x->f->rd, c)[lane] = value[l][c];
   }
}

static enum ppu_exec_result exec_texture(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   struct ppu_tex_unit *u = &x->sm->tex;
   struct ppu_tex_instr in;
   memset(&in, 0, sizeof(in));
   in.kind = f->op == PPU_OP_TEX    ? PPU_TEX_KIND_SAMPLE
             : f->op == PPU_OP_TLD4 ? PPU_TEX_KIND_GATHER
                                    : PPU_TEX_KIND_FETCH;
   in.texdim = f->mode;
   in.lod = f->op == PPU_OP_TEX ? f->subop : PPU_TEXLOD_LZ;
   in.component = f->op == PPU_OP_TLD4 ? f->subop : 0;
   in.compare = (f->imm & PPU_TEXIMM_DC) != 0;
   for (unsigned a = 0; a < 3; a++)
      in.offset[a] = (int8_t)ppu_teximm_offset(f->imm, a);
   unsigned words = ppu_tex_coord_words(f);
   ppu_tex_unit_begin_batch(u);
   struct ppu_tex_op *op = ppu_tex_unit_add_op(u, &in, words);
   if (!op)
      return PPU_EXEC_NEXT; /* cannot happen: the batch was just emptied */
   struct header_reuse reuse = {0};
   for (unsigned l = 0; l < LANES; l++) {
      if (!((x->exec >> l) & 1u))
         continue;
      if (!lane_headers(x, l, &reuse, &op->tex[l], op->sampled ? &op->smp[l] : NULL))
         return PPU_EXEC_FAULT;
      op->headers |= 1u << l;
   }
   op->active = x->exec;
   for (unsigned k = 0; k < words; k++)
      ppu_tex_queue_store(&u->queue, 0, k, coord_word(x, k));
   struct writeback wb = {x, x->exec};
   struct ppu_fault tf;
   if (!ppu_tex_unit_run(u, x->grid->pd_pa, write_quad, &wb, &tf)) {
      ppu_exec_fault(x, tf.kind, tf.address, tf.write, "texel fetch: %s", tf.detail);
      return PPU_EXEC_FAULT;
   }
   return PPU_EXEC_NEXT;
}

/* TXQ: sizes in the order of Vulkan's OpImageQuerySizeLod (width, then
 * height or layers, then depth, layers or cubes; a texel buffer's element
 * count), level counts, samples. */
static enum ppu_exec_result exec_txq(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   struct header_reuse reuse = {0};
   const uint32_t *level = coord_word(x, 0);
   for (unsigned l = 0; l < LANES; l++) {
      if (!((x->exec >> l) & 1u))
         continue;
      struct ppu_texture_header h;
      if (!lane_headers(x, l, &reuse, &h, NULL))
         return PPU_EXEC_FAULT;
      uint32_t r[4] = {0, 0, 0, 0};
      if (f->subop == PPU_TXQ_LEVELS) {
         r[0] = h.level_count;
      } else if (f->subop == PPU_TXQ_SAMPLES) {
         r[0] = 1u << h.samples_log2;
      } else if (f->mode == PPU_TEXDIM_BUFFER) {
         /* OpImageQuerySize of a texel buffer: its element count; a buffer
          * has no levels, so the level word is not read. */
         r[0] = h.width;
      } else if (level[l] < h.level_count) {
         unsigned lv = h.base_level + level[l];
         uint32_t w = ppu_tex_level_extent(h.width, lv), ht = ppu_tex_level_extent(h.height, lv);
         /* A 4x view's header holds texels, 2x2 per pixel. */
         if (h.samples_log2)
            w /= 2, ht /= 2;
         uint32_t layers = h.dim == PPU_TEX_DIM_CUBE ? h.layer_count / 6 : h.layer_count;
         r[0] = w;
         switch (f->mode) {
         case PPU_TEXDIM_1DA:
            r[1] = layers;
            break;
         case PPU_TEXDIM_2D:
         case PPU_TEXDIM_CUBE:
            r[1] = ht;
            break;
         case PPU_TEXDIM_2DA:
         case PPU_TEXDIM_CUBEA:
            r[1] = ht;
            r[2] = layers;
            break;
         case PPU_TEXDIM_3D:
            r[1] = ht;
            r[2] = ppu_tex_level_extent(h.depth, lv);
            break;
         default:
            break;
         }
      }
      for (unsigned c = 0; c < 4; c++)
         ppu_reg_dst(x->w, f->rd, c)[l] = r[c];
   }
   return PPU_EXEC_NEXT;
}

static bool storage_format_ok(struct ppu_exec *x, unsigned l, const struct ppu_texture_header *h)
{
   const char *why = NULL;
   if (ppu_tex_format_is_compressed(h->format))
      why = "block-compressed format used as a storage image";
   else if (x->f->op == PPU_OP_SUATOM && h->format != PPU_TEX_FORMAT_R32_UINT &&
            h->format != PPU_TEX_FORMAT_R32_SINT && h->format != PPU_TEX_FORMAT_R32_SFLOAT)
      why = "image atomics need R32_UINT, R32_SINT or R32_SFLOAT";
   else if (x->f->op == PPU_OP_SUATOM && h->format == PPU_TEX_FORMAT_R32_SFLOAT &&
            x->f->subop != PPU_ATOM_EXCH)
      why = "R32_SFLOAT images take atomic EXCH only";
   if (!why)
      return true;
   ppu_exec_fault(x, PPU_FAULT_BAD_TEXTURE_HEADER, v64(ppu_src64(x->w, x->f->ra), l), false,
                  "lane %u: %s", l, why);
   return false;
}

/* SULD, SUST, SUATOM on the view's base level. Out-of-range coordinates
 * follow Vulkan's robust access: atomics return 0, stores and atomics are
 * dropped, and a load reads a texel of zero bits, decoded like any (so a
 * formatted load gives alpha one where the format has no alpha:
 * robustImageAccess2's texel replacement). */
static enum ppu_exec_result exec_storage(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   struct header_reuse reuse = {0};
   unsigned n = ppu_tex_coord_words(f);
   bool store = f->op == PPU_OP_SUST, atomic = f->op == PPU_OP_SUATOM;
   for (unsigned l = 0; l < LANES; l++) {
      if (!((x->exec >> l) & 1u))
         continue;
      struct ppu_texture_header h;
      if (!lane_headers(x, l, &reuse, &h, NULL) || !storage_format_ok(x, l, &h))
         return PPU_EXEC_FAULT;
      int32_t c[3] = {0, 0, 0};
      for (unsigned k = 0; k < n && k < 3; k++)
         c[k] = (int32_t)coord_word(x, k)[l];
      uint64_t va;
      bool in_range = ppu_tex_storage_address(&h, f->mode, c, &va);
      uint32_t bytes = ppu_tex_format_bytes(h.format);
      bool stencil = (h.flags & PPU_TEX_FLAG_STENCIL) != 0;
      uint8_t raw[16] = {0};
      struct ppu_texel t;
      struct ppu_fault tf;
      memset(&t, 0, sizeof(t));
      if (atomic) {
         uint32_t old = 0;
         if (in_range) {
            uint64_t pa;
            if (!ppu_mmu_translate(&x->sm->mmu, x->grid->pd_pa, va, true, &pa, &tf))
               return lane_fault(x, l, &tf);
            ppu_counter_add(&x->sm->counters, PPU_COUNTER_COMPUTE_GLOBAL_ACCESSES, 1);
            const uint32_t *v = ppu_reg_src(x->w, f->rb);
            const uint32_t *cmp = ppu_reg_src(x->w, f->rb == PPU_RZ ? PPU_RZ : f->rb + 1u);
            old = ppu_lsu_atom32(ppu_mmu_host_ptr(x->sm->mmu.mmu, pa), f->subop, f->type, v[l],
                                 f->subop == PPU_ATOM_CAS ? cmp[l] : 0);
         }
         ppu_reg_dst(x->w, f->rd, 0)[l] = old;
         continue;
      }
      if (store) {
         if (!in_range)
            continue;
         for (unsigned k = 0; k < 4; k++)
            t.u[k] = ppu_reg_src(x->w, f->rb == PPU_RZ ? PPU_RZ : f->rb + k)[l];
         if (f->subop == PPU_SUFMT_P)
            ppu_texel_encode((enum ppu_tex_format)h.format, &t, stencil, raw);
         else
            memcpy(raw, t.u, bytes);
         if (!ppu_mmu_write(&x->sm->mmu, x->grid->pd_pa, va, raw, bytes, &tf))
            return lane_fault(x, l, &tf);
         ppu_counter_add(&x->sm->counters, PPU_COUNTER_COMPUTE_GLOBAL_ACCESSES, 1);
         continue;
      }
      if (in_range) {
         if (!ppu_mmu_read(&x->sm->mmu, x->grid->pd_pa, va, raw, bytes, &tf))
            return lane_fault(x, l, &tf);
         ppu_counter_add(&x->sm->counters, PPU_COUNTER_COMPUTE_GLOBAL_ACCESSES, 1);
      }
      if (f->subop == PPU_SUFMT_P)
         ppu_texel_decode((enum ppu_tex_format)h.format, raw, stencil, &t);
      else
         memcpy(t.u, raw, bytes);
      for (unsigned k = 0; k < 4; k++)
         ppu_reg_dst(x->w, f->rd, k)[l] = t.u[k];
   }
   return PPU_EXEC_NEXT;
}

enum ppu_exec_result ppu_exec_tex(struct ppu_exec *x)
{
   if (x->exec == 0)
      return PPU_EXEC_NEXT;
   switch (x->f->op) {
   case PPU_OP_TEX:
   case PPU_OP_TLD:
   case PPU_OP_TLD4:
      return exec_texture(x);
   case PPU_OP_TXQ:
      return exec_txq(x);
   default:
      return exec_storage(x);
   }
}
