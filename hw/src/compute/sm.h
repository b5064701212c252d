/* The streaming multiprocessor (SM): resident workgroups and their warps,
 * the warp scheduler, and functional execution of the ISA.
 *
 * Structure follows the multithreaded-sm seed (US 7,015,913): the warp
 * table plays the Thread Control Buffer 420 (per-warp PC, busy state and
 * pointers to its registers), the icache is Instruction Cache 410, and the
 * scheduler (sm.c) picks among warps whose source data is ready in age order
 * (seed FIG. 6: "sort by thread age", "read scoreboard", "check resources").
 * In functional mode every operand is ready when its producer has issued, so
 * the ready check only looks at barriers; the timing mode (sm_timing.c)
 * adds the resource scoreboard, the window and the timeout, and issues the
 * same instructions through ppu_sm_issue.
 *
 * Registers are structure-of-arrays, reg[r][lane], so every ALU op is a
 * loop over 32 lanes under the active mask that the host compiler can
 * vectorize.
 *
 * One SM belongs to one host worker thread at a time; nothing in it is
 * shared except through the grid (grid.h) and VRAM.
 */
#ifndef PPU_COMPUTE_SM_H
#define PPU_COMPUTE_SM_H

#include <stdbool.h>
#include <stdint.h>

#include "compute/grid.h"
#include "compute/icache.h"
#include "counter_block.h"
#include "mmu.h"
#include "ppu/isa.h"
#include "texture/tex_unit.h"
#include "ttu/ttu.h"

/* Reconvergence stack entries a warp keeps on chip. As on SMs with a
 * hardware stack, deeper entries spill to the warp's stack area in local
 * memory and come back as the stack unwinds; the area holds the entries up
 * to PPU_SIMT_STACK_MAX, and a push beyond that faults (SIMT_STACK).
 * Inlined ray-tracing stages nest about four entries per recursion level
 * on top of the shaders' own control flow, which is what needs the area. */
#define PPU_SIMT_STACK_DEPTH 64u
#define PPU_SIMT_STACK_MAX 1024u

/* Warp instructions one warp issues before the scheduler looks at the other
 * warps again. Functional mode only: it bounds unfairness, not timing. */
#define PPU_SM_ISSUE_QUANTUM 256u

enum ppu_simt_kind {
   PPU_SIMT_SYNC,  /* SSY: reconvergence point of an if/else or switch */
   PPU_SIMT_DIV,   /* the deferred side of a divergent branch */
   PPU_SIMT_BREAK, /* PBK: loop exit */
   PPU_SIMT_CONT,  /* PCNT: continue target of the current iteration */
   PPU_SIMT_CALL,  /* CALL: return address */
};

struct ppu_simt_entry {
   uint32_t pc;   /* byte offset in the program */
   uint32_t mask; /* lanes that resume there */
   uint32_t kind; /* enum ppu_simt_kind */
};

enum ppu_warp_state {
   PPU_WARP_FREE = 0,
   PPU_WARP_READY,
   PPU_WARP_BARRIER, /* waiting at BAR for the workgroup's other warps */
   PPU_WARP_DONE,
};

struct ppu_workgroup {
   bool in_use;
   uint32_t id[3];        /* gl_WorkGroupID (base included) */
   uint32_t first_warp;   /* warp slot of its warp 0 */
   uint32_t warps_live;   /* warps not yet DONE */
   uint32_t barrier_wait; /* warps waiting at BAR */
   uint8_t *shared;       /* grid->shared_size bytes */
   uint8_t *local;        /* threads * grid->local_size bytes */
};

struct ppu_warp {
   enum ppu_warp_state state;
   uint32_t pc;                       /* byte offset in the program */
   uint32_t active;                   /* lanes executing the current path */
   uint32_t live;                     /* lanes that exist and have not exited */
   uint32_t pred[PPU_PRED_COUNT + 1]; /* lane masks; pred[PPU_PT] stays all ones */
   uint32_t (*reg)[PPU_WARP_SIZE];    /* register_count vectors */
   uint64_t age;                      /* launch order, for the scheduler */
   uint64_t issued;                   /* instructions since launch, for the watchdog */
   uint32_t wg_slot;
   uint32_t warp_in_wg;
   uint32_t stack_depth;
   /* The stack, oldest entry first: on_chip until it is deeper than
    * PPU_SIMT_STACK_DEPTH, then spill_area, where the entries below the
    * newest PPU_SIMT_STACK_DEPTH are the ones in local memory. */
   struct ppu_simt_entry *stack;
   struct ppu_simt_entry on_chip[PPU_SIMT_STACK_DEPTH];
   struct ppu_simt_entry *spill_area; /* PPU_SIMT_STACK_MAX entries, made at the first spill */
};

