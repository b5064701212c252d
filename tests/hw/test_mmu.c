/* MMU: page walk, TLB, invalidation, faults and translated memory
 * operations, tested on the unit itself (no model thread). */
#include <stdlib.h>
#include <string.h>

#include "hw_test_util.h"
#include "mmu.h"
#include "test_harness.h"

#define MMU_TEST_VRAM (64ull << 20)

struct mmu_env {
   struct ppu_vram vram;
   struct ppu_counter_block counters;
   struct ppu_mmu mmu;
   struct ppu_mmu_client client;
   struct hwt_mem mem;
   uint64_t pd;
};

static bool env_init(struct mmu_env *e)
{
   memset(e, 0, sizeof(*e));
   if (ppu_vram_init(&e->vram, MMU_TEST_VRAM) != 0)
      return false;
   ppu_mmu_init(&e->mmu, &e->vram, &e->counters);
   ppu_mmu_client_init(&e->client, &e->mmu, PPU_ENGINE_COPY);
   hwt_mem_init(&e->mem, e->vram.base, e->vram.size);
   e->pd = hwt_new_directory(&e->mem);
   return e->pd != 0;
}

static void env_finish(struct mmu_env *e)
{
   ppu_vram_finish(&e->vram);
}

static uint64_t count(struct mmu_env *e, enum ppu_counter id)
{
   return atomic_load(&e->counters.value[id]);
}

TEST_CASE(translate_keeps_page_offset_and_hits_tlb_the_second_time)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t pa = hwt_alloc_pages(&e.mem, 1);
   hwt_map(&e.mem, e.pd, 0x12345000, pa, PPU_PAGE_SIZE, true);
   struct ppu_fault f;
   uint64_t out = 0;
   CHECK(ppu_mmu_translate(&e.client, e.pd, 0x12345abc, false, &out, &f));
   CHECK_EQ_U64(out, pa + 0xabc);
   CHECK_EQ_U64(count(&e, PPU_COUNTER_MMU_TLB_MISSES), 1);
   CHECK_EQ_U64(count(&e, PPU_COUNTER_MMU_PAGE_WALKS), 1);
   CHECK(ppu_mmu_translate(&e.client, e.pd, 0x12345ff8, true, &out, &f));
   CHECK_EQ_U64(out, pa + 0xff8);
   CHECK_EQ_U64(count(&e, PPU_COUNTER_MMU_TLB_HITS), 1);
   CHECK_EQ_U64(count(&e, PPU_COUNTER_MMU_PAGE_WALKS), 1);
   env_finish(&e);
}

TEST_CASE(translate_uses_all_three_levels_of_a_high_address)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   /* VA 39..30 = 1023, 29..21 = 511, 20..12 = 511: the last entry of each. */
   uint64_t va = (1ull << 40) - PPU_PAGE_SIZE;
   uint64_t pa = hwt_alloc_pages(&e.mem, 1);
   hwt_map(&e.mem, e.pd, va, pa, PPU_PAGE_SIZE, false);
   struct ppu_fault f;
   uint64_t out = 0;
   CHECK(ppu_mmu_translate(&e.client, e.pd, va + 7, false, &out, &f));
   CHECK_EQ_U64(out, pa + 7);
   env_finish(&e);
}

static void expect_fault(struct mmu_env *e, uint64_t va, bool write, enum ppu_fault_kind kind)
{
   struct ppu_fault f;
   uint64_t out;
   bool ok = ppu_mmu_translate(&e->client, e->pd, va, write, &out, &f);
   CHECK_MSG(!ok, "VA 0x%llx translated, expected %s", (unsigned long long)va,
             ppu_fault_kind_name(kind));
   if (ok)
      return;
   CHECK_MSG(f.kind == kind, "VA 0x%llx: fault %s, expected %s (%s)", (unsigned long long)va,
             ppu_fault_kind_name(f.kind), ppu_fault_kind_name(kind), f.detail);
   CHECK_EQ_U64(f.address, va);
   CHECK(f.write == write);
   CHECK(f.engine == PPU_ENGINE_COPY);
   CHECK(f.detail[0] != 0);
}

