/* Structured control flow and function inlining (translate.h).
 *
 * Each block is placed in SPIR-V order. Before a function is placed, a walk
 * from its entry gives every block the stack of structured constructs
 * (SPIR-V spec 2.11 "Structured Control Flow") it lies in, so each branch
 * can be classified as an ordinary branch, the end of a selection (SYNC), a
 * loop break (BRK), a continue (CONT) or a back edge, and lowered to the
 * reconvergence instructions as docs/isa.md "Control flow and
 * reconvergence" prescribes. Calls are inlined inside a CALL ... RET
 * bracket so that early returns from any depth are a guarded RET.
 */
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "translate_graphics.h"

void xl_branch(struct xl_ctx *c, enum ppu_op op, uint32_t label, uint8_t guard)
{
   struct ir_insn *i = ir_emit(c->ir, op);
   i->f.guard = guard;
   if (op == PPU_OP_BRA || op == PPU_OP_SSY || op == PPU_OP_PBK || op == PPU_OP_PCNT)
      i->label = label;
   else
      i->resume = label;
}

struct xl_if_block xl_if_begin(struct xl_ctx *c, bool negate)
{
   struct xl_if_block b = {ir_new_label(c->ir), ir_new_label(c->ir)};
   xl_branch(c, PPU_OP_SSY, b.merge, PPU_PT);
   xl_branch(c, PPU_OP_BRA, b.skip, negate ? 0 : (0 | PPU_PRED_NEG));
   return b;
}

void xl_if_end(struct xl_ctx *c, struct xl_if_block b)
{
   xl_branch(c, PPU_OP_SYNC, b.merge, PPU_PT);
   ir_emit_label(c->ir, b.skip);
   xl_branch(c, PPU_OP_SYNC, b.merge, PPU_PT);
   ir_emit_label(c->ir, b.merge);
}

/* EDGE_BREAK_OUT: a loop break from inside a switch. The switch is
 * bracketed by PBK, so a BRK stops at its merge: the breaking lanes set
 * the loop's break flag and BRK to the innermost switch's merge, whose
 * block sends the flagged lanes on to the next one, up to the loop's merge
 * (forward_loop_break). */
enum edge_kind { EDGE_NORMAL, EDGE_SYNC, EDGE_BREAK, EDGE_CONTINUE, EDGE_BACK, EDGE_BREAK_OUT };

struct edge {
   enum edge_kind kind;
   uint32_t target; /* block index within the function */
   uint32_t resume; /* label for SYNC/BRK/CONT */
   uint32_t depth;  /* construct depth the target is reached with */
   uint32_t loop;   /* EDGE_BREAK_OUT: the loop's header */
};

struct stub {
   uint32_t label, from, target;
};

struct cfg_state {
   struct stub *stubs;
   uint32_t stub_count, stub_cap;
};

static uint32_t block_index(struct xl_ctx *c, uint32_t label_id)
{
   const struct spirv_function *fn = c->scope->fn;
   for (uint32_t i = 0; i < fn->block_count; i++)
      if (spirv_module_block(c->m, fn->block_first + i)->label_id == label_id)
         return i;
   return UINT32_MAX;
}

static const struct spirv_block *blk(struct xl_ctx *c, uint32_t index)
{
   return spirv_module_block(c->m, c->scope->fn->block_first + index);
}

static bool is_switch_header(struct xl_ctx *c, const struct spirv_block *h)
{
   return spirv_module_inst(c->m, h->terminator)->opcode == SPIRV_OP_Switch;
}

/* Classifies the edge from block `from` (whose outgoing construct stack is
 * stack[0..depth)) to `target`. */