struct ppu_sm {
   uint32_t id; /* SR_SMID */
   uint32_t gpc;
   struct ppu_counter_block counters; /* this SM's counts; summed by the chip */
   struct ppu_mmu_client mmu;         /* LSU and instruction fetch port, own TLB */
   struct ppu_icache icache;
   struct ppu_ttu ttu;           /* the SM's tree traversal unit, on the same MMU port */
   struct ppu_tex_unit tex;      /* the SM's texture unit, on the same MMU port */
   struct ppu_sm_timing *timing; /* timing mode's state (sm_timing.h); NULL in functional mode */
   const struct ppu_grid *grid;

   /* Resident state, sized for the current grid by ppu_sm_begin_grid. */
   uint32_t wg_slots, warp_slots;
   struct ppu_workgroup *wg;
   struct ppu_warp *warp;
   uint32_t *order; /* warp slots in age order (oldest first) */
   uint32_t order_count;
   uint32_t *regfile;
   uint8_t *shared;
   uint8_t *local;
   size_t regfile_bytes, shared_bytes, local_bytes; /* allocated sizes */
   uint64_t next_age;
   uint64_t unreported_instructions; /* not yet added to the grid's watchdog count */
};

/* Zero vectors read for RZ and a sink written for RZ (4 wide: quads). */
extern const uint32_t ppu_sm_zero[4][PPU_WARP_SIZE];

/* Sizes the SM's icache, TLB and TTU L0 from cfg (already checked). */
void ppu_sm_init(struct ppu_sm *sm, uint32_t id, uint32_t gpc, struct ppu_mmu *mmu,
                 const struct ppu_gpu_config *cfg);
void ppu_sm_finish(struct ppu_sm *sm);
/* Prepares for a grid: flushes the icache, sizes the resident storage.
 * False when host memory for it cannot be had. */
bool ppu_sm_begin_grid(struct ppu_sm *sm, const struct ppu_grid *grid);
/* True when the SM can take another workgroup. */
bool ppu_sm_has_free_slot(const struct ppu_sm *sm);
/* Makes workgroup number index (linear, base not included) resident. */
void ppu_sm_launch_workgroup(struct ppu_sm *sm, uint64_t index);
/* True while any workgroup is resident. */
bool ppu_sm_busy(const struct ppu_sm *sm);
/* One scheduling round: every ready warp in age order issues up to a
 * quantum. Faults go to the grid. */
void ppu_sm_step(struct ppu_sm *sm, struct ppu_grid *grid);

/* The lanes that execute instruction f: active and guard predicate. */
static inline uint32_t ppu_warp_exec_mask(const struct ppu_warp *w, const struct ppu_insn_fields *f)
{
   uint32_t guard = w->pred[f->guard & 7];
   if (f->guard & PPU_PRED_NEG)
      guard = ~guard;
   return w->active & guard;
}

/* Executes one fetched instruction of warp w and advances it: the single
 * path of both modes. PPU_EXEC_DONE means the warp has ended (and was
 * retired); PPU_EXEC_FAULT that *fault is filled in. Counts into
 * *warp_insns and *lane_insns. */
enum ppu_exec_result ppu_sm_issue(struct ppu_sm *sm, struct ppu_grid *g, struct ppu_warp *w,
                                  const struct ppu_icache_insn *in, struct ppu_fault *fault,
                                  uint64_t *warp_insns, uint64_t *lane_insns);
/* Drops ended warps from the age order, keeping it sorted. */
void ppu_sm_compact_order(struct ppu_sm *sm);
/* Adds a round's instructions to the counters and the grid's watchdog
 * count; false (fault reported) when the grid crossed its budget. */
