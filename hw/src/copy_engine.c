/* Copy engine: method decode and the buffer operations (ppu/methods.h);
 * image operations are in copy_engine_image.c, blits in copy_engine_blit.c. */
#include "copy_engine.h"

#include <string.h>

#include "fault.h"
#include "ppu/methods.h"
#include "ppu/mmu_format.h"

#define COPY_QUERY_FLAGS_ALL                                                                       \
   (PPU_QUERY_FLAG_64BIT | PPU_QUERY_FLAG_WITH_AVAILABILITY | PPU_QUERY_FLAG_PARTIAL)

void ppu_copy_engine_init(struct ppu_copy_engine *ce, struct ppu_mmu *mmu,
                          struct ppu_counter_block *counters)
{
   ppu_mmu_client_init(&ce->mmu, mmu, PPU_ENGINE_COPY);
   ce->counters = counters;
}

static enum ppu_method_status bad_data(struct ppu_fault *fault, const char *what, uint64_t v1,
                                       uint64_t v2)
{
   ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COPY, "%s (0x%llx, 0x%llx)", what,
                 (unsigned long long)v1, (unsigned long long)v2);
   return PPU_METHOD_FAULT;
}

static enum ppu_method_status launch_copy(struct ppu_copy_engine *ce, struct ppu_copy_context *ctx,
                                          uint64_t pd_pa, struct ppu_fault *fault)
{
   uint64_t src = ctx->src_va, dst = ctx->dst_va, len = ctx->length;
   /* methods.h: the ranges may not overlap. Written without src + len so
    * that garbage addresses cannot overflow the test. */
   bool overlap = src <= dst ? dst - src < len : src - dst < len;
   if (overlap)
      return bad_data(fault, "COPY source and destination overlap (SRC, DST)", src, dst);
   if (!ppu_mmu_copy(&ce->mmu, pd_pa, dst, src, len, fault))
      return PPU_METHOD_FAULT;
   ppu_counter_add(ce->counters, PPU_COUNTER_COPY_BYTES_COPIED, len);
   return PPU_METHOD_DONE;
}

static enum ppu_method_status launch_fill(struct ppu_copy_engine *ce, struct ppu_copy_context *ctx,
                                          uint64_t pd_pa, struct ppu_fault *fault)
{
   if ((ctx->dst_va | ctx->length) & 3)
      return bad_data(fault, "FILL needs DST and LENGTH multiples of 4 (DST, LENGTH)", ctx->dst_va,
                      ctx->length);
   if (!ppu_mmu_fill32(&ce->mmu, pd_pa, ctx->dst_va, ctx->fill_pattern, ctx->length, fault))
      return PPU_METHOD_FAULT;
   ppu_counter_add(ce->counters, PPU_COUNTER_COPY_BYTES_FILLED, ctx->length);
   return PPU_METHOD_DONE;
}

static enum ppu_method_status launch_inline(struct ppu_copy_context *ctx, struct ppu_fault *fault)
{
   if ((ctx->dst_va | ctx->length) & 3)
      return bad_data(fault, "INLINE needs DST and LENGTH multiples of 4 (DST, LENGTH)",
                      ctx->dst_va, ctx->length);
   ctx->inline_left = ctx->length;
   ctx->inline_va = ctx->dst_va;
   ctx->inline_page_left = 0; /* translated when the first word arrives */
   return PPU_METHOD_DONE;
}

static enum ppu_method_status inline_data(struct ppu_copy_engine *ce, struct ppu_copy_context *ctx,
                                          uint64_t pd_pa, uint32_t data, struct ppu_fault *fault)
{
   if (ctx->inline_left == 0) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COPY,
                    "INLINE_DATA word beyond the LENGTH of the last INLINE launch");
      return PPU_METHOD_FAULT;
   }
   uint64_t epoch = atomic_load_explicit(&ce->mmu.mmu->invalidate_epoch, memory_order_acquire);
   if (ctx->inline_page_left == 0 || ctx->inline_epoch != epoch) {
      if (!ppu_mmu_translate(&ce->mmu, pd_pa, ctx->inline_va, true, &ctx->inline_pa, fault))
         return PPU_METHOD_FAULT;
      ctx->inline_page_left = PPU_PAGE_SIZE - (ctx->inline_va & PPU_PAGE_MASK);
      ctx->inline_epoch = epoch;
   }
   memcpy(ppu_mmu_host_ptr(ce->mmu.mmu, ctx->inline_pa), &data, 4);
   ctx->inline_va += 4;
   ctx->inline_pa += 4;
   ctx->inline_page_left -= 4;
   ctx->inline_left -= 4;
   ppu_counter_add(ce->counters, PPU_COUNTER_COPY_BYTES_INLINE, 4);
   return PPU_METHOD_DONE;
}

