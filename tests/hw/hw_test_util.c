/* See hw_test_util.h. */
#include "hw_test_util.h"

#include "ppu/hw_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_harness.h"

#define HWT_FAIL(...) test_fail(__FILE__, __LINE__, __VA_ARGS__)

/* --- VRAM through the BAR ------------------------------------------------ */

void hwt_mem_init(struct hwt_mem *m, uint8_t *bar, uint64_t size)
{
   m->bar = bar;
   m->size = size;
   m->next_pa = PPU_PAGE_SIZE;
}

uint64_t hwt_alloc_pages(struct hwt_mem *m, uint64_t pages)
{
   uint64_t bytes = pages * PPU_PAGE_SIZE;
   if (bytes > m->size - m->next_pa) {
      HWT_FAIL("test VRAM exhausted (%llu pages asked)", (unsigned long long)pages);
      return 0;
   }
   uint64_t pa = m->next_pa;
   m->next_pa += bytes;
   memset(m->bar + pa, 0, bytes);
   return pa;
}

uint64_t hwt_new_directory(struct hwt_mem *m)
{
   return hwt_alloc_pages(m, 2); /* 1024 entries of 8 bytes */
}

static uint64_t *entry_at(struct hwt_mem *m, uint64_t table_pa, uint64_t index)
{
   return (uint64_t *)(void *)(m->bar + table_pa + index * 8);
}

static const unsigned level_shift[3] = {PPU_PT_L0_SHIFT, PPU_PT_L1_SHIFT, PPU_PT_L2_SHIFT};
static const unsigned level_entries[3] = {PPU_PT_L0_ENTRIES, PPU_PT_L1_ENTRIES, PPU_PT_L2_ENTRIES};

static uint64_t *path_entry(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, unsigned level,
                            bool create)
{
   uint64_t table = pd_pa;
   for (unsigned l = 0;; l++) {
      uint64_t *e = entry_at(m, table, (va >> level_shift[l]) & (level_entries[l] - 1));
      if (l == level)
         return e;
      if (!(*e & PPU_PTE_VALID)) {
         if (!create)
            return NULL;
         uint64_t pa = hwt_alloc_pages(m, 1);
         if (!pa)
            return NULL;
         *e = pa | PPU_PTE_VALID;
      }
      table = *e & PPU_PTE_ADDR_MASK;
      if (table + PPU_PAGE_SIZE > m->size)
         return NULL;
   }
}

uint64_t *hwt_leaf_pte(struct hwt_mem *m, uint64_t pd_pa, uint64_t va)
{
   return path_entry(m, pd_pa, va, 2, true);
}

uint64_t *hwt_dir_entry(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, unsigned level)
{
   return path_entry(m, pd_pa, va, level, false);
}

void hwt_map(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, uint64_t pa, uint64_t size,
             bool writable)
{
   for (uint64_t off = 0; off < size; off += PPU_PAGE_SIZE) {
      uint64_t *pte = hwt_leaf_pte(m, pd_pa, va + off);
      if (!pte) {
         HWT_FAIL("cannot map VA 0x%llx", (unsigned long long)(va + off));
         return;
      }
      *pte = (pa + off) | PPU_PTE_VALID | (writable ? PPU_PTE_WRITABLE : 0);
   }
}

void hwt_map_scattered(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, uint64_t size)
{
   uint64_t pages = size / PPU_PAGE_SIZE;
   /* Twice the pages, VA page i -> physical page (2 * (pages - 1 - i)):
    * reversed and with gaps, so no two VA neighbours are contiguous. */
   uint64_t base = hwt_alloc_pages(m, pages * 2);
   if (!base)
      return;
   for (uint64_t i = 0; i < pages; i++)
      hwt_map(m, pd_pa, va + i * PPU_PAGE_SIZE, base + 2 * (pages - 1 - i) * PPU_PAGE_SIZE,
              PPU_PAGE_SIZE, true);
}

uint8_t *hwt_host_ptr(struct hwt_mem *m, uint64_t pd_pa, uint64_t va)
{
   uint64_t *pte = hwt_dir_entry(m, pd_pa, va, 2);
   if (!pte || !(*pte & PPU_PTE_VALID))
      return NULL;
   return m->bar + (*pte & PPU_PTE_ADDR_MASK) + (va & PPU_PAGE_MASK);
}

void hwt_write(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, const void *src, uint64_t len)
{
   const uint8_t *in = src;
   while (len) {
      uint64_t n = PPU_PAGE_SIZE - (va & PPU_PAGE_MASK);
      if (n > len)
         n = len;
      uint8_t *p = hwt_host_ptr(m, pd_pa, va);
      if (!p) {
         HWT_FAIL("hwt_write: VA 0x%llx unmapped", (unsigned long long)va);
         return;
      }
      memcpy(p, in, n);
      in += n, va += n, len -= n;
   }
}

