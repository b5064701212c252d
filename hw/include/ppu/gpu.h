/* The PPU as the host sees it across the bus: VRAM behind a BAR aperture,
 * channels with GPFIFOs and doorbells, registers, interrupts and fault
 * records. This is everything driver/ may touch of hw/; the rest of the chip
 * is reached only through methods (ppu/methods.h) and memory formats
 * (ppu/mmu_format.h).
 *
 * Nothing here knows about Vulkan.
 *
 * Threading: the model runs on its own host thread(s). Every function here
 * may be called from any host thread. The interrupt callback runs on a model
 * thread and must not call back into the model except ppu_channel_* getters.
 */
#ifndef PPU_GPU_H
#define PPU_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ppu/ttu_predictor.h"

struct ppu_gpu;
struct ppu_channel;

/* How the functional model executes SM programs (sm.exec). Never changes
 * results, faults or counters: only host time (docs/jit.md). */
enum ppu_sm_exec {
   PPU_SM_EXEC_AUTO = 0,   /* interpret; translate a program once it has run sm.jit_threshold */
   PPU_SM_EXEC_INTERP = 1, /* the interpreter only (the reference) */
   PPU_SM_EXEC_JIT = 2,    /* translate every program before its first instruction */
};

enum ppu_gpu_mode {
   PPU_GPU_MODE_FUNCTIONAL = 0, /* instruction by instruction, no cycles */
   PPU_GPU_MODE_TIMING = 1,     /* cycle-level: the same execution, issued when the units allow
                                 * (docs/timing.md) */
};

/* Chip configuration. Grows with the model (timing, caches, SMs...). Every
 * field but ttu_predictor is a key of the hardware configuration file:
 * ppu/hw_config.h holds the one table of their names, units, ranges and
 * defaults (docs/hw-config.md). */
struct ppu_gpu_config {
   uint64_t vram_size;    /* gpu.vram: bytes of VRAM, multiple of PPU_PAGE_SIZE */
   uint32_t max_channels; /* gpu.channels: channels the host interface serves */

   /* Compute engine (docs/compute.md). The GPC/TPC/SM hierarchy follows
    * the beam-tracing seed's PPU; resource limits decide how many
    * workgroups of a grid an SM holds at once. */
   uint32_t gpc_count;                      /* gpu.gpcs */
   uint32_t tpcs_per_gpc;                   /* gpu.tpcs_per_gpc */
   uint32_t sms_per_tpc;                    /* gpu.sms_per_tpc */
   uint32_t max_warps_per_sm;               /* sm.warps_max */
   uint32_t max_workgroups_per_sm;          /* sm.workgroups_max */
   uint32_t registers_per_sm;               /* sm.registers (32-bit) */
   uint32_t shared_memory_per_sm;           /* sm.shared_memory, bytes */
   uint32_t host_worker_threads;            /* host.worker_threads; 0 = one per host CPU (max 16) */
   uint64_t watchdog_warp_instructions;     /* compute.watchdog_warp_instructions; 0 = none */
   uint64_t watchdog_instructions_per_warp; /* compute.watchdog_instructions_per_warp; 0 = none */
   uint64_t watchdog_resident_instructions; /* compute.watchdog_resident_instructions */
   struct ppu_ttu_predictor_config ttu_predictor;

   enum ppu_gpu_mode mode; /* gpu.mode */
   /* Per-SM cache and TLB sizes: they change the units' hit and miss
    * counts, never results. Each unit's arrays are sized for the key's
    * maximum, so these choose how much of them is used. */
   uint32_t icache_lines; /* sm.icache_lines */
   uint32_t tlb_entries;  /* mmu.tlb_entries */
   uint32_t ttu_l0_lines; /* ttu.l0_lines */

   uint32_t ttu_stack_entries; /* ttu.stack_entries: beyond them the stack spills */
   bool ttu_beam_enabled;      /* ttu.beam.enabled: warp beams share upper BVH levels */
   uint32_t ttu_beam_nodes;    /* ttu.beam.nodes: nodes one beam walk holds, 1..256 */

   enum ppu_sm_exec sm_exec; /* sm.exec */
   uint64_t jit_threshold;   /* sm.jit_threshold: warp instructions before translation */

