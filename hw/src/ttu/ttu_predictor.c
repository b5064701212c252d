/* See ttu_predictor.h; docs/ttu.md ("The ray-intersection predictor"). */
#include "ttu/ttu_predictor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/bvh.h"
#include "ttu/ttu_traversal.h"

#define PI 3.14159265358979323846

/* --- Configuration --------------------------------------------------------- */

static bool bad(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool bad(char *err, size_t n, const char *fmt, ...)
{
   if (err && n) {
      int k = snprintf(err, n, "ttu_predictor: ");
      va_list ap;
      va_start(ap, fmt);
      if (k > 0 && (size_t)k < n)
         vsnprintf(err + k, n - (size_t)k, fmt, ap);
      va_end(ap);
   }
   return false;
}

/* 0 takes the default (only for fields where 0 is not a legal value). */
static uint32_t or_default(uint32_t v, uint32_t def)
{
   return v == 0 ? def : v;
}

static bool power_of_two(uint32_t v)
{
   return v && !(v & (v - 1));
}

bool ppu_ttu_predictor_config_resolve(const struct ppu_ttu_predictor_config *in,
                                      struct ppu_ttu_predictor_config *out, char *err,
                                      size_t err_size)
{
   *out = *in;
   if (!in->enabled)
      return true;
   /* Defaults: the paper's best table (section 6.2: 1024 entries, 4-way,
    * 15-bit tag, one node, Grid Spherical, Go Up Level 3), its 4 table
    * ports, a 64-ray partial warp collector (section 4.4.1) and a timeout
    * inside its 5-bit counter ("5-30 cycles made no noticeable
    * difference"). */
   out->entries = or_default(in->entries, 1024);
   out->ways = or_default(in->ways, 4);
   out->tag_bits = or_default(in->tag_bits, 15);
   out->nodes_per_entry = or_default(in->nodes_per_entry, 1);
   out->replacement = in->replacement ? in->replacement : PPU_TTU_PREDICTOR_REPLACEMENT_LRU;
   out->hash = in->hash ? in->hash : PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL;
   /* 0 is a real Go Up Level: taken as written (ppu_gpu_config_default
    * sets 3), as is the collector timeout. */
   out->go_up_level = in->go_up_level;
   out->lookup_fifo = or_default(in->lookup_fifo, 4);
   out->update_fifo = or_default(in->update_fifo, 4);
   out->collector_ray_ids = or_default(in->collector_ray_ids, 64);
   out->collector_timeout_cycles = in->collector_timeout_cycles;
   out->repacking = in->repacking ? in->repacking : PPU_TTU_PREDICTOR_REPACKING_ON;
   const struct ppu_ttu_predictor_config *c = out;
   if (c->ways == 0 || c->ways > (1u << 20))
      return bad(err, err_size, "ways %u is not 1..1048576", c->ways);
   if (!power_of_two(c->entries) || c->entries < c->ways || c->entries > (1u << 24))
      return bad(err, err_size,
                 "entries %u is not a power of two multiple of ways (%u), at most 16777216",
                 c->entries, c->ways);
   if (!power_of_two(c->ways))
      return bad(err, err_size, "ways %u: entries / ways must be a power of two", c->ways);
   if (c->tag_bits == 0 || c->tag_bits > 32)
      return bad(err, err_size, "tag_bits %u is not 1..32", c->tag_bits);
   if (c->nodes_per_entry == 0 || c->nodes_per_entry > PPU_TTU_PREDICTOR_MAX_NODES)
      return bad(err, err_size, "nodes_per_entry %u is not 1..%u", c->nodes_per_entry,
                 PPU_TTU_PREDICTOR_MAX_NODES);
   if (c->replacement != PPU_TTU_PREDICTOR_REPLACEMENT_LRU &&
       c->replacement != PPU_TTU_PREDICTOR_REPLACEMENT_FIFO)
      return bad(err, err_size, "replacement %u is not LRU (1) or FIFO (2)", c->replacement);
   if (c->hash != PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL &&
       c->hash != PPU_TTU_PREDICTOR_HASH_TWO_POINT)
      return bad(err, err_size, "hash %u is not GRID_SPHERICAL (1) or TWO_POINT (2)", c->hash);
   if (c->go_up_level > PPU_BVH_MAX_DEPTH)
      return bad(err, err_size, "go_up_level %u is not 0..%u", c->go_up_level, PPU_BVH_MAX_DEPTH);
   if (c->lookup_fifo > 32 || c->update_fifo > 32)
      return bad(err, err_size, "lookup_fifo %u / update_fifo %u not 1..32", c->lookup_fifo,
                 c->update_fifo);
   if (c->collector_ray_ids < 32 || c->collector_ray_ids > 1024)
      return bad(err, err_size, "collector_ray_ids %u is not 32..1024", c->collector_ray_ids);
   if (c->collector_timeout_cycles > 1023)
      return bad(err, err_size, "collector_timeout_cycles %u is not 0..1023",
                 c->collector_timeout_cycles);
   if (c->repacking != PPU_TTU_PREDICTOR_REPACKING_ON &&
       c->repacking != PPU_TTU_PREDICTOR_REPACKING_OFF)
      return bad(err, err_size, "repacking %u is not ON (1) or OFF (2)", c->repacking);
   return true;
}

/* --- The table ------------------------------------------------------------- */

bool ppu_ttu_predictor_init(struct ppu_ttu_predictor *t, const struct ppu_ttu_predictor_config *cfg)
{
   memset(t, 0, sizeof(*t));
   if (!ppu_ttu_predictor_config_resolve(cfg, &t->cfg, NULL, 0))
      return false;
   if (!t->cfg.enabled)
      return true;
   t->sets = t->cfg.entries / t->cfg.ways;
   while ((1u << t->set_bits) < t->sets)
      t->set_bits++;
   t->entry = calloc(t->cfg.entries, sizeof(*t->entry));
   t->slot = calloc((size_t)t->cfg.entries * t->cfg.nodes_per_entry, sizeof(*t->slot));
   if (!t->entry || !t->slot) {
      ppu_ttu_predictor_finish(t);
      return false;
   }
   return true;
}

void ppu_ttu_predictor_finish(struct ppu_ttu_predictor *t)
{
   free(t->entry);
   free(t->slot);
   memset(t, 0, sizeof(*t));
}

static uint32_t tag_of(const struct ppu_ttu_predictor *t, uint32_t hash)
{
   uint32_t rest = t->set_bits >= 32 ? 0 : hash >> t->set_bits;
   return t->cfg.tag_bits >= 32 ? rest : rest & ((1u << t->cfg.tag_bits) - 1);
}

/* The way of hash's set holding its tag, or -1. */
static int find_way(const struct ppu_ttu_predictor *t, uint32_t hash)
{
   const struct ppu_ttu_predictor_entry *set = &t->entry[(hash & (t->sets - 1)) * t->cfg.ways];
   uint32_t tag = tag_of(t, hash);
   for (uint32_t w = 0; w < t->cfg.ways; w++)
      if (set[w].last_use && set[w].tag == tag)
         return (int)w;
   return -1;
}

uint32_t ppu_ttu_predictor_lookup(struct ppu_ttu_predictor *t, uint32_t hash,
                                  struct ppu_ttu_predicted_node *out)
{
   int w = find_way(t, hash);
   if (w < 0)
      return 0;
   size_t e = (size_t)(hash & (t->sets - 1)) * t->cfg.ways + (uint32_t)w;
   if (t->cfg.replacement == PPU_TTU_PREDICTOR_REPLACEMENT_LRU)
      t->entry[e].last_use = ++t->clock;
   memcpy(out, &t->slot[e * t->cfg.nodes_per_entry], t->entry[e].node_count * sizeof(*out));
   return t->entry[e].node_count;
}

void ppu_ttu_predictor_update(struct ppu_ttu_predictor *t, uint32_t hash,
                              const struct ppu_ttu_predicted_node *node)
{
   size_t base = (size_t)(hash & (t->sets - 1)) * t->cfg.ways;
   int w = find_way(t, hash);
   bool allocated = w < 0;
   if (allocated) {
      /* An invalid way (last_use 0), else the least recently used (LRU) or
       * first allocated (FIFO: last_use is only set here). */
      w = 0;
      for (uint32_t i = 1; i < t->cfg.ways; i++)
         if (t->entry[base + i].last_use < t->entry[base + (uint32_t)w].last_use)
            w = (int)i;
      t->entry[base + (uint32_t)w].tag = tag_of(t, hash);
      t->entry[base + (uint32_t)w].node_count = 0;
   }
   struct ppu_ttu_predictor_entry *e = &t->entry[base + (uint32_t)w];
   struct ppu_ttu_predicted_node *s = &t->slot[(base + (uint32_t)w) * t->cfg.nodes_per_entry];
   /* The node moves (or enters) at slot 0; those before it shift down. */
   uint32_t at = 0;
   while (at < e->node_count && (s[at].instance != node->instance || s[at].node != node->node))
      at++;
   if (at == e->node_count && e->node_count < t->cfg.nodes_per_entry)
      e->node_count++;
   if (at == t->cfg.nodes_per_entry)
      at--; /* full and absent: the least recent node drops out */
   memmove(&s[1], &s[0], at * sizeof(*s));
   s[0] = *node;
   if (allocated || t->cfg.replacement == PPU_TTU_PREDICTOR_REPLACEMENT_LRU)
      e->last_use = ++t->clock;
}

/* --- Hashes (section 4.2, figure 6) --------------------------------------- */

/* bits-bit integer of v's position in [lo, hi]; outside, NaN or an empty
 * box clamp into range. */
static uint32_t quantize(double v, double lo, double hi, unsigned bits)
{
   double cells = (double)(1u << bits), f = (v - lo) / (hi - lo) * cells;
   if (!(f >= 0)) /* below, NaN (empty or flat box, NaN coordinate) */
      return 0;
   return f >= cells ? (1u << bits) - 1 : (uint32_t)f;
}

/* The Grid Hash block: each coordinate of p in the scene box, concatenated
 * x, y, z from the high bits. */
static uint32_t grid_hash(const double p[3], const float lo[3], const float hi[3])
{
   uint32_t h = 0;
   for (unsigned a = 0; a < 3; a++)
      h = h << PPU_TTU_PREDICTOR_ORIGIN_BITS |
          quantize(p[a], lo[a], hi[a], PPU_TTU_PREDICTOR_ORIGIN_BITS);
   return h;
}

/* Direction as spherical angles: theta in [0, pi] from +z, phi in
 * [-pi, pi] from +x; concatenated theta, phi. */
static uint32_t spherical_hash(const float d[3])
{
   double len = sqrt((double)d[0] * d[0] + (double)d[1] * d[1] + (double)d[2] * d[2]);
   if (!(len > 0) || isinf(len))
      return 0;
   double z = d[2] / len;
   double theta = acos(z < -1 ? -1 : z > 1 ? 1 : z), phi = atan2(d[1], d[0]);
   return quantize(theta, 0, PI, PPU_TTU_PREDICTOR_DIRECTION_BITS)
              << PPU_TTU_PREDICTOR_DIRECTION_BITS |
          quantize(phi, -PI, PI, PPU_TTU_PREDICTOR_DIRECTION_BITS);
}

/* Where the ray leaves the scene box (slab test), or tmax when earlier: the
 * Two Point hash's "estimated target point" on the ray. The notes (4.2.2)
 * give no formula; the farthest point of the ray that can still hit
 * anything is the estimate that needs no knowledge of the hit. */
static double target_t(const float o[3], const float d[3], float tmax, const float lo[3],
                       const float hi[3])
{
   double t = tmax;
   for (unsigned a = 0; a < 3; a++) {
      if (d[a] == 0)
         continue;
      double t0 = ((double)lo[a] - o[a]) / d[a], t1 = ((double)hi[a] - o[a]) / d[a];
      double exit = t0 > t1 ? t0 : t1;
      if (exit < t)
         t = exit;
   }
   return t > 0 ? t : 0;
}

uint32_t ppu_ttu_predictor_hash(uint32_t kind, const float origin[3], const float direction[3],
                                float tmax, const float lo[3], const float hi[3])
{
   double o[3] = {origin[0], origin[1], origin[2]};
   uint32_t h = grid_hash(o, lo, hi);
   if (kind == PPU_TTU_PREDICTOR_HASH_TWO_POINT) {
      double t = target_t(origin, direction, tmax, lo, hi), p[3];
      for (unsigned a = 0; a < 3; a++)
         p[a] = o[a] + t * direction[a];
      return h ^ grid_hash(p, lo, hi);
   }
   return h ^ spherical_hash(direction);
}

/* --- Prediction, verification and update ---------------------------------- */

static uint64_t counter(const struct ppu_ttu_query *q, enum ppu_counter id)
{
   return atomic_load_explicit(&q->ttu->counters->value[id], memory_order_relaxed);
}

static void count(struct ppu_ttu_query *q, enum ppu_counter id, uint64_t n)
{
   ppu_counter_add(q->ttu->counters, id, n);
}

/* Section 3: only rays for which skipping part of the tree cannot change
 * the result. With TERMINATE_ON_FIRST_HIT any hit ends traversal, and with
 * OPAQUE every triangle hit is committed by the TTU, never offered to the
 * shader; CULL_OPAQUE (every triangle culled) and SKIP_TRIANGLES leave the
 * predictor nothing to find. Face culling is applied by the same code on
 * both paths. The ray must be at its start: root pending, nothing open. */
static bool eligible(const struct ppu_ttu_query *q)
{
   const struct ppu_ttu_private *p = &q->p;
   const uint32_t need = PPU_RAY_FLAG_TERMINATE_ON_FIRST_HIT | PPU_RAY_FLAG_OPAQUE;
   const uint32_t refuse = PPU_RAY_FLAG_CULL_OPAQUE | PPU_RAY_FLAG_SKIP_TRIANGLES;
   return q->ttu->predictor.cfg.enabled && (p->ray_flags & need) == need &&
          !(p->ray_flags & refuse) && q->rq.state == PPU_RQ_STATE_TRAVERSING &&
          p->level == PPU_TTU_LEVEL_TOP && p->top.root_pending && p->top.depth == 0 &&
          p->top.leaf_next == p->top.leaf_end;
}

/* Node fetches a traversal from the root would have made for the ray as it
 * stood before the prediction: the same walk on a copy, through a copy of
 * the L0 and MMU port counting into a scratch block, so neither the
 * counters nor the caches see it (functional mode only: equation 1 needs
 * the full traversal's count of a verified ray). A candidate the shader
 * would have seen is taken as ignored. */
static uint64_t full_traversal_fetches(const struct ppu_ttu_query *q,
                                       const struct ppu_ray_query *rq,
                                       const struct ppu_ttu_private *p)
{
   static _Thread_local struct ppu_counter_block scratch;
   memset(&scratch, 0, sizeof(scratch));
   struct ppu_mmu_client mmu = *q->ttu->l0.mmu;
   mmu.counters = &scratch;
   struct ppu_ttu shadow = *q->ttu;
   shadow.counters = &scratch;
   shadow.l0.counters = &scratch;
   shadow.l0.mmu = &mmu;
   shadow.l0.miss_log = NULL; /* nor the timing mode's memory model */
   struct ppu_fault fault;
   struct ppu_ttu_query s = {
       .ttu = &shadow, .pd_pa = q->pd_pa, .rq = *rq, .p = *p, .fault = &fault};
   while (ppu_ttu_traverse(&s) == PPU_TTU_WALK_CANDIDATE)
      ;
   return atomic_load_explicit(&scratch.value[PPU_COUNTER_TTU_NODE_FETCHES], memory_order_relaxed);
}

bool ppu_ttu_predict(struct ppu_ttu_query *q, struct ppu_ttu_prediction *pr)
{
   memset(pr, 0, sizeof(*pr));
   if (!eligible(q))
      return false;
   struct ppu_ttu_predictor *t = &q->ttu->predictor;
   /* The scene box is the top level's bounds (the header line INIT read). */
   float lo[3], hi[3];
   if (!ppu_ttu_top_bounds(q, lo, hi)) {
      memset(q->fault, 0, sizeof(*q->fault)); /* the traversal will report it */
      return false;
   }
   pr->eligible = true;
   pr->hash = ppu_ttu_predictor_hash(t->cfg.hash, q->p.origin, q->p.direction, q->p.tmax, lo, hi);
   count(q, PPU_COUNTER_TTU_PREDICTOR_LOOKUPS, 1);
   struct ppu_ttu_predicted_node nodes[PPU_TTU_PREDICTOR_MAX_NODES];
   uint32_t n = ppu_ttu_predictor_lookup(t, pr->hash, nodes);
   if (n == 0)
      return false;
   count(q, PPU_COUNTER_TTU_PREDICTOR_PREDICTED, 1);
   /* Nothing of a walk that finds no hit may stay: the object is restored
    * after each predicted node that fails, so the fallback starts from the
    * root exactly as if nothing had been predicted. */
   const struct ppu_ray_query rq = q->rq;
   const struct ppu_ttu_private p = q->p;
   uint32_t stack_valid[2] = {q->stack_valid[0], q->stack_valid[1]};
   uint64_t fetches = counter(q, PPU_COUNTER_TTU_NODE_FETCHES);
   bool verified = false;
   for (uint32_t i = 0; i < n && !verified; i++) {
      verified = ppu_ttu_traverse_subtree(q, nodes[i].instance, nodes[i].node) == PPU_TTU_WALK_DONE;
      if (!verified) {
         /* A fault here (a stale or forged prediction) is not the
          * program's: the full traversal meets whatever the ray really
          * reaches. */
         q->rq = rq;
         q->p = p;
         memcpy(q->stack_valid, stack_valid, sizeof(stack_valid));
         q->memo_valid[0] = q->memo_valid[1] = 0; /* the walk's own */
         memset(q->fault, 0, sizeof(*q->fault));
      }
   }
   uint64_t predicted_fetches = counter(q, PPU_COUNTER_TTU_NODE_FETCHES) - fetches;
   if (!verified) {
      count(q, PPU_COUNTER_TTU_PREDICTOR_MISPREDICTED, 1);
      count(q, PPU_COUNTER_TTU_PREDICTOR_EXTRA_NODE_FETCHES, predicted_fetches);
      return false;
   }
   count(q, PPU_COUNTER_TTU_PREDICTOR_VERIFIED, 1);
   uint64_t full = full_traversal_fetches(q, &rq, &p);
   if (full >= predicted_fetches)
      count(q, PPU_COUNTER_TTU_PREDICTOR_NODES_SKIPPED, full - predicted_fetches);
   else
      count(q, PPU_COUNTER_TTU_PREDICTOR_EXTRA_NODE_FETCHES, predicted_fetches - full);
   return true;
}

void ppu_ttu_predictor_learn(struct ppu_ttu_query *q, const struct ppu_ttu_prediction *pr,
                             bool committed_a_hit)
{
   const struct ppu_ttu_private *p = &q->p;
   if (!pr->eligible || !committed_a_hit || q->rq.committed.type != PPU_RQ_COMMITTED_TRIANGLE ||
       p->level != PPU_TTU_LEVEL_BOTTOM || p->bottom.depth == 0)
      return;
   /* The hit's leaf is a child slot of the node on top of the bottom-level
    * stack: Go Up Level 0 predicts that node, k its k-th ancestor
    * (section 4.3, figure 7). */
   struct ppu_ttu_predicted_node node = {.instance = p->instance_address};
   if (!ppu_ttu_bottom_ancestor(q, p->bottom_stack[p->bottom.depth - 1].node,
                                q->ttu->predictor.cfg.go_up_level, &node.node)) {
      memset(q->fault, 0, sizeof(*q->fault)); /* no update; the hit stands */
      return;
   }
   ppu_ttu_predictor_update(&q->ttu->predictor, pr->hash, &node);
   count(q, PPU_COUNTER_TTU_PREDICTOR_UPDATES, 1);
}
