/* The SM side of the TTU instruction: for each executing lane, find the
 * ray-query object at local offset a (ppu/ray_query.h) and hand it to the
 * SM's tree traversal unit (ttu/ttu.h). Lanes go in lane order, like the
 * LSU's; the first fault stops the warp with the instruction's PC. */
#include "compute/sm_operands.h"
#include "compute/sm_timing.h"
#include "ppu/ray_query.h"
#include "ttu/ttu_ray_cost.h"

static uint64_t counter(const struct ppu_sm *sm, enum ppu_counter id)
{
   return atomic_load_explicit(&sm->counters.value[id], memory_order_relaxed);
}

/* Timing mode: what one lane's TTU instruction did, as counter deltas and
 * the L0's missed lines (sm_timing_ttu.c turns it into cycles). */
static void work_begin(struct ppu_sm *sm, struct ppu_ttu_lane_work *lw)
{
   lw->node_fetches = counter(sm, PPU_COUNTER_TTU_NODE_FETCHES);
   lw->boxes = counter(sm, PPU_COUNTER_TTU_BOX_TESTS);
   lw->triangles = counter(sm, PPU_COUNTER_TTU_TRIANGLE_TESTS);
   lw->switches = counter(sm, PPU_COUNTER_TTU_DATAPATH_SWITCHES);
   lw->spills = counter(sm, PPU_COUNTER_TTU_STACK_SPILLS);
   lw->looked_up = lw->predicted = lw->updated = false;
   lw->pred_before[0] = counter(sm, PPU_COUNTER_TTU_PREDICTOR_LOOKUPS);
   lw->pred_before[1] = counter(sm, PPU_COUNTER_TTU_PREDICTOR_PREDICTED);
   lw->pred_before[2] = counter(sm, PPU_COUNTER_TTU_PREDICTOR_UPDATES);
   lw->misses.count = 0;
   lw->misses.dropped = 0;
   sm->ttu.l0.miss_log = &lw->misses;
}

static void work_end(struct ppu_sm *sm, struct ppu_ttu_lane_work *lw)
{
   sm->ttu.l0.miss_log = NULL;
   lw->node_fetches = counter(sm, PPU_COUNTER_TTU_NODE_FETCHES) - lw->node_fetches;
   lw->boxes = counter(sm, PPU_COUNTER_TTU_BOX_TESTS) - lw->boxes;
   lw->triangles = counter(sm, PPU_COUNTER_TTU_TRIANGLE_TESTS) - lw->triangles;
   lw->switches = counter(sm, PPU_COUNTER_TTU_DATAPATH_SWITCHES) - lw->switches;
   lw->spills = counter(sm, PPU_COUNTER_TTU_STACK_SPILLS) - lw->spills;
   lw->looked_up = counter(sm, PPU_COUNTER_TTU_PREDICTOR_LOOKUPS) != lw->pred_before[0];
   lw->predicted = counter(sm, PPU_COUNTER_TTU_PREDICTOR_PREDICTED) != lw->pred_before[1];
   lw->updated = counter(sm, PPU_COUNTER_TTU_PREDICTOR_UPDATES) != lw->pred_before[2];
}

/* The ray cost buffer (ppu/qmd.h): the lane's gl_GlobalInvocationID.xy
 * gets the nodes this instruction fetched. */
static void add_ray_cost(struct ppu_sm *sm, const struct ppu_grid *g,
                         const struct ppu_workgroup *wg, uint64_t thread, uint64_t nodes)
{
   uint32_t local_x = (uint32_t)(thread % g->workgroup_size[0]);
   uint32_t local_y = (uint32_t)(thread / g->workgroup_size[0] % g->workgroup_size[1]);
   uint64_t x = (uint64_t)wg->id[0] * g->workgroup_size[0] + local_x;
   uint64_t y = (uint64_t)wg->id[1] * g->workgroup_size[1] + local_y;
   if (x <= UINT32_MAX && y <= UINT32_MAX && nodes <= UINT32_MAX)
      ppu_ttu_ray_cost_add(&sm->ttu, g->pd_pa, &g->ray_cost, (uint32_t)x, (uint32_t)y,
                           (uint32_t)nodes);
}