   /* Timing mode only (docs/timing.md): latencies and widths of the units. */
   double clock_ghz;                                /* gpu.clock */
   bool timing_progress;                            /* gpu.timing_progress */
   uint32_t ttu_ray_queue_slots;                    /* ttu.ray_queue_slots */
   uint32_t ttu_box_tests_per_cycle;                /* ttu.box_tests_per_cycle */
   uint32_t ttu_triangle_tests_per_cycle;           /* ttu.triangle_tests_per_cycle */
   bool ttu_merge_node_requests;                    /* ttu.merge_node_requests */
   uint32_t ttu_warps_in_flight;                    /* ttu.warps_in_flight */
   uint32_t ttu_datapath_stages;                    /* ttu.datapath_stages */
   uint32_t ttu_switch_penalty;                     /* ttu.switch_penalty_cycles */
   uint32_t ttu_l0_latency;                         /* ttu.l0_latency */
   uint32_t ttu_setup_latency;                      /* ttu.setup_latency */
   uint32_t launch_latency;                         /* compute.launch_latency */
   uint32_t workgroup_launch_cycles;                /* compute.workgroup_launch_cycles */
   uint32_t sm_schedulers;                          /* sm.schedulers */
   uint32_t sm_issue_width;                         /* sm.issue_width */
   uint32_t sm_issue_window;                        /* sm.issue_window */
   uint32_t sm_scheduler_timeout;                   /* sm.scheduler_timeout */
   uint32_t alu_latency, alu_interval;              /* sm.alu.* */
   uint32_t fma_latency, fma_interval;              /* sm.fma.* */
   uint32_t sfu_latency, sfu_interval;              /* sm.sfu.* */
   uint32_t fp64_latency, fp64_interval;            /* sm.fp64.* */
   uint32_t shared_latency;                         /* sm.shared.latency */
   uint32_t tex_latency;                            /* tex.latency */
   uint32_t l1_size, l1_ways, l1_latency, l1_mshrs; /* l1.* */
   uint64_t l2_size;                                /* l2.size */
   uint32_t l2_ways, l2_latency;                    /* l2.* */
   uint32_t dram_latency;                           /* dram.latency */
   uint32_t dram_bytes_per_cycle;                   /* dram.bytes_per_cycle */
};

/* Zero (the predictor disabled), then every key at its documented default
 * (the table in ppu/hw_config.h). */
void ppu_gpu_config_default(struct ppu_gpu_config *cfg);

/* Returns NULL (and writes a reason to err, if given) when the chip cannot be
 * brought up, e.g. VRAM cannot be reserved. */
struct ppu_gpu *ppu_gpu_create(const struct ppu_gpu_config *cfg, char *err, size_t err_size);
void ppu_gpu_destroy(struct ppu_gpu *gpu);

/* --- VRAM ----------------------------------------------------------------
 * The BAR aperture maps all of VRAM into the host: host pointer = bar + PA.
 * The driver owns physical allocation (like a kernel-mode driver does). */
uint8_t *ppu_gpu_bar(struct ppu_gpu *gpu);
uint64_t ppu_gpu_vram_size(const struct ppu_gpu *gpu);
/* Gives the host back the memory behind [pa, pa+size) (page aligned); the
 * range reads as zero afterwards. Models nothing on a real chip: it keeps a
 * long-running process from holding memory the driver has freed. */
void ppu_gpu_vram_discard(struct ppu_gpu *gpu, uint64_t pa, uint64_t size);

/* GPU timer in nanoseconds since the chip was created (PTIMER). */
uint64_t ppu_gpu_timer_ns(const struct ppu_gpu *gpu);

/* The functional model's program translator (sm.exec, docs/jit.md): host
 * bookkeeping of the simulator, not a counter of the chip. */
struct ppu_gpu_jit_stats {
   uint32_t translated; /* programs with host code */
   uint32_t failed;     /* programs that stay interpreted for good */
   uint32_t waiting;    /* programs queued for or under translation */
};
void ppu_gpu_jit_stats(struct ppu_gpu *gpu, struct ppu_gpu_jit_stats *out);

/* --- Interrupts ----------------------------------------------------------- */
enum ppu_interrupt {
   PPU_INTR_SEMAPHORE = 1, /* a SEM_EXECUTE with AWAKEN completed */
   PPU_INTR_FAULT = 2,     /* a channel stopped on a fault; see ppu_channel_fault */
};
typedef void (*ppu_interrupt_fn)(void *user, enum ppu_interrupt kind, struct ppu_channel *channel);
void ppu_gpu_set_interrupt_handler(struct ppu_gpu *gpu, ppu_interrupt_fn fn, void *user);

/* Wakes channels stalled on a semaphore acquire so they re-read memory; the
 * host calls it after writing semaphore memory through the BAR. */
