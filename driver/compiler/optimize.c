/* See optimize.h.
 *
 * Translation gives every SPIR-V result fresh vregs, so most vregs have a
 * single definition (the exceptions are phi and return-value vregs, which
 * are written on several paths). A single-definition vreg behaves like an
 * SSA value: its definition dominates its uses (SPIR-V spec 2.16
 * "Universal Validation Rules"), which is what makes the rewrites below
 * safe. Instructions that read predicates or have a guard are left alone,
 * because P0 is scratch that changes between them. */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

struct counts {
   uint32_t *defs, *uses;
};

static bool count(const struct ir_program *p, struct counts *c)
{
   c->defs = calloc(p->vreg_count, sizeof(uint32_t));
   c->uses = calloc(p->vreg_count, sizeof(uint32_t));
   if (!c->defs || !c->uses)
      return false;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (in->dst)
         c->defs[in->dst] += in->dst >= p->first_variable_vreg ? 2 : 1;
      for (int s = 0; s < 3; s++)
         if (in->src[s])
            c->uses[in->src[s]]++;
   }
   return true;
}

static void free_counts(struct counts *c)
{
   free(c->defs);
   free(c->uses);
}

static bool reads_predicates(const struct ir_insn *in)
{
   return (in->f.guard & 7u) != PPU_PT || (in->f.ps & 7u) != PPU_PT || (in->f.ps2 & 7u) != PPU_PT;
}

/* No effect besides writing dst (so it may be removed when dst is dead). */
static bool is_pure(const struct ir_insn *in)
{
   /* A frame-size immediate is filled in after optimization
    * (call_frames.h): keep it apart from computations it may look like. */
   if (ir_ends_block(in) || (in->f.pd & 7u) != PPU_PT || in->frame_fixup)
      return false;
   switch ((enum ppu_op)in->f.op) {
   case PPU_OP_ST:
   case PPU_OP_ATOM:
   case PPU_OP_TTU: /* changes the ray query object in local memory */
   case PPU_OP_SUATOM:
   case PPU_OP_BAR:
   case PPU_OP_MEMBAR:
   case PPU_OP_ISETP:
   case PPU_OP_FSETP:
   case PPU_OP_PLOP:
   case PPU_OP_NOP:
      return false;
   default:
      return in->dst != 0;
   }
}

/* Pure and independent of memory and of the other lanes: may be merged. */
static bool is_cse_candidate(const struct ir_insn *in)
{
   if (!is_pure(in) || reads_predicates(in))
      return false;
   /* Texture reads see image stores (SUST, SUATOM) between them. */
   if (ppu_op_is_texture((enum ppu_op)in->f.op))
      return false;
   switch ((enum ppu_op)in->f.op) {
   case PPU_OP_LD:
   case PPU_OP_SHFL:
   case PPU_OP_VOTE:
   case PPU_OP_WRED:
      return false;
   case PPU_OP_S2R:
      return in->f.imm != PPU_SR_CLOCK_LO && in->f.imm != PPU_SR_CLOCK_HI;
   default:
      return true;
   }
}

static bool is_commutative(enum ppu_op op)
{
   switch (op) {
   case PPU_OP_IADD:
   case PPU_OP_IMUL:
   case PPU_OP_AND:
   case PPU_OP_OR:
   case PPU_OP_XOR:
   case PPU_OP_FADD:
   case PPU_OP_FMUL:
   case PPU_OP_IMIN:
   case PPU_OP_IMAX:
   case PPU_OP_FMIN:
   case PPU_OP_FMAX:
      return true;
   default:
      return false;
   }
}

static bool takes_b_operand(enum ppu_op op)
{
   const char *sig = ppu_op_signature(op);
   return sig && strchr(sig, 'b') != NULL;
}

static bool is_32bit_type(uint8_t type)
{
   return type == PPU_TYPE_U32 || type == PPU_TYPE_S32 || type == PPU_TYPE_F32;
}

static uint32_t resolve(uint32_t *repl, uint32_t v)
{
   while (v && repl[v] != v)
      v = repl[v];
   return v;
}

static void apply_replacements(struct ir_program *p, uint32_t *repl)
{
   for (uint32_t i = 0; i < p->insn_count; i++)
      for (int s = 0; s < 3; s++)
         p->insns[i].src[s] = resolve(repl, p->insns[i].src[s]);
}

