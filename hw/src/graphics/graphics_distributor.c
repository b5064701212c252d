/* Primitive distribution: index fetch, assembly order, vertex batches. */
#include "graphics/graphics_distributor.h"

#include <stddef.h>
#include <string.h>

#include "fault.h"
#include "graphics/graphics_draw.h"
#include "raster/raster_assembly.h"

#define INDEX_CHUNK 1024u /* indices read from memory at once */

struct index_stream {
   struct gfx_draw *d;
   uint64_t va;
   uint32_t size, limit;
   uint32_t chunk_first, chunk_count; /* positions held in chunk[] */
   uint32_t chunk[INDEX_CHUNK];
};

/* The index at buffer position pos; beyond INDEX_LIMIT an index reads 0
 * (robust buffer access) without touching memory. */
static bool index_at(struct index_stream *x, uint32_t pos, uint32_t *out)
{
   if (pos >= x->limit) {
      *out = 0;
      return true;
   }
   if (pos - x->chunk_first >= x->chunk_count) {
      uint32_t n = x->limit - pos < INDEX_CHUNK ? x->limit - pos : INDEX_CHUNK;
      uint8_t raw[INDEX_CHUNK * 4];
      if (!ppu_mmu_read(&x->d->ge->mmu, x->d->pd_pa, x->va + (uint64_t)pos * x->size, raw,
                        (uint64_t)n * x->size, x->d->fault))
         return false;
      for (uint32_t i = 0; i < n; i++) {
         const uint8_t *b = raw + (size_t)i * x->size;
         x->chunk[i] = x->size == 1   ? b[0]
                       : x->size == 2 ? (uint32_t)b[0] | (uint32_t)b[1] << 8
                                      : (uint32_t)b[0] | (uint32_t)b[1] << 8 |
                                            (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
      }
      x->chunk_first = pos;
      x->chunk_count = n;
   }
   *out = x->chunk[pos - x->chunk_first];
   return true;
}

/* The lane of vertex v in the batch, or -1. */
static int find_slot(const struct gfx_batch *b, uint32_t v)
{
   for (uint32_t i = 0; i < b->count; i++)
      if (b->vertex[i] == v)
         return (int)i;
   return -1;
}

/* Vertices of vals[0..n) not yet in the batch (counting repeats once). */
static uint32_t new_vertices(const struct gfx_batch *b, const uint32_t *vals, unsigned n)
{
   uint32_t fresh = 0;
   for (unsigned k = 0; k < n; k++) {
      bool seen = find_slot(b, vals[k]) >= 0;
      for (unsigned j = 0; j < k && !seen; j++)
         seen = vals[j] == vals[k];
      fresh += !seen;
   }
   return fresh;
}

static bool flush(struct gfx_draw *d, struct gfx_batch *b)
{
   bool ok = b->count == 0 || gfx_draw_batch(d, b);
   b->count = 0;
   b->primitive_count = 0;
   return ok;
}

static bool add_primitive(struct gfx_draw *d, struct gfx_batch *b, const uint32_t *vals, unsigned n,
                          uint32_t provoking_value, uint32_t id)
{
   if (b->primitive_count == GFX_BATCH_PRIMITIVES_MAX ||
       b->count + new_vertices(b, vals, n) > PPU_WARP_SIZE) {
      if (!flush(d, b))
         return false;
   }
   struct gfx_batch_primitive *p = &b->primitive[b->primitive_count++];
   memset(p, 0, sizeof(*p));
   p->id = id;
   for (unsigned k = 0; k < n; k++) {
      int slot = find_slot(b, vals[k]);
      if (slot < 0) {
         slot = (int)b->count;
         b->vertex[b->count++] = vals[k];
      }
      p->slot[k] = (uint8_t)slot;
      if (vals[k] == provoking_value)
         p->provoking = (uint8_t)slot;
   }
   return true;
}

/* The vertex index values of the stream positions assembly still refers
 * to: the last three positions, and the first one of the current strip or
 * fan (a fan's centre). */
struct stream_window {
   uint32_t recent[4];
   uint32_t first_pos, first_value;
};

static uint32_t window_value(const struct stream_window *w, uint32_t pos)
{
   return pos == w->first_pos ? w->first_value : w->recent[pos & 3u];
}

static bool run_instance(struct gfx_draw *d, const struct gfx_draw_params *p,
                         struct index_stream *ix, uint32_t instance, struct gfx_batch *b)
{
   const struct ppu_graphics_state *s = d->s;
   enum ppu_gfx_topology topo = (enum ppu_gfx_topology)s->word[PPU_GFX_TOPOLOGY];
   unsigned n = raster_topology_vertices(topo);
   struct raster_assembler as;
   raster_assembler_init(&as, topo, p->indexed && s->word[PPU_GFX_PRIMITIVE_RESTART],
                         s->word[PPU_GFX_PROVOKING_VERTEX] != 0, ix->size);
   struct stream_window win = {.first_pos = UINT32_MAX};
   b->count = 0;
   b->primitive_count = 0;
   b->instance = p->first_instance + instance;
   for (uint32_t i = 0; i < p->count; i++) {
      uint32_t raw = 0, value = p->first + i;
      if (p->indexed) {
         if (!index_at(ix, p->first + i, &raw))
            return false;
         value = raw + (uint32_t)p->vertex_offset;
      }
      win.recent[i & 3u] = value;
      d->input_vertices += !(as.restart && raw == as.restart_index);
      struct raster_primitive prim;
      bool done = raster_assembler_push(&as, i, raw, &prim);
      if (as.count == 1 && as.first == i) {
         win.first_pos = i;
         win.first_value = value;
      }
      if (!done)
         continue;
      uint32_t vals[3];
      for (unsigned k = 0; k < n; k++)
         vals[k] = window_value(&win, prim.vertex[k]);
      if (!add_primitive(d, b, vals, n, window_value(&win, prim.provoking), prim.id))
         return false;
   }
   return flush(d, b);
}

bool gfx_distribute(struct gfx_draw *d, const struct gfx_draw_params *p)
{
   const struct ppu_graphics_state *s = d->s;
   struct index_stream ix_storage;
   struct index_stream *ix = &ix_storage;
   memset(ix, 0, offsetof(struct index_stream, chunk));
   ix->d = d;
   ix->va = (uint64_t)s->word[PPU_GFX_INDEX_ADDR_HI] << 32 | s->word[PPU_GFX_INDEX_ADDR_LO];
   ix->size = p->indexed ? s->word[PPU_GFX_INDEX_SIZE] : 4;
   ix->limit = s->word[PPU_GFX_INDEX_LIMIT];
   if (p->indexed && ix->va % ix->size) {
      ppu_fault_set(d->fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "index buffer 0x%llx is not aligned to its %u-byte indices",
                    (unsigned long long)ix->va, ix->size);
      return false;
   }
   d->params = *p;
   struct gfx_batch batch;
   for (uint32_t inst = 0; inst < p->instance_count; inst++) {
      /* Each instance reads its indices again (the chunk may be reused). */
      if (!run_instance(d, p, ix, inst, &batch))
         return false;
   }
   return true;
}

bool gfx_distribute_indirect(struct gfx_draw *d, uint32_t flags)
{
   const struct ppu_graphics_state *s = d->s;
   const uint32_t *w = s->word;
   uint64_t va = (uint64_t)w[PPU_GFX_INDIRECT_ADDR_HI] << 32 | w[PPU_GFX_INDIRECT_ADDR_LO];
   uint64_t count_va =
       (uint64_t)w[PPU_GFX_INDIRECT_COUNT_ADDR_HI] << 32 | w[PPU_GFX_INDIRECT_COUNT_ADDR_LO];
   uint32_t stride = w[PPU_GFX_INDIRECT_STRIDE], count = w[PPU_GFX_INDIRECT_MAX_COUNT];
   bool indexed = flags & PPU_GFX_DRAW_FLAG_INDEXED;
   if (va % 4 || stride % 4 || ((flags & PPU_GFX_DRAW_FLAG_COUNT_FROM_MEMORY) && count_va % 4)) {
      ppu_fault_set(d->fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "indirect address 0x%llx, stride %u or count address 0x%llx not 4-byte "
                    "aligned",
                    (unsigned long long)va, stride, (unsigned long long)count_va);
      return false;
   }
   if (flags & PPU_GFX_DRAW_FLAG_COUNT_FROM_MEMORY) {
      uint32_t in_memory;
      if (!ppu_mmu_read(&d->ge->mmu, d->pd_pa, count_va, &in_memory, 4, d->fault))
         return false;
      count = in_memory < count ? in_memory : count;
   }
   for (uint32_t i = 0; i < count; i++) {
      uint64_t rec = va + (uint64_t)i * stride;
      struct gfx_draw_params p = {.indexed = indexed, .draw_index = i};
      if (indexed) {
         struct ppu_gfx_draw_indexed_indirect a;
         if (!ppu_mmu_read(&d->ge->mmu, d->pd_pa, rec, &a, sizeof(a), d->fault))
            return false;
         p.first = a.first_index, p.count = a.index_count, p.vertex_offset = a.vertex_offset;
         p.first_instance = a.first_instance, p.instance_count = a.instance_count;
      } else {
         struct ppu_gfx_draw_indirect a;
         if (!ppu_mmu_read(&d->ge->mmu, d->pd_pa, rec, &a, sizeof(a), d->fault))
            return false;
         p.first = a.first_vertex, p.count = a.vertex_count;
         p.first_instance = a.first_instance, p.instance_count = a.instance_count;
      }
      if (!gfx_distribute(d, &p))
         return false;
   }
   return true;
}