static bool classify(struct xl_ctx *c, const uint32_t *stack, uint32_t depth, uint32_t target,
                     struct edge *e)
{
   struct xl_scope *s = c->scope;
   e->target = target;
   e->resume = 0;
   e->depth = depth;
   uint32_t inner_switch = UINT32_MAX; /* innermost switch the edge leaves */
   for (uint32_t k = depth; k-- > 0;) {
      const struct spirv_block *h = blk(c, stack[k]);
      uint32_t merge = block_index(c, h->merge_block);
      if (h->merge_kind == SPIRV_MERGE_SELECTION) {
         bool is_switch = is_switch_header(c, h);
         if (target == merge) {
            if (!is_switch && k != depth - 1) {
               xl_fail(c, "unsupported: branch from a nested construct to the merge of an "
                          "outer if");
               return false;
            }
            /* A switch is bracketed like a loop (PBK), so that a break
             * from any depth inside it is a BRK. */
            e->kind = is_switch ? EDGE_BREAK : EDGE_SYNC;
            e->resume = s->labels[target];
            e->depth = k;
            return true;
         }
         if (is_switch && inner_switch == UINT32_MAX)
            inner_switch = stack[k];
         continue;
      }
      uint32_t cont = block_index(c, h->continue_target);
      if (target == merge) {
         e->kind = inner_switch == UINT32_MAX ? EDGE_BREAK : EDGE_BREAK_OUT;
         e->resume = s->labels[inner_switch == UINT32_MAX
                                   ? target
                                   : block_index(c, blk(c, inner_switch)->merge_block)];
         e->depth = k;
         e->loop = stack[k];
         return true;
      }
      if (target == cont && cont != stack[k]) {
         e->kind = EDGE_CONTINUE;
         e->resume = s->labels[target];
         e->depth = k + 1;
         return true;
      }
      if (target == stack[k]) {
         e->kind = EDGE_BACK;
         return true;
      }
      break; /* nothing beyond the innermost loop is reachable by a branch */
   }
   e->kind = EDGE_NORMAL;
   return true;
}

/* The construct stack block b lies in (stack[0] outermost). */
static uint32_t in_stack(struct xl_ctx *c, uint32_t b, uint32_t *stack)
{
   struct xl_scope *s = c->scope;
   uint32_t depth = s->ctx_depth[b];
   for (uint32_t k = depth, h = s->ctx_top[b]; k-- > 0; h = s->ctx_top[h])
      stack[k] = h;
   return depth;
}

/* The stack on b's outgoing edges: with b when b heads a construct. */
static uint32_t out_stack(struct xl_ctx *c, uint32_t b, uint32_t *stack)
{
   uint32_t depth = in_stack(c, b, stack);
   if (blk(c, b)->merge_kind != SPIRV_MERGE_NONE) {
      if (depth >= XL_MAX_CONSTRUCT_DEPTH) {
         xl_fail(c, "constructs nested deeper than %u", XL_MAX_CONSTRUCT_DEPTH);
         return depth;
      }
      stack[depth++] = b;
   }
   return depth;
}

static uint32_t successors(struct xl_ctx *c, uint32_t b, uint32_t *out, uint32_t max)
{
   uint32_t labels[64];
   uint32_t n = spirv_block_successors(c->m, blk(c, b), labels, 64);
   if (n > 64 || n > max) {
      xl_fail(c, "switch with more than 64 targets is unsupported");
      return 0;
   }
   for (uint32_t i = 0; i < n; i++)
      out[i] = block_index(c, labels[i]);
   return n;
}

static void set_stack(struct xl_scope *s, uint32_t b, const uint32_t *stack, uint32_t depth)
{
   s->reached[b] = true;
   s->ctx_depth[b] = (uint16_t)depth;
   s->ctx_top[b] = depth ? stack[depth - 1] : UINT32_MAX;
}

/* A break from stack[e->depth] (a loop) out of the switches above it:
 * the loop gets a break flag and every switch's merge forwards it. A merge
 * that no other edge reaches is reached here (the forwarding lanes run
 * it); true for each such block in turn, through *work. */
static void note_break_out(struct xl_ctx *c, const uint32_t *stack, uint32_t depth,
                           const struct edge *e, uint32_t *work, uint32_t *top)
{
   struct xl_scope *s = c->scope;
   if (!s->break_flag[e->loop])
      s->break_flag[e->loop] = ir_new_vreg(c->ir, 1);
   for (uint32_t k = e->depth + 1; k < depth; k++) {
      const struct spirv_block *h = blk(c, stack[k]);
      if (h->merge_kind != SPIRV_MERGE_SELECTION || !is_switch_header(c, h))
         continue;
      uint32_t merge = block_index(c, h->merge_block);
      s->forward_break[merge] = e->loop + 1;
      if (!s->reached[merge]) {
         set_stack(s, merge, stack, k);
         work[(*top)++] = merge;
      }
   }
}

