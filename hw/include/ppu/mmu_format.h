/* The in-memory format of the PPU's GPU virtual address space.
 *
 * The driver builds page tables in VRAM; the MMU walks them on a TLB miss.
 * docs/memory.md describes the same format in prose.
 *
 * Virtual addresses are 40 bits (1 TiB) with 4 KiB pages, translated by a
 * three-level walk:
 *
 *   VA 39..30  index into the level-0 directory (1024 entries, 8 KiB)
 *   VA 29..21  index into a level-1 directory   (512 entries, 4 KiB)
 *   VA 20..12  index into a level-2 page table  (512 entries, 4 KiB)
 *   VA 11..0   byte offset in the page
 *
 * Every entry is 64 bits:
 *   bit 0      VALID
 *   bit 1      WRITABLE (leaf entries; directory entries ignore it)
 *   51..12     physical address of the next level / of the page, 4 KiB aligned
 *   others     reserved, must be 0 (a set reserved bit is a fault)
 *
 * Tables must be 4 KiB aligned in VRAM (the level-0 directory too). VA 0 is
 * never mapped, so a null device address always faults.
 */
#ifndef PPU_MMU_FORMAT_H
#define PPU_MMU_FORMAT_H

#include <stdint.h>

#define PPU_VA_BITS 40u
#define PPU_PAGE_SHIFT 12u
#define PPU_PAGE_SIZE (1ull << PPU_PAGE_SHIFT)
#define PPU_PAGE_MASK (PPU_PAGE_SIZE - 1)

#define PPU_PT_L0_SHIFT 30u
#define PPU_PT_L0_ENTRIES 1024u
#define PPU_PT_L1_SHIFT 21u
#define PPU_PT_L1_ENTRIES 512u
#define PPU_PT_L2_SHIFT 12u
#define PPU_PT_L2_ENTRIES 512u

#define PPU_PTE_VALID (1ull << 0)
#define PPU_PTE_WRITABLE (1ull << 1)
#define PPU_PTE_ADDR_MASK 0x000ffffffffff000ull
#define PPU_PTE_RSVD_MASK (~(PPU_PTE_ADDR_MASK | PPU_PTE_VALID | PPU_PTE_WRITABLE))

#define PPU_PT_L0_INDEX(va) (((va) >> PPU_PT_L0_SHIFT) & (PPU_PT_L0_ENTRIES - 1))
#define PPU_PT_L1_INDEX(va) (((va) >> PPU_PT_L1_SHIFT) & (PPU_PT_L1_ENTRIES - 1))
#define PPU_PT_L2_INDEX(va) (((va) >> PPU_PT_L2_SHIFT) & (PPU_PT_L2_ENTRIES - 1))

#endif /* PPU_MMU_FORMAT_H */
