/* See ir.h. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

void ir_init(struct ir_program *p)
{
   memset(p, 0, sizeof(*p));
   p->vreg_count = 1; /* vreg 0 is IR_NO_VREG */
   p->first_variable_vreg = UINT32_MAX;
   p->label_count = 1;
}

void ir_free(struct ir_program *p)
{
   free(p->insns);
   free(p->vreg_size);
   free(p->dynamic_local);
   free(p->frames);
   free(p->pinned);
   free(p->extend_lo);
   free(p->extend_hi);
   memset(p, 0, sizeof(*p));
}

uint32_t ir_new_vreg(struct ir_program *p, unsigned regs)
{
   if (p->vreg_count >= p->vreg_cap) {
      uint32_t cap = p->vreg_cap ? p->vreg_cap * 2 : 256;
      uint8_t *n = realloc(p->vreg_size, cap);
      if (!n) {
         p->out_of_memory = true;
         return IR_NO_VREG;
      }
      p->vreg_size = n;
      p->vreg_cap = cap;
   }
   p->vreg_size[p->vreg_count] = (uint8_t)regs;
   return p->vreg_count++;
}

uint32_t ir_new_label(struct ir_program *p)
{
   return p->label_count++;
}

struct ir_insn *ir_emit(struct ir_program *p, enum ppu_op op)
{
   static _Thread_local struct ir_insn dummy; /* only written when out of memory */
   if (p->insn_count >= p->insn_cap) {
      uint32_t cap = p->insn_cap ? p->insn_cap * 2 : 512;
      struct ir_insn *n = realloc(p->insns, (size_t)cap * sizeof(*n));
      if (!n) {
         p->out_of_memory = true;
         memset(&dummy, 0, sizeof(dummy));
         return &dummy;
      }
      p->insns = n;
      p->insn_cap = cap;
   }
   struct ir_insn *i = &p->insns[p->insn_count++];
   memset(i, 0, sizeof(*i));
   ppu_insn_fields_init(&i->f, op);
   return i;
}

bool ir_ends_block(const struct ir_insn *in)
{
   if (in->is_label)
      return true;
   switch ((enum ppu_op)in->f.op) {
   case PPU_OP_BRA:
   case PPU_OP_SSY:
   case PPU_OP_PBK:
   case PPU_OP_PCNT:
   case PPU_OP_SYNC:
   case PPU_OP_BRK:
   case PPU_OP_CONT:
   case PPU_OP_CALL:
   case PPU_OP_RET:
   case PPU_OP_EXIT:
      return true;
   default:
      return false;
   }
}

void ir_emit_label(struct ir_program *p, uint32_t label)
{
   struct ir_insn *i = ir_emit(p, PPU_OP_NOP);
   i->is_label = true;
   i->label = label;
}

void ir_mark_dynamic_local(struct ir_program *p, uint32_t start, uint32_t end)
{
   if (p->dynamic_local_count == p->dynamic_local_cap) {
      uint32_t cap = p->dynamic_local_cap ? p->dynamic_local_cap * 2 : 8;
      struct ir_range *n = realloc(p->dynamic_local, cap * sizeof(*n));
      if (!n) {
         p->out_of_memory = true;
         return;
      }
      p->dynamic_local = n;
      p->dynamic_local_cap = cap;
   }
   p->dynamic_local[p->dynamic_local_count++] = (struct ir_range){start, end};
}

void ir_move_tail(struct ir_program *p, uint32_t from, uint32_t at)
{
   uint32_t n = p->insn_count - from;
   if (!n || at >= from)
      return;
   struct ir_insn *tmp = malloc((size_t)n * sizeof(*tmp));
   if (!tmp) {
      p->out_of_memory = true;
      return;
   }
   memcpy(tmp, &p->insns[from], (size_t)n * sizeof(*tmp));
   memmove(&p->insns[at + n], &p->insns[at], (size_t)(from - at) * sizeof(*tmp));
   memcpy(&p->insns[at], tmp, (size_t)n * sizeof(*tmp));
   free(tmp);
}

uint32_t *ir_label_positions(const struct ir_program *p)
{
   uint32_t *pos = malloc((size_t)p->label_count * sizeof(*pos));
   if (!pos)
      return NULL;
   memset(pos, 0xff, (size_t)p->label_count * sizeof(*pos));
   for (uint32_t i = 0; i < p->insn_count; i++)
      if (p->insns[i].is_label && p->insns[i].label < p->label_count)
         pos[p->insns[i].label] = i;
   return pos;
}

struct ir_insn ir_insn_make(enum ppu_op op, enum ppu_type type)
{
   struct ir_insn i;
   memset(&i, 0, sizeof(i));
   ppu_insn_fields_init(&i.f, op);
   i.f.type = (uint8_t)type;
   return i;
}

void ir_insn_list_push(struct ir_insn_list *l, const struct ir_insn *in)
{
   if (l->n == l->cap) {
      uint32_t cap = l->cap ? l->cap * 2 : 1024;
      struct ir_insn *n = realloc(l->v, (size_t)cap * sizeof(*n));
      if (!n) {
         l->oom = true;
         return;
      }
      l->v = n;
      l->cap = cap;
   }
   l->v[l->n++] = *in;
}

void ir_insn_list_install(struct ir_program *p, struct ir_insn_list *l)
{
   free(p->insns);
   p->insns = l->v;
   p->insn_count = l->n;
   p->insn_cap = l->cap;
   memset(l, 0, sizeof(*l));
}

