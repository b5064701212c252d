/* See ttu_beam_walk.h. */
#include "ttu/ttu_beam_walk.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "ppu/isa.h"
#include "ppu/ray_query.h"
#include "ttu/ttu.h"
#include "ttu/ttu_beam.h"
#include "ttu/ttu_intersect.h"
#include "ttu/ttu_private.h"
#include "ttu/ttu_traversal.h"

/* A beam pays when its rays share the upper levels' paths: fewer rays
 * than this fetch too few nodes twice to repay the walk. */
#define BEAM_MIN_RAYS 4u
/* Coherence: the unit directions of the rays differ by at most this much
 * in every axis (about 7 degrees). Primary rays of a 32-pixel tile differ
 * by a fraction of a degree, shadow rays towards one light by little more;
 * ambient-occlusion rays over a hemisphere by everything, and a beam that
 * wide reaches nearly every upper node for rays that each visit few. */
#define BEAM_MAX_SPREAD 0.125f
/* Structures a beam enters: the top level and the instances it reaches. */
#define BEAM_LEVELS_MAX 16u

struct beam_ray {
   float org[3], dir[3];
   float tmin, tmax;
};

struct beam_level {
   struct ppu_ttu_beam beam;
   struct ppu_ttu_level lv; /* the header's fields, as a ray's walk latches them */
};

struct beam_walk {
   struct ppu_ttu *ttu;
   struct ppu_ttu_beam_nodes *b;
   uint64_t pd_pa;
   struct beam_ray ray[PPU_WARP_SIZE];
   unsigned rays;
   struct beam_level level[BEAM_LEVELS_MAX];
   unsigned levels;
   struct {
      uint16_t level;
      uint32_t node;
   } queue[PPU_TTU_BEAM_NODES_MAX];
   unsigned head, tail;
};

void ppu_ttu_beam_configure(struct ppu_ttu_beam_nodes *b, bool enabled, uint32_t capacity)
{
   b->enabled = enabled;
   b->capacity = capacity == 0                       ? 1
                 : capacity > PPU_TTU_BEAM_NODES_MAX ? PPU_TTU_BEAM_NODES_MAX
                                                     : capacity;
   b->count = 0;
   memset(b->slot, 0, sizeof(b->slot));
}

void ppu_ttu_beam_end(struct ppu_ttu *ttu)
{
   struct ppu_ttu_beam_nodes *b = &ttu->beam;
   if (b->count)
      memset(b->slot, 0, sizeof(b->slot));
   b->count = 0;
}

static void count(struct beam_walk *w, enum ppu_counter id, uint64_t n)
{
   ppu_counter_add(w->ttu->counters, id, n);
}

static bool fetch(struct beam_walk *w, uint64_t va, void *dst, uint32_t len)
{
   struct ppu_fault ignored;
   return ppu_ttu_l0_read(&w->ttu->l0, w->pd_pa, va, dst, len, &ignored);
}

/* A ray the beam may carry: fresh from TTU.INIT (traversing, at the top
 * level, the root not yet expanded), of the same top level as the others. */
static bool fresh_ray(const uint8_t *object, uint64_t *tlas, struct beam_ray *r)
{
   /* Only the fields looked at: every PROCEED of a warp comes here, most
    * of them refused, and whole objects are 1 KiB. */
   const uint8_t *priv = object + PPU_RQ_PRIVATE;
   uint32_t state, level;
   struct ppu_ttu_level top;
   memcpy(&state, object + offsetof(struct ppu_ray_query, state), sizeof(state));
   memcpy(&level, priv + offsetof(struct ppu_ttu_private, level), sizeof(level));
   if (state != PPU_RQ_STATE_TRAVERSING || level != PPU_TTU_LEVEL_TOP)
      return false;
   memcpy(&top, priv + offsetof(struct ppu_ttu_private, top), sizeof(top));
   if (top.root_pending != 1 || top.depth != 0 || top.leaf_next < top.leaf_end)
      return false;
   if (*tlas == 0)
      *tlas = top.address;
   if (top.address != *tlas)
      return false;
   memcpy(r->org, priv + offsetof(struct ppu_ttu_private, origin), sizeof(r->org));
   memcpy(r->dir, priv + offsetof(struct ppu_ttu_private, direction), sizeof(r->dir));
   memcpy(&r->tmin, priv + offsetof(struct ppu_ttu_private, tmin), sizeof(r->tmin));
   memcpy(&r->tmax, priv + offsetof(struct ppu_ttu_private, tmax), sizeof(r->tmax));
   return true;
}