TEST_CASE(invalid_entry_at_each_level_is_unmapped)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t va = 0x4000200000ull; /* L0 1, L1 1, L2 0 */
   hwt_map(&e.mem, e.pd, va, hwt_alloc_pages(&e.mem, 1), PPU_PAGE_SIZE, true);
   expect_fault(&e, va + PPU_PAGE_SIZE, false, PPU_FAULT_MMU_UNMAPPED); /* L2 invalid */
   expect_fault(&e, va + (1ull << 21), true, PPU_FAULT_MMU_UNMAPPED);   /* L1 invalid */
   expect_fault(&e, va + (1ull << 30), false, PPU_FAULT_MMU_UNMAPPED);  /* L0 invalid */
   /* An invalid entry is unmapped whatever else it holds. */
   *hwt_leaf_pte(&e.mem, e.pd, va + 2 * PPU_PAGE_SIZE) = 0xfff0000000000ffeull;
   expect_fault(&e, va + 2 * PPU_PAGE_SIZE, false, PPU_FAULT_MMU_UNMAPPED);
   CHECK_EQ_U64(count(&e, PPU_COUNTER_MMU_FAULTS), 4);
   env_finish(&e);
}

TEST_CASE(null_page_and_addresses_beyond_40_bits_are_unmapped)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   /* Even with page 0 mapped, the null address faults (mmu_format.h). */
   hwt_map(&e.mem, e.pd, 0, hwt_alloc_pages(&e.mem, 1), PPU_PAGE_SIZE, true);
   expect_fault(&e, 0, false, PPU_FAULT_MMU_UNMAPPED);
   expect_fault(&e, 0xff8, true, PPU_FAULT_MMU_UNMAPPED);
   expect_fault(&e, 1ull << 40, false, PPU_FAULT_MMU_UNMAPPED);
   expect_fault(&e, ~0ull, false, PPU_FAULT_MMU_UNMAPPED);
   env_finish(&e);
}

TEST_CASE(write_to_read_only_page_is_write_protect_and_read_is_fine)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t va = 0x200000;
   hwt_map(&e.mem, e.pd, va, hwt_alloc_pages(&e.mem, 1), PPU_PAGE_SIZE, false);
   struct ppu_fault f;
   uint64_t out;
   CHECK(ppu_mmu_translate(&e.client, e.pd, va, false, &out, &f));
   expect_fault(&e, va + 8, true, PPU_FAULT_MMU_WRITE_PROTECT); /* from the TLB */
   ppu_mmu_invalidate_all(&e.mmu);
   expect_fault(&e, va + 16, true, PPU_FAULT_MMU_WRITE_PROTECT); /* from a walk */
   env_finish(&e);
}

TEST_CASE(reserved_bits_at_each_level_are_bad_pte)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t va = 0x8000000000ull + 0x600000 + 0x3000;
   hwt_map(&e.mem, e.pd, va, hwt_alloc_pages(&e.mem, 1), PPU_PAGE_SIZE, true);
   const uint64_t bad_bits[] = {1ull << 2, 1ull << 11, 1ull << 52, 1ull << 63};
   for (unsigned level = 0; level < 3; level++) {
      for (unsigned b = 0; b < sizeof(bad_bits) / sizeof(bad_bits[0]); b++) {
         uint64_t *entry = hwt_dir_entry(&e.mem, e.pd, va, level);
         REQUIRE(entry);
         uint64_t good = *entry;
         *entry = good | bad_bits[b];
         ppu_mmu_invalidate_all(&e.mmu);
         expect_fault(&e, va, false, PPU_FAULT_MMU_BAD_PTE);
         *entry = good;
      }
   }
   ppu_mmu_invalidate_all(&e.mmu);
   struct ppu_fault f;
   uint64_t out;
   CHECK(ppu_mmu_translate(&e.client, e.pd, va, true, &out, &f));
   env_finish(&e);
}