void hwt_read(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, void *dst, uint64_t len)
{
   uint8_t *out = dst;
   while (len) {
      uint64_t n = PPU_PAGE_SIZE - (va & PPU_PAGE_MASK);
      if (n > len)
         n = len;
      uint8_t *p = hwt_host_ptr(m, pd_pa, va);
      if (!p) {
         HWT_FAIL("hwt_read: VA 0x%llx unmapped", (unsigned long long)va);
         return;
      }
      memcpy(out, p, n);
      out += n, va += n, len -= n;
   }
}

/* --- A chip with one address space ---------------------------------------- */

static void count_interrupt(void *user, enum ppu_interrupt kind, struct ppu_channel *ch)
{
   struct hwt *t = user;
   (void)ch;
   if (kind == PPU_INTR_SEMAPHORE)
      atomic_fetch_add(&t->semaphore_interrupts, 1);
   else if (kind == PPU_INTR_FAULT)
      atomic_fetch_add(&t->fault_interrupts, 1);
}

bool hwt_init(struct hwt *t, uint64_t vram_size)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = vram_size;
   cfg.max_channels = 16;
   return hwt_init_with(t, &cfg);
}

bool hwt_init_with(struct hwt *t, const struct ppu_gpu_config *cfg_in)
{
   memset(t, 0, sizeof(*t));
   /* VKPPU_SM_EXEC=interp|jit|auto runs a test's programs on that engine
    * (the driver reads the same variable): the ISA tests run under both. */
   struct ppu_gpu_config copy = *cfg_in;
   const struct ppu_gpu_config *cfg = &copy;
   const char *exec = getenv("VKPPU_SM_EXEC");
   for (unsigned i = 0; exec && ppu_sm_exec_names[i]; i++)
      if (strcmp(exec, ppu_sm_exec_names[i]) == 0)
         copy.sm_exec = (enum ppu_sm_exec)i;
   char err[128] = "";
   t->gpu = ppu_gpu_create(cfg, err, sizeof(err));
   if (!t->gpu) {
      HWT_FAIL("ppu_gpu_create: %s", err);
      return false;
   }
   hwt_mem_init(&t->mem, ppu_gpu_bar(t->gpu), ppu_gpu_vram_size(t->gpu));
   t->pd = hwt_new_directory(&t->mem);
   t->next_va = 1ull << 32; /* away from page 0 and from hand-picked VAs */
   ppu_gpu_set_interrupt_handler(t->gpu, count_interrupt, t);
   return t->pd != 0;
}

void hwt_finish(struct hwt *t)
{
   ppu_gpu_destroy(t->gpu);
   t->gpu = NULL;
}

uint64_t hwt_alloc_va(struct hwt *t, uint64_t size)
{
   uint64_t va = t->next_va;
   /* A guard page after each range so overruns fault. */
   t->next_va += (size + 2 * PPU_PAGE_SIZE - 1) & ~PPU_PAGE_MASK;
   return va;
}

uint64_t hwt_alloc_mapped(struct hwt *t, uint64_t size, bool writable)
{
   uint64_t pages = (size + PPU_PAGE_MASK) / PPU_PAGE_SIZE;
   uint64_t va = hwt_alloc_va(t, size);
   uint64_t pa = hwt_alloc_pages(&t->mem, pages);
   if (pa)
      hwt_map(&t->mem, t->pd, va, pa, pages * PPU_PAGE_SIZE, writable);
   return va;
}

uint64_t hwt_alloc_scattered(struct hwt *t, uint64_t size)
{
   uint64_t pages = (size + PPU_PAGE_MASK) / PPU_PAGE_SIZE;
   uint64_t va = hwt_alloc_va(t, size);
   hwt_map_scattered(&t->mem, t->pd, va, pages * PPU_PAGE_SIZE);
   return va;
}

uint8_t *hwt_ptr(struct hwt *t, uint64_t va)
{
   return hwt_host_ptr(&t->mem, t->pd, va);
}

/* --- Pushbuffer writer ------------------------------------------------------ */

void hwt_pb_reset(struct hwt_pb *pb)
{
   pb->n = 0;
}

void hwt_pb_word(struct hwt_pb *pb, uint32_t w)
{
   if (pb->n == HWT_PB_MAX_WORDS) {
      HWT_FAIL("pushbuffer full");
      return;
   }
   pb->w[pb->n++] = w;
}

