/* See call_frames.h. */
#include "call_frames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LD/ST.LOCAL of vreg v (register part `part`) at [addr + offset]. */
static void local_access(struct ir_insn_list *l, bool is_store, enum ppu_type type, uint32_t v,
                         uint8_t part, uint32_t addr, uint32_t offset)
{
   struct ir_insn i = ir_insn_make(is_store ? PPU_OP_ST : PPU_OP_LD, type);
   i.f.mode = PPU_SPACE_LOCAL;
   i.f.imm = offset;
   i.src[0] = addr;
   i.local_ref = IR_LOCAL_ABSOLUTE;
   if (is_store) {
      i.src[1] = v;
      i.part[2] = part;
   } else {
      i.dst = v;
      i.part[0] = part;
   }
   ir_insn_list_push(l, &i);
}

static uint32_t align_up(uint32_t x, uint32_t a)
{
   return (x + a - 1) & ~(a - 1);
}

static bool is_local_access(const struct ir_insn *in)
{
   return !in->is_label && (in->f.op == PPU_OP_LD || in->f.op == PPU_OP_ST) &&
          in->f.mode == PPU_SPACE_LOCAL;
}

static uint32_t frame_of_offset(const struct ir_program *p, uint32_t offset)
{
   for (uint32_t k = 0; k < p->frame_count; k++)
      if (offset >= p->frames[k].lo && offset < p->frames[k].hi)
         return k;
   return UINT32_MAX;
}

/* Where a function's save area starts in its frame. */
static uint32_t save_base(const struct ir_frame *f)
{
   return IR_FRAME_HEADER + align_up(f->hi - f->lo, 16);
}

/* Static offsets become offsets from the frame base of their function. */
static bool rebase(struct ir_program *p, struct ir_insn_list *l, char *err, size_t err_size)
{
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn in = p->insns[i];
      if (is_local_access(&in) && in.local_ref == IR_LOCAL_STATIC) {
         uint32_t k = frame_of_offset(p, in.f.imm);
         if (k == UINT32_MAX) {
            snprintf(err, err_size,
                     "compiler: internal: local offset 0x%x belongs to no function's frame",
                     in.f.imm);
            return false;
         }
         uint32_t fbase = p->frames[k].fbase;
         if (in.src[0]) {
            uint32_t sum = ir_new_vreg(p, 1);
            struct ir_insn add = ir_insn_make(PPU_OP_IADD, PPU_TYPE_U32);
            add.dst = sum;
            add.src[0] = in.src[0];
            add.src[1] = fbase;
            ir_insn_list_push(l, &add);
            in.src[0] = sum;
         } else {
            in.src[0] = fbase;
         }
         in.local_ref = IR_LOCAL_ABSOLUTE;
      }
      ir_insn_list_push(l, &in);
   }
   return !l->oom && !p->out_of_memory;
}

static enum ppu_type word_type(unsigned regs)
{
   return regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32;
}

/* Which function's code each instruction range is, and which functions
 * each one may reach through calls. */
struct call_graph {
   uint32_t n;            /* frames */
   uint32_t *start, *end; /* code range of each frame's function */
   bool *reach;           /* reach[a * n + b]: function a may call b, directly or not */
};

static uint32_t frame_of_label(const struct ir_program *p, uint32_t label)
{
   for (uint32_t k = 0; k < p->frame_count; k++)
      if (p->frames[k].entry_label == label && label != IR_NO_LABEL)
         return k;
   return UINT32_MAX;
}

static bool is_out_of_line_call(const struct ir_insn *in)
{
   return !in->is_label && in->f.op == PPU_OP_CALL && in->out_of_line;
}

static bool call_graph_build(const struct ir_program *p, const uint32_t *label_pos,
                             struct call_graph *g)
{
   uint32_t n = p->frame_count;
   g->n = n;
   g->start = calloc(n, sizeof(uint32_t));
   g->end = calloc(n, sizeof(uint32_t));
   g->reach = calloc((size_t)n * n, sizeof(bool));
   if (!g->start || !g->end || !g->reach)
      return false;
   /* Functions are laid out one after another after the root's code. */
   for (uint32_t k = 0; k < n; k++) {
      uint32_t label = p->frames[k].entry_label;
      g->start[k] = label == IR_NO_LABEL ? 0 : label_pos[label];
   }
   for (uint32_t k = 0; k < n; k++) {
      g->end[k] = p->insn_count;
      for (uint32_t m = 0; m < n; m++)
         if (g->start[m] > g->start[k] && g->start[m] < g->end[k])
            g->end[k] = g->start[m];
   }
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      uint32_t callee = is_out_of_line_call(in) ? frame_of_label(p, in->label) : UINT32_MAX;
      if (callee != UINT32_MAX && in->frame_func < n)
         g->reach[in->frame_func * n + callee] = true;
   }
   for (uint32_t m = 0; m < n; m++)
      for (uint32_t a = 0; a < n; a++)
         if (g->reach[a * n + m])
            for (uint32_t b = 0; b < n; b++)
               g->reach[a * n + b] |= g->reach[m * n + b];
   return true;
}