/* MOV d, #imm with a single definition: fold into the b operand of users. */
static void propagate_constants(struct ir_program *p, const struct counts *c)
{
   bool *is_const = calloc(p->vreg_count, sizeof(bool));
   uint32_t *value = calloc(p->vreg_count, sizeof(uint32_t));
   if (!is_const || !value)
      goto done;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (!in->is_label && in->f.op == PPU_OP_MOV && in->f.type == PPU_TYPE_U32 && in->f.b_imm &&
          in->dst && c->defs[in->dst] == 1 && !reads_predicates(in)) {
         is_const[in->dst] = true;
         value[in->dst] = in->f.imm;
      }
   }
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn *in = &p->insns[i];
      if (in->is_label || !takes_b_operand((enum ppu_op)in->f.op) || in->f.b_imm ||
          !is_32bit_type(in->f.type))
         continue;
      if (is_commutative((enum ppu_op)in->f.op) && in->src[0] && is_const[in->src[0]] &&
          in->src[1] && !is_const[in->src[1]]) {
         uint32_t t = in->src[0];
         in->src[0] = in->src[1];
         in->src[1] = t;
      }
      if (in->src[1] && is_const[in->src[1]]) {
         in->f.imm = value[in->src[1]];
         in->f.b_imm = true;
         in->src[1] = 0;
         in->f.rb = PPU_RZ;
      }
   }
done:
   free(is_const);
   free(value);
}

/* Evaluates a 32-bit integer operation on constants; false when it is not
 * one this pass folds. Semantics as docs/isa.md (shift counts mod 32). */
static bool fold_u32(const struct ir_insn *in, uint32_t a, uint32_t b, uint32_t *r)
{
   bool s32 = in->f.type == PPU_TYPE_S32;
   if (in->f.type != PPU_TYPE_U32 && !s32)
      return false;
   switch ((enum ppu_op)in->f.op) {
   case PPU_OP_IADD:
      *r = a + b;
      return true;
   case PPU_OP_ISUB:
      *r = a - b;
      return true;
   case PPU_OP_IMUL:
      *r = a * b;
      return true;
   case PPU_OP_AND:
      *r = a & b;
      return true;
   case PPU_OP_OR:
      *r = a | b;
      return true;
   case PPU_OP_XOR:
      *r = a ^ b;
      return true;
   case PPU_OP_SHL:
      *r = a << (b & 31);
      return true;
   case PPU_OP_SHR:
      *r = s32 ? (uint32_t)((int32_t)a >> (b & 31)) : a >> (b & 31);
      return true;
   default:
      return false;
   }
}

/* An operation whose operands are all constants becomes MOV #result. */
static void fold_constants(struct ir_program *p, const struct counts *c)
{
   bool *is_const = calloc(p->vreg_count, sizeof(bool));
   uint32_t *value = calloc(p->vreg_count, sizeof(uint32_t));
   if (!is_const || !value)
      goto done;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn *in = &p->insns[i];
      if (in->is_label || !in->dst || c->defs[in->dst] != 1 || reads_predicates(in))
         continue;
      uint32_t r;
      if (in->f.op == PPU_OP_MOV && in->f.type == PPU_TYPE_U32 && in->f.b_imm) {
         is_const[in->dst] = true;
         value[in->dst] = in->f.imm;
      } else if (in->f.b_imm && in->src[0] && is_const[in->src[0]] && !in->src[2] &&
                 !in->frame_fixup && fold_u32(in, value[in->src[0]], in->f.imm, &r)) {
         /* Blocks are placed in an order where dominators come first
          * (SPIR-V spec 2.16.1), so the forward scan has seen the
          * single definition of every constant operand. */
         ppu_insn_fields_init(&in->f, PPU_OP_MOV);
         in->f.b_imm = true;
         in->f.imm = r;
         in->src[0] = in->src[1] = 0;
         is_const[in->dst] = true;
         value[in->dst] = r;
      }
   }
done:
   free(is_const);
   free(value);
}

/* A plain register copy: unguarded MOV d, s of whole vregs of one size. */
static bool is_plain_copy(const struct ir_program *p, const struct ir_insn *in)
{
   if (in->is_label || in->f.op != PPU_OP_MOV || in->f.b_imm || !in->dst || !in->src[1] ||
       reads_predicates(in) || in->part[0] || in->part[2] ||
       p->vreg_size[in->dst] != p->vreg_size[in->src[1]])
      return false;
   /* A 32-bit move out of the low half of a pair is not a copy. */
   return (in->f.type == PPU_TYPE_U64) == (p->vreg_size[in->src[1]] == 2);
}