/* Whether the unit directions of the rays lie within BEAM_MAX_SPREAD of
 * each other per axis (a heuristic: it decides only whether a beam is
 * formed, never what a ray finds). */
static bool coherent(const struct beam_walk *w)
{
   float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
   for (unsigned i = 0; i < w->rays; i++) {
      const float *d = w->ray[i].dir;
      float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      if (!(len > 0.0f) || !isfinite(len))
         return false;
      for (unsigned a = 0; a < 3; a++) {
         lo[a] = fminf(lo[a], d[a] / len);
         hi[a] = fmaxf(hi[a], d[a] / len);
      }
   }
   for (unsigned a = 0; a < 3; a++)
      if (!(hi[a] - lo[a] <= BEAM_MAX_SPREAD))
         return false;
   return true;
}

/* The beam of the rays as the level sees them: world space, or the object
 * space of instance inst (NULL: world). */
static bool form_beam(const struct beam_walk *w, const struct ppu_bvh_instance *inst,
                      struct ppu_ttu_beam *beam)
{
   float o[PPU_WARP_SIZE][3], d[PPU_WARP_SIZE][3];
   float tmin[PPU_WARP_SIZE], tmax[PPU_WARP_SIZE];
   for (unsigned i = 0; i < w->rays; i++) {
      if (inst) {
         ppu_ttu_object_ray(inst->world_to_object, w->ray[i].org, w->ray[i].dir, o[i], d[i]);
      } else {
         memcpy(o[i], w->ray[i].org, sizeof(o[i]));
         memcpy(d[i], w->ray[i].dir, sizeof(d[i]));
      }
      tmin[i] = w->ray[i].tmin;
      tmax[i] = w->ray[i].tmax;
   }
   return ppu_ttu_beam_enclose(beam, w->rays, (const float(*)[3])o, (const float(*)[3])d, tmin,
                               tmax) == PPU_TTU_BEAM_VALID;
}

/* Reads the header at va as a level of the walk (kind: top or bottom) and
 * queues its root; false when it is no usable structure (the rays will
 * find out for themselves). */
static bool enter_level(struct beam_walk *w, uint64_t va, bool top,
                        const struct ppu_bvh_instance *inst)
{
   if (w->levels == BEAM_LEVELS_MAX || w->tail == PPU_TTU_BEAM_NODES_MAX ||
       w->b->count + (w->tail - w->head) >= w->b->capacity || va % PPU_BVH_ALIGN)
      return false;
   struct ppu_bvh_header h;
   struct beam_level *level = &w->level[w->levels];
   if (!fetch(w, va, &h, sizeof(h)) ||
       ppu_ttu_latch_level(&h, va, top, &level->lv) != PPU_TTU_HEADER_OK ||
       level->lv.node_count == 0 || !form_beam(w, inst, &level->beam))
      return false;
   w->queue[w->tail].level = (uint16_t)w->levels++;
   w->queue[w->tail++].node = 0;
   return true;
}

static void hold(struct ppu_ttu_beam_nodes *b, uint64_t va, const struct ppu_bvh_node *n)
{
   uint32_t h = ppu_ttu_beam_hash(va);
   while (b->slot[h])
      h = (h + 1) & (2 * PPU_TTU_BEAM_NODES_MAX - 1);
   b->va[b->count] = va;
   b->node[b->count] = *n;
   b->slot[h] = (uint16_t)++b->count;
}