TEST_CASE(entry_pointing_outside_vram_is_bad_pte_at_each_level)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t va = 0x123456000ull;
   hwt_map(&e.mem, e.pd, va, hwt_alloc_pages(&e.mem, 1), PPU_PAGE_SIZE, true);
   const uint64_t outside[] = {MMU_TEST_VRAM, MMU_TEST_VRAM + PPU_PAGE_SIZE,
                               PPU_PTE_ADDR_MASK}; /* just past the end, far past */
   for (unsigned level = 0; level < 3; level++) {
      for (unsigned i = 0; i < 3; i++) {
         uint64_t *entry = hwt_dir_entry(&e.mem, e.pd, va, level);
         REQUIRE(entry);
         uint64_t good = *entry;
         *entry = outside[i] | PPU_PTE_VALID | PPU_PTE_WRITABLE;
         ppu_mmu_invalidate_all(&e.mmu);
         expect_fault(&e, va, true, PPU_FAULT_MMU_BAD_PTE);
         *entry = good;
      }
   }
   /* The last page of VRAM itself is fine. */
   hwt_map(&e.mem, e.pd, va, MMU_TEST_VRAM - PPU_PAGE_SIZE, PPU_PAGE_SIZE, true);
   ppu_mmu_invalidate_all(&e.mmu);
   struct ppu_fault f;
   uint64_t out;
   CHECK(ppu_mmu_translate(&e.client, e.pd, va + 4095, true, &out, &f));
   CHECK_EQ_U64(out, MMU_TEST_VRAM - 1);
   env_finish(&e);
}

TEST_CASE(directory_outside_vram_or_misaligned_is_refused)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   CHECK(ppu_mmu_directory_ok(&e.mmu, e.pd));
   CHECK(!ppu_mmu_directory_ok(&e.mmu, e.pd + 8));
   CHECK(ppu_mmu_directory_ok(&e.mmu, MMU_TEST_VRAM - 2 * PPU_PAGE_SIZE));
   CHECK(!ppu_mmu_directory_ok(&e.mmu, MMU_TEST_VRAM - PPU_PAGE_SIZE)); /* 8 KiB does not fit */
   CHECK(!ppu_mmu_directory_ok(&e.mmu, ~0ull & ~PPU_PAGE_MASK));
   /* A walk given such a directory anyway faults instead of reading it. */
   struct ppu_fault f;
   uint64_t out;
   CHECK(!ppu_mmu_translate(&e.client, MMU_TEST_VRAM, 0x1000, false, &out, &f));
   CHECK(f.kind == PPU_FAULT_MMU_BAD_PTE);
   env_finish(&e);
}

TEST_CASE(tlb_keeps_stale_translation_until_invalidated)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t va = 0x777000, pa1 = hwt_alloc_pages(&e.mem, 1), pa2 = hwt_alloc_pages(&e.mem, 1);
   hwt_map(&e.mem, e.pd, va, pa1, PPU_PAGE_SIZE, true);
   struct ppu_fault f;
   uint64_t out;
   CHECK(ppu_mmu_translate(&e.client, e.pd, va, false, &out, &f));
   CHECK_EQ_U64(out, pa1);
   hwt_map(&e.mem, e.pd, va, pa2, PPU_PAGE_SIZE, true);
   CHECK(ppu_mmu_translate(&e.client, e.pd, va, false, &out, &f));
   CHECK_EQ_U64(out, pa1); /* a TLB caches, as documented */
   ppu_mmu_invalidate_all(&e.mmu);
   CHECK(ppu_mmu_translate(&e.client, e.pd, va, false, &out, &f));
   CHECK_EQ_U64(out, pa2);
   env_finish(&e);
}

