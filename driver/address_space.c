/* See address_space.h. */
#include "address_space.h"

#include <stdlib.h>
#include <string.h>

#include "vram_allocator.h"

/* Host mirror of one table in VRAM: where it is and how many of its entries
 * are valid. A level-1 directory also points at the mirrors of its level-2
 * tables. */
struct pt_table {
   uint64_t pa;
   uint32_t valid_entries;
   struct pt_table *next_free; /* on the list of tables to free after a TLB flush */
};

struct pt_l1 {
   struct pt_table table;
   struct pt_table *l2[PPU_PT_L1_ENTRIES];
};

#define L0_BYTES (PPU_PT_L0_ENTRIES * sizeof(uint64_t)) /* 8 KiB */
#define TABLE_BYTES PPU_PAGE_SIZE                       /* levels 1 and 2 */

static uint64_t *table_entries(const struct address_space *as, uint64_t pa)
{
   return (uint64_t *)(void *)(as->bar + pa);
}

static uint64_t directory_entry(uint64_t pa)
{
   return (pa & PPU_PTE_ADDR_MASK) | PPU_PTE_VALID;
}

static enum drv_result alloc_table(struct address_space *as, uint64_t bytes, uint64_t *pa)
{
   enum drv_result r = vram_alloc(as->vram, bytes, pa);
   if (r != DRV_SUCCESS)
      return r;
   /* Free VRAM reads as zero (it was discarded), but a table must start
    * all-invalid whatever happened before, so clear it explicitly. */
   memset(as->bar + *pa, 0, bytes);
   as->table_bytes += bytes;
   return DRV_SUCCESS;
}

static void free_table(struct address_space *as, uint64_t pa, uint64_t bytes)
{
   vram_free(as->vram, pa, bytes);
   as->table_bytes -= bytes;
}

enum drv_result address_space_init(struct address_space *as, uint8_t *bar,
                                   struct vram_allocator *vram, void (*invalidate_tlbs)(void *user),
                                   void *user)
{
   memset(as, 0, sizeof(*as));
   as->bar = bar;
   as->vram = vram;
   as->invalidate_tlbs = invalidate_tlbs;
   as->invalidate_user = user;
   extent_allocator_init(&as->va[DRV_VA_INTERNAL], PPU_PAGE_SIZE);
   extent_allocator_init(&as->va[DRV_VA_USER], PPU_PAGE_SIZE);
   enum drv_result r = extent_allocator_free(&as->va[DRV_VA_INTERNAL], DRV_VA_NULL_GUARD_END,
                                             DRV_VA_USER_START - DRV_VA_NULL_GUARD_END);
   if (r == DRV_SUCCESS)
      r = extent_allocator_free(&as->va[DRV_VA_USER], DRV_VA_USER_START,
                                DRV_VA_END - DRV_VA_USER_START);
   if (r == DRV_SUCCESS)
      r = alloc_table(as, L0_BYTES, &as->l0_pa);
   if (r != DRV_SUCCESS) {
      extent_allocator_finish(&as->va[DRV_VA_INTERNAL]);
      extent_allocator_finish(&as->va[DRV_VA_USER]);
   }
   return r;
}

void address_space_finish(struct address_space *as)
{
   for (uint32_t i = 0; i < PPU_PT_L0_ENTRIES; i++) {
      struct pt_l1 *l1 = as->l1[i];
      if (!l1)
         continue;
      for (uint32_t j = 0; j < PPU_PT_L1_ENTRIES; j++) {
         if (l1->l2[j]) {
            free_table(as, l1->l2[j]->pa, TABLE_BYTES);
            free(l1->l2[j]);
         }
      }
      free_table(as, l1->table.pa, TABLE_BYTES);
      free(l1);
      as->l1[i] = NULL;
   }
   free_table(as, as->l0_pa, L0_BYTES);
   extent_allocator_finish(&as->va[DRV_VA_INTERNAL]);
   extent_allocator_finish(&as->va[DRV_VA_USER]);
}

static enum drv_va_region region_of(uint64_t va)
{
   return va >= DRV_VA_USER_START ? DRV_VA_USER : DRV_VA_INTERNAL;
}

enum drv_result address_space_alloc_va(struct address_space *as, enum drv_va_region region,
                                       uint64_t size, uint64_t fixed_va, uint64_t *out_va)
{
   if (size == 0 || (size & PPU_PAGE_MASK))
      return DRV_ERROR_OUT_OF_DEVICE_MEMORY;
   if (fixed_va) {
      if (region_of(fixed_va) != region)
         return DRV_ERROR_ADDRESS_IN_USE;
      enum drv_result r = extent_allocator_alloc_at(&as->va[region], fixed_va, size);
      if (r == DRV_SUCCESS)
         *out_va = fixed_va;
      return r;
   }
   /* Large allocations get 64 KiB alignment so that a future MMU with big
    * pages (and the copy engine's coalescing) sees aligned ranges. */
   uint64_t align = size >= DRV_VA_LARGE_ALIGN ? DRV_VA_LARGE_ALIGN : PPU_PAGE_SIZE;
   return extent_allocator_alloc(&as->va[region], size, align, out_va);
}