void ir_successors(const struct ir_program *p, const uint32_t *label_pos, uint32_t i,
                   uint32_t succ[2])
{
   const struct ir_insn *in = &p->insns[i];
   uint32_t next = i + 1 < p->insn_count ? i + 1 : UINT32_MAX;
   bool guarded = (in->f.guard & 7u) != PPU_PT;
   succ[0] = succ[1] = UINT32_MAX;
   if (in->is_label) {
      succ[0] = next;
      return;
   }
   switch ((enum ppu_op)in->f.op) {
   case PPU_OP_CALL:
      if (in->out_of_line) { /* the callee returns here (call_frames.h) */
         succ[0] = next;
         return;
      }
      __attribute__((fallthrough));
   case PPU_OP_BRA:
      succ[0] = label_pos[in->label];
      if (guarded)
         succ[1] = next;
      return;
   case PPU_OP_SYNC:
   case PPU_OP_BRK:
   case PPU_OP_CONT:
   case PPU_OP_RET:
      succ[0] = in->resume ? label_pos[in->resume] : UINT32_MAX;
      if (guarded)
         succ[1] = next;
      return;
   case PPU_OP_EXIT:
      if (guarded)
         succ[0] = next;
      return;
   default:
      succ[0] = next;
      return;
   }
}

static void print_reg(FILE *out, const char *name, uint32_t vreg, unsigned part, unsigned field)
{
   if (vreg && part)
      fprintf(out, " %s=v%u.%u", name, vreg, part);
   else if (vreg)
      fprintf(out, " %s=v%u", name, vreg);
   else if (field != PPU_RZ)
      fprintf(out, " %s=R%u", name, field);
}

/* live_in[i] = use(i) + (live_out(i) - def(i)). A guarded instruction does not kill its
 * destination: lanes whose guard is false keep the old value. */
bool ir_liveness(const struct ir_program *p, const uint32_t *label_pos, uint64_t *live_in,
                 uint32_t words)
{
   uint64_t *out = malloc((size_t)words * sizeof(*out));
   if (!out)
      return false;
   bool changed = true;
   while (changed) {
      changed = false;
      for (uint32_t i = p->insn_count; i-- > 0;) {
         const struct ir_insn *in = &p->insns[i];
         uint32_t succ[2];
         ir_successors(p, label_pos, i, succ);
         memset(out, 0, (size_t)words * sizeof(*out));
         for (int s = 0; s < 2; s++)
            if (succ[s] != UINT32_MAX)
               for (uint32_t w = 0; w < words; w++)
                  out[w] |= live_in[(size_t)succ[s] * words + w];
         if (in->dst && (in->f.guard & 7u) == PPU_PT)
            out[in->dst / 64] &= ~(1ull << (in->dst % 64));
         for (int s = 0; s < 3; s++)
            if (in->src[s])
               out[in->src[s] / 64] |= 1ull << (in->src[s] % 64);
         uint64_t *cur = &live_in[(size_t)i * words];
         if (memcmp(cur, out, (size_t)words * sizeof(*out))) {
            memcpy(cur, out, (size_t)words * sizeof(*out));
            changed = true;
         }
      }
   }
   free(out);
   return true;
}

uint32_t ir_new_frame(struct ir_program *p)
{
   if (p->frame_count == p->frame_cap) {
      uint32_t cap = p->frame_cap ? p->frame_cap * 2 : 8;
      struct ir_frame *n = realloc(p->frames, cap * sizeof(*n));
      if (!n) {
         p->out_of_memory = true;
         return UINT32_MAX;
      }
      p->frames = n;
      p->frame_cap = cap;
   }
   memset(&p->frames[p->frame_count], 0, sizeof(p->frames[0]));
   return p->frame_count++;
}

void ir_print(const struct ir_program *p, FILE *out)
{
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (in->is_label) {
         fprintf(out, "L%u:\n", in->label);
         continue;
      }
      const struct ppu_insn_fields *f = &in->f;
      fprintf(out, "  %4u: ", i);
      if ((f->guard & 7u) != PPU_PT)
         fprintf(out, "@%sP%u ", (f->guard & PPU_PRED_NEG) ? "!" : "", f->guard & 7u);
      fprintf(out, "%s", ppu_op_name((enum ppu_op)f->op));
      const char *sub = ppu_subop_name(ppu_op_subop_class((enum ppu_op)f->op), f->subop);
      if (ppu_op_subop_class((enum ppu_op)f->op) != PPU_SUBOP_NONE && sub)
         fprintf(out, ".%s", sub);
      enum ppu_mode_class mc = ppu_op_mode_class((enum ppu_op)f->op);
      const char *mode = ppu_mode_name(mc, f->mode);
      if (mc != PPU_MODE_NONE && mode)
         fprintf(out, ".%s", mode);
      fprintf(out, ".%s", ppu_type_name((enum ppu_type)f->type));
      print_reg(out, "d", in->dst, in->part[0], f->rd);
      print_reg(out, "a", in->src[0], in->part[1], f->ra);
      if (f->b_imm)
         fprintf(out, " b=#0x%x", f->imm);
      else
         print_reg(out, "b", in->src[1], in->part[2], f->rb);
      print_reg(out, "c", in->src[2], in->part[3], f->rc);
      if ((f->pd & 7u) != PPU_PT)
         fprintf(out, " pd=P%u", f->pd & 7u);
      if ((f->ps & 7u) != PPU_PT)
         fprintf(out, " ps=%sP%u", (f->ps & PPU_PRED_NEG) ? "!" : "", f->ps & 7u);
      if (in->label)
         fprintf(out, " ->L%u", in->label);
      if (in->resume)
         fprintf(out, " resume L%u", in->resume);
      if (!f->b_imm && f->imm)
         fprintf(out, " imm=0x%x", f->imm);
      fputc('\n', out);
   }
}