void hwt_pb_method(struct hwt_pb *pb, enum ppu_mthd_type type, uint32_t subch, uint32_t method,
                   uint32_t count, const uint32_t *data)
{
   hwt_pb_word(pb, PPU_MTHD_HDR(type, subch, method, count));
   for (uint32_t i = 0; i < count; i++)
      hwt_pb_word(pb, data[i]);
}

void hwt_pb_immd(struct hwt_pb *pb, uint32_t subch, uint32_t method, uint32_t data13)
{
   hwt_pb_word(pb, PPU_MTHD_HDR(PPU_MTHD_IMMD, subch, method, data13));
}

void hwt_pb_set64(struct hwt_pb *pb, uint32_t subch, uint32_t method_lo, uint64_t v)
{
   uint32_t d[2] = {(uint32_t)v, (uint32_t)(v >> 32)};
   hwt_pb_method(pb, PPU_MTHD_INCR, subch, method_lo, 2, d);
}

void hwt_pb_sem(struct hwt_pb *pb, uint64_t va, uint64_t payload, uint32_t execute)
{
   uint32_t d[5] = {(uint32_t)va, (uint32_t)(va >> 32), (uint32_t)payload,
                    (uint32_t)(payload >> 32), execute};
   hwt_pb_method(pb, PPU_MTHD_INCR, PPU_SUBCH_HOST, PPU_HOST_SEM_ADDR_LO, 5, d);
}

void hwt_pb_copy(struct hwt_pb *pb, uint64_t dst, uint64_t src, uint64_t len)
{
   uint32_t d[6] = {(uint32_t)src,         (uint32_t)(src >> 32), (uint32_t)dst,
                    (uint32_t)(dst >> 32), (uint32_t)len,         (uint32_t)(len >> 32)};
   hwt_pb_method(pb, PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_SRC_ADDR_LO, 6, d);
   hwt_pb_immd(pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_COPY);
}

void hwt_pb_fill(struct hwt_pb *pb, uint64_t dst, uint32_t pattern, uint64_t len)
{
   hwt_pb_set64(pb, PPU_SUBCH_COPY, PPU_COPY_DST_ADDR_LO, dst);
   hwt_pb_set64(pb, PPU_SUBCH_COPY, PPU_COPY_LENGTH_LO, len);
   hwt_pb_method(pb, PPU_MTHD_INCR, PPU_SUBCH_COPY, PPU_COPY_FILL_PATTERN, 1, &pattern);
   hwt_pb_immd(pb, PPU_SUBCH_COPY, PPU_COPY_LAUNCH, PPU_COPY_OP_FILL);
}

/* --- Channels --------------------------------------------------------------- */

#define HWT_GPFIFO_ENTRIES 64u
#define HWT_PB_BYTES (1ull << 20)

bool hwt_channel_init(struct hwt_channel *c, struct hwt *t, const char *name)
{
   memset(c, 0, sizeof(*c)); /* c->ch = NULL: nothing to destroy on restart */
   c->t = t;
   c->entries = HWT_GPFIFO_ENTRIES;
   c->gpfifo_va = hwt_alloc_mapped(t, c->entries * 8, true);
   c->pb_size = HWT_PB_BYTES;
   c->pb_va = hwt_alloc_mapped(t, c->pb_size, false); /* the chip only reads it */
   c->fence_va = hwt_alloc_mapped(t, PPU_PAGE_SIZE, true);
   return hwt_channel_restart(c, name);
}

bool hwt_channel_restart(struct hwt_channel *c, const char *name)
{
   ppu_channel_destroy(c->ch);
   c->put = 0;
   c->pb_used = 0;
   c->fence_value = 0;
   hwt_store_u64(c->t, c->fence_va, 0);
   struct ppu_channel_desc desc = {.page_directory_pa = c->t->pd,
                                   .gpfifo_va = c->gpfifo_va,
                                   .gpfifo_entries = c->entries,
                                   .name = name};
   c->ch = ppu_channel_create(c->t->gpu, &desc);
   if (!c->ch)
      HWT_FAIL("ppu_channel_create(%s) failed", name);
   return c->ch != NULL;
}

void hwt_channel_finish(struct hwt_channel *c)
{
   ppu_channel_destroy(c->ch);
   c->ch = NULL;
}

static bool channel_wait_gp_get(struct hwt_channel *c, uint32_t until_not)
{
   uint64_t deadline = hwt_now_ns() + 5000000000ull;
   while (ppu_channel_gp_get(c->ch) == until_not) {
      if (ppu_channel_fault(c->ch, NULL) || hwt_now_ns() > deadline)
         return false;
      hwt_sleep_us(20);
   }
   return true;
}