TEST_CASE(tlb_entries_are_keyed_by_address_space)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t pd2 = hwt_new_directory(&e.mem);
   uint64_t va = 0x5000, pa1 = hwt_alloc_pages(&e.mem, 1), pa2 = hwt_alloc_pages(&e.mem, 1);
   hwt_map(&e.mem, e.pd, va, pa1, PPU_PAGE_SIZE, true);
   hwt_map(&e.mem, pd2, va, pa2, PPU_PAGE_SIZE, true);
   struct ppu_fault f;
   uint64_t out;
   for (int round = 0; round < 3; round++) {
      CHECK(ppu_mmu_translate(&e.client, e.pd, va, false, &out, &f));
      CHECK_EQ_U64(out, pa1);
      CHECK(ppu_mmu_translate(&e.client, pd2, va, false, &out, &f));
      CHECK_EQ_U64(out, pa2);
   }
   /* VA 0x6000 exists only in pd2. */
   hwt_map(&e.mem, pd2, 0x6000, pa2, PPU_PAGE_SIZE, true);
   CHECK(ppu_mmu_translate(&e.client, pd2, 0x6000, false, &out, &f));
   CHECK(!ppu_mmu_translate(&e.client, e.pd, 0x6000, false, &out, &f));
   env_finish(&e);
}

TEST_CASE(failed_walks_are_not_cached)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t va = 0x9000;
   struct ppu_fault f;
   uint64_t out;
   CHECK(!ppu_mmu_translate(&e.client, e.pd, va, false, &out, &f));
   uint64_t pa = hwt_alloc_pages(&e.mem, 1);
   hwt_map(&e.mem, e.pd, va, pa, PPU_PAGE_SIZE, true);
   CHECK(ppu_mmu_translate(&e.client, e.pd, va, false, &out, &f)); /* no invalidate needed */
   CHECK_EQ_U64(out, pa);
   env_finish(&e);
}

TEST_CASE(tlb_conflicts_and_capacity_misses_stay_correct)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   /* 3 * PPU_TLB_ENTRIES pages, visited twice in order: every slot is
    * evicted in between, so the second pass misses again and still gives
    * each page its own PA. */
   uint64_t pages = 3 * PPU_TLB_ENTRIES, va = 0x40000000, pa = hwt_alloc_pages(&e.mem, pages);
   hwt_map_scattered(&e.mem, e.pd, va, pages * PPU_PAGE_SIZE);
   (void)pa;
   for (int pass = 0; pass < 2; pass++) {
      for (uint64_t i = 0; i < pages; i++) {
         struct ppu_fault f;
         uint64_t out;
         uint64_t v = va + i * PPU_PAGE_SIZE + 8 * i;
         REQUIRE(ppu_mmu_translate(&e.client, e.pd, v, false, &out, &f));
         CHECK_EQ_U64(out, hwt_host_ptr(&e.mem, e.pd, v) - e.vram.base);
      }
   }
   CHECK_EQ_U64(count(&e, PPU_COUNTER_MMU_TLB_MISSES), 2 * pages);
   env_finish(&e);
}

TEST_CASE(translate_run_coalesces_contiguous_pages_only)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t va = 0x10000000, pa = hwt_alloc_pages(&e.mem, 8), other = hwt_alloc_pages(&e.mem, 1);
   hwt_map(&e.mem, e.pd, va, pa, 5 * PPU_PAGE_SIZE, true);
   hwt_map(&e.mem, e.pd, va + 5 * PPU_PAGE_SIZE, other, PPU_PAGE_SIZE, true);
   hwt_map(&e.mem, e.pd, va + 6 * PPU_PAGE_SIZE, pa + 6 * PPU_PAGE_SIZE, PPU_PAGE_SIZE, true);
   struct ppu_fault f;
   uint64_t out, run;
   CHECK(ppu_mmu_translate_run(&e.client, e.pd, va + 100, 1ull << 30, false, &out, &run, &f));
   CHECK_EQ_U64(out, pa + 100);
   CHECK_EQ_U64(run, 5 * PPU_PAGE_SIZE - 100);
   CHECK(ppu_mmu_translate_run(&e.client, e.pd, va + 100, 3000, false, &out, &run, &f));
   CHECK_EQ_U64(run, 3000);
   CHECK(ppu_mmu_translate_run(&e.client, e.pd, va + 6 * PPU_PAGE_SIZE, 1ull << 30, false, &out,
                               &run, &f));
   CHECK_EQ_U64(run, PPU_PAGE_SIZE); /* the next page is unmapped: the run just ends */
   /* A probe that ran into an unmapped page did not count as a fault. */
   CHECK_EQ_U64(count(&e, PPU_COUNTER_MMU_FAULTS), 0);
   env_finish(&e);
}