void ppu_gpu_semaphore_doorbell(struct ppu_gpu *gpu);

/* --- Channels --------------------------------------------------------------
 * A channel is one independent stream of work: a GPFIFO ring in GPU memory and
 * an address space (page directory). Channels run concurrently; within one
 * channel work completes in order. */
struct ppu_channel_desc {
   uint64_t page_directory_pa; /* level-0 directory, 4 KiB aligned */
   uint64_t gpfifo_va;         /* ring of 64-bit entries, 8-byte aligned */
   uint32_t gpfifo_entries;    /* power of two */
   const char *name;           /* for fault reports, e.g. "queue 0.1" */
};
struct ppu_channel *ppu_channel_create(struct ppu_gpu *gpu, const struct ppu_channel_desc *desc);
/* Waits for the channel to stop fetching, then frees it. */
void ppu_channel_destroy(struct ppu_channel *ch);

/* Doorbell: entries before gp_put (mod ring size) are ready to fetch. */
void ppu_channel_ring_doorbell(struct ppu_channel *ch, uint32_t gp_put);
/* Index of the next entry the host interface will fetch. */
uint32_t ppu_channel_gp_get(const struct ppu_channel *ch);
/* Invalidate cached translations of this channel's address space. */
void ppu_channel_tlb_invalidate(struct ppu_channel *ch);

/* --- Faults ----------------------------------------------------------------
 * Any error the chip finds in what it was given (an unmapped address, a bad
 * method, a malformed GPFIFO entry) stops the channel, fills in a fault
 * record and raises PPU_INTR_FAULT. The host process is never harmed. */
enum ppu_engine {
   PPU_ENGINE_HOST = 0, /* host interface: GPFIFO and pushbuffer fetch, decode */
   PPU_ENGINE_COMPUTE = 1,
   PPU_ENGINE_GRAPHICS = 2,
   PPU_ENGINE_COPY = 3,
};
enum ppu_fault_kind {
   PPU_FAULT_NONE = 0,
   PPU_FAULT_MMU_UNMAPPED,        /* no valid translation for the address */
   PPU_FAULT_MMU_WRITE_PROTECT,   /* write to a page without WRITABLE */
   PPU_FAULT_MMU_BAD_PTE,         /* reserved bits set or PA outside VRAM */
   PPU_FAULT_BAD_GPFIFO_ENTRY,    /* reserved bits, zero length, misaligned */
   PPU_FAULT_BAD_METHOD,          /* unknown method or subchannel, bad header */
   PPU_FAULT_BAD_METHOD_DATA,     /* a known method with a value it rejects */
   PPU_FAULT_WATCHDOG,            /* work did not finish within its budget */
   PPU_FAULT_ILLEGAL_INSTRUCTION, /* an encoding the ISA does not define */
   PPU_FAULT_MISALIGNED_ADDRESS,  /* a shader access not aligned to its size */
   PPU_FAULT_OUT_OF_RANGE,        /* shared/local address beyond its allocation */
   PPU_FAULT_SIMT_STACK,          /* reconvergence stack overflow or misuse */
   PPU_FAULT_BAD_RAY_QUERY,       /* TTU: object in the wrong state, or not a BVH (ray_query.h) */
   PPU_FAULT_BAD_TEXTURE_HEADER,  /* texture/sampler header with invalid fields (texture.h) */
};
struct ppu_fault {
   enum ppu_fault_kind kind;
   enum ppu_engine engine;
   uint64_t address;      /* faulting VA (MMU faults) or 0 */
   bool write;            /* MMU faults: the access was a write */
   uint32_t subchannel;   /* of the method being executed */
   uint32_t method;       /* method address being executed */
   uint32_t method_data;  /* its data word */
   uint64_t gpfifo_entry; /* GPFIFO entry being executed */
   uint32_t gp_get;       /* its index */
   uint64_t pc;           /* compute faults: VA of the instruction, else 0 */
   char detail[160];      /* one line for a person */
};
/* True once the channel has stopped on a fault; fills *out if given. */
bool ppu_channel_fault(const struct ppu_channel *ch, struct ppu_fault *out);
const char *ppu_fault_kind_name(enum ppu_fault_kind kind);
const char *ppu_engine_name(enum ppu_engine engine);
/* Writes a multi-line report (channel name, engine, address, method). */
void ppu_fault_format(const struct ppu_channel *ch, const struct ppu_fault *f, char *buf,
                      size_t size);

#endif /* PPU_GPU_H */