/* Gives every reachable block its construct stack. */
static void walk_constructs(struct xl_ctx *c)
{
   struct xl_scope *s = c->scope;
   uint32_t n = s->fn->block_count;
   uint32_t *work = malloc((size_t)n * sizeof(*work));
   if (!work) {
      xl_fail(c, "out of memory");
      return;
   }
   uint32_t top = 0;
   s->reached[0] = true;
   work[top++] = 0;
   while (top && !c->failed) {
      uint32_t b = work[--top];
      uint32_t stack[XL_MAX_CONSTRUCT_DEPTH], succ[64];
      const struct spirv_inst *t = spirv_module_inst(c->m, blk(c, b)->terminator);
      c->cur_word = t->word_offset; /* errors name the branch */
      c->cur_opcode = t->opcode;
      uint32_t depth = out_stack(c, b, stack);
      uint32_t ns = successors(c, b, succ, 64);
      for (uint32_t i = 0; i < ns && !c->failed; i++) {
         struct edge e;
         if (succ[i] == UINT32_MAX || !classify(c, stack, depth, succ[i], &e))
            break;
         if (e.kind == EDGE_BREAK_OUT)
            note_break_out(c, stack, depth, &e, work, &top);
         if (e.kind == EDGE_BACK || s->reached[e.target])
            continue;
         set_stack(s, e.target, stack, e.depth);
         work[top++] = e.target;
      }
   }
   free(work);
}

/* Phi copies for the edge from -> to: through temporaries, because the
 * phis of a block take their values in parallel (SPIR-V spec OpPhi). */
static void phi_moves(struct xl_ctx *c, uint32_t from, uint32_t to)
{
   const struct spirv_block *tb = blk(c, to);
   uint32_t from_label = blk(c, from)->label_id;
   struct xl_val dsts[64];
   uint32_t np = tb->phi_count < 64 ? tb->phi_count : 64;
   if (tb->phi_count > 64) {
      xl_fail(c, "more than 64 OpPhi in one block");
      return;
   }
   uint32_t tcount = 0;
   struct xl_val temps[64];
   for (uint32_t p = 0; p < np; p++) {
      const struct spirv_inst *phi = spirv_module_inst(c->m, tb->first_inst + 1 + p);
      uint32_t id = phi->result_id;
      if (!c->scope->vals[id].set)
         c->scope->vals[id] = xl_new_val(c, phi->result_type);
      dsts[p] = c->scope->vals[id];
      uint32_t value = 0, parent = 0;
      bool found = false;
      for (uint32_t k = 0; spirv_phi_incoming(c->m, phi, k, &value, &parent); k++)
         if (parent == from_label) {
            found = true;
            break;
         }
      if (!found) {
         xl_fail(c, "OpPhi %%%u has no value for its predecessor", id);
         return;
      }
      struct xl_val src = xl_get(c, value);
      temps[p] = xl_new_val(c, phi->result_type);
      for (uint32_t k = 0; k < src.count && k < temps[p].count; k++)
         xl_mov(c, xl_comp(c, temps[p], k), xl_comp(c, src, k),
                c->ir->vreg_size[xl_comp(c, src, k)]);
      tcount++;
   }
   for (uint32_t p = 0; p < tcount; p++)
      for (uint32_t k = 0; k < dsts[p].count && k < temps[p].count; k++)
         xl_mov(c, xl_comp(c, dsts[p], k), xl_comp(c, temps[p], k),
                c->ir->vreg_size[xl_comp(c, dsts[p], k)]);
}

static bool edge_needs_stub(struct xl_ctx *c, uint32_t from, const struct edge *e)
{
   return blk(c, e->target)->phi_count != 0 || e->kind == EDGE_SYNC || e->kind == EDGE_BREAK_OUT ||
          (e->kind == EDGE_NORMAL && from == e->target);
}