static void fill_random(uint8_t *p, size_t n, uint32_t seed)
{
   for (size_t i = 0; i < n; i++) {
      seed = seed * 1664525u + 1013904223u;
      p[i] = (uint8_t)(seed >> 24);
   }
}

TEST_CASE(read_write_copy_fill_cross_scattered_pages)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   const uint64_t size = 64 * PPU_PAGE_SIZE + 3 * 1024;
   uint64_t a = 0x100000000ull, b = 0x200000000ull;
   hwt_map_scattered(&e.mem, e.pd, a, size + PPU_PAGE_SIZE);
   hwt_map_scattered(&e.mem, e.pd, b, size + PPU_PAGE_SIZE);
   uint8_t *src = malloc(size), *got = malloc(size);
   REQUIRE(src && got);
   fill_random(src, size, 7);
   struct ppu_fault f;
   CHECK(ppu_mmu_write(&e.client, e.pd, a + 333, src, size, &f));
   hwt_read(&e.mem, e.pd, a + 333, got, size);
   CHECK(memcmp(src, got, size) == 0);
   CHECK(ppu_mmu_copy(&e.client, e.pd, b + 1, a + 333, size, &f));
   memset(got, 0, size);
   CHECK(ppu_mmu_read(&e.client, e.pd, b + 1, got, size, &f));
   CHECK(memcmp(src, got, size) == 0);
   CHECK(ppu_mmu_fill32(&e.client, e.pd, b + 4, 0xdeadbeef, size - 8, &f));
   hwt_read(&e.mem, e.pd, b, got, size);
   CHECK_EQ_U64(got[0], 0);
   CHECK_EQ_U64(got[1], src[0]); /* byte before the fill keeps the copy */
   for (uint64_t i = 4; i < size - 4; i += 4) {
      uint32_t w;
      memcpy(&w, got + i, 4);
      if (w != 0xdeadbeef) {
         CHECK_MSG(false, "fill word at +%llu is 0x%08x", (unsigned long long)i, w);
         break;
      }
   }
   free(src);
   free(got);
   env_finish(&e);
}

TEST_CASE(copy_stops_at_the_first_unmapped_page_with_earlier_pages_done)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   uint64_t src = 0x300000000ull, dst = 0x400000000ull;
   hwt_map(&e.mem, e.pd, src, hwt_alloc_pages(&e.mem, 4), 4 * PPU_PAGE_SIZE, true);
   hwt_map(&e.mem, e.pd, dst, hwt_alloc_pages(&e.mem, 2), 2 * PPU_PAGE_SIZE, true);
   memset(hwt_host_ptr(&e.mem, e.pd, src), 0x5a, PPU_PAGE_SIZE);
   struct ppu_fault f;
   CHECK(!ppu_mmu_copy(&e.client, e.pd, dst, src, 4 * PPU_PAGE_SIZE, &f));
   CHECK(f.kind == PPU_FAULT_MMU_UNMAPPED);
   CHECK_EQ_U64(f.address, dst + 2 * PPU_PAGE_SIZE);
   CHECK(f.write);
   CHECK_EQ_U64(*hwt_host_ptr(&e.mem, e.pd, dst + 100), 0x5a);
   CHECK_EQ_U64(count(&e, PPU_COUNTER_MMU_FAULTS), 1);
   /* Source side faults are reads. */
   CHECK(!ppu_mmu_copy(&e.client, e.pd, dst, src + 3 * PPU_PAGE_SIZE, 2 * PPU_PAGE_SIZE, &f));
   CHECK(f.kind == PPU_FAULT_MMU_UNMAPPED && !f.write);
   CHECK_EQ_U64(f.address, src + 4 * PPU_PAGE_SIZE);
   /* A length reaching past the 40-bit space faults instead of wrapping. */
   CHECK(!ppu_mmu_fill32(&e.client, e.pd, dst, 0, ~3ull, &f));
   CHECK(f.kind == PPU_FAULT_MMU_UNMAPPED);
   env_finish(&e);
}