bool ppu_copy_engine_inline_run(struct ppu_copy_engine *ce, struct ppu_copy_context *ctx,
                                uint64_t pd_pa, const uint32_t *words, uint32_t count,
                                uint32_t *consumed, struct ppu_fault *fault)
{
   uint64_t n = ctx->inline_left / 4;
   if (n > count)
      n = count;
   *consumed = 0;
   if (n == 0)
      return true;
   if (!ppu_mmu_write(&ce->mmu, pd_pa, ctx->inline_va, words, n * 4, fault))
      return false;
   ctx->inline_va += n * 4;
   ctx->inline_left -= n * 4;
   ctx->inline_page_left = 0; /* the per-word path translates afresh */
   ppu_counter_add(ce->counters, PPU_COUNTER_COPY_BYTES_INLINE, n * 4);
   *consumed = (uint32_t)n;
   return true;
}

static enum ppu_method_status launch_query_copy(struct ppu_copy_engine *ce,
                                                struct ppu_copy_context *ctx, uint64_t pd_pa,
                                                struct ppu_fault *fault)
{
   uint32_t flags = ctx->query_flags;
   uint64_t width = (flags & PPU_QUERY_FLAG_64BIT) ? 8 : 4;
   /* Values are written as whole aligned words, like
    * vkCmdCopyQueryPoolResults requires of dstOffset and stride. */
   if ((ctx->dst_va | ctx->dst_stride) & (width - 1))
      return bad_data(fault, "QUERY_COPY needs DST and DST_STRIDE aligned to the value size",
                      ctx->dst_va, ctx->dst_stride);
   if (ctx->src_va & 7)
      return bad_data(fault, "QUERY_COPY needs SRC 8-byte aligned (SRC, 0)", ctx->src_va, 0);
   for (uint32_t i = 0; i < ctx->query_count; i++) {
      struct ppu_query_record rec;
      uint64_t src = ctx->src_va + (uint64_t)i * sizeof(rec);
      uint64_t dst = ctx->dst_va + (uint64_t)i * ctx->dst_stride;
      if (!ppu_mmu_read(&ce->mmu, pd_pa, src, &rec, sizeof(rec), fault))
         return PPU_METHOD_FAULT;
      bool available = rec.available != 0;
      uint32_t v32 = (uint32_t)rec.value, a32 = available;
      uint64_t v64 = rec.value, a64 = available;
      /* Without PARTIAL an unavailable value is left untouched, but its
       * availability (0) is still written: Vulkan's rule for
       * vkCmdCopyQueryPoolResults without VK_QUERY_RESULT_PARTIAL_BIT. */
      if (available || (flags & PPU_QUERY_FLAG_PARTIAL)) {
         const void *v = width == 8 ? (const void *)&v64 : (const void *)&v32;
         if (!ppu_mmu_write(&ce->mmu, pd_pa, dst, v, width, fault))
            return PPU_METHOD_FAULT;
      }
      if (flags & PPU_QUERY_FLAG_WITH_AVAILABILITY) {
         const void *a = width == 8 ? (const void *)&a64 : (const void *)&a32;
         if (!ppu_mmu_write(&ce->mmu, pd_pa, dst + width, a, width, fault))
            return PPU_METHOD_FAULT;
      }
   }
   return PPU_METHOD_DONE;
}