/* The control instruction of an edge; guard is a 4-bit predicate field. */
static void edge_action(struct xl_ctx *c, const struct edge *e, uint8_t guard)
{
   struct xl_scope *s = c->scope;
   struct ir_insn *i;
   switch (e->kind) {
   case EDGE_NORMAL:
      i = ir_emit(c->ir, PPU_OP_BRA);
      i->label = s->labels[e->target];
      break;
   case EDGE_BACK:
      i = ir_emit(c->ir, PPU_OP_BRA);
      i->label = s->heads[e->target];
      break;
   case EDGE_SYNC:
      i = ir_emit(c->ir, PPU_OP_SYNC);
      i->resume = e->resume;
      break;
   case EDGE_BREAK_OUT:
      xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U32, s->break_flag[e->loop], 0, 1);
      __attribute__((fallthrough));
   case EDGE_BREAK:
      i = ir_emit(c->ir, PPU_OP_BRK);
      i->resume = e->resume;
      break;
   default:
      i = ir_emit(c->ir, PPU_OP_CONT);
      i->resume = e->resume;
      break;
   }
   i->f.guard = guard;
}

static void edge_unconditional(struct xl_ctx *c, uint32_t from, const struct edge *e)
{
   phi_moves(c, from, e->target);
   edge_action(c, e, PPU_PT);
}

/* Lanes where guard holds take edge e (through a stub when it needs code). */
static void edge_guarded(struct xl_ctx *c, struct cfg_state *st, uint32_t from,
                         const struct edge *e, uint8_t guard)
{
   if (!edge_needs_stub(c, from, e)) {
      edge_action(c, e, guard);
      return;
   }
   if (st->stub_count == st->stub_cap) {
      uint32_t cap = st->stub_cap ? st->stub_cap * 2 : 16;
      struct stub *n = realloc(st->stubs, cap * sizeof(*n));
      if (!n) {
         xl_fail(c, "out of memory");
         return;
      }
      st->stubs = n;
      st->stub_cap = cap;
   }
   struct stub *sb = &st->stubs[st->stub_count++];
   sb->label = ir_new_label(c->ir);
   sb->from = from;
   sb->target = e->target;
   struct ir_insn *i = ir_emit(c->ir, PPU_OP_BRA);
   i->label = sb->label;
   i->f.guard = guard;
}

static bool edge_for(struct xl_ctx *c, uint32_t from, uint32_t label_id, struct edge *e)
{
   uint32_t stack[XL_MAX_CONSTRUCT_DEPTH];
   uint32_t depth = out_stack(c, from, stack);
   uint32_t t = block_index(c, label_id);
   if (t == UINT32_MAX) {
      xl_fail(c, "branch to a label outside the function");
      return false;
   }
   return classify(c, stack, depth, t, e);
}