/* MOV d, s where both have a single definition: uses of d read s. */
static void propagate_copies(struct ir_program *p, const struct counts *c, uint32_t *repl)
{
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (is_plain_copy(p, in) && c->defs[in->dst] == 1 && c->defs[in->src[1]] == 1)
         repl[in->dst] = in->src[1];
   }
   apply_replacements(p, repl);
}

/* MOV d, v where v is written more than once (a promoted variable or a
 * phi) and d once: when every use of d follows in the same basic block
 * before v is written again, those uses read v and the move dies. This is
 * the copy a load of a variable leaves behind (propagate_copies takes only
 * single-definition sources). */
static void forward_variable_reads(struct ir_program *p, const struct counts *c)
{
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *mov = &p->insns[i];
      if (!is_plain_copy(p, mov) || c->defs[mov->dst] != 1 || c->defs[mov->src[1]] == 1)
         continue;
      uint32_t d = mov->dst, v = mov->src[1], seen = 0, end = i + 1;
      bool clean = true;
      for (; end < p->insn_count && seen < c->uses[d]; end++) {
         const struct ir_insn *in = &p->insns[end];
         if (in->is_label)
            break;
         for (int s = 0; s < 3; s++) {
            if (in->src[s] == d) {
               seen++;
               clean &= in->part[s + 1] == 0;
            }
         }
         /* Reads come before the write within one instruction. */
         if (in->dst == v || ir_ends_block(in))
            break;
      }
      if (seen != c->uses[d] || !clean)
         continue;
      for (uint32_t k = i + 1; k <= end && k < p->insn_count; k++)
         for (int s = 0; s < 3; s++)
            if (p->insns[k].src[s] == d)
               p->insns[k].src[s] = v;
   }
}

/* X t, ...; MOV v, t where t is written once and read only by the move, in
 * one basic block with v neither read nor written in between: X writes v
 * directly. This is the copy a store to a variable leaves behind. The
 * moves that become unneeded are removed. */
static void coalesce_variable_writes(struct ir_program *p, const struct counts *c)
{
   uint32_t *def_at = malloc(p->vreg_count * sizeof(uint32_t));
   bool *drop = calloc(p->insn_count ? p->insn_count : 1, sizeof(bool));
   if (!def_at || !drop)
      goto done;
   for (uint32_t v = 0; v < p->vreg_count; v++)
      def_at[v] = UINT32_MAX;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (!in->is_label && in->dst && c->defs[in->dst] == 1)
         def_at[in->dst] = i;
   }
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn *mov = &p->insns[i];
      if (!is_plain_copy(p, mov) || c->defs[mov->src[1]] != 1 || c->uses[mov->src[1]] != 1)
         continue;
      uint32_t t = mov->src[1], v = mov->dst, at = def_at[t];
      if (at == UINT32_MAX || at >= i)
         continue;
      struct ir_insn *x = &p->insns[at];
      if (x->part[0] || (x->f.guard & 7u) != PPU_PT || x->frame_fixup || ir_ends_block(x))
         continue;
      bool ok = true;
      for (uint32_t k = at + 1; k < i && ok; k++) {
         const struct ir_insn *in = &p->insns[k];
         ok = !ir_ends_block(in) && !drop[k] && in->dst != v;
         for (int s = 0; s < 3 && ok; s++)
            ok = in->src[s] != v;
      }
      for (int s = 0; s < 3 && ok; s++)
         ok = x->src[s] != t;
      if (!ok)
         continue;
      x->dst = v;
      drop[i] = true;
   }
   uint32_t out = 0;
   for (uint32_t i = 0; i < p->insn_count; i++)
      if (!drop[i])
         p->insns[out++] = p->insns[i];
   p->insn_count = out;
done:
   free(def_at);
   free(drop);
}

/* SEL d, RZ, 1, !P0 (a comparison's result as a bool, xl_p0_to_bool). */
static bool is_p0_to_bool(const struct ir_insn *in)
{
   return !in->is_label && in->f.op == PPU_OP_SEL && in->f.type == PPU_TYPE_U32 && in->dst &&
          !in->src[0] && in->f.ra == PPU_RZ && in->f.b_imm && in->f.imm == 1 &&
          in->f.ps == (0 | PPU_PRED_NEG) && (in->f.guard & 7u) == PPU_PT;
}

/* ISETP.NE P0, v, RZ, PT (a bool back into P0, xl_bool_to_p0). */
static bool is_bool_to_p0(const struct ir_insn *in, uint32_t v)
{
   return !in->is_label && in->f.op == PPU_OP_ISETP && in->f.type == PPU_TYPE_U32 &&
          in->f.subop == PPU_CMP_NE && in->src[0] == v && !in->src[1] && !in->f.b_imm &&
          in->f.rb == PPU_RZ && in->f.pd == 0 && in->f.ps == PPU_PT && (in->f.guard & 7u) == PPU_PT;
}