static enum ppu_exec_result execute_lanes(struct ppu_exec *x)
{
   const struct ppu_insn_fields *f = x->f;
   const struct ppu_grid *g = x->grid;
   const uint32_t *a = ppu_reg_src(x->w, f->ra);
   uint32_t tmp[LANES];
   const uint32_t *b = ppu_src_b(x, tmp);
   uint32_t *d = ppu_reg_dst(x->w, f->rd, 0);
   struct ppu_workgroup *wg = &x->sm->wg[x->w->wg_slot];
   for (unsigned l = 0; l < LANES; l++) {
      if (!((x->exec >> l) & 1u))
         continue;
      uint32_t offset = a[l];
      if (offset % PPU_RAY_QUERY_ALIGN) {
         ppu_exec_fault(x, PPU_FAULT_MISALIGNED_ADDRESS, offset, false,
                        "lane %u: ray query at local offset 0x%x", l, offset);
         return PPU_EXEC_FAULT;
      }
      if (offset > g->local_size || g->local_size - offset < PPU_RAY_QUERY_BYTES) {
         ppu_exec_fault(x, PPU_FAULT_OUT_OF_RANGE, offset, false,
                        "lane %u: ray query at local offset 0x%x beyond %u bytes", l, offset,
                        g->local_size);
         return PPU_EXEC_FAULT;
      }
      uint64_t thread = (uint64_t)x->w->warp_in_wg * PPU_WARP_SIZE + l;
      uint8_t *object = wg->local + thread * g->local_size + offset;
      uint32_t result = d[l];
      struct ppu_fault tf;
      struct ppu_ttu_lane_work *lw = x->sm->timing ? &x->sm->timing->ttu_lane[l] : NULL;
      if (lw)
         work_begin(x->sm, lw);
      uint64_t fetched = counter(x->sm, PPU_COUNTER_TTU_NODE_FETCHES);
      bool ok = ppu_ttu_execute(&x->sm->ttu, g->pd_pa, f->subop, object, b[l], &result, &tf);
      if (lw)
         work_end(x->sm, lw);
      if (g->ray_cost.va)
         add_ray_cost(x->sm, g, wg, thread, counter(x->sm, PPU_COUNTER_TTU_NODE_FETCHES) - fetched);
      if (!ok) {
         ppu_exec_fault(x, tf.kind, tf.address, tf.write, "lane %u: %s", l, tf.detail);
         return PPU_EXEC_FAULT;
      }
      d[l] = result;
   }
   return PPU_EXEC_NEXT;
}

/* A warp's beam (ttu/ttu_beam_walk.h) lives for one PROCEED: formed from
 * the lanes' objects before they run, dropped after. Lanes whose object is
 * misaligned or out of range are left out here and fault in the loop. */
enum ppu_exec_result ppu_exec_ttu(struct ppu_exec *x)
{
   if (x->f->subop != PPU_TTU_PROCEED || !x->sm->ttu.beam.enabled)
      return execute_lanes(x);
   const struct ppu_grid *g = x->grid;
   const uint32_t *a = ppu_reg_src(x->w, x->f->ra);
   struct ppu_workgroup *wg = &x->sm->wg[x->w->wg_slot];
   uint8_t *objects[LANES];
   unsigned n = 0;
   for (unsigned l = 0; l < LANES; l++) {
      uint32_t offset = a[l];
      if (((x->exec >> l) & 1u) && offset % PPU_RAY_QUERY_ALIGN == 0 && offset <= g->local_size &&
          g->local_size - offset >= PPU_RAY_QUERY_BYTES)
         objects[n++] =
             wg->local + ((uint64_t)x->w->warp_in_wg * PPU_WARP_SIZE + l) * g->local_size + offset;
   }
   ppu_ttu_beam_begin(&x->sm->ttu, g->pd_pa, objects, n);
   enum ppu_exec_result r = execute_lanes(x);
   ppu_ttu_beam_end(&x->sm->ttu);
   return r;
}
