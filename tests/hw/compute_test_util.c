/* See compute_test_util.h. */
#include "compute_test_util.h"

#include <string.h>

#include "ppu/methods.h"
#include "ppu_asm.h"
#include "test_harness.h"

#define MAX_PROGRAM_INSNS 4096

bool hwc_init(struct hwc *h, const struct ppu_gpu_config *cfg)
{
   struct ppu_gpu_config def;
   if (!cfg) {
      ppu_gpu_config_default(&def);
      def.vram_size = 256ull << 20;
      def.max_channels = 16;
      cfg = &def;
   }
   if (!hwt_init_with(&h->t, cfg))
      return false;
   if (!hwt_channel_init(&h->c, &h->t, "compute"))
      return false;
   h->out_va = hwt_alloc_mapped(&h->t, HWC_OUT_BYTES, true);
   h->cb_va = hwt_alloc_mapped(&h->t, 4096, true);
   hwt_write(&h->t.mem, h->t.pd, h->cb_va, &h->out_va, 8);
   return h->out_va && h->cb_va;
}

void hwc_finish(struct hwc *h)
{
   hwt_channel_finish(&h->c);
   hwt_finish(&h->t);
}

uint64_t hwc_program(struct hwc *h, const char *src)
{
   static _Thread_local uint32_t words[MAX_PROGRAM_INSNS * 4];
   size_t n = 0;
   char err[256];
   if (!ppu_asm(src, words, MAX_PROGRAM_INSNS, &n, err, sizeof(err))) {
      test_fail(__FILE__, __LINE__, "assembler: %s", err);
      return 0;
   }
   uint64_t bytes = n ? n * 16 : 16;
   uint64_t va = hwt_alloc_mapped(&h->t, (bytes + 4095) & ~4095ull, false);
   hwt_write(&h->t.mem, h->t.pd, va, words, n * 16);
   return va;
}

void hwc_qmd_defaults(struct hwc *h, struct ppu_qmd *q, uint64_t prog)
{
   memset(q, 0, sizeof(*q));
   q->version = PPU_QMD_VERSION;
   q->program_va = prog;
   q->register_count = 64;
   q->workgroup_size[0] = 32;
   q->workgroup_size[1] = q->workgroup_size[2] = 1;
   q->grid_size[0] = q->grid_size[1] = q->grid_size[2] = 1;
   q->cbank[0].va = h->cb_va;
   q->cbank[0].size = 4096;
}

bool hwc_launch(struct hwc *h, const struct ppu_qmd *q, uint64_t indirect_va,
                struct ppu_fault *fault)
{
   uint64_t qva = hwt_alloc_mapped(&h->t, 4096, false);
   hwt_write(&h->t.mem, h->t.pd, qva, q, sizeof(*q));
   static _Thread_local struct hwt_pb pb;
   hwt_pb_reset(&pb);
   hwt_pb_set64(&pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_QMD_ADDR_LO, qva);
   if (indirect_va) {
      hwt_pb_set64(&pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_INDIRECT_ADDR_LO, indirect_va);
      hwt_pb_immd(&pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_LAUNCH_INDIRECT, 0);
   } else {
      hwt_pb_immd(&pb, PPU_SUBCH_COMPUTE, PPU_COMPUTE_LAUNCH, 0);
   }
   hwt_submit(&h->c, &pb);
   if (hwt_sync(&h->c, 60000))
      return true;
   struct ppu_fault f;
   memset(&f, 0, sizeof(f));
   ppu_channel_fault(h->c.ch, &f);
   if (fault)
      *fault = f;
   return false;
}

bool hwc_run_simple(struct hwc *h, const char *src, uint32_t threads)
{
   uint64_t prog = hwc_program(h, src);
   if (!prog)
      return false;
   struct ppu_qmd q;
   hwc_qmd_defaults(h, &q, prog);
   q.workgroup_size[0] = threads;
   struct ppu_fault f;
   if (!hwc_launch(h, &q, 0, &f)) {
      char report[1024];
      ppu_fault_format(h->c.ch, &f, report, sizeof(report));
      test_fail(__FILE__, __LINE__, "grid faulted:\n%s", report);
      return false;
   }
   return true;
}

uint32_t hwc_out32(struct hwc *h, uint64_t index)
{
   uint32_t v = 0;
   hwt_read(&h->t.mem, h->t.pd, h->out_va + index * 4, &v, 4);
   return v;
}

uint64_t hwc_out64(struct hwc *h, uint64_t index)
{
   uint64_t v = 0;
   hwt_read(&h->t.mem, h->t.pd, h->out_va + index * 8, &v, 8);
   return v;
}

void hwc_cb_write32(struct hwc *h, uint32_t offset, uint32_t v)
{
   hwt_write(&h->t.mem, h->t.pd, h->cb_va + offset, &v, 4);
}
