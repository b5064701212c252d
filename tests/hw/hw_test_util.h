/* Helpers for the hw unit tests: a physical page allocator and page-table
 * builder working through the BAR (as a kernel-mode driver would), a chip
 * with one address space, channels with a pushbuffer and GPFIFO, and a
 * pushbuffer writer.
 *
 * Failures inside helpers are reported through test_fail, so a test only has
 * to check the return values it cares about.
 */
#ifndef HW_TEST_UTIL_H
#define HW_TEST_UTIL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ppu/counters.h"
#include "ppu/gpu.h"
#include "ppu/methods.h"
#include "ppu/mmu_format.h"

/* --- VRAM through the BAR ------------------------------------------------ */

struct hwt_mem {
   uint8_t *bar;
   uint64_t size;
   uint64_t next_pa; /* bump allocator; PA page 0 is kept unused */
};

void hwt_mem_init(struct hwt_mem *m, uint8_t *bar, uint64_t size);
/* Contiguous zeroed pages; 0 when VRAM is used up. */
uint64_t hwt_alloc_pages(struct hwt_mem *m, uint64_t pages);
/* A new level-0 directory (two pages). */
uint64_t hwt_new_directory(struct hwt_mem *m);
/* The host pointer of the leaf entry for va, making directories as needed;
 * NULL when it cannot (a directory entry holds something else). */
uint64_t *hwt_leaf_pte(struct hwt_mem *m, uint64_t pd_pa, uint64_t va);
/* The host pointer of the level-0 / level-1 entry on va's path (NULL when
 * the upper level is not there). */
uint64_t *hwt_dir_entry(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, unsigned level);
/* Maps [va, va + size) to [pa, pa + size), page by page. */
void hwt_map(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, uint64_t pa, uint64_t size,
             bool writable);
/* Maps each page of [va, va + size) to its own fresh physical page, in an
 * order where no two neighbouring VA pages are physically contiguous. */
void hwt_map_scattered(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, uint64_t size);
/* Software walk (trusting the tables the helpers built): the host pointer
 * of va's byte, or NULL when unmapped. */
uint8_t *hwt_host_ptr(struct hwt_mem *m, uint64_t pd_pa, uint64_t va);
/* Byte copies between the host and a VA range, page by page. */
void hwt_write(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, const void *src, uint64_t len);
void hwt_read(struct hwt_mem *m, uint64_t pd_pa, uint64_t va, void *dst, uint64_t len);

/* --- A chip with one address space ---------------------------------------- */

struct hwt {
   struct ppu_gpu *gpu;
   struct hwt_mem mem;
   uint64_t pd;      /* the address space every helper channel uses */
   uint64_t next_va; /* bump allocator for VA */
   _Atomic int semaphore_interrupts, fault_interrupts;
};

/* Creates a chip with vram_size bytes (and 16 channels). */
bool hwt_init(struct hwt *t, uint64_t vram_size);
/* The same with a chosen configuration (vram_size and channels included). */
bool hwt_init_with(struct hwt *t, const struct ppu_gpu_config *cfg);
void hwt_finish(struct hwt *t);
/* A fresh VA range (page aligned, never page 0). */
uint64_t hwt_alloc_va(struct hwt *t, uint64_t size);
/* Allocates VA and physically contiguous pages and maps them; returns VA. */
uint64_t hwt_alloc_mapped(struct hwt *t, uint64_t size, bool writable);
/* The same, with scattered physical pages. */
uint64_t hwt_alloc_scattered(struct hwt *t, uint64_t size);
uint8_t *hwt_ptr(struct hwt *t, uint64_t va);

/* --- Pushbuffer writer ------------------------------------------------------ */

#define HWT_PB_MAX_WORDS 32767u

struct hwt_pb {
   uint32_t n;
   uint32_t w[HWT_PB_MAX_WORDS];
};

void hwt_pb_reset(struct hwt_pb *pb);
void hwt_pb_word(struct hwt_pb *pb, uint32_t w);
/* A header of the given type followed by count data words. */
void hwt_pb_method(struct hwt_pb *pb, enum ppu_mthd_type type, uint32_t subch, uint32_t method,
                   uint32_t count, const uint32_t *data);
void hwt_pb_immd(struct hwt_pb *pb, uint32_t subch, uint32_t method, uint32_t data13);
void hwt_pb_set64(struct hwt_pb *pb, uint32_t subch, uint32_t method_lo, uint64_t v);
void hwt_pb_sem(struct hwt_pb *pb, uint64_t va, uint64_t payload, uint32_t execute);
void hwt_pb_copy(struct hwt_pb *pb, uint64_t dst, uint64_t src, uint64_t len);
void hwt_pb_fill(struct hwt_pb *pb, uint64_t dst, uint32_t pattern, uint64_t len);

/* --- Channels --------------------------------------------------------------- */

struct hwt_channel {
   struct hwt *t;
   struct ppu_channel *ch;
   uint64_t gpfifo_va;
   uint32_t entries;
   uint32_t put;
   uint64_t pb_va, pb_size, pb_used;
   uint64_t fence_va;
   uint64_t fence_value;
};

bool hwt_channel_init(struct hwt_channel *c, struct hwt *t, const char *name);
void hwt_channel_finish(struct hwt_channel *c);
/* Destroys the hardware channel (if any) and creates a fresh one on the same
 * GPFIFO, pushbuffer and fence memory, with GP_GET = GP_PUT = 0. */
bool hwt_channel_restart(struct hwt_channel *c, const char *name);
/* Writes the raw entry at GP_PUT and rings the doorbell. */
void hwt_submit_entry(struct hwt_channel *c, uint64_t entry);
/* Copies the words into pushbuffer memory and submits them as one segment;
 * returns the segment's VA. */
uint64_t hwt_submit(struct hwt_channel *c, const struct hwt_pb *pb);
/* Submits a release of the channel's next fence value and waits for it.
 * False when the channel faulted or timeout_ms passed. */
bool hwt_sync(struct hwt_channel *c, unsigned timeout_ms);
/* Waits for *(uint64_t *)va >= value; false on fault of c or timeout. */
bool hwt_wait_u64(struct hwt_channel *c, uint64_t va, uint64_t value, unsigned timeout_ms);
/* Waits for the channel to fault; fills *f. False on timeout. */
bool hwt_wait_fault(struct hwt_channel *c, struct ppu_fault *f, unsigned timeout_ms);
/* The fence word, read as the host reads semaphores. */
uint64_t hwt_load_u64(struct hwt *t, uint64_t va);
void hwt_store_u64(struct hwt *t, uint64_t va, uint64_t v);

void hwt_sleep_us(unsigned us);
uint64_t hwt_now_ns(void);
uint64_t hwt_counter(struct hwt *t, enum ppu_counter id);

#endif /* HW_TEST_UTIL_H */
