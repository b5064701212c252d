/* The chip's translated programs (jit.h): which programs exist, when one is
 * translated (tiering), and whether a translation still matches memory. */
#include "compute/jit.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter_block.h"
#include "fault.h"

/* Programs kept translated; beyond this the least recently launched one
 * that no grid uses is dropped. */
#define JIT_PROGRAMS_MAX 256u
/* The longest program the discovery follows (1 MiB of code). */
#define JIT_INSNS_MAX 65536u
/* The longest program translated: LLVM's time grows faster than the
 * program (660 instructions took 1–2 s here; a spilled 2,262-instruction
 * graphicsfuzz program, nearly all loads and stores, did not finish in
 * 400 s), so a longer one stays on the interpreter. */
#define JIT_TRANSLATE_MAX 1024u
/* With sm.exec = auto a program is translated only once it has issued at
 * least this many warp instructions per instruction of its own (and
 * sm.jit_threshold in all): LLVM takes about 2-5 ms per instruction here,
 * more for long programs, and the interpreter 20-40 ns per warp
 * instruction, so by then interpreting has cost about what translating
 * will (the rent-or-buy rule: never more than twice the better choice). A
 * graphicsfuzz case whose 18 s of interpretation gained nothing from 9 s
 * of translation showed the flat threshold's cost. */
#define JIT_ISSUED_PER_INSTRUCTION 50000u

enum program_state {
   PROGRAM_PENDING,   /* interpreted; counting toward the threshold */
   PROGRAM_COMPILING, /* one worker translates it; the others interpret */
   PROGRAM_READY,     /* translated */
   PROGRAM_FAILED,    /* could not be translated: interpreted for good */
};

struct ppu_jit_program {
   struct ppu_jit *jit;
   _Atomic uint32_t refs; /* the cache's and one per grid */
   uint64_t pd_pa, va;
   uint32_t register_count, icache_lines;
   _Atomic uint64_t issued;
   _Atomic uint64_t threshold; /* issued warp instructions that make it worth translating */
   _Atomic int state;
   _Atomic(ppu_jit_fn) fn;
   pthread_mutex_t words_lock; /* words and count: set by the translation, read at launches */
   struct ppu_jit_code *code;
   uint32_t *words; /* the instructions translated, as read from memory */
   uint32_t count;
   uint64_t last_launch;
};

struct ppu_jit {
   pthread_mutex_t lock;
   struct ppu_mmu *mmu;
   enum ppu_sm_exec mode;
   uint64_t threshold;
   uint32_t icache_lines;
   struct ppu_jit_program *program[JIT_PROGRAMS_MAX];
   uint32_t count;
   uint64_t launches;
   /* The translator thread (auto): programs waiting for it, oldest first,
    * each holding a reference; all under lock. It reads chip memory only
    * while `reading`; a chip destroyed while it is in LLVM leaves it to
    * finish on its own (it holds one of refs and frees the rest). */
   pthread_t thread;
   bool thread_started, stopping, reading, thread_done;
   uint32_t refs; /* the chip's, and the thread's while it runs */
   pthread_cond_t wake, idle;
   struct ppu_jit_program *queue[JIT_PROGRAMS_MAX];
   uint32_t queued;
};

struct ppu_jit *ppu_jit_create(const struct ppu_gpu_config *cfg, struct ppu_mmu *mmu)
{
   if (cfg->sm_exec == PPU_SM_EXEC_INTERP || cfg->mode != PPU_GPU_MODE_FUNCTIONAL ||
       !ppu_jit_available())
      return NULL;
   struct ppu_jit *jit = calloc(1, sizeof(*jit));
   if (!jit)
      return NULL;
   pthread_mutex_init(&jit->lock, NULL);
   pthread_cond_init(&jit->wake, NULL);
   pthread_cond_init(&jit->idle, NULL);
   jit->refs = 1;
   jit->mmu = mmu;
   jit->mode = cfg->sm_exec;
   jit->threshold = cfg->sm_exec == PPU_SM_EXEC_JIT ? 0 : cfg->jit_threshold;
   jit->icache_lines = cfg->icache_lines;
   return jit;
}

