/* The build's thread pool (bvh_pool.h). One mutex guards everything: the
 * work items are coarse (a chunk of thousands of primitives, a whole
 * subtree), so the lock is taken a few hundred times per build at most and
 * a lock-free queue would buy nothing. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bvh_pool.h"

struct bvh_pool {
   pthread_mutex_t lock;
   pthread_cond_t wake; /* workers: a loop, a task, or stop */
   pthread_cond_t idle; /* caller: the loop or every task finished */
   /* The current parallel loop (fn NULL: none). */
   void (*for_fn)(void *arg, uint32_t i);
   void *for_arg;
   uint32_t for_count, for_next, for_done;
   /* Tasks: FIFO, and how many are submitted but not finished. */
   struct bvh_task *head, *tail;
   uint32_t tasks_pending;
   bool stop;
   unsigned worker_count;
   pthread_t workers[BVH_MAX_THREADS];
};

/* With the lock held: runs one loop iteration or one task if there is
 * one (dropping the lock meanwhile); false when there was nothing. */
static bool run_one(struct bvh_pool *p, bool tasks_too)
{
   if (p->for_fn && p->for_next < p->for_count) {
      uint32_t i = p->for_next++;
      void (*fn)(void *, uint32_t) = p->for_fn;
      void *arg = p->for_arg;
      pthread_mutex_unlock(&p->lock);
      fn(arg, i);
      pthread_mutex_lock(&p->lock);
      if (++p->for_done == p->for_count)
         pthread_cond_broadcast(&p->idle);
      return true;
   }
   if (tasks_too && p->head) {
      struct bvh_task *t = p->head;
      p->head = t->next;
      if (!p->head)
         p->tail = NULL;
      pthread_mutex_unlock(&p->lock);
      t->run(t);
      pthread_mutex_lock(&p->lock);
      if (--p->tasks_pending == 0)
         pthread_cond_broadcast(&p->idle);
      return true;
   }
   return false;
}

static void *worker_main(void *arg)
{
   struct bvh_pool *p = arg;
   pthread_mutex_lock(&p->lock);
   while (!p->stop)
      if (!run_one(p, true))
         pthread_cond_wait(&p->wake, &p->lock);
   pthread_mutex_unlock(&p->lock);
   return NULL;
}

struct bvh_pool *bvh_pool_create(unsigned threads)
{
   if (threads <= 1)
      return NULL;
   if (threads > BVH_MAX_THREADS)
      threads = BVH_MAX_THREADS;
   struct bvh_pool *p = calloc(1, sizeof(*p));
   if (!p)
      return NULL;
   pthread_mutex_init(&p->lock, NULL);
   pthread_cond_init(&p->wake, NULL);
   pthread_cond_init(&p->idle, NULL);
   while (p->worker_count < threads - 1 &&
          pthread_create(&p->workers[p->worker_count], NULL, worker_main, p) == 0)
      p->worker_count++;
   if (p->worker_count == 0) {
      bvh_pool_destroy(p);
      return NULL;
   }
   return p;
}

void bvh_pool_destroy(struct bvh_pool *p)
{
   if (!p)
      return;
   pthread_mutex_lock(&p->lock);
   p->stop = true;
   pthread_cond_broadcast(&p->wake);
   pthread_mutex_unlock(&p->lock);
   for (unsigned i = 0; i < p->worker_count; i++)
      pthread_join(p->workers[i], NULL);
   pthread_cond_destroy(&p->idle);
   pthread_cond_destroy(&p->wake);
   pthread_mutex_destroy(&p->lock);
   free(p);
}

unsigned bvh_pool_thread_count(const struct bvh_pool *p)
{
   return p ? p->worker_count + 1 : 1;
}

void bvh_pool_for(struct bvh_pool *p, uint32_t count, void (*fn)(void *arg, uint32_t i), void *arg)
{
   if (!p || count <= 1) {
      for (uint32_t i = 0; i < count; i++)
         fn(arg, i);
      return;
   }
   pthread_mutex_lock(&p->lock);
   p->for_fn = fn;
   p->for_arg = arg;
   p->for_count = count;
   p->for_next = 0;
   p->for_done = 0;
   pthread_cond_broadcast(&p->wake);
   /* The caller only takes loop iterations here: a subtree task could keep
    * it away from the loop that everyone else is waiting for. */
   while (run_one(p, false))
      ;
   while (p->for_done < p->for_count)
      pthread_cond_wait(&p->idle, &p->lock);
   p->for_fn = NULL;
   pthread_mutex_unlock(&p->lock);
}

void bvh_pool_submit(struct bvh_pool *p, struct bvh_task *task)
{
   if (!p) {
      task->run(task);
      return;
   }
   task->next = NULL;
   pthread_mutex_lock(&p->lock);
   if (p->tail)
      p->tail->next = task;
   else
      p->head = task;
   p->tail = task;
   p->tasks_pending++;
   pthread_cond_signal(&p->wake);
   pthread_mutex_unlock(&p->lock);
}

void bvh_pool_wait(struct bvh_pool *p)
{
   if (!p)
      return;
   pthread_mutex_lock(&p->lock);
   while (p->tasks_pending)
      if (!run_one(p, true))
         pthread_cond_wait(&p->idle, &p->lock);
   pthread_mutex_unlock(&p->lock);
}