void hwt_submit_entry(struct hwt_channel *c, uint64_t entry)
{
   uint32_t next = (c->put + 1) % c->entries;
   if (next == ppu_channel_gp_get(c->ch) && !channel_wait_gp_get(c, next)) {
      HWT_FAIL("GPFIFO of channel stays full");
      return;
   }
   hwt_write(&c->t->mem, c->t->pd, c->gpfifo_va + (uint64_t)c->put * 8, &entry, 8);
   c->put = next;
   ppu_channel_ring_doorbell(c->ch, c->put);
}

uint64_t hwt_submit(struct hwt_channel *c, const struct hwt_pb *pb)
{
   uint64_t bytes = (uint64_t)pb->n * 4;
   if (c->pb_used + bytes > c->pb_size) {
      /* Wrap only once the chip has fetched everything (it copies segments
       * out when it fetches them). */
      uint64_t deadline = hwt_now_ns() + 5000000000ull;
      while (ppu_channel_gp_get(c->ch) != c->put && !ppu_channel_fault(c->ch, NULL) &&
             hwt_now_ns() < deadline)
         hwt_sleep_us(20);
      c->pb_used = 0;
   }
   uint64_t va = c->pb_va + c->pb_used;
   hwt_write(&c->t->mem, c->t->pd, va, pb->w, bytes);
   c->pb_used += (bytes + 7) & ~7ull;
   hwt_submit_entry(c, PPU_GPFIFO_ENTRY(va, pb->n));
   return va;
}

uint64_t hwt_load_u64(struct hwt *t, uint64_t va)
{
   _Atomic uint64_t *p = (_Atomic uint64_t *)(void *)hwt_ptr(t, va);
   return p ? atomic_load_explicit(p, memory_order_acquire) : 0;
}

void hwt_store_u64(struct hwt *t, uint64_t va, uint64_t v)
{
   _Atomic uint64_t *p = (_Atomic uint64_t *)(void *)hwt_ptr(t, va);
   if (p)
      atomic_store_explicit(p, v, memory_order_release);
}

bool hwt_wait_u64(struct hwt_channel *c, uint64_t va, uint64_t value, unsigned timeout_ms)
{
   uint64_t deadline = hwt_now_ns() + (uint64_t)timeout_ms * 1000000ull;
   /* Polls every 20 us at first, then backs off to 1 ms: a long grid (the
    * ray-tracing benchmarks' take seconds) would otherwise wake this thread
    * tens of thousands of times a second, each time taking a core from the
    * model's workers on a small machine. */
   unsigned poll_us = 20;
   while (hwt_load_u64(c->t, va) < value) {
      struct ppu_fault f;
      if (ppu_channel_fault(c->ch, &f)) {
         char report[1024];
         ppu_fault_format(c->ch, &f, report, sizeof(report));
         fprintf(stderr, "  waiting for 0x%llx >= %llu:\n%s", (unsigned long long)va,
                 (unsigned long long)value, report);
         return false;
      }
      if (hwt_now_ns() > deadline) {
         fprintf(stderr, "  waiting for 0x%llx >= %llu: timed out\n", (unsigned long long)va,
                 (unsigned long long)value);
         return false;
      }
      hwt_sleep_us(poll_us);
      if (poll_us < 1000)
         poll_us += poll_us / 4 + 1;
   }
   return true;
}

bool hwt_sync(struct hwt_channel *c, unsigned timeout_ms)
{
   struct hwt_pb pb;
   hwt_pb_reset(&pb);
   c->fence_value++;
   hwt_pb_sem(&pb, c->fence_va, c->fence_value, PPU_SEM_OP_RELEASE);
   hwt_submit(c, &pb);
   return hwt_wait_u64(c, c->fence_va, c->fence_value, timeout_ms);
}

bool hwt_wait_fault(struct hwt_channel *c, struct ppu_fault *f, unsigned timeout_ms)
{
   uint64_t deadline = hwt_now_ns() + (uint64_t)timeout_ms * 1000000ull;
   while (!ppu_channel_fault(c->ch, f)) {
      if (hwt_now_ns() > deadline)
         return false;
      hwt_sleep_us(20);
   }
   return true;
}

void hwt_sleep_us(unsigned us)
{
   struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000};
   nanosleep(&ts, NULL);
}

uint64_t hwt_now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t hwt_counter(struct hwt *t, enum ppu_counter id)
{
   uint64_t v[PPU_COUNTER_COUNT];
   ppu_gpu_read_counters(t->gpu, v);
   return v[id];
}