void ppu_jit_program_put(struct ppu_jit_program *p)
{
   if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
      return;
   ppu_jit_code_free(p->code);
   pthread_mutex_destroy(&p->words_lock);
   free(p->words);
   free(p);
}

static void jit_free(struct ppu_jit *jit)
{
   pthread_cond_destroy(&jit->wake);
   pthread_cond_destroy(&jit->idle);
   pthread_mutex_destroy(&jit->lock);
   free(jit);
}

/* Drops one reference to jit (the chip's or its thread's); the last frees
 * it. Called with jit->lock held; unlocks it. */
static void jit_unref_unlock(struct ppu_jit *jit)
{
   bool last = --jit->refs == 0;
   pthread_mutex_unlock(&jit->lock);
   if (last)
      jit_free(jit);
}

/* Translator threads that outlived their chip (in LLVM when it went). The
 * process joins them when it ends, before LLVM's static objects are
 * destroyed (a thread still in LLVM then crashes): C++ static destructors
 * run at exit in the reverse order of their registration, so the join is
 * registered with atexit after a first translation has created LLVM's
 * statics (register_exit_join). The Vulkan driver is linked -z nodelete,
 * so its code stays mapped until then. */
static pthread_mutex_t orphans_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t *orphans;
static uint32_t orphan_count, orphan_cap;

static void adopt_orphan(pthread_t t)
{
   pthread_mutex_lock(&orphans_lock);
   for (uint32_t i = 0; i < orphan_count;) /* those that have ended */
      if (pthread_tryjoin_np(orphans[i], NULL) == 0)
         orphans[i] = orphans[--orphan_count];
      else
         i++;
   if (orphan_count == orphan_cap) {
      uint32_t cap = orphan_cap ? 2 * orphan_cap : 8;
      pthread_t *grown = realloc(orphans, cap * sizeof(*grown));
      if (!grown) {
         pthread_mutex_unlock(&orphans_lock);
         pthread_join(t, NULL); /* no room to remember it: wait for it */
         return;
      }
      orphans = grown;
      orphan_cap = cap;
   }
   orphans[orphan_count++] = t;
   pthread_mutex_unlock(&orphans_lock);
}

static void join_orphans(void)
{
   pthread_mutex_lock(&orphans_lock);
   for (uint32_t i = 0; i < orphan_count; i++)
      pthread_join(orphans[i], NULL);
   free(orphans);
   orphans = NULL;
   orphan_count = orphan_cap = 0;
   pthread_mutex_unlock(&orphans_lock);
}

/* A small program with the kinds of code translations emit (vector
 * integer and float arithmetic, gathers and scatters, branches), so that
 * LLVM's lazily created statics exist before join_orphans is registered. */
static void warm_up_llvm(void)
{
   static const enum ppu_op ops[] = {PPU_OP_IADD,  PPU_OP_FFMA, PPU_OP_LD,  PPU_OP_ST,
                                     PPU_OP_ISETP, PPU_OP_BRA,  PPU_OP_EXIT};
   struct ppu_icache_insn insn[sizeof(ops) / sizeof(ops[0])];
   memset(insn, 0, sizeof(insn));
   for (uint32_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
      struct ppu_insn_fields *f = &insn[i].f;
      ppu_insn_fields_init(f, ops[i]);
      f->type = ops[i] == PPU_OP_FFMA ? PPU_TYPE_F32 : PPU_TYPE_U32;
      f->rd = 2;
      f->ra = 4;
      f->rb = ops[i] == PPU_OP_ST ? 6 : 5;
      f->mode = ops[i] == PPU_OP_ST ? PPU_SPACE_SHARED : f->mode;
      f->pd = ops[i] == PPU_OP_ISETP ? 0 : f->pd;
      f->guard = ops[i] == PPU_OP_BRA ? 0 : f->guard;
      f->imm = ops[i] == PPU_OP_BRA ? 0 : f->imm;
   }
   struct ppu_jit_source src = {.program_va = 0x1000,
                                .icache_lines = 8,
                                .count = sizeof(ops) / sizeof(ops[0]),
                                .insn = insn};
   ppu_jit_fn fn;
   char err[128];
   ppu_jit_code_free(ppu_jit_translate(&src, &fn, err, sizeof(err)));
}

