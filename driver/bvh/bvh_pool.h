/* A small thread pool for one build (driver/bvh/): the caller's thread plus
 * up to BVH_MAX_THREADS - 1 workers, started by bvh_pool_create and joined
 * by bvh_pool_destroy. Two kinds of work: a parallel loop the caller takes
 * part in (binning and partitioning the top levels of the tree, gathering
 * primitives, writing nodes) and a FIFO of independent tasks (subtrees).
 *
 * A NULL pool is valid everywhere and runs everything inline on the caller,
 * which is what a one-thread build uses: the same code path, so the result
 * cannot depend on the thread count. */
#ifndef DRV_BVH_POOL_H
#define DRV_BVH_POOL_H

#include <stdint.h>

#define BVH_MAX_THREADS 8u
/* Primitives per item of the builder's parallel loops. Fixed, never
 * derived from the thread count: whatever is computed per chunk (sums,
 * stable partitions) must come out the same for every thread count. 16Ki
 * primitives (512 KiB of struct bvh_prim) make handing out an item cost
 * nothing measurable and still give a 100k-primitive root several items. */
#define BVH_CHUNK_PRIMS 16384u

/* A task the caller owns (embed it in its own struct); the pool links it
 * through `next` until a thread runs it. */
struct bvh_task {
   void (*run)(struct bvh_task *task);
   struct bvh_task *next;
};

struct bvh_pool;

/* Starts threads - 1 workers. NULL (run inline) for threads <= 1, or when
 * not a single worker could be started or memory is short: a build never
 * fails for want of threads. */
struct bvh_pool *bvh_pool_create(unsigned threads);
void bvh_pool_destroy(struct bvh_pool *pool);
/* Threads that take part, the caller included (1 for NULL). */
unsigned bvh_pool_thread_count(const struct bvh_pool *pool);

/* Runs fn(arg, i) for every i < count on the caller and idle workers and
 * returns when all calls have returned. Calls may run in any order and
 * concurrently; fn must not use the pool. */
void bvh_pool_for(struct bvh_pool *pool, uint32_t count, void (*fn)(void *arg, uint32_t i),
                  void *arg);

/* Queues a task (runs it at once when pool is NULL). */
void bvh_pool_submit(struct bvh_pool *pool, struct bvh_task *task);
/* Runs queued tasks on the caller too; returns when every submitted task
 * has finished. */
void bvh_pool_wait(struct bvh_pool *pool);

#endif
