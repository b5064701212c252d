/* Front end: host-subchannel methods and routing to engines. */
#include "front_end.h"

#include <stdatomic.h>

#include "fault.h"
#include "ppu/methods.h"

#define SEM_EXECUTE_VALID_BITS (PPU_SEM_OP_MASK | PPU_SEM_FLAG_AWAKEN)

void ppu_front_end_init(struct ppu_front_end *fe, struct ppu_mmu *mmu, struct ppu_copy_engine *copy,
                        struct ppu_counter_block *counters, struct ppu_interrupts *intr,
                        const struct ppu_timer *timer)
{
   ppu_mmu_client_init(&fe->mmu, mmu, PPU_ENGINE_HOST);
   fe->copy = copy;
   fe->compute = NULL;
   fe->counters = counters;
   fe->intr = intr;
   fe->timer = timer;
   fe->semaphore_writes = 0;
}

void ppu_front_end_attach_compute(struct ppu_front_end *fe, struct ppu_compute_engine *ce)
{
   fe->compute = ce;
   ppu_graphics_engine_init(&fe->graphics, fe->mmu.mmu, ce, fe->counters);
}

/* The semaphore word as a host atomic. The VA is 8-byte aligned and pages
 * are 4 KiB, so the word never straddles a page and one translation covers
 * it. Host threads read and write the same word through the BAR, so all
 * accesses are atomic: releases with release order (work before the release
 * is visible to whoever sees the payload), acquires with acquire order. */
static _Atomic uint64_t *semaphore_word(struct ppu_front_end *fe, uint64_t pa)
{
   return (_Atomic uint64_t *)(void *)ppu_mmu_host_ptr(fe->mmu.mmu, pa);
}

static enum ppu_method_status sem_execute(struct ppu_front_end *fe, struct ppu_channel *ch,
                                          struct ppu_method_context *ctx, uint32_t data,
                                          struct ppu_fault *fault)
{
   struct ppu_host_context *host = &ctx->host;
   uint32_t op = data & PPU_SEM_OP_MASK;
   if (data & ~SEM_EXECUTE_VALID_BITS) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_HOST,
                    "SEM_EXECUTE has undefined bits 0x%x set", data & ~SEM_EXECUTE_VALID_BITS);
      return PPU_METHOD_FAULT;
   }
   if (op != PPU_SEM_OP_ACQUIRE_GEQ && op != PPU_SEM_OP_RELEASE && op != PPU_SEM_OP_TIMESTAMP) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_HOST,
                    "SEM_EXECUTE of unknown operation %u", op);
      return PPU_METHOD_FAULT;
   }
   if (host->sem_va & 7) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_HOST,
                    "semaphore address 0x%llx is not 8-byte aligned",
                    (unsigned long long)host->sem_va);
      return PPU_METHOD_FAULT;
   }
   bool write = op != PPU_SEM_OP_ACQUIRE_GEQ;
   uint64_t pa;
   if (!ppu_mmu_translate(&fe->mmu, ctx->pd_pa, host->sem_va, write, &pa, fault))
      return PPU_METHOD_FAULT;
   _Atomic uint64_t *word = semaphore_word(fe, pa);

   switch (op) {
   case PPU_SEM_OP_ACQUIRE_GEQ:
      if (atomic_load_explicit(word, memory_order_acquire) < host->sem_payload) {
         if (!host->acquire_waiting)
            ppu_counter_add(fe->counters, PPU_COUNTER_HOST_ACQUIRE_STALLS, 1);
         host->acquire_waiting = true;
         return PPU_METHOD_STALL;
      }
      host->acquire_waiting = false;
      ppu_counter_add(fe->counters, PPU_COUNTER_HOST_SEM_ACQUIRES, 1);
      break;
   case PPU_SEM_OP_RELEASE:
      /* Earlier work of the channel is complete: every engine finishes an
       * operation before the method that launched it returns. */
      atomic_store_explicit(word, host->sem_payload, memory_order_release);
      fe->semaphore_writes++;
      ppu_counter_add(fe->counters, PPU_COUNTER_HOST_SEM_RELEASES, 1);
      break;
   case PPU_SEM_OP_TIMESTAMP:
      atomic_store_explicit(word, ppu_timer_read_ns(fe->timer), memory_order_release);
      fe->semaphore_writes++;
      ppu_counter_add(fe->counters, PPU_COUNTER_HOST_SEM_RELEASES, 1);
      break;
   }
   if (data & PPU_SEM_FLAG_AWAKEN)
      ppu_interrupts_raise(fe->intr, PPU_INTR_SEMAPHORE, ch);
   return PPU_METHOD_DONE;
}