TEST_CASE(aliased_physical_pages_copy_without_undefined_behaviour)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   /* Two VA ranges backed by the same pages: the copy overlaps physically. */
   uint64_t pa = hwt_alloc_pages(&e.mem, 2);
   hwt_map(&e.mem, e.pd, 0x1000000, pa, 2 * PPU_PAGE_SIZE, true);
   hwt_map(&e.mem, e.pd, 0x2000000, pa, 2 * PPU_PAGE_SIZE, true);
   uint8_t *p = e.vram.base + pa;
   for (int i = 0; i < 8192; i++)
      p[i] = (uint8_t)i;
   struct ppu_fault f;
   CHECK(ppu_mmu_copy(&e.client, e.pd, 0x2000010, 0x1000000, 4096, &f));
   CHECK_EQ_U64(p[16], 0);
   CHECK_EQ_U64(p[16 + 4095], (uint8_t)4095);
   env_finish(&e);
}

TEST_CASE(random_page_table_contents_never_escape_vram)
{
   struct mmu_env e;
   REQUIRE(env_init(&e));
   /* Fill a directory and a table with random words, some made VALID and
    * pointed near the end of VRAM: every translation must fault or land in
    * VRAM. */
   uint32_t seed = 12345;
   uint64_t pd = hwt_new_directory(&e.mem), table = hwt_alloc_pages(&e.mem, 1);
   uint64_t *d = (uint64_t *)(void *)(e.vram.base + pd);
   uint64_t *t = (uint64_t *)(void *)(e.vram.base + table);
   for (unsigned i = 0; i < 1024; i++) {
      seed = seed * 1103515245u + 12345u;
      uint64_t r = ((uint64_t)seed << 32) ^ (seed * 2654435761u);
      switch (seed % 4) {
      case 0:
         d[i] = r;
         break;
      case 1:
         d[i] = table | PPU_PTE_VALID;
         break;
      case 2:
         d[i] = (r & PPU_PTE_ADDR_MASK) | PPU_PTE_VALID;
         break;
      default:
         d[i] = ((MMU_TEST_VRAM - PPU_PAGE_SIZE * (seed % 3)) & PPU_PTE_ADDR_MASK) | 1;
      }
      if (i < 512)
         t[i] = seed % 2 ? (table | 3) : (r & ~(uint64_t)PPU_PTE_RSVD_MASK);
   }
   unsigned ok = 0, faulted = 0;
   for (unsigned i = 0; i < 20000; i++) {
      seed = seed * 1103515245u + 12345u;
      uint64_t va = (((uint64_t)seed << 20) ^ ((uint64_t)seed * 40503u)) & ((1ull << 41) - 1);
      struct ppu_fault f;
      uint64_t out;
      if (ppu_mmu_translate(&e.client, pd, va, seed & 1, &out, &f)) {
         CHECK(out < MMU_TEST_VRAM);
         ok++;
      } else {
         CHECK(f.kind == PPU_FAULT_MMU_UNMAPPED || f.kind == PPU_FAULT_MMU_BAD_PTE ||
               f.kind == PPU_FAULT_MMU_WRITE_PROTECT);
         faulted++;
      }
   }
   CHECK(ok > 0 && faulted > 0);
   env_finish(&e);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
