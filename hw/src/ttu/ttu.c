/* The TTU's interface: the five TTU instructions on one ray-query object
 * (ppu/ray_query.h), their state rules, and the copy of the object between
 * the lane's local memory and the unit. Traversal itself is in
 * ttu_traversal.c. */
#include "ttu/ttu.h"

#include <stddef.h>
#include <string.h>

#include "ttu/ttu_ray_cost.h"
#include "ttu/ttu_traversal.h"

void ppu_ttu_init(struct ppu_ttu *ttu, struct ppu_mmu_client *mmu,
                  struct ppu_counter_block *counters, uint32_t l0_lines)
{
   memset(ttu, 0, sizeof(*ttu));
   ttu->counters = counters;
   ttu->stack_entries = PPU_TTU_STACK_ENTRIES_DEFAULT;
   ttu->node_box_test = ppu_ttu_node_box_select();
   ppu_ttu_l0_init(&ttu->l0, mmu, counters, l0_lines);
}

bool ppu_ttu_configure_predictor(struct ppu_ttu *ttu, const struct ppu_ttu_predictor_config *cfg)
{
   ppu_ttu_predictor_finish(&ttu->predictor);
   return ppu_ttu_predictor_init(&ttu->predictor, cfg);
}

void ppu_ttu_finish(struct ppu_ttu *ttu)
{
   ppu_ttu_predictor_finish(&ttu->predictor);
   ppu_ttu_ray_cost_finish(ttu);
}

void ppu_ttu_begin_grid(struct ppu_ttu *ttu)
{
   ppu_ttu_l0_flush(&ttu->l0);
}

static float f32_bits(uint32_t u)
{
   float f;
   memcpy(&f, &u, sizeof(f));
   return f;
}

/* The private area up to the stacks, and the stack entries in use (depth
 * read from the object; the checks come later, so clamped here). */
#define PRIVATE_HEAD offsetof(struct ppu_ttu_private, top_stack)
#define STACK_BYTES(entries) ((size_t)(entries) * sizeof(struct ppu_ttu_stack_entry))

/* TTU.INIT: latch the ray, clear both hits (the committed t reads tmax
 * while nothing is committed) and open the top level. */
static bool op_init(struct ppu_ttu_query *q)
{
   struct ppu_ray_query *rq = &q->rq;
   struct ppu_ttu_private *p = &q->p;
   /* The private area up to the stacks is cleared (both depths 0). Stack
    * entries are not: nothing reads an entry at or above its level's
    * depth, and clearing 512 bytes of cold local memory per ray was 4% of
    * the ray time. */
   memset(p, 0, PRIVATE_HEAD);
   memcpy(p->origin, rq->origin, sizeof(p->origin));
   memcpy(p->direction, rq->direction, sizeof(p->direction));
   p->tmin = rq->tmin;
   p->tmax = rq->tmax;
   p->ray_flags = rq->ray_flags;
   p->cull_mask = rq->cull_mask;
   memset(&rq->committed, 0, sizeof(rq->committed));
   memset(&rq->candidate, 0, sizeof(rq->candidate));
   rq->committed.type = PPU_RQ_COMMITTED_NONE;
   rq->committed.t = rq->tmax;
   rq->state = PPU_RQ_STATE_DONE;
   ppu_counter_add(q->ttu->counters, PPU_COUNTER_TTU_RAYS, 1);
   /* tlas_address 0 is a miss (a null acceleration structure), as is a
    * ray whose interval is empty or NaN. */
   if (rq->tlas_address == 0 || !(rq->tmin <= rq->tmax))
      return true;
   if (!ppu_ttu_enter_top(q, rq->tlas_address))
      return false;
   if (p->top.node_count != 0)
      rq->state = PPU_RQ_STATE_TRAVERSING;
   return true;
}

static bool op_proceed(struct ppu_ttu_query *q, uint32_t *d)
{
   struct ppu_ray_query *rq = &q->rq;
   ppu_counter_add(q->ttu->counters, PPU_COUNTER_TTU_PROCEEDS, 1);
   switch (rq->state) {
   case PPU_RQ_STATE_DONE:
      *d = 0;
      return true;
   case PPU_RQ_STATE_CANDIDATE: /* the shader did not confirm it: ignored */
   case PPU_RQ_STATE_TRAVERSING:
      break;
   default:
      return ppu_ttu_fail(q, 0, "PROCEED on a ray query in state %u (not initialized)", rq->state);
   }
   if (!ppu_ttu_check_private(q))
      return false;
   /* The intersection predictor may end an occlusion ray's traversal
    * before it starts (ttu_predictor.h); otherwise it only learns. */
   struct ppu_ttu_prediction prediction;
   enum ppu_ttu_walk walk =
       ppu_ttu_predict(q, &prediction) ? PPU_TTU_WALK_DONE : ppu_ttu_traverse(q);
   if (prediction.eligible)
      ppu_ttu_predictor_learn(q, &prediction, walk == PPU_TTU_WALK_DONE);
   switch (walk) {
   case PPU_TTU_WALK_CANDIDATE:
      rq->state = PPU_RQ_STATE_CANDIDATE;
      *d = 1;
      return true;
   case PPU_TTU_WALK_DONE:
      rq->state = PPU_RQ_STATE_DONE;
      *d = 0;
      return true;
   default:
      return false;
   }
}

/* After a commit by the shader: TERMINATE_ON_FIRST_HIT ends the query. */
static void after_commit(struct ppu_ttu_query *q)
{
   q->rq.state = (q->p.ray_flags & PPU_RAY_FLAG_TERMINATE_ON_FIRST_HIT) ? PPU_RQ_STATE_DONE
                                                                        : PPU_RQ_STATE_TRAVERSING;
}