static void translate_terminator(struct xl_ctx *c, struct cfg_state *st, uint32_t b)
{
   const struct spirv_block *bk = blk(c, b);
   const struct spirv_inst *t = spirv_module_inst(c->m, bk->terminator);
   c->cur_word = t->word_offset;
   c->cur_opcode = t->opcode;
   struct xl_scope *s = c->scope;
   if (bk->merge_kind == SPIRV_MERGE_SELECTION) {
      struct ir_insn *i = ir_emit(c->ir, t->opcode == SPIRV_OP_Switch ? PPU_OP_PBK : PPU_OP_SSY);
      i->label = s->labels[block_index(c, bk->merge_block)];
   }
   struct edge e, f;
   switch (t->opcode) {
   case SPIRV_OP_Branch:
      if (edge_for(c, b, xl_word(c, t, 0), &e))
         edge_unconditional(c, b, &e);
      return;
   case SPIRV_OP_BranchConditional: {
      struct xl_val cond = xl_get(c, xl_word(c, t, 0));
      if (c->failed || !edge_for(c, b, xl_word(c, t, 1), &e) ||
          !edge_for(c, b, xl_word(c, t, 2), &f))
         return;
      xl_bool_to_p0(c, xl_comp(c, cond, 0));
      if (!edge_needs_stub(c, b, &e) || edge_needs_stub(c, b, &f)) {
         edge_guarded(c, st, b, &e, 0);
         edge_unconditional(c, b, &f);
      } else {
         edge_guarded(c, st, b, &f, 0 | PPU_PRED_NEG);
         edge_unconditional(c, b, &e);
      }
      return;
   }
   case SPIRV_OP_Switch: {
      struct xl_val sel = xl_get(c, xl_word(c, t, 0));
      if (c->failed)
         return;
      struct xl_scalar sc;
      xl_scalar_of(c, spirv_id_type(c->m, xl_word(c, t, 0)), &sc);
      if (sc.width != 32) {
         xl_fail(c, "unsupported: switch on a %u-bit selector", sc.width);
         return;
      }
      for (uint32_t k = 2; k + 1 < t->operand_count && !c->failed; k += 2) {
         if (!edge_for(c, b, xl_word(c, t, k + 1), &e))
            return;
         struct ir_insn *i =
             xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, xl_comp(c, sel, 0), xl_word(c, t, k));
         i->f.subop = PPU_CMP_EQ;
         i->f.pd = 0;
         edge_guarded(c, st, b, &e, 0);
      }
      if (edge_for(c, b, xl_word(c, t, 1), &e))
         edge_unconditional(c, b, &e);
      return;
   }
   case SPIRV_OP_ReturnValue:
   case SPIRV_OP_Return:
      if (t->opcode == SPIRV_OP_ReturnValue) {
         struct xl_val v = xl_get(c, xl_word(c, t, 0));
         for (uint32_t k = 0; k < v.count && k < s->ret.count; k++)
            xl_mov(c, xl_comp(c, s->ret, k), xl_comp(c, v, k), c->ir->vreg_size[xl_comp(c, v, k)]);
      }
      if (s->is_entry) {
         if (c->gfx)
            xl_gfx_exit(c); /* the outputs, then EXIT */
         ir_emit(c->ir, PPU_OP_EXIT);
      } else {
         struct ir_insn *i = ir_emit(c->ir, PPU_OP_RET);
         i->resume = s->ret_label;
      }
      return;
   case SPIRV_OP_Unreachable:
      ir_emit(c->ir, PPU_OP_EXIT);
      return;
   case SPIRV_OP_Kill:
   case SPIRV_OP_TerminateInvocation:
      if (!c->gfx || c->gfx->model != SPIRV_EXECUTION_MODEL_Fragment) {
         xl_fail(c, "discard outside a fragment shader");
         return;
      }
      xl_gfx_terminate(c);
      return;
   case SPIRV_OP_IgnoreIntersectionKHR:
   case SPIRV_OP_TerminateRayKHR:
      xl_rt_end_any_hit(c, t->opcode);
      return;
   default:
      xl_fail(c, "unsupported block terminator");
      return;
   }
}

static bool translate_function(struct xl_ctx *c, struct xl_scope *s);

/* At the merge of a switch that a loop break passes: the lanes with the
 * loop's break flag BRK on, to the merge of the next switch out or of the
 * loop itself (EDGE_BREAK_OUT). */
static void forward_loop_break(struct xl_ctx *c, uint32_t b)
{
   struct xl_scope *s = c->scope;
   uint32_t loop = s->forward_break[b] - 1, stack[XL_MAX_CONSTRUCT_DEPTH];
   uint32_t to = block_index(c, blk(c, loop)->merge_block);
   for (uint32_t k = in_stack(c, b, stack); k-- > 0 && stack[k] != loop;) {
      const struct spirv_block *h = blk(c, stack[k]);
      if (h->merge_kind == SPIRV_MERGE_SELECTION && is_switch_header(c, h)) {
         to = block_index(c, h->merge_block);
         break;
      }
   }
   xl_bool_to_p0(c, s->break_flag[loop]);
   xl_branch(c, PPU_OP_BRK, s->labels[to], 0);
}

/* Translates s->fn inline inside CALL body; ret: BRA after; body: ...;
 * after:, so that a return from any depth of it is a guarded RET. */
static void translate_inlined(struct xl_ctx *c, struct xl_scope *s)
{
   uint32_t body = ir_new_label(c->ir), after = ir_new_label(c->ir);
   s->ret_label = ir_new_label(c->ir);
   struct ir_insn *i = ir_emit(c->ir, PPU_OP_CALL);
   i->label = body;
   ir_emit_label(c->ir, s->ret_label);
   i = ir_emit(c->ir, PPU_OP_BRA);
   i->label = after;
   ir_emit_label(c->ir, body);
   struct xl_scope *outer = c->scope;
   c->scope = s;
   translate_function(c, s);
   c->scope = outer;
   ir_emit_label(c->ir, after);
}