static void call_graph_free(struct call_graph *g)
{
   free(g->start);
   free(g->end);
   free(g->reach);
}

/* Per vreg, the functions (bit per frame) whose code it must keep its
 * register over; turned into instruction ranges once the calls are
 * lowered (positions move as saves are inserted). */
struct keep_marks {
   uint64_t *bits;
   uint32_t words; /* per vreg */
   uint32_t count; /* vregs */
};

static void mark(struct keep_marks *k, uint32_t v, uint32_t frame)
{
   if (v < k->count)
      k->bits[(size_t)v * k->words + frame / 64] |= 1ull << (frame % 64);
}

/* A call whose callee cannot come back into the caller's function: what
 * is live across it keeps its register over the code the callee can
 * reach, so no register needs saving; only the stack slot is set back to
 * the caller's sp. */
static void keep_across_call(struct ir_program *p, struct keep_marks *k, const struct ir_insn *call,
                             uint32_t callee, const uint64_t *after, uint32_t words,
                             struct ir_insn_list *l)
{
   const struct ir_frame *f = &p->frames[call->frame_func];
   mark(k, f->sp, callee);
   for (uint32_t w = 0; after && w < words; w++)
      for (uint64_t bits = after[w]; bits; bits &= bits - 1)
         mark(k, w * 64 + (uint32_t)__builtin_ctzll(bits), callee);
   ir_insn_list_push(l, call);
   local_access(l, true, PPU_TYPE_U32, f->sp, 0, 0, IR_STACK_SLOT);
}

/* Turns the marks into p->extend_lo / extend_hi over the final code. */
static bool apply_marks(struct ir_program *p, const struct keep_marks *k)
{
   uint32_t *label_pos = ir_label_positions(p);
   struct call_graph g = {0};
   p->extend_lo = calloc(k->count + 1, sizeof(uint32_t));
   p->extend_hi = calloc(k->count + 1, sizeof(uint32_t));
   bool ok = label_pos && p->extend_lo && p->extend_hi && call_graph_build(p, label_pos, &g);
   if (ok)
      p->extend_count = k->count;
   for (uint32_t v = 0; ok && v < k->count; v++) {
      uint32_t lo = UINT32_MAX, hi = 0;
      for (uint32_t c = 0; c < g.n; c++) {
         if (!(k->bits[(size_t)v * k->words + c / 64] >> (c % 64) & 1u))
            continue;
         for (uint32_t m = 0; m < g.n; m++) {
            if (m != c && !g.reach[c * g.n + m])
               continue;
            lo = g.start[m] < lo ? g.start[m] : lo;
            hi = g.end[m] > hi ? g.end[m] : hi;
         }
      }
      if (lo < hi) {
         p->extend_lo[v] = lo;
         p->extend_hi[v] = hi;
      }
   }
   call_graph_free(&g);
   free(label_pos);
   return ok;
}

/* A call that may come back into the caller's function (recursion): the
 * callee may use any register, so the caller saves what is live across
 * the call in its frame's save area and loads it back after. */