/* The instances of a top-level leaf the beam reaches: each one's bottom
 * level joins the walk with the beam in its object space. */
static void enter_instances(struct beam_walk *w, const struct beam_level *top, uint64_t first,
                            unsigned records)
{
   for (unsigned r = 0; r < records && first + r < top->lv.leaf_count; r++) {
      struct ppu_bvh_instance inst;
      uint64_t va = top->lv.address + top->lv.leaf_offset + (first + r) * top->lv.leaf_stride;
      if (!fetch(w, va, &inst, sizeof(inst)) || inst.blas_address == 0)
         continue;
      enter_level(w, inst.blas_address, false, &inst);
   }
}

static void walk(struct beam_walk *w)
{
   struct ppu_ttu_beam_nodes *b = w->b;
   while (w->head < w->tail && b->count < b->capacity) {
      const struct beam_level *level = &w->level[w->queue[w->head].level];
      uint32_t index = w->queue[w->head++].node;
      if (index >= level->lv.node_count)
         continue;
      uint64_t va =
          level->lv.address + level->lv.node_offset + (uint64_t)index * PPU_BVH_NODE_BYTES;
      struct ppu_bvh_node n;
      const struct ppu_bvh_node *held = ppu_ttu_beam_lookup(b, va);
      if (held) { /* a bottom level two instances share */
         n = *held;
      } else {
         if (!fetch(w, va, &n, sizeof(n)))
            return;
         count(w, PPU_COUNTER_TTU_NODE_FETCHES, 1);
         count(w, PPU_COUNTER_TTU_BEAM_NODE_FETCHES, 1);
         hold(b, va, &n);
      }
      if (n.child_count == 0 || n.child_count > PPU_BVH_WIDTH)
         continue;
      count(w, PPU_COUNTER_TTU_BEAM_BOX_TESTS, n.child_count);
      uint32_t reached = ppu_ttu_beam_node_test(&level->beam, &n);
      for (; reached; reached &= reached - 1) {
         unsigned slot = (unsigned)__builtin_ctz(reached);
         if (n.child_kind[slot] == PPU_BVH_CHILD_INTERNAL) {
            if (w->tail < PPU_TTU_BEAM_NODES_MAX && b->count + (w->tail - w->head) < b->capacity) {
               w->queue[w->tail].level = w->queue[w->head - 1].level;
               w->queue[w->tail++].node = n.internal_base + n.child_index[slot];
            }
         } else if (n.child_kind[slot] == PPU_BVH_CHILD_LEAF &&
                    level->lv.kind == PPU_BVH_KIND_INSTANCES) {
            enter_instances(w, level, (uint64_t)n.leaf_base + n.child_index[slot],
                            n.child_records[slot]);
         }
      }
   }
}

void ppu_ttu_beam_begin(struct ppu_ttu *ttu, uint64_t pd_pa, uint8_t *const *objects,
                        unsigned lanes)
{
   struct ppu_ttu_beam_nodes *b = &ttu->beam;
   b->count = 0;
   if (!b->enabled)
      return;
   struct beam_walk w;
   w.ttu = ttu;
   w.b = b;
   w.pd_pa = pd_pa;
   w.rays = w.levels = w.head = w.tail = 0;
   uint64_t tlas = 0;
   for (unsigned i = 0; i < lanes && w.rays < PPU_WARP_SIZE; i++)
      if (fresh_ray(objects[i], &tlas, &w.ray[w.rays]))
         w.rays++;
   if (w.rays == 0)
      return;
   if (w.rays < BEAM_MIN_RAYS || !coherent(&w) || !enter_level(&w, tlas, true, NULL)) {
      count(&w, PPU_COUNTER_TTU_BEAMS_REFUSED, 1);
      return;
   }
   count(&w, PPU_COUNTER_TTU_BEAMS, 1);
   walk(&w);
}