/* A scope for translating fn's body: a value and a pointer slot per SPIR-V
 * id. False (with the context failed) when memory runs out. */
static bool scope_init(struct xl_ctx *c, struct xl_scope *s, const struct spirv_function *fn)
{
   memset(s, 0, sizeof(*s));
   s->fn = fn;
   s->vals = calloc(c->bound, sizeof(struct xl_val));
   s->ptrs = calloc(c->bound, sizeof(struct xl_ptr));
   if (!s->vals || !s->ptrs) {
      free(s->vals);
      free(s->ptrs);
      xl_fail(c, "out of memory");
      return false;
   }
   return true;
}

static void scope_free(struct xl_scope *s)
{
   free(s->vals);
   free(s->ptrs);
}

static void translate_call(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const struct spirv_function *callee = spirv_function_by_id(c->m, xl_word(c, inst, 0));
   if (!callee || !callee->block_count) {
      xl_fail(c, "call of a function without a body");
      return;
   }
   if (c->depth >= XL_MAX_INLINE_DEPTH) {
      xl_fail(c, "calls nested deeper than %u (recursion is not allowed in shaders)",
              XL_MAX_INLINE_DEPTH);
      return;
   }
   struct xl_scope *caller = c->scope;
   struct xl_scope callee_scope;
   if (!scope_init(c, &callee_scope, callee))
      return;
   for (uint32_t p = 0; p < callee->parameter_count; p++) {
      const struct spirv_inst *param = spirv_module_inst(c->m, callee->parameter_first + p);
      uint32_t arg = xl_word(c, inst, 1 + p);
      const struct spirv_type *pt = spirv_type(c->m, param->result_type);
      if (pt && pt->kind == SPIRV_TYPE_POINTER) {
         const struct xl_ptr *src = arg < c->bound && caller->ptrs[arg].set
                                        ? &caller->ptrs[arg]
                                        : &c->global_ptrs[arg < c->bound ? arg : 0];
         if (!src->set) {
            xl_fail(c, "pointer argument %%%u is not a supported pointer", arg);
            break;
         }
         callee_scope.ptrs[param->result_id] = *src;
      } else {
         callee_scope.vals[param->result_id] = xl_get(c, arg);
      }
   }
   const struct spirv_type *rt = spirv_type(c->m, callee->result_type);
   if (rt && rt->kind != SPIRV_TYPE_VOID)
      callee_scope.ret = xl_new_val(c, callee->result_type);
   c->depth++;
   translate_inlined(c, &callee_scope);
   c->depth--;
   if (c->rt)
      xl_rt_after_call(c);
   if (!c->failed && callee_scope.ret.count)
      xl_set(c, inst->result_id, callee_scope.ret);
   scope_free(&callee_scope);
}

static void translate_body(struct xl_ctx *c, uint32_t b)
{
   const struct spirv_block *bk = blk(c, b);
   for (uint32_t k = bk->first_inst + 1 + bk->phi_count; k < bk->terminator && !c->failed; k++) {
      const struct spirv_inst *inst = spirv_module_inst(c->m, k);
      c->cur_word = inst->word_offset;
      c->cur_opcode = inst->opcode;
      switch (inst->opcode) {
      case SPIRV_OP_SelectionMerge:
      case SPIRV_OP_LoopMerge:
      case SPIRV_OP_Line:
      case SPIRV_OP_NoLine:
      case SPIRV_OP_Nop:
         continue;
      case SPIRV_OP_FunctionCall:
         translate_call(c, inst);
         continue;
      case SPIRV_OP_Variable:
         xl_function_variable(c, inst);
         continue;
      default:
         break;
      }
      /* A fragment program's helper lanes write no memory (Vulkan "Helper
       * Invocations"): its stores, atomics and image writes run for the
       * lanes that are not helpers. */
      bool guarded = c->gfx && xl_fragment_writes_memory(c, inst);
      struct xl_if_block live = {0, 0};
      if (guarded)
         live = xl_fragment_live_begin(c);
      bool done = xl_translate_memory(c, inst) || xl_translate_atomic(c, inst) ||
                  xl_translate_alu(c, inst) || xl_translate_composite(c, inst) ||
                  xl_translate_glsl(c, inst) || xl_translate_subgroup(c, inst) ||
                  xl_translate_ray_query(c, inst) || xl_translate_image(c, inst) ||
                  xl_translate_ray_tracing(c, inst) || (c->gfx && xl_translate_fragment(c, inst));
      if (guarded)
         xl_if_end(c, live);
      if (done)
         continue;
      const struct spirv_opcode_info *info = spirv_opcode_info(inst->opcode);
      if (inst->opcode == SPIRV_OP_ExtInst &&
          spirv_ext_inst_set_kind(c->m, xl_word(c, inst, 0)) == SPIRV_EXT_INST_SET_NON_SEMANTIC)
         continue;
      xl_fail(c, "unsupported instruction %s", info ? info->name : "?");
   }
}