static enum ppu_method_status launch(struct ppu_copy_engine *ce, struct ppu_copy_context *ctx,
                                     uint64_t pd_pa, uint32_t op, struct ppu_fault *fault)
{
   enum ppu_method_status st;
   switch (op) {
   case PPU_COPY_OP_COPY:
      st = launch_copy(ce, ctx, pd_pa, fault);
      break;
   case PPU_COPY_OP_FILL:
      st = launch_fill(ce, ctx, pd_pa, fault);
      break;
   case PPU_COPY_OP_INLINE:
      st = launch_inline(ctx, fault);
      break;
   case PPU_COPY_OP_QUERY_COPY:
      st = launch_query_copy(ce, ctx, pd_pa, fault);
      break;
   case PPU_COPY_OP_BUFFER_TO_IMAGE:
   case PPU_COPY_OP_IMAGE_TO_BUFFER:
   case PPU_COPY_OP_IMAGE_TO_IMAGE:
   case PPU_COPY_OP_CLEAR_IMAGE:
      st = ppu_copy_engine_image_launch(ce, ctx, pd_pa, op, fault);
      break;
   case PPU_COPY_OP_BLIT:
      st = ppu_copy_engine_blit_launch(ce, ctx, pd_pa, fault);
      break;
   default:
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COPY,
                    "LAUNCH of unknown operation %u", op);
      return PPU_METHOD_FAULT;
   }
   ppu_counter_add(ce->counters, PPU_COUNTER_COPY_OPERATIONS, 1);
   return st;
}

static void set_lo(uint64_t *v, uint32_t data)
{
   *v = (*v & ~0xffffffffull) | data;
}

static void set_hi(uint64_t *v, uint32_t data)
{
   *v = (*v & 0xffffffffull) | ((uint64_t)data << 32);
}

enum ppu_method_status ppu_copy_engine_method(struct ppu_copy_engine *ce,
                                              struct ppu_copy_context *ctx, uint64_t pd_pa,
                                              uint32_t method, uint32_t data,
                                              struct ppu_fault *fault)
{
   if (method == PPU_COPY_INLINE_DATA)
      return inline_data(ce, ctx, pd_pa, data, fault);
   /* An INLINE launch owns the engine until its LENGTH has arrived: any other
    * copy method in between means the pushbuffer lost count. */
   if (ctx->inline_left) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD, PPU_ENGINE_COPY,
                    "copy method 0x%03x while INLINE still expects %llu bytes of INLINE_DATA",
                    method, (unsigned long long)ctx->inline_left);
      return PPU_METHOD_FAULT;
   }
   switch (method) {
   case PPU_COPY_SRC_ADDR_LO:
      set_lo(&ctx->src_va, data);
      return PPU_METHOD_DONE;
   case PPU_COPY_SRC_ADDR_HI:
      set_hi(&ctx->src_va, data);
      return PPU_METHOD_DONE;
   case PPU_COPY_DST_ADDR_LO:
      set_lo(&ctx->dst_va, data);
      return PPU_METHOD_DONE;
   case PPU_COPY_DST_ADDR_HI:
      set_hi(&ctx->dst_va, data);
      return PPU_METHOD_DONE;
   case PPU_COPY_LENGTH_LO:
      set_lo(&ctx->length, data);
      return PPU_METHOD_DONE;
   case PPU_COPY_LENGTH_HI:
      set_hi(&ctx->length, data);
      return PPU_METHOD_DONE;
   case PPU_COPY_FILL_PATTERN:
      ctx->fill_pattern = data;
      return PPU_METHOD_DONE;
   case PPU_COPY_DST_STRIDE:
      ctx->dst_stride = data;
      return PPU_METHOD_DONE;
   case PPU_COPY_QUERY_COUNT:
      ctx->query_count = data;
      return PPU_METHOD_DONE;
   case PPU_COPY_QUERY_FLAGS:
      if (data & ~COPY_QUERY_FLAGS_ALL) {
         ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COPY,
                       "QUERY_FLAGS has undefined bits 0x%x set", data & ~COPY_QUERY_FLAGS_ALL);
         return PPU_METHOD_FAULT;
      }
      ctx->query_flags = data;
      return PPU_METHOD_DONE;
   case PPU_COPY_LAUNCH:
      return launch(ce, ctx, pd_pa, data, fault);
   default:
      if (ppu_copy_engine_image_state(ctx, method, data) ||
          ppu_copy_engine_blit_state(ctx, method, data))
         return PPU_METHOD_DONE;
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD, PPU_ENGINE_COPY, "unknown copy method 0x%03x",
                    method);
      return PPU_METHOD_FAULT;
   }
}
