/* Helpers for compute tests: a chip and channel, programs assembled and
 * uploaded, QMDs written and launched through the compute subchannel.
 *
 * Convention of the tests' programs: constant bank 0 holds the 64-bit VA of
 * an output buffer at offset 0 (and test-specific data after it), so
 * HWC_STORE_LANE(reg) stores a register to out[gl_LocalInvocationIndex +
 * workgroup * threads]. Programs use at most 64 registers unless they say
 * otherwise.
 */
#ifndef COMPUTE_TEST_UTIL_H
#define COMPUTE_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "hw_test_util.h"
#include "ppu/qmd.h"

struct hwc {
   struct hwt t;
   struct hwt_channel c;
   uint64_t out_va; /* output buffer, HWC_OUT_BYTES, zeroed by hwc_init */
   uint64_t cb_va;  /* constant bank 0 (4 KiB); word 0..1 = out_va */
};

#define HWC_OUT_BYTES (4ull << 20)

/* cfg may be NULL for the default chip (with 256 MiB of VRAM). */
bool hwc_init(struct hwc *h, const struct ppu_gpu_config *cfg);
void hwc_finish(struct hwc *h);
/* Assembles and uploads src; returns its VA (0 and a test failure when the
 * assembler rejects it). */
uint64_t hwc_program(struct hwc *h, const char *src);
/* A QMD for prog with one 32-thread workgroup, 64 registers and bank 0. */
void hwc_qmd_defaults(struct hwc *h, struct ppu_qmd *q, uint64_t prog);
/* Writes the QMD, launches it (indirect when indirect_va != 0) and syncs.
 * False when the channel faulted (fault filled in if given). */
bool hwc_launch(struct hwc *h, const struct ppu_qmd *q, uint64_t indirect_va,
                struct ppu_fault *fault);
/* Assembles, launches with one workgroup of `threads` threads and checks
 * the channel did not fault. */
bool hwc_run_simple(struct hwc *h, const char *src, uint32_t threads);
uint32_t hwc_out32(struct hwc *h, uint64_t index);
uint64_t hwc_out64(struct hwc *h, uint64_t index);
/* Writes a 32-bit word of constant bank 0 (byte offset). */
void hwc_cb_write32(struct hwc *h, uint32_t offset, uint32_t v);

/* Stores reg (32-bit) to out[global flat thread index]. Uses R60..R63. */
#define HWC_STORE_LANE(reg)                                                                        \
   "S2R R62, SR_TID_FLAT\n"                                                                        \
   "S2R R63, SR_CTAID_X\n"                                                                         \
   "S2R R61, SR_NTID_X\n"                                                                          \
   "IMAD.U32 R62, R63, R61, R62\n"                                                                 \
   "LDC.U64 R60, c[0][RZ]\n"                                                                       \
   "IMADW.U32 R60, R62, 4, R60\n"                                                                  \
   "ST.GLOBAL.U32 [R60], " reg "\n"

#endif /* COMPUTE_TEST_UTIL_H */
