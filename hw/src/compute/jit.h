/* The SM's program translator (sm.exec; docs/jit.md): PPU ISA programs, as
 * the SM fetches them from GPU memory, become host functions that execute a
 * warp's instructions with its 32 lanes as host vectors.
 *
 * The interpreter stays the reference and the fallback: translated code
 * executes natively only the instructions whose effects are registers,
 * predicates and uniform branches, and hands every other instruction
 * (memory, textures, TTU, subgroup and divergent control flow) to the
 * interpreter's own issue path one at a time. So results, faults and every
 * counter are the interpreter's by construction; the translated blocks only
 * have to keep the same counts (warp and lane instructions, the watchdog's
 * per-warp count, the issue quantum and the icache's misses), which they do
 * per block.
 *
 * A program is translated once per (address space, VA, register count,
 * content): the chip keeps translations across grids and checks at every
 * grid launch that the program's bytes are still those it translated.
 */
#ifndef PPU_COMPUTE_JIT_H
#define PPU_COMPUTE_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compute/icache.h"
#include "mmu.h"
#include "ppu/gpu.h"

struct ppu_sm;
struct ppu_grid;
struct ppu_warp;
struct ppu_fault;

/* What translated code and the SM share for one run of a warp. */
struct ppu_jit_state {
   int64_t budget; /* instructions the warp may still issue in this run */
   uint64_t warp_insns, lane_insns;
   const struct ppu_icache_line *icache; /* the SM's lines, for the per-block check */
   struct ppu_sm *sm;
   struct ppu_grid *grid;
   struct ppu_fault *fault;
};

/* A translated program: runs warp w (registers reg = w->reg[0]) from w->pc
 * until the budget is spent, the warp blocks, ends or faults, or it reaches
 * an instruction it leaves to the interpreter at w->pc. Returns an enum
 * ppu_exec_result: NEXT means "go on at w->pc" (with budget left, the caller
 * interprets one instruction and calls again). */
typedef int32_t (*ppu_jit_fn)(struct ppu_jit_state *st, uint32_t *reg, struct ppu_warp *w);

/* One interpreted instruction at w->pc, the call translated code makes for
 * every instruction it does not execute itself (sm.c). */
int32_t ppu_jit_step(struct ppu_jit_state *st, uint32_t *reg, struct ppu_warp *w);

/* The host memory of the page holding va, translated through the SM's MMU
 * port as LD/ST's lane-by-lane path would (sm_lsu.c); NULL with the fault
 * filled in as the interpreter fills it (naming pc) when it does not
 * translate. */
uint8_t *ppu_jit_page(struct ppu_jit_state *st, uint64_t va, uint32_t pc, uint32_t write);

/* The host memory of w's workgroup: its shared memory (local = 0), or the
 * local memory of the warp's first thread (local = 1; thread t of the warp
 * is t * grid->local_size further). sm_lsu.c */
uint8_t *ppu_jit_workgroup_memory(struct ppu_jit_state *st, struct ppu_warp *w, uint32_t local);

struct ppu_jit;
struct ppu_jit_program;

/* NULL when cfg asks for the interpreter only (or the host cannot
 * translate: the JIT was not built, which sm.exec = jit reports as an
 * error at chip creation, see ppu_jit_available). */
struct ppu_jit *ppu_jit_create(const struct ppu_gpu_config *cfg, struct ppu_mmu *mmu);
void ppu_jit_destroy(struct ppu_jit *jit);
/* False when this build has no translator (no LLVM at build time). */
bool ppu_jit_available(void);

/* The translation entry of the program a grid launches; NULL when jit is
 * NULL or out of host memory (the grid then interprets). With sm.exec = jit
 * the program is translated here, before its first instruction. Model
 * thread. */
struct ppu_jit_program *ppu_jit_program_get(struct ppu_jit *jit, uint64_t pd_pa,
                                            uint64_t program_va, uint32_t register_count);
void ppu_jit_program_put(struct ppu_jit_program *p);
/* What the chip's translator holds (ppu_gpu_jit_stats); zeros for NULL. */
void ppu_jit_stats(struct ppu_jit *jit, struct ppu_gpu_jit_stats *out);

/* The program's translated code, or NULL while it is interpreted.
 * issued: warp instructions the caller issued since its last call; with
 * sm.exec = auto the caller that carries the program past the threshold
 * hands it to the chip's translator thread and every worker keeps
 * interpreting it until its code is ready. */
ppu_jit_fn ppu_jit_program_code(struct ppu_jit_program *p, uint64_t issued);

/* --- The translator (jit_llvm.c) ------------------------------------------ */

/* A program as the translator sees it: decoded instructions from offset 0
 * (illegal ones are left to the interpreter, which faults on them). */
struct ppu_jit_source {
   uint64_t program_va;
   uint32_t icache_lines; /* sm.icache_lines: the per-block icache check */
   uint32_t count;        /* instructions */
   const struct ppu_icache_insn *insn;
};

struct ppu_jit_code; /* the host code of one translated program */

/* Translates src; NULL with a reason in err on failure. */
struct ppu_jit_code *ppu_jit_translate(const struct ppu_jit_source *src, ppu_jit_fn *entry,
                                       char *err, size_t err_size);
void ppu_jit_code_free(struct ppu_jit_code *code);
/* Whether an instruction executes in translated code (the rest goes through
 * ppu_jit_step); the unit tests use it to cover both kinds. */
bool ppu_jit_is_native(const struct ppu_insn_fields *f);

#endif /* PPU_COMPUTE_JIT_H */
