/* The SM side of the TTU instruction: for each executing lane, find the
 * ray-query object at local offset a (ppu/ray_query.h) and hand it to the
 * SM's tree traversal unit (ttu/ttu.h). Lanes go in lane order, like the
 * LSU's; the first fault stops the warp with the instruction's PC. */
#include "compute/sm_operands.h"
#include "ppu/ray_query.h"

enum ppu_exec_result ppu_exec_ttu(struct ppu_exec *x)
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
      if (!ppu_ttu_execute(&x->sm->ttu, g->pd_pa, f->subop, object, b[l], &result, &tf)) {
         ppu_exec_fault(x, tf.kind, tf.address, tf.write, "lane %u: %s", l, tf.detail);
         return PPU_EXEC_FAULT;
      }
      d[l] = result;
   }
   return PPU_EXEC_NEXT;
}