static bool op_confirm(struct ppu_ttu_query *q)
{
   struct ppu_ray_query *rq = &q->rq;
   if (rq->state != PPU_RQ_STATE_CANDIDATE || rq->candidate.type != PPU_RQ_CANDIDATE_TRIANGLE)
      return ppu_ttu_fail(q, 0, "CONFIRM without a triangle candidate (state %u)", rq->state);
   rq->committed = rq->candidate;
   rq->committed.type = PPU_RQ_COMMITTED_TRIANGLE;
   after_commit(q);
   return true;
}

/* GENERATE commits the AABB candidate at t = b. Vulkan requires tmin <= t
 * <= the committed t (OpRayQueryGenerateIntersectionKHR); a t outside (or
 * NaN) is dropped so the committed hit stays the closest one. */
static bool op_generate(struct ppu_ttu_query *q, uint32_t b)
{
   struct ppu_ray_query *rq = &q->rq;
   if (rq->state != PPU_RQ_STATE_CANDIDATE || rq->candidate.type != PPU_RQ_CANDIDATE_AABB)
      return ppu_ttu_fail(q, 0, "GENERATE without an AABB candidate (state %u)", rq->state);
   float t = f32_bits(b);
   if (!(t >= q->p.tmin && t <= rq->committed.t)) {
      rq->state = PPU_RQ_STATE_TRAVERSING;
      return true;
   }
   rq->committed = rq->candidate;
   rq->committed.type = PPU_RQ_COMMITTED_GENERATED;
   rq->committed.t = t;
   after_commit(q);
   return true;
}

static bool op_terminate(struct ppu_ttu_query *q)
{
   if (q->rq.state == PPU_RQ_STATE_UNINITIALIZED || q->rq.state > PPU_RQ_STATE_DONE)
      return ppu_ttu_fail(q, 0, "TERMINATE on a ray query in state %u (not initialized)",
                          q->rq.state);
   q->rq.state = PPU_RQ_STATE_DONE;
   return true;
}

static uint32_t stack_entries_in_use(uint32_t depth)
{
   return depth < PPU_BVH_MAX_DEPTH ? depth : PPU_BVH_MAX_DEPTH;
}

bool ppu_ttu_execute(struct ppu_ttu *ttu, uint64_t pd_pa, unsigned op, uint8_t *object, uint32_t b,
                     uint32_t *d, struct ppu_fault *fault)
{
   /* The unit works on its own copy: the seed's TTU loads the query data
    * structure into its local storage and writes results back. Only what
    * traversal can read is loaded (the stacks up to their depth), and only
    * that and what the instruction wrote is stored: an object is 1 KiB and
    * two full copies per instruction were a tenth of the ray time. Stack
    * entries above the ones stored keep what the object held. */
   struct ppu_ttu_query q;
   q.ttu = ttu;
   q.pd_pa = pd_pa;
   q.fault = fault;
   q.leaf_node.valid = false;
   q.memo_valid[PPU_TTU_LEVEL_TOP] = q.memo_valid[PPU_TTU_LEVEL_BOTTOM] = 0;
   uint8_t *priv = object + PPU_RQ_PRIVATE;
   memcpy(&q.rq, object, PPU_RQ_PRIVATE);
   if (op == PPU_TTU_INIT) { /* clears the whole private area: nothing to load */
      q.stack_valid[PPU_TTU_LEVEL_TOP] = q.stack_valid[PPU_TTU_LEVEL_BOTTOM] = 0;
   } else {
      memcpy(&q.p, priv, PRIVATE_HEAD);
      q.stack_valid[PPU_TTU_LEVEL_TOP] = stack_entries_in_use(q.p.top.depth);
      q.stack_valid[PPU_TTU_LEVEL_BOTTOM] = stack_entries_in_use(q.p.bottom.depth);
      memcpy(q.p.top_stack, priv + offsetof(struct ppu_ttu_private, top_stack),
             STACK_BYTES(q.stack_valid[PPU_TTU_LEVEL_TOP]));
      memcpy(q.p.bottom_stack, priv + offsetof(struct ppu_ttu_private, bottom_stack),
             STACK_BYTES(q.stack_valid[PPU_TTU_LEVEL_BOTTOM]));
   }
   bool ok;
   switch (op) {
   case PPU_TTU_INIT:
      ok = op_init(&q);
      break;
   case PPU_TTU_PROCEED:
      ok = op_proceed(&q, d);
      break;
   case PPU_TTU_CONFIRM:
      ok = op_confirm(&q);
      break;
   case PPU_TTU_GENERATE:
      ok = op_generate(&q, b);
      break;
   case PPU_TTU_TERMINATE:
      ok = op_terminate(&q);
      break;
   default: /* the decoder admits subops < PPU_TTU_COUNT only */
      ok = ppu_ttu_fail(&q, 0, "TTU subop %u", op);
      break;
   }
   memcpy(object, &q.rq, PPU_RQ_PRIVATE);
   memcpy(priv, &q.p, PRIVATE_HEAD);
   memcpy(priv + offsetof(struct ppu_ttu_private, top_stack), q.p.top_stack,
          STACK_BYTES(q.stack_valid[PPU_TTU_LEVEL_TOP]));
   memcpy(priv + offsetof(struct ppu_ttu_private, bottom_stack), q.p.bottom_stack,
          STACK_BYTES(q.stack_valid[PPU_TTU_LEVEL_BOTTOM]));
   return ok;
}
