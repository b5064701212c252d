/* Host access to GPU virtual memory, for work the driver does on the GPU's
 * behalf (host-assisted jobs, host acceleration-structure commands).
 *
 * Every byte of VRAM is reachable through the BAR, so the driver reads and
 * writes a GPU VA by translating it exactly as the MMU would: walking the
 * device's page tables (hw/include/ppu/mmu_format.h) page by page. That
 * covers every kind of allocation alike — application memory assembled from
 * several physical ranges, device-local memory without a host mapping, and
 * driver-internal memory such as query records — and it never trusts an
 * address: an unmapped page, a write to a read-only page, or an entry that
 * points outside VRAM stops the access and reports the first bad VA, the
 * same conditions that fault the chip.
 *
 * Thread-safe: the walk and the copy run under the device's memory lock, so
 * no page can be unmapped and handed out again in the middle of an access. */
#ifndef DRV_VA_ACCESS_H
#define DRV_VA_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

struct drv_device;

/* Copies `size` bytes at `va` into dst. On failure returns false and sets
 * *bad_va (if given) to the first address that did not translate; bytes
 * before it may have been copied. */
bool drv_va_read(struct drv_device *dev, uint64_t va, void *dst, uint64_t size, uint64_t *bad_va);
/* Copies `size` bytes from src to `va`; every page must be mapped writable.
 * The whole range is checked before the first byte is written, so a failed
 * write leaves memory untouched. */
bool drv_va_write(struct drv_device *dev, uint64_t va, const void *src, uint64_t size,
                  uint64_t *bad_va);

#endif