bool ppu_sm_account(struct ppu_sm *sm, struct ppu_grid *g, struct ppu_warp *w, uint64_t warp_insns,
                    uint64_t lane_insns);

/* --- Inside the SM (sm_*.c) ------------------------------------------------ */

/* What executing one instruction did to the warp's flow. */
enum ppu_exec_result {
   PPU_EXEC_NEXT,    /* go on at warp->pc (already advanced or set) */
   PPU_EXEC_BLOCKED, /* the warp waits (barrier) */
   PPU_EXEC_DONE,    /* every lane has exited */
   PPU_EXEC_FAULT,   /* fault filled in */
};

struct ppu_exec {
   struct ppu_sm *sm;
   struct ppu_grid *grid;
   struct ppu_warp *w;
   const struct ppu_insn_fields *f;
   uint32_t pc;   /* byte offset of this instruction (w->pc already points past it) */
   uint32_t exec; /* active & guard */
   struct ppu_fault *fault;
};

static inline uint32_t *ppu_reg_src(const struct ppu_warp *w, unsigned r)
{
   return r == PPU_RZ ? (uint32_t *)ppu_sm_zero[0] : w->reg[r];
}

/* Writable register vector, or a sink for RZ. */
uint32_t *ppu_reg_dst(struct ppu_warp *w, unsigned r, unsigned word);

/* BAR: the warp arrives at its workgroup's barrier; PPU_EXEC_BLOCKED unless
 * it was the last one (then everyone goes on). sm.c */
enum ppu_exec_result ppu_sm_barrier_arrive(struct ppu_sm *sm, struct ppu_warp *w);

/* Fills fault as a compute fault at the current instruction. */
void ppu_exec_fault(struct ppu_exec *x, enum ppu_fault_kind kind, uint64_t address, bool write,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

enum ppu_exec_result ppu_exec_alu(struct ppu_exec *x);      /* sm_alu.c */
enum ppu_exec_result ppu_exec_float(struct ppu_exec *x);    /* sm_float.c */
enum ppu_exec_result ppu_exec_convert(struct ppu_exec *x);  /* sm_convert.c */
enum ppu_exec_result ppu_exec_memory(struct ppu_exec *x);   /* sm_lsu.c */
enum ppu_exec_result ppu_exec_control(struct ppu_exec *x);  /* sm_simt.c */
enum ppu_exec_result ppu_exec_subgroup(struct ppu_exec *x); /* sm_subgroup.c */
enum ppu_exec_result ppu_exec_ttu(struct ppu_exec *x);      /* sm_ttu.c */
enum ppu_exec_result ppu_exec_tex(struct ppu_exec *x);      /* sm_tex.c */

/* The space of an LD/ST/ATOM address: a generic address in the shared or
 * local window (ppu/isa.h) becomes an offset in that space, any other
 * generic address a global VA. */
static inline unsigned ppu_lsu_space(unsigned mode, uint64_t *addr)
{
   if (mode != PPU_SPACE_GENERIC)
      return mode;
   if (*addr - PPU_GENERIC_SHARED_BASE < PPU_GENERIC_WINDOW_SIZE) {
      *addr -= PPU_GENERIC_SHARED_BASE;
      return PPU_SPACE_SHARED;
   }
   if (*addr - PPU_GENERIC_LOCAL_BASE < PPU_GENERIC_WINDOW_SIZE) {
      *addr -= PPU_GENERIC_LOCAL_BASE;
      return PPU_SPACE_LOCAL;
   }
   return PPU_SPACE_GLOBAL;
}

/* The address lane l of LD/ST/ATOM x names (before any window of a
 * generic address is resolved). sm_lsu.c */
uint64_t ppu_lsu_lane_address(const struct ppu_exec *x, unsigned l);

/* Register checks of a texture instruction (vector lengths by variant),
 * made when the icache decodes it; NULL when fine. sm_tex.c */
const char *ppu_tex_check_operands(const struct ppu_insn_fields *f, uint32_t register_count);
/* A 32-bit atomic on host memory p (ATOM and SUATOM); returns the old
 * value. sm_lsu.c */
uint32_t ppu_lsu_atom32(uint8_t *p, unsigned op, unsigned type, uint32_t v, uint32_t cmp);

#endif /* PPU_COMPUTE_SM_H */