static bool translate_function(struct xl_ctx *c, struct xl_scope *s)
{
   uint32_t n = s->fn->block_count;
   struct cfg_state st = {0};
   s->labels = calloc(n, sizeof(uint32_t));
   s->heads = calloc(n, sizeof(uint32_t));
   s->ctx_depth = calloc(n, sizeof(uint16_t));
   s->ctx_top = calloc(n, sizeof(uint32_t));
   s->break_flag = calloc(n, sizeof(uint32_t));
   s->forward_break = calloc(n, sizeof(uint32_t));
   s->reached = calloc(n, sizeof(bool));
   if (!s->labels || !s->heads || !s->ctx_depth || !s->ctx_top || !s->break_flag ||
       !s->forward_break || !s->reached) {
      xl_fail(c, "out of memory");
      goto done;
   }
   for (uint32_t b = 0; b < n; b++) {
      s->labels[b] = ir_new_label(c->ir);
      s->heads[b] = ir_new_label(c->ir);
   }
   walk_constructs(c);
   for (uint32_t b = 0; b < n && !c->failed; b++) {
      const struct spirv_block *bk = blk(c, b);
      ir_emit_label(c->ir, s->labels[b]);
      if (!s->reached[b])
         continue;
      if (s->forward_break[b])
         forward_loop_break(c, b);
      if (bk->merge_kind == SPIRV_MERGE_LOOP) {
         uint32_t cont = block_index(c, bk->continue_target);
         struct ir_insn *i = ir_emit(c->ir, PPU_OP_PBK);
         i->label = s->labels[block_index(c, bk->merge_block)];
         ir_emit_label(c->ir, s->heads[b]);
         /* A loop whose continue target is its header has no continue
          * edge but the back edge (the continue construct is the whole
          * loop, SPIR-V 2.11): no CONT entry to push. */
         if (cont != b) {
            i = ir_emit(c->ir, PPU_OP_PCNT);
            i->label = s->labels[cont];
         }
         if (s->break_flag[b])
            xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U32, s->break_flag[b], 0, 0);
      } else {
         ir_emit_label(c->ir, s->heads[b]);
      }
      translate_body(c, b);
      if (!c->failed)
         translate_terminator(c, &st, b);
   }
   for (uint32_t k = 0; k < st.stub_count && !c->failed; k++) {
      struct edge e;
      ir_emit_label(c->ir, st.stubs[k].label);
      if (edge_for(c, st.stubs[k].from, blk(c, st.stubs[k].target)->label_id, &e))
         edge_unconditional(c, st.stubs[k].from, &e);
   }
done:
   free(st.stubs);
   free(s->labels);
   free(s->heads);
   free(s->ctx_depth);
   free(s->ctx_top);
   free(s->break_flag);
   free(s->forward_break);
   free(s->reached);
   return !c->failed;
}

bool xl_translate_entry(struct xl_ctx *c, const struct spirv_function *fn)
{
   struct xl_scope s;
   if (!scope_init(c, &s, fn))
      return false;
   s.is_entry = true;
   c->scope = &s;
   bool ok = translate_function(c, &s);
   c->scope = NULL;
   scope_free(&s);
   return ok;
}

bool xl_inline_stage(struct xl_ctx *c, const struct spirv_function *fn)
{
   struct xl_scope s;
   if (!scope_init(c, &s, fn))
      return false;
   /* The stage returns like an inlined function (a guarded RET from any
    * depth), so the code after it runs with every lane that entered. */
   translate_inlined(c, &s);
   bool ok = !c->failed;
   scope_free(&s);
   return ok;
}