static void register_exit_join_once(void)
{
   warm_up_llvm();
   atexit(join_orphans);
}

static void register_exit_join(void)
{
   static pthread_once_t once = PTHREAD_ONCE_INIT;
   pthread_once(&once, register_exit_join_once);
}

/* How long destroying a chip waits for a translation in LLVM before
 * leaving it to finish alone (api.hung_device allows 1 s for
 * vkDestroyDevice). Waiting is the safer end: a process that exits while
 * a thread is in LLVM can crash in LLVM's static destructors even with
 * join_orphans, since LLVM creates some statics only when a program first
 * needs them, after join_orphans was registered, and their destructors run
 * first (texture_checkerboard with four workers: 3 crashes in 25 runs
 * without this wait). */
#define JIT_DESTROY_WAIT_NS 400000000L

/* Whether the translator thread ends within JIT_DESTROY_WAIT_NS. Called
 * with jit->lock held, stopping set. */
static bool thread_ends_soon(struct ppu_jit *jit)
{
   struct timespec until;
   clock_gettime(CLOCK_REALTIME, &until);
   until.tv_nsec += JIT_DESTROY_WAIT_NS;
   if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
   }
   while (!jit->thread_done)
      if (pthread_cond_timedwait(&jit->idle, &jit->lock, &until) == ETIMEDOUT)
         break;
   return jit->thread_done;
}

void ppu_jit_destroy(struct ppu_jit *jit)
{
   if (!jit)
      return;
   /* Queued translations are dropped; one in LLVM (which cannot be
    * interrupted) is waited for a while, then finishes on its thread
    * without the chip, so destroying a device stays prompt. Reading the
    * program from chip memory is always waited for. */
   pthread_mutex_lock(&jit->lock);
   jit->stopping = true;
   pthread_cond_signal(&jit->wake);
   while (jit->reading)
      pthread_cond_wait(&jit->idle, &jit->lock);
   for (uint32_t i = 0; i < jit->queued; i++)
      ppu_jit_program_put(jit->queue[i]);
   jit->queued = 0;
   for (uint32_t i = 0; i < jit->count; i++)
      ppu_jit_program_put(jit->program[i]);
   jit->count = 0;
   if (jit->thread_started) {
      if (thread_ends_soon(jit)) {
         pthread_mutex_unlock(&jit->lock);
         pthread_join(jit->thread, NULL);
         pthread_mutex_lock(&jit->lock);
      } else {
         adopt_orphan(jit->thread);
      }
   }
   jit_unref_unlock(jit);
}

/* Reads program memory through a port of its own, so the SMs' TLBs and the
 * chip's counters see nothing of it. */
struct reader {
   struct ppu_mmu_client client;
   struct ppu_counter_block scratch;
   uint64_t pd_pa;
};

static struct reader *reader_new(struct ppu_mmu *mmu, uint64_t pd_pa)
{
   struct reader *r = malloc(sizeof(*r));
   if (!r)
      return NULL;
   ppu_mmu_client_init(&r->client, mmu, PPU_ENGINE_COMPUTE);
   r->client.counters = &r->scratch;
   r->pd_pa = pd_pa;
   return r;
}

static bool read_words(struct reader *r, uint64_t va, void *dst, uint64_t bytes)
{
   struct ppu_fault fault;
   return ppu_mmu_read(&r->client, r->pd_pa, va, dst, bytes, &fault);
}

/* Whether execution can fall through past instruction f: not after an
 * unguarded jump, exit, return or end of a path. */
static bool falls_through(const struct ppu_insn_fields *f)
{
   if (f->guard != PPU_PT)
      return true;
   switch ((enum ppu_op)f->op) {
   case PPU_OP_BRA:
   case PPU_OP_EXIT:
   case PPU_OP_RET:
   case PPU_OP_SYNC:
   case PPU_OP_BRK:
   case PPU_OP_CONT:
      return false;
   default:
      return true;
   }
}

/* The program's extent: instructions reachable from offset 0 by falling
 * through and by branch, reconvergence and call targets. 0 when the first
 * instruction cannot be read. */
