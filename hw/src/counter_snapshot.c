/* COUNTER_SNAPSHOT: every hardware counter written into GPU memory in
 * channel order, so a driver can take the counts of the work between two
 * snapshots (docs/methods.md, "Counter snapshots"). */
#include "counter_snapshot.h"

#include <string.h>

#include "ppu/counter_snapshot.h"
#include "ppu/methods.h"

void ppu_counter_snapshot_init(struct ppu_counter_snapshot *cs, struct ppu_mmu *mmu,
                               struct ppu_gpu *gpu)
{
   ppu_mmu_client_init(&cs->mmu, mmu, PPU_ENGINE_HOST);
   cs->gpu = gpu;
}

static enum ppu_method_status write_snapshot(struct ppu_counter_snapshot *cs,
                                             const struct ppu_counter_snapshot_context *ctx,
                                             uint64_t pd_pa, uint32_t data, struct ppu_fault *fault)
{
   if (data != 0) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_HOST,
                    "COUNTER_SNAPSHOT data 0x%x is not 0", data);
      return PPU_METHOD_FAULT;
   }
   if (ctx->va & 7) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_HOST,
                    "counter snapshot address 0x%llx is not 8-byte aligned",
                    (unsigned long long)ctx->va);
      return PPU_METHOD_FAULT;
   }
   /* Earlier work of the channel is complete here, as for a semaphore
    * RELEASE: every engine finishes an operation before the method that
    * launched it returns (a compute LAUNCH stalls its channel until the
    * grid's last workgroup has ended). The values are read before the
    * record is written, so the snapshot's own MMU lookups count in the
    * next one. */
   struct {
      struct ppu_counter_snapshot_header header;
      uint64_t value[PPU_COUNTER_COUNT];
   } record;
   _Static_assert(sizeof(record) == PPU_COUNTER_SNAPSHOT_BYTES, "no padding in the record");
   memset(&record, 0, sizeof(record));
   record.header.version = PPU_COUNTER_SNAPSHOT_VERSION;
   record.header.count = PPU_COUNTER_COUNT;
   ppu_gpu_read_counters(cs->gpu, record.value);
   if (!ppu_mmu_write(&cs->mmu, pd_pa, ctx->va, &record, sizeof(record), fault))
      return PPU_METHOD_FAULT;
   return PPU_METHOD_DONE;
}

enum ppu_method_status ppu_counter_snapshot_method(struct ppu_counter_snapshot *cs,
                                                   struct ppu_counter_snapshot_context *ctx,
                                                   uint64_t pd_pa, uint32_t method, uint32_t data,
                                                   struct ppu_fault *fault)
{
   switch (method) {
   case PPU_HOST_COUNTER_SNAPSHOT_ADDR_LO:
      ctx->va = (ctx->va & ~0xffffffffull) | data;
      return PPU_METHOD_DONE;
   case PPU_HOST_COUNTER_SNAPSHOT_ADDR_HI:
      ctx->va = (ctx->va & 0xffffffffull) | ((uint64_t)data << 32);
      return PPU_METHOD_DONE;
   case PPU_HOST_COUNTER_SNAPSHOT:
      return write_snapshot(cs, ctx, pd_pa, data, fault);
   default:
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST, "unknown host method 0x%03x",
                    method);
      return PPU_METHOD_FAULT;
   }
}