/* A comparison turned into a bool and straight back into P0 (a branch on
 * a compare): P0 still holds the value, so the second test goes (and the
 * bool with it when nothing else reads it). Between the two only
 * reconvergence pushes and instructions that leave P0 alone may stand. */
static void drop_bool_round_trips(struct ir_program *p)
{
   uint32_t out = 0;
   uint32_t sel = UINT32_MAX; /* index (in the output) of the last SEL seen */
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (sel != UINT32_MAX && is_bool_to_p0(in, p->insns[sel].dst))
         continue;
      if (is_p0_to_bool(in))
         sel = out;
      else if (in->is_label ||
               (ir_ends_block(in) && in->f.op != PPU_OP_SSY && in->f.op != PPU_OP_PBK &&
                in->f.op != PPU_OP_PCNT) ||
               (in->f.pd & 7u) != PPU_PT || (sel != UINT32_MAX && in->dst == p->insns[sel].dst))
         sel = UINT32_MAX;
      p->insns[out++] = *in;
   }
   p->insn_count = out;
}

/* An unguarded BRA to the label right after it does nothing. */
static void drop_branches_to_next(struct ir_program *p)
{
   uint32_t out = 0;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      if (!in->is_label && in->f.op == PPU_OP_BRA && (in->f.guard & 7u) == PPU_PT) {
         bool next = false;
         for (uint32_t k = i + 1; k < p->insn_count && p->insns[k].is_label && !next; k++)
            next = p->insns[k].label == in->label;
         if (next)
            continue;
      }
      p->insns[out++] = *in;
   }
   p->insn_count = out;
}

static bool same_computation(const struct ir_insn *a, const struct ir_insn *b)
{
   return a->f.op == b->f.op && a->f.type == b->f.type && a->f.type2 == b->f.type2 &&
          a->f.subop == b->f.subop && a->f.mode == b->f.mode && a->f.b_imm == b->f.b_imm &&
          a->f.imm == b->f.imm && a->f.ra == b->f.ra && a->f.rb == b->f.rb && a->f.rc == b->f.rc &&
          a->src[0] == b->src[0] && a->src[1] == b->src[1] && a->src[2] == b->src[2] &&
          memcmp(a->part, b->part, sizeof(a->part)) == 0;
}

/* Within a basic block, a repeated computation reads the first result. */
static void eliminate_common_subexpressions(struct ir_program *p, const struct counts *c,
                                            uint32_t *repl)
{
   uint32_t block_start = 0;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn *in = &p->insns[i];
      if (ir_ends_block(in)) {
         block_start = i + 1;
         continue;
      }
      for (int s = 0; s < 3; s++)
         in->src[s] = resolve(repl, in->src[s]);
      if (!is_cse_candidate(in) || c->defs[in->dst] != 1)
         continue;
      bool srcs_ssa = true;
      for (int s = 0; s < 3; s++)
         if (in->src[s] && c->defs[in->src[s]] != 1)
            srcs_ssa = false;
      if (!srcs_ssa)
         continue;
      uint32_t lo = i > block_start + 64 ? i - 64 : block_start;
      for (uint32_t k = i; k-- > lo;) {
         const struct ir_insn *prev = &p->insns[k];
         if (is_cse_candidate(prev) && c->defs[prev->dst] == 1 && same_computation(prev, in) &&
             p->vreg_size[prev->dst] == p->vreg_size[in->dst]) {
            repl[in->dst] = prev->dst;
            break;
         }
      }
   }
   apply_replacements(p, repl);
}

static void eliminate_dead_code(struct ir_program *p)
{
   bool changed = true;
   while (changed) {
      changed = false;
      struct counts c;
      if (!count(p, &c)) {
         free_counts(&c);
         return;
      }
      uint32_t out = 0;
      for (uint32_t i = 0; i < p->insn_count; i++) {
         const struct ir_insn *in = &p->insns[i];
         if (is_pure(in) && c.uses[in->dst] == 0) {
            changed = true;
            continue;
         }
         p->insns[out++] = *in;
      }
      p->insn_count = out;
      free_counts(&c);
   }
}

static bool is_dynamic_local(const struct ir_program *p, uint32_t offset)
{
   for (uint32_t k = 0; k < p->dynamic_local_count; k++)
      if (offset >= p->dynamic_local[k].start && offset < p->dynamic_local[k].end)
         return true;
   return false;
}

