/* Pushbuffers: method streams (ppu/methods.h) written into chunks of GPU
 * memory, and the list of segments (GPU address + word count) they form.
 * Each segment becomes one GPFIFO entry when submitted (channel.h).
 *
 * Rules the encoder keeps:
 *   - a method (header and its data) never straddles two segments: a method
 *     that does not fit in the current chunk closes the segment and starts a
 *     new chunk; long data is split into several methods by the caller
 *     (method_encoder.h does this);
 *   - a segment never exceeds one chunk, so it is at most 16384 words, below
 *     PPU_GPFIFO_LEN_MAX;
 *   - segments of another pushbuffer can be appended by reference (secondary
 *     command buffers), which closes the current segment first.
 *
 * Chunks come from a drv_pb_chunk_pool and go back to it on reset: a Vulkan
 * command pool owns one, so re-recording reuses GPU memory instead of
 * allocating it. A pushbuffer's first chunk is small (4 KiB) so that many
 * short command buffers stay cheap; later chunks are 64 KiB.
 *
 * Recording cannot fail visibly in Vulkan (vkCmd* return void), so the first
 * allocation failure is kept in `error` and reported at vkEndCommandBuffer;
 * the commands after it are dropped.
 *
 * Not thread-safe: a pushbuffer and its pool are used by one thread at a time
 * (Vulkan requires external synchronization of a command pool). */
#ifndef DRV_PUSHBUFFER_H
#define DRV_PUSHBUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_result.h"

struct drv_device;
struct drv_bo;

#define DRV_PB_SMALL_CHUNK_BYTES (4u << 10)
#define DRV_PB_LARGE_CHUNK_BYTES (64u << 10)
#define DRV_PB_LARGE_CHUNK_WORDS (DRV_PB_LARGE_CHUNK_BYTES / 4u)

struct drv_pb_chunk {
   struct drv_bo *bo;
   uint32_t *words;       /* bo's host mapping */
   uint32_t capacity;     /* words */
   uint64_t retire_seqno; /* channel use: reusable once this seqno completed */
   struct drv_pb_chunk *next;
};

struct drv_pb_chunk_pool {
   struct drv_device *dev;
   struct drv_pb_chunk *free_small, *free_large;
};

void drv_pb_chunk_pool_init(struct drv_pb_chunk_pool *pool, struct drv_device *dev);
/* Frees the chunks that are not in use (vkTrimCommandPool). */
void drv_pb_chunk_pool_trim(struct drv_pb_chunk_pool *pool);
void drv_pb_chunk_pool_finish(struct drv_pb_chunk_pool *pool);
enum drv_result drv_pb_chunk_get(struct drv_pb_chunk_pool *pool, bool small,
                                 struct drv_pb_chunk **out);
void drv_pb_chunk_put(struct drv_pb_chunk_pool *pool, struct drv_pb_chunk *chunk);

struct drv_pb_segment {
   uint64_t va;
   uint32_t words;
};

struct drv_pushbuf {
   struct drv_pb_chunk_pool *pool;
   struct drv_pb_chunk *chunks; /* owned, newest (current) first */
   uint32_t *cursor;            /* next word to write in the current chunk */
   uint32_t *end;               /* end of the current chunk */
   uint32_t *segment_start;     /* first word of the open segment */
   struct drv_pb_segment *segments;
   uint32_t segment_count, segment_capacity;
   enum drv_result error; /* first failure while recording, sticky until reset */
   bool small_first;      /* first chunk small (command buffers) or large (channels) */
};

void drv_pushbuf_init(struct drv_pushbuf *pb, struct drv_pb_chunk_pool *pool, bool small_first);
/* Gives every chunk back to the pool and forgets the segments. */
void drv_pushbuf_reset(struct drv_pushbuf *pb);
void drv_pushbuf_finish(struct drv_pushbuf *pb);

uint32_t *drv_pushbuf_reserve_slow(struct drv_pushbuf *pb, uint32_t words);

/* Room for `words` contiguous words in one segment; NULL after an allocation
 * failure (recorded in pb->error). The caller writes them and then calls
 * drv_pushbuf_commit with the same pointer advanced. */
static inline uint32_t *drv_pushbuf_reserve(struct drv_pushbuf *pb, uint32_t words)
{
   if (__builtin_expect(pb->cursor && (uint32_t)(pb->end - pb->cursor) >= words, 1))
      return pb->cursor;
   return drv_pushbuf_reserve_slow(pb, words);
}

static inline void drv_pushbuf_commit(struct drv_pushbuf *pb, uint32_t *new_cursor)
{
   pb->cursor = new_cursor;
}

/* Words left in the current chunk (0 before the first reserve). */
static inline uint32_t drv_pushbuf_space(const struct drv_pushbuf *pb)
{
   return pb->cursor ? (uint32_t)(pb->end - pb->cursor) : 0;
}

/* Ends the open segment (if it has words); the next method starts a new one. */
void drv_pushbuf_close_segment(struct drv_pushbuf *pb);
/* Closes the open segment, then appends `count` segments that live in other
 * pushbuffers (the caller keeps those alive while this one is used). */
void drv_pushbuf_append_segments(struct drv_pushbuf *pb, const struct drv_pb_segment *segments,
                                 uint32_t count);
/* Forgets the closed segments but keeps the chunks and the write position
 * (a channel reuses its pushbuffer for the next submission). */
void drv_pushbuf_clear_segments(struct drv_pushbuf *pb);
/* Detaches every chunk except the current one and returns them as a list
 * (a channel retires them once the GPU has passed them). */
struct drv_pb_chunk *drv_pushbuf_detach_full_chunks(struct drv_pushbuf *pb);

#endif