static uint32_t discover(struct reader *r, uint64_t va, uint32_t register_count)
{
   uint8_t *seen = calloc(JIT_INSNS_MAX, 1);
   uint32_t *work = malloc(JIT_INSNS_MAX * sizeof(*work));
   uint32_t count = 0, top = 0;
   if (!seen || !work)
      goto out;
   work[top++] = 0;
   seen[0] = 1;
   while (top) {
      uint32_t i = work[--top];
      uint32_t words[PPU_INSN_WORDS];
      if (!read_words(r, va + (uint64_t)i * PPU_INSN_BYTES, words, sizeof(words)))
         continue;
      if (i + 1 > count)
         count = i + 1;
      struct ppu_insn_fields f;
      const char *why = NULL;
      if (!ppu_insn_decode(words, &f, &why) || ppu_insn_check_operands(&f, register_count))
         continue;
      uint32_t next[2];
      unsigned n = 0;
      if (falls_through(&f))
         next[n++] = i + 1;
      if (f.op == PPU_OP_BRA || f.op == PPU_OP_SSY || f.op == PPU_OP_PBK || f.op == PPU_OP_PCNT ||
          f.op == PPU_OP_CALL)
         next[n++] = f.imm / PPU_INSN_BYTES;
      for (unsigned k = 0; k < n; k++) {
         if (next[k] < JIT_INSNS_MAX && !seen[next[k]]) {
            seen[next[k]] = 1;
            work[top++] = next[k];
         }
      }
   }
out:
   free(seen);
   free(work);
   return count;
}

/* The program's instructions, read and decoded (first part of a
 * translation; needs the chip's memory, so it runs while the chip exists).
 * Keeps the bytes in p->words for the launch-time comparison. NULL with the
 * reason in *problem. */
static struct ppu_icache_insn *read_program(struct ppu_jit_program *p, const char **problem)
{
   struct ppu_jit *jit = p->jit;
   struct reader *r = reader_new(jit->mmu, p->pd_pa);
   uint32_t count = r ? discover(r, p->va, p->register_count) : 0;
   uint32_t *words = count ? malloc((size_t)count * PPU_INSN_BYTES) : NULL;
   struct ppu_icache_insn *insn = count ? calloc(count, sizeof(*insn)) : NULL;
   *problem = NULL;
   if (!r || !count || !words || !insn)
      *problem = "no host memory, or the program cannot be read";
   else if (count > JIT_TRANSLATE_MAX)
      *problem = "longer than the 1024 instructions the translator takes";
   else if (!read_words(r, p->va, words, (uint64_t)count * PPU_INSN_BYTES))
      *problem = "the program's pages cannot be read as one range";
   free(r);
   if (*problem) {
      free(words);
      free(insn);
      return NULL;
   }
   for (uint32_t i = 0; i < count; i++) {
      struct ppu_icache_insn *in = &insn[i];
      if (ppu_insn_decode(&words[i * PPU_INSN_WORDS], &in->f, &in->illegal))
         in->illegal = ppu_insn_check_operands(&in->f, p->register_count);
   }
   pthread_mutex_lock(&p->words_lock);
   free(p->words); /* from an earlier look at a program not worth translating then */
   p->words = words;
   p->count = count;
   pthread_mutex_unlock(&p->words_lock);
   return insn;
}

/* First part of translating p (state COMPILING): reads it from chip memory
 * and decides. NULL with *problem set, or NULL with *problem NULL when p
 * is not worth translating yet (p went back to counting). */
static struct ppu_icache_insn *prepare(struct ppu_jit_program *p, const char **problem)
{
   struct ppu_icache_insn *insn = read_program(p, problem);
   uint64_t worth = (uint64_t)p->count * JIT_ISSUED_PER_INSTRUCTION;
   if (insn && p->jit->mode == PPU_SM_EXEC_AUTO && atomic_load(&p->issued) < worth) {
      /* Now that its length is known: not yet worth it; back to counting.
       * Workers that passed the new threshold meanwhile saw it busy, so
       * look again once it counts. */
      atomic_store(&p->threshold, worth);
      atomic_store(&p->state, PROGRAM_PENDING);
      int expected = PROGRAM_PENDING;
      if (atomic_load(&p->issued) < worth ||
          !atomic_compare_exchange_strong(&p->state, &expected, PROGRAM_COMPILING)) {
         free(insn);
         return NULL;
      }
   }
   return insn;
}