static void save_across_call(struct ir_program *p, const struct ir_insn *call,
                             const uint64_t *after, uint32_t words, struct ir_insn_list *l)
{
   struct ir_frame *f = &p->frames[call->frame_func];
   uint32_t base = save_base(f), offset = base;
   /* Saves before the call, in vreg order; restores replay the same
    * layout. */
   for (int pass = 0; pass < 2; pass++) {
      uint32_t sp = f->sp;
      if (pass == 1) {
         ir_insn_list_push(l, call);
         /* The slot holds this call's callee sp, 16-byte frames above. */
         uint32_t top = ir_new_vreg(p, 1);
         sp = ir_new_vreg(p, 1);
         local_access(l, false, PPU_TYPE_U32, top, 0, 0, IR_STACK_SLOT);
         struct ir_insn sub = ir_insn_make(PPU_OP_IADD, PPU_TYPE_U32);
         sub.dst = sp;
         sub.src[0] = top;
         sub.f.b_imm = true;
         sub.frame_fixup = IR_FRAME_MINUS;
         sub.frame_func = call->frame_func;
         ir_insn_list_push(l, &sub);
         local_access(l, true, PPU_TYPE_U32, sp, 0, 0, IR_STACK_SLOT);
         offset = base;
      }
      for (uint32_t w = 0; after && w < words; w++) {
         for (uint64_t bits = after[w]; bits; bits &= bits - 1) {
            uint32_t v = w * 64 + (uint32_t)__builtin_ctzll(bits);
            unsigned regs = p->vreg_size[v];
            if (regs == 2)
               offset = align_up(offset, 8);
            if (regs == 4) {
               for (uint8_t part = 0; part < 4; part++)
                  local_access(l, pass == 0, PPU_TYPE_U32, v, part, sp, offset + 4u * part);
            } else {
               local_access(l, pass == 0, word_type(regs), v, 0, sp, offset);
            }
            offset += 4u * regs;
         }
      }
   }
   if (offset - base > f->save_bytes)
      f->save_bytes = offset - base;
}

/* Saves or keeps what is live across each out-of-line CALL (see
 * call_frames.h). */
static bool lower_calls(struct ir_program *p, struct ir_insn_list *l, struct keep_marks *k)
{
   uint32_t nv = p->vreg_count, words = (nv + 63) / 64;
   uint32_t *label_pos = ir_label_positions(p);
   uint64_t *live = calloc((size_t)p->insn_count * words + 1, sizeof(uint64_t));
   struct call_graph g = {0};
   bool ok = label_pos && live && ir_liveness(p, label_pos, live, words) &&
             call_graph_build(p, label_pos, &g);
   /* What is live where a function starts comes from outside it (the
    * program's prologue): it must survive every call of it, recursive
    * ones included, so it keeps its register everywhere. */
   p->pinned = ok ? calloc(words + 1, sizeof(uint64_t)) : NULL;
   k->words = (p->frame_count + 63) / 64;
   k->bits = ok ? calloc((size_t)nv * k->words + 1, sizeof(uint64_t)) : NULL;
   ok = ok && p->pinned && k->bits;
   if (ok) {
      p->pinned_words = words;
      k->count = nv;
   }
   for (uint32_t i = 0; ok && i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (!is_out_of_line_call(in) || label_pos[in->label] == UINT32_MAX)
         continue;
      for (uint32_t w = 0; w < words; w++)
         p->pinned[w] |= live[(size_t)label_pos[in->label] * words + w];
   }
   for (uint32_t i = 0; ok && i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (!is_out_of_line_call(in)) {
         ir_insn_list_push(l, in);
         continue;
      }
      const uint64_t *after = i + 1 < p->insn_count ? &live[(size_t)(i + 1) * words] : NULL;
      uint32_t caller = in->frame_func, callee = frame_of_label(p, in->label);
      bool recursive = p->save_all_calls || callee == UINT32_MAX || caller >= g.n ||
                       callee == caller || g.reach[callee * g.n + caller];
      if (recursive)
         save_across_call(p, in, after, words, l);
      else
         keep_across_call(p, k, in, callee, after, words, l);
   }
   call_graph_free(&g);
   free(label_pos);
   free(live);
   return ok && !l->oom && !p->out_of_memory;
}

bool ir_lower_call_frames(struct ir_program *p, char *err, size_t err_size)
{
   struct ir_insn_list l = {0};
   if (!rebase(p, &l, err, err_size)) {
      free(l.v);
      if (!err[0])
         snprintf(err, err_size, "compiler: out of memory");
      return false;
   }
   ir_insn_list_install(p, &l);
   struct keep_marks marks = {0};
   if (!lower_calls(p, &l, &marks)) {
      free(l.v);
      free(marks.bits);
      snprintf(err, err_size, "compiler: out of memory");
      return false;
   }
   ir_insn_list_install(p, &l);
   bool kept = apply_marks(p, &marks);
   free(marks.bits);
   if (!kept) {
      snprintf(err, err_size, "compiler: out of memory");
      return false;
   }
   for (uint32_t k = 0; k < p->frame_count; k++) {
      struct ir_frame *f = &p->frames[k];
      f->frame_bytes = align_up(save_base(f) + f->save_bytes, 16);
   }
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn *in = &p->insns[i];
      if (in->is_label || in->frame_fixup == IR_FRAME_NONE)
         continue;
      uint32_t bytes = p->frames[in->frame_func].frame_bytes;
      in->f.imm = in->frame_fixup == IR_FRAME_PLUS ? bytes : 0u - bytes;
   }
   return true;
}