static enum ppu_method_status host_method(struct ppu_front_end *fe, struct ppu_channel *ch,
                                          struct ppu_method_context *ctx, uint32_t method,
                                          uint32_t data, struct ppu_fault *fault)
{
   struct ppu_host_context *host = &ctx->host;
   switch (method) {
   case PPU_HOST_NOP:
      return PPU_METHOD_DONE;
   case PPU_HOST_SEM_ADDR_LO:
      host->sem_va = (host->sem_va & ~0xffffffffull) | data;
      return PPU_METHOD_DONE;
   case PPU_HOST_SEM_ADDR_HI:
      host->sem_va = (host->sem_va & 0xffffffffull) | ((uint64_t)data << 32);
      return PPU_METHOD_DONE;
   case PPU_HOST_SEM_PAYLOAD_LO:
      host->sem_payload = (host->sem_payload & ~0xffffffffull) | data;
      return PPU_METHOD_DONE;
   case PPU_HOST_SEM_PAYLOAD_HI:
      host->sem_payload = (host->sem_payload & 0xffffffffull) | ((uint64_t)data << 32);
      return PPU_METHOD_DONE;
   case PPU_HOST_SEM_EXECUTE:
      return sem_execute(fe, ch, ctx, data, fault);
   case PPU_HOST_WAIT_FOR_IDLE:
      /* Engines in this model finish each operation inside the method that
       * launched it, so the channel is always idle here. */
      return PPU_METHOD_DONE;
   case PPU_HOST_TLB_INVALIDATE:
      ppu_mmu_invalidate_all(fe->mmu.mmu);
      return PPU_METHOD_DONE;
   case PPU_HOST_COUNTER_SNAPSHOT_ADDR_LO:
   case PPU_HOST_COUNTER_SNAPSHOT_ADDR_HI:
   case PPU_HOST_COUNTER_SNAPSHOT:
      return ppu_counter_snapshot_method(&fe->counter_snapshot, &ctx->counter_snapshot, ctx->pd_pa,
                                         method, data, fault);
   default:
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST, "unknown host method 0x%03x",
                    method);
      return PPU_METHOD_FAULT;
   }
}

enum ppu_method_status ppu_front_end_method(struct ppu_front_end *fe, struct ppu_channel *ch,
                                            struct ppu_method_context *ctx, uint32_t subchannel,
                                            uint32_t method, uint32_t data, struct ppu_fault *fault)
{
   switch (subchannel) {
   case PPU_SUBCH_HOST:
      return host_method(fe, ch, ctx, method, data, fault);
   case PPU_SUBCH_COPY:
      return ppu_copy_engine_method(fe->copy, &ctx->copy, ctx->pd_pa, method, data, fault);
   case PPU_SUBCH_COMPUTE:
      if (fe->compute)
         return ppu_compute_engine_method(fe->compute, &ctx->compute, ctx->pd_pa, method, data,
                                          fault);
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD, PPU_ENGINE_COMPUTE, "no compute engine attached");
      return PPU_METHOD_FAULT;
   case PPU_SUBCH_GRAPHICS:
      if (fe->compute)
         return ppu_graphics_engine_method(&fe->graphics, &ctx->graphics, ctx->pd_pa, method, data,
                                           fault);
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD, PPU_ENGINE_GRAPHICS,
                    "no compute engine attached (graphics warps run on its SMs)");
      return PPU_METHOD_FAULT;
   default:
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD, PPU_ENGINE_HOST,
                    "subchannel %u is not bound to an engine", subchannel);
      return PPU_METHOD_FAULT;
   }
}

bool ppu_front_end_data_run(struct ppu_front_end *fe, struct ppu_method_context *ctx,
                            uint32_t subchannel, uint32_t method, const uint32_t *words,
                            uint32_t count, uint32_t *consumed, struct ppu_fault *fault)
{
   *consumed = 0;
   if (subchannel == PPU_SUBCH_COPY && method == PPU_COPY_INLINE_DATA)
      return ppu_copy_engine_inline_run(fe->copy, &ctx->copy, ctx->pd_pa, words, count, consumed,
                                        fault);
   return true;
}