/* Second part: LLVM, and the result published. Needs nothing of the chip
 * (p only), so it may outlive it. */
static void finish(struct ppu_jit_program *p, struct ppu_icache_insn *insn, const char *problem)
{
   char err[256] = "";
   if (insn) {
      struct ppu_jit_source src = {
          .program_va = p->va, .icache_lines = p->icache_lines, .count = p->count, .insn = insn};
      ppu_jit_fn fn = NULL;
      p->code = ppu_jit_translate(&src, &fn, err, sizeof(err));
      if (p->code)
         atomic_store_explicit(&p->fn, fn, memory_order_release);
      else
         problem = err;
   }
   if (problem)
      fprintf(stderr, "vkppu: the program at 0x%llx stays on the interpreter: %s\n",
              (unsigned long long)p->va, problem);
   atomic_store(&p->state, problem ? PROGRAM_FAILED : PROGRAM_READY);
   free(insn);
}

static void translate(struct ppu_jit_program *p)
{
   const char *problem = NULL;
   struct ppu_icache_insn *insn = prepare(p, &problem);
   if (insn || problem)
      finish(p, insn, problem);
}

/* The chip's translator thread: translates queued programs one at a time,
 * oldest first, while the model goes on interpreting them. */
static void *translator_main(void *arg)
{
   struct ppu_jit *jit = arg;
   register_exit_join();
   pthread_mutex_lock(&jit->lock);
   for (;;) {
      while (!jit->queued && !jit->stopping)
         pthread_cond_wait(&jit->wake, &jit->lock);
      if (jit->stopping)
         break;
      struct ppu_jit_program *p = jit->queue[0];
      memmove(&jit->queue[0], &jit->queue[1], --jit->queued * sizeof(jit->queue[0]));
      jit->reading = true;
      pthread_mutex_unlock(&jit->lock);
      const char *problem = NULL;
      struct ppu_icache_insn *insn = prepare(p, &problem);
      pthread_mutex_lock(&jit->lock);
      jit->reading = false;
      pthread_cond_broadcast(&jit->idle);
      pthread_mutex_unlock(&jit->lock);
      if (insn || problem)
         finish(p, insn, problem);
      ppu_jit_program_put(p);
      pthread_mutex_lock(&jit->lock);
   }
   jit->thread_done = true;
   pthread_cond_broadcast(&jit->idle);
   jit_unref_unlock(jit);
   return NULL;
}

/* Hands p (state COMPILING) to the translator thread, starting it on first
 * use. False when it cannot (no thread, or the queue is full): the caller
 * translates p itself. */
static bool enqueue(struct ppu_jit *jit, struct ppu_jit_program *p)
{
   pthread_mutex_lock(&jit->lock);
   bool ok = !jit->stopping && jit->queued < JIT_PROGRAMS_MAX;
   if (ok && !jit->thread_started) {
      ok = jit->thread_started = pthread_create(&jit->thread, NULL, translator_main, jit) == 0;
      jit->refs += ok;
   }
   if (ok) {
      atomic_fetch_add(&p->refs, 1);
      jit->queue[jit->queued++] = p;
      pthread_cond_signal(&jit->wake);
   }
   pthread_mutex_unlock(&jit->lock);
   return ok;
}

ppu_jit_fn ppu_jit_program_code(struct ppu_jit_program *p, uint64_t issued)
{
   if (!p)
      return NULL;
   ppu_jit_fn fn = atomic_load_explicit(&p->fn, memory_order_acquire);
   if (fn)
      return fn;
   /* Counted in every state: a translation the translator defers looks at
    * what was issued while it was queued. */
   uint64_t total = atomic_fetch_add_explicit(&p->issued, issued, memory_order_relaxed) + issued;
   if (atomic_load_explicit(&p->state, memory_order_relaxed) != PROGRAM_PENDING ||
       total < atomic_load_explicit(&p->threshold, memory_order_relaxed))
      return NULL;
   int expected = PROGRAM_PENDING;
   if (!atomic_compare_exchange_strong(&p->state, &expected, PROGRAM_COMPILING))
      return NULL;
   if (!enqueue(p->jit, p))
      translate(p);
   return atomic_load_explicit(&p->fn, memory_order_acquire);
}

