/* See pushbuffer.h. */
#include "pushbuffer.h"

#include <stdlib.h>

#include "gpu_memory.h"

void drv_pb_chunk_pool_init(struct drv_pb_chunk_pool *pool, struct drv_device *dev)
{
   pool->dev = dev;
   pool->free_small = pool->free_large = NULL;
}

static void free_chunk_list(struct drv_device *dev, struct drv_pb_chunk *c)
{
   while (c) {
      struct drv_pb_chunk *next = c->next;
      drv_bo_destroy(dev, c->bo);
      free(c);
      c = next;
   }
}

void drv_pb_chunk_pool_trim(struct drv_pb_chunk_pool *pool)
{
   free_chunk_list(pool->dev, pool->free_small);
   free_chunk_list(pool->dev, pool->free_large);
   pool->free_small = pool->free_large = NULL;
}

void drv_pb_chunk_pool_finish(struct drv_pb_chunk_pool *pool)
{
   drv_pb_chunk_pool_trim(pool);
}

enum drv_result drv_pb_chunk_get(struct drv_pb_chunk_pool *pool, bool small,
                                 struct drv_pb_chunk **out)
{
   struct drv_pb_chunk **list = small ? &pool->free_small : &pool->free_large;
   if (*list) {
      *out = *list;
      *list = (*list)->next;
      (*out)->next = NULL;
      return DRV_SUCCESS;
   }
   struct drv_pb_chunk *c = calloc(1, sizeof(*c));
   if (!c)
      return DRV_ERROR_OUT_OF_HOST_MEMORY;
   uint32_t bytes = small ? DRV_PB_SMALL_CHUNK_BYTES : DRV_PB_LARGE_CHUNK_BYTES;
   enum drv_result r =
       drv_bo_create(pool->dev, bytes, DRV_BO_HOST_MAPPED | DRV_BO_INTERNAL, 0, &c->bo);
   if (r != DRV_SUCCESS) {
      free(c);
      return r;
   }
   c->words = (uint32_t *)(void *)c->bo->map;
   c->capacity = bytes / 4u;
   *out = c;
   return DRV_SUCCESS;
}

void drv_pb_chunk_put(struct drv_pb_chunk_pool *pool, struct drv_pb_chunk *chunk)
{
   struct drv_pb_chunk **list =
       chunk->capacity * 4u == DRV_PB_SMALL_CHUNK_BYTES ? &pool->free_small : &pool->free_large;
   chunk->next = *list;
   *list = chunk;
}

void drv_pushbuf_init(struct drv_pushbuf *pb, struct drv_pb_chunk_pool *pool, bool small_first)
{
   *pb = (struct drv_pushbuf){.pool = pool, .small_first = small_first};
}

void drv_pushbuf_reset(struct drv_pushbuf *pb)
{
   struct drv_pb_chunk *c = pb->chunks;
   while (c) {
      struct drv_pb_chunk *next = c->next;
      drv_pb_chunk_put(pb->pool, c);
      c = next;
   }
   pb->chunks = NULL;
   pb->cursor = pb->end = pb->segment_start = NULL;
   pb->segment_count = 0;
   pb->error = DRV_SUCCESS;
}

void drv_pushbuf_finish(struct drv_pushbuf *pb)
{
   drv_pushbuf_reset(pb);
   free(pb->segments);
   pb->segments = NULL;
   pb->segment_capacity = 0;
}

static bool push_segment(struct drv_pushbuf *pb, uint64_t va, uint32_t words)
{
   if (pb->segment_count == pb->segment_capacity) {
      uint32_t capacity = pb->segment_capacity ? 2 * pb->segment_capacity : 8;
      struct drv_pb_segment *grown = realloc(pb->segments, capacity * sizeof(*grown));
      if (!grown) {
         if (pb->error == DRV_SUCCESS)
            pb->error = DRV_ERROR_OUT_OF_HOST_MEMORY;
         return false;
      }
      pb->segments = grown;
      pb->segment_capacity = capacity;
   }
   pb->segments[pb->segment_count++] = (struct drv_pb_segment){va, words};
   return true;
}

void drv_pushbuf_close_segment(struct drv_pushbuf *pb)
{
   if (!pb->cursor || pb->cursor == pb->segment_start)
      return;
   struct drv_pb_chunk *c = pb->chunks;
   uint64_t va = c->bo->va + (uint64_t)(pb->segment_start - c->words) * 4u;
   push_segment(pb, va, (uint32_t)(pb->cursor - pb->segment_start));
   pb->segment_start = pb->cursor;
}

uint32_t *drv_pushbuf_reserve_slow(struct drv_pushbuf *pb, uint32_t words)
{
   if (pb->error != DRV_SUCCESS)
      return NULL;
   if (words > DRV_PB_LARGE_CHUNK_WORDS) {
      /* An encoder bug: methods are at most 8192 words. */
      pb->error = DRV_ERROR_OUT_OF_HOST_MEMORY;
      return NULL;
   }
   drv_pushbuf_close_segment(pb);
   bool small = pb->small_first && !pb->chunks && words <= DRV_PB_SMALL_CHUNK_BYTES / 4u;
   struct drv_pb_chunk *c;
   enum drv_result r = drv_pb_chunk_get(pb->pool, small, &c);
   if (r != DRV_SUCCESS) {
      pb->error = r;
      return NULL;
   }
   c->next = pb->chunks;
   pb->chunks = c;
   pb->cursor = pb->segment_start = c->words;
   pb->end = c->words + c->capacity;
   return pb->cursor;
}

void drv_pushbuf_append_segments(struct drv_pushbuf *pb, const struct drv_pb_segment *segments,
                                 uint32_t count)
{
   drv_pushbuf_close_segment(pb);
   for (uint32_t i = 0; i < count; i++) {
      if (!push_segment(pb, segments[i].va, segments[i].words))
         return;
   }
}

void drv_pushbuf_clear_segments(struct drv_pushbuf *pb)
{
   pb->segment_count = 0;
   pb->segment_start = pb->cursor;
}

struct drv_pb_chunk *drv_pushbuf_detach_full_chunks(struct drv_pushbuf *pb)
{
   if (!pb->chunks)
      return NULL;
   struct drv_pb_chunk *old = pb->chunks->next;
   pb->chunks->next = NULL;
   return old;
}