void address_space_free_va(struct address_space *as, uint64_t va, uint64_t size)
{
   /* A refusal here means a driver bug (double free); the range stays
    * reserved, which is the safe outcome. */
   (void)extent_allocator_free(&as->va[region_of(va)], va, size);
}

/* The level-2 table covering va, created if missing. */
static enum drv_result get_l2(struct address_space *as, uint64_t va, struct pt_table **out)
{
   uint32_t i0 = PPU_PT_L0_INDEX(va), i1 = PPU_PT_L1_INDEX(va);
   struct pt_l1 *l1 = as->l1[i0];
   if (!l1) {
      l1 = calloc(1, sizeof(*l1));
      if (!l1)
         return DRV_ERROR_OUT_OF_HOST_MEMORY;
      enum drv_result r = alloc_table(as, TABLE_BYTES, &l1->table.pa);
      if (r != DRV_SUCCESS) {
         free(l1);
         return r;
      }
      as->l1[i0] = l1;
      table_entries(as, as->l0_pa)[i0] = directory_entry(l1->table.pa);
   }
   struct pt_table *l2 = l1->l2[i1];
   if (!l2) {
      l2 = calloc(1, sizeof(*l2));
      if (!l2)
         return DRV_ERROR_OUT_OF_HOST_MEMORY;
      enum drv_result r = alloc_table(as, TABLE_BYTES, &l2->pa);
      if (r != DRV_SUCCESS) {
         free(l2);
         return r;
      }
      l1->l2[i1] = l2;
      l1->table.valid_entries++;
      table_entries(as, l1->table.pa)[i1] = directory_entry(l2->pa);
   }
   *out = l2;
   return DRV_SUCCESS;
}

enum drv_result address_space_map(struct address_space *as, uint64_t va, uint64_t pa, uint64_t size)
{
   uint64_t end = va + size;
   uint64_t cur = va;
   while (cur < end) {
      struct pt_table *l2;
      enum drv_result r = get_l2(as, cur, &l2);
      if (r != DRV_SUCCESS) {
         if (cur > va)
            address_space_unmap(as, va, cur - va);
         return r;
      }
      /* Fill the run of entries this level-2 table covers. */
      uint64_t table_end = (cur | ((1ull << PPU_PT_L1_SHIFT) - 1)) + 1;
      uint64_t run_end = table_end < end ? table_end : end;
      uint64_t *pte = table_entries(as, l2->pa);
      for (; cur < run_end; cur += PPU_PAGE_SIZE) {
         uint64_t *e = &pte[PPU_PT_L2_INDEX(cur)];
         if (!(*e & PPU_PTE_VALID))
            l2->valid_entries++;
         *e = ((pa + (cur - va)) & PPU_PTE_ADDR_MASK) | PPU_PTE_VALID | PPU_PTE_WRITABLE;
      }
   }
   return DRV_SUCCESS;
}

void address_space_unmap(struct address_space *as, uint64_t va, uint64_t size)
{
   struct pt_table *to_free = NULL;
   uint64_t end = va + size;
   uint64_t cur = va;
   while (cur < end) {
      uint64_t table_end = (cur | ((1ull << PPU_PT_L1_SHIFT) - 1)) + 1;
      uint64_t run_end = table_end < end ? table_end : end;
      uint32_t i0 = PPU_PT_L0_INDEX(cur), i1 = PPU_PT_L1_INDEX(cur);
      struct pt_l1 *l1 = as->l1[i0];
      struct pt_table *l2 = l1 ? l1->l2[i1] : NULL;
      if (!l2) {
         cur = run_end;
         continue;
      }
      uint64_t *pte = table_entries(as, l2->pa);
      for (; cur < run_end; cur += PPU_PAGE_SIZE) {
         uint64_t *e = &pte[PPU_PT_L2_INDEX(cur)];
         if (*e & PPU_PTE_VALID) {
            *e = 0;
            l2->valid_entries--;
         }
      }
      if (l2->valid_entries == 0) {
         table_entries(as, l1->table.pa)[i1] = 0;
         l1->l2[i1] = NULL;
         l2->next_free = to_free;
         to_free = l2;
         if (--l1->table.valid_entries == 0) {
            table_entries(as, as->l0_pa)[i0] = 0;
            as->l1[i0] = NULL;
            l1->table.next_free = to_free;
            to_free = &l1->table; /* first member: freeing it frees the pt_l1 */
         }
      }
   }
   /* The hardware may hold translations (and directory entries) for what was
    * just removed; only after they are dropped may the tables be reused. */
   as->invalidate_tlbs(as->invalidate_user);
   while (to_free) {
      struct pt_table *t = to_free;
      to_free = t->next_free;
      free_table(as, t->pa, TABLE_BYTES);
      free(t);
   }
}
