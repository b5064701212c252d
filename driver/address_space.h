/* One GPU virtual address space: the VA allocator and the page tables
 * (format: hw/include/ppu/mmu_format.h) that every channel of a device
 * shares.
 *
 * VA layout (docs/driver.md):
 *   [0, 2 MiB)           never mapped: a null or small bad pointer faults
 *   [2 MiB, 4 GiB)       driver-internal memory: pushbuffers, GPFIFO rings,
 *                        semaphore slots, query records
 *   [4 GiB, 1 TiB)       application memory (VkDeviceMemory)
 * Splitting the two makes a fault address say whose memory it was in.
 * Allocations of 64 KiB or more are 64 KiB aligned, smaller ones page aligned.
 *
 * Page tables live in VRAM (from the VRAM allocator) and are written through
 * the BAR. A host-side mirror of the directory tree keeps the number of valid
 * entries per table, so a table is freed when its last page is unmapped, and
 * the driver never has to read back what it wrote into VRAM.
 *
 * Not thread-safe: drv_device serializes calls with its memory lock. */
#ifndef DRV_ADDRESS_SPACE_H
#define DRV_ADDRESS_SPACE_H

#include <stdint.h>

#include "drv_result.h"
#include "extent_allocator.h"
#include "ppu/mmu_format.h"

#define DRV_VA_NULL_GUARD_END (2ull << 20)
#define DRV_VA_USER_START (4ull << 30)
#define DRV_VA_END (1ull << PPU_VA_BITS)
#define DRV_VA_LARGE_ALIGN (64ull << 10)

enum drv_va_region {
   DRV_VA_INTERNAL = 0,
   DRV_VA_USER = 1,
};

struct vram_allocator;
struct pt_l1;
struct pt_table;

struct address_space {
   uint8_t *bar;
   struct vram_allocator *vram;
   struct extent_allocator va[2]; /* indexed by enum drv_va_region */
   uint64_t l0_pa;                /* level-0 directory, what channels point at */
   struct pt_l1 *l1[PPU_PT_L0_ENTRIES];
   /* Called after entries were removed, before their tables are reused:
    * drops every channel's cached translations. */
   void (*invalidate_tlbs)(void *user);
   void *invalidate_user;
   uint64_t table_bytes; /* VRAM held by page tables (statistics) */
};

enum drv_result address_space_init(struct address_space *as, uint8_t *bar,
                                   struct vram_allocator *vram, void (*invalidate_tlbs)(void *user),
                                   void *user);
/* Frees every table; the caller has destroyed the channels first. */
void address_space_finish(struct address_space *as);

/* Reserves `size` bytes of VA (page multiple) in a region; with fixed_va != 0
 * exactly there (DRV_ERROR_ADDRESS_IN_USE if taken). */
enum drv_result address_space_alloc_va(struct address_space *as, enum drv_va_region region,
                                       uint64_t size, uint64_t fixed_va, uint64_t *out_va);
void address_space_free_va(struct address_space *as, uint64_t va, uint64_t size);

/* Maps [va, va + size) to physically contiguous [pa, pa + size), writable.
 * On failure nothing stays mapped. */
enum drv_result address_space_map(struct address_space *as, uint64_t va, uint64_t pa,
                                  uint64_t size);
/* Removes the translations, invalidates the TLBs of all channels (so a later
 * access faults) and frees page tables that became empty. */
void address_space_unmap(struct address_space *as, uint64_t va, uint64_t size);

#endif
