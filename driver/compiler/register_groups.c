/* See optimize.h: register-group moves.
 *
 * Translation builds a texture instruction's coordinate vector with one
 * `MOV g.k, s` per register and takes its result quad apart with one
 * `MOV d, q.k` per component (translate_image.c). Most of those moves are
 * removable:
 *
 * - when s has a single definition and this is its only use, and the
 *   definition is in the same basic block, the definition writes g.k
 *   directly. Within one block the group's interval [definition, texture
 *   instruction] has no back edge, so no other value can be placed in g's
 *   registers while a part waits there (across blocks a loop could, since
 *   liveness sees each partial write as killing g);
 * - when d has a single definition (the move), its readers read q.k: q is
 *   the texture instruction's single-definition result, so this is copy
 *   propagation with a register offset.
 *
 * It runs last, after dead-code elimination: no later pass swaps operands
 * without their parts. */
#include <stdlib.h>

#include "optimize.h"

static bool is_unguarded(const struct ir_insn *in)
{
   return !in->is_label && (in->f.guard & 7u) == PPU_PT && (in->f.ps & 7u) == PPU_PT &&
          (in->f.ps2 & 7u) == PPU_PT;
}

static bool is_plain_mov(const struct ir_insn *in)
{
   return is_unguarded(in) && in->f.op == PPU_OP_MOV && in->f.type == PPU_TYPE_U32 &&
          !in->f.b_imm && in->dst && in->src[1];
}

/* MOV g.k, s: s's definition, earlier in the block, writes g.k instead.
 * kept: the instructions already kept, p->insns[0, kept). */
static bool fold_into_definition(struct ir_program *p, const struct ir_insn *mov, uint32_t kept,
                                 const uint32_t *defs, const uint32_t *uses)
{
   uint32_t s = mov->src[1];
   if (p->vreg_size[mov->dst] < 2 || p->vreg_size[s] != 1 || mov->part[2] || defs[s] != 1 ||
       uses[s] != 1 || s >= p->first_variable_vreg)
      return false;
   for (uint32_t j = kept; j-- > 0;) {
      struct ir_insn *def = &p->insns[j];
      if (ir_ends_block(def))
         return false;
      if (def->dst != s)
         continue;
      if (!is_unguarded(def) || def->part[0])
         return false;
      def->dst = mov->dst;
      def->part[0] = mov->part[0];
      return true;
   }
   return false;
}

void ir_coalesce_register_groups(struct ir_program *p)
{
   uint32_t *defs = calloc(p->vreg_count, sizeof(uint32_t));
   uint32_t *uses = calloc(p->vreg_count, sizeof(uint32_t));
   uint32_t *quad = calloc(p->vreg_count, sizeof(uint32_t)); /* d -> q of MOV d, q.k */
   uint8_t *part = calloc(p->vreg_count, 1);
   bool *is_texture_result = calloc(p->vreg_count, sizeof(bool));
   if (!defs || !uses || !quad || !part || !is_texture_result)
      goto done;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (in->dst)
         defs[in->dst]++;
      if (in->dst && !in->is_label && ppu_op_is_texture((enum ppu_op)in->f.op))
         is_texture_result[in->dst] = true;
      for (int s = 0; s < 3; s++)
         if (in->src[s])
            uses[in->src[s]]++;
   }
   uint32_t out = 0;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn *in = &p->insns[i];
      bool removed = false;
      if (is_plain_mov(in) && in->part[0] == 0 && p->vreg_size[in->dst] == 1 &&
          p->vreg_size[in->src[1]] == 4 && is_texture_result[in->src[1]] && defs[in->src[1]] == 1 &&
          defs[in->dst] == 1 && in->dst < p->first_variable_vreg) {
         quad[in->dst] = in->src[1];
         part[in->dst] = in->part[2];
         removed = true;
      } else if (is_plain_mov(in)) {
         removed = fold_into_definition(p, in, out, defs, uses);
      }
      if (!removed)
         p->insns[out++] = *in;
   }
   p->insn_count = out;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn *in = &p->insns[i];
      for (int s = 0; s < 3; s++) {
         uint32_t v = in->src[s];
         if (v && quad[v]) {
            in->src[s] = quad[v];
            in->part[s + 1] = part[v];
         }
      }
   }
done:
   free(defs);
   free(uses);
   free(quad);
   free(part);
   free(is_texture_result);
}