/* Whether memory still holds what p translated (or p has translated
 * nothing yet). */
static bool still_matches(struct ppu_jit_program *p)
{
   pthread_mutex_lock(&p->words_lock);
   bool same = true;
   if (p->words) {
      size_t bytes = (size_t)p->count * PPU_INSN_BYTES;
      uint32_t *now = malloc(bytes);
      struct reader *r = reader_new(p->jit->mmu, p->pd_pa);
      same = now && r && read_words(r, p->va, now, bytes) && memcmp(now, p->words, bytes) == 0;
      free(now);
      free(r);
   }
   pthread_mutex_unlock(&p->words_lock);
   return same;
}

static void drop(struct ppu_jit *jit, uint32_t i)
{
   ppu_jit_program_put(jit->program[i]);
   jit->program[i] = jit->program[--jit->count];
}

/* Makes room for one more entry: drops the least recently launched program
 * that no grid holds. False when every entry is in use. */
static bool make_room(struct ppu_jit *jit)
{
   if (jit->count < JIT_PROGRAMS_MAX)
      return true;
   int victim = -1;
   for (uint32_t i = 0; i < jit->count; i++) {
      struct ppu_jit_program *p = jit->program[i];
      if (atomic_load(&p->refs) == 1 &&
          (victim < 0 || p->last_launch < jit->program[victim]->last_launch))
         victim = (int)i;
   }
   if (victim < 0)
      return false;
   drop(jit, (uint32_t)victim);
   return true;
}

void ppu_jit_stats(struct ppu_jit *jit, struct ppu_gpu_jit_stats *out)
{
   memset(out, 0, sizeof(*out));
   if (!jit)
      return;
   pthread_mutex_lock(&jit->lock);
   for (uint32_t i = 0; i < jit->count; i++) {
      int state = atomic_load(&jit->program[i]->state);
      out->translated += state == PROGRAM_READY;
      out->failed += state == PROGRAM_FAILED;
      out->waiting += state == PROGRAM_COMPILING;
   }
   pthread_mutex_unlock(&jit->lock);
}

struct ppu_jit_program *ppu_jit_program_get(struct ppu_jit *jit, uint64_t pd_pa,
                                            uint64_t program_va, uint32_t register_count)
{
   if (!jit)
      return NULL;
   pthread_mutex_lock(&jit->lock);
   struct ppu_jit_program *p = NULL;
   for (uint32_t i = 0; i < jit->count; i++) {
      struct ppu_jit_program *q = jit->program[i];
      if (q->pd_pa != pd_pa || q->va != program_va || q->register_count != register_count)
         continue;
      if (still_matches(q))
         p = q;
      else
         drop(jit, i); /* rewritten: translate the new contents afresh */
      break;
   }
   bool fresh = false;
   if (!p && make_room(jit) && (p = calloc(1, sizeof(*p)))) {
      p->jit = jit;
      p->pd_pa = pd_pa;
      p->va = program_va;
      p->register_count = register_count;
      p->icache_lines = jit->icache_lines;
      atomic_init(&p->refs, 1);
      atomic_init(&p->threshold, jit->threshold);
      atomic_init(&p->state, PROGRAM_PENDING);
      pthread_mutex_init(&p->words_lock, NULL);
      jit->program[jit->count++] = p;
      fresh = true;
   }
   if (p) {
      atomic_fetch_add(&p->refs, 1);
      p->last_launch = ++jit->launches;
   }
   pthread_mutex_unlock(&jit->lock);
   int expected = PROGRAM_PENDING;
   if (p && fresh && jit->mode == PPU_SM_EXEC_JIT &&
       atomic_compare_exchange_strong(&p->state, &expected, PROGRAM_COMPILING))
      translate(p);
   return p;
}