/* Local memory at a constant address is a per-thread variable, as a
 * register is: promote every slot that is only ever accessed at constant
 * addresses, with one width, to a vreg (the compute analogue of mem2reg;
 * Function variables are per invocation, SPIR-V spec 2.2.2 "Storage
 * Classes"). Returns true when no local memory access is left. */
static bool promote_local_memory(struct ir_program *p)
{
   enum { MAX_SLOTS = 4096 };
   struct slot {
      uint32_t offset;
      uint8_t type;
      bool mixed;
      uint32_t vreg;
   } *slots = calloc(MAX_SLOTS, sizeof(*slots));
   uint32_t n = 0;
   bool any_left = false;
   if (!slots)
      return false;
   for (uint32_t i = 0; i < p->insn_count; i++) {
      const struct ir_insn *in = &p->insns[i];
      /* A TTU instruction addresses its ray query object in local memory. */
      if (!in->is_label && in->f.op == PPU_OP_TTU)
         any_left = true;
      bool is_local = !in->is_label && (in->f.op == PPU_OP_LD || in->f.op == PPU_OP_ST) &&
                      in->f.mode == PPU_SPACE_LOCAL;
      if (!is_local || in->src[0] || is_dynamic_local(p, in->f.imm))
         continue;
      uint32_t k = 0;
      while (k < n && slots[k].offset != in->f.imm)
         k++;
      if (k == n) {
         if (n == MAX_SLOTS)
            continue;
         slots[n++] = (struct slot){in->f.imm, in->f.type, false, 0};
      }
      if (slots[k].type != in->f.type || (in->f.type != PPU_TYPE_U32 && in->f.type != PPU_TYPE_U64))
         slots[k].mixed = true;
   }
   p->first_variable_vreg = p->vreg_count;
   for (uint32_t k = 0; k < n; k++)
      if (!slots[k].mixed)
         slots[k].vreg = ir_new_vreg(p, slots[k].type == PPU_TYPE_U64 ? 2 : 1);
   for (uint32_t i = 0; i < p->insn_count; i++) {
      struct ir_insn *in = &p->insns[i];
      bool is_local = !in->is_label && (in->f.op == PPU_OP_LD || in->f.op == PPU_OP_ST) &&
                      in->f.mode == PPU_SPACE_LOCAL;
      if (!is_local)
         continue;
      uint32_t k = 0;
      while (k < n &&
             !(slots[k].offset == in->f.imm && !in->src[0] && !is_dynamic_local(p, in->f.imm)))
         k++;
      if (k == n || !slots[k].vreg) {
         any_left = true;
         continue;
      }
      uint8_t type = in->f.type, guard = in->f.guard;
      uint32_t value = in->f.op == PPU_OP_ST ? in->src[1] : 0, dst = in->dst;
      ppu_insn_fields_init(&in->f, PPU_OP_MOV);
      in->f.type = type;
      in->f.guard = guard;
      in->src[0] = in->src[2] = 0;
      if (value) { /* ST [slot], value -> MOV slot, value */
         in->dst = slots[k].vreg;
         in->src[1] = value;
      } else { /* LD d, [slot] -> MOV d, slot */
         in->dst = dst;
         in->src[1] = slots[k].vreg;
      }
   }
   free(slots);
   return !any_left;
}

bool ir_optimize(struct ir_program *p, bool promote_locals)
{
   p->first_variable_vreg = UINT32_MAX;
   bool no_local = promote_locals && promote_local_memory(p);
   struct counts c;
   uint32_t *repl = malloc(p->vreg_count * sizeof(uint32_t));
   if (!repl || !count(p, &c)) {
      free(repl);
      free_counts(&c);
      return no_local;
   }
   for (uint32_t v = 0; v < p->vreg_count; v++)
      repl[v] = v;
   propagate_copies(p, &c, repl);
   propagate_constants(p, &c);
   fold_constants(p, &c);
   propagate_constants(p, &c);
   eliminate_common_subexpressions(p, &c, repl);
   free_counts(&c);
   for (int round = 0; round < 2; round++) {
      if (!count(p, &c)) {
         free_counts(&c);
         break;
      }
      forward_variable_reads(p, &c);
      free_counts(&c);
      if (!count(p, &c)) {
         free_counts(&c);
         break;
      }
      coalesce_variable_writes(p, &c);
      free_counts(&c);
   }
   drop_bool_round_trips(p);
   drop_branches_to_next(p);
   eliminate_dead_code(p);
   ir_coalesce_register_groups(p);
   free(repl);
   return no_local;
}
