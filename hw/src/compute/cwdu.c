/* CWDU pending and active task pools per GPC. See cwdu.h. */
#include "compute/cwdu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ppu_cwdu_init(struct ppu_cwdu *c, uint32_t gpc_count)
{
   memset(c, 0, sizeof(*c));
   c->gpc = calloc(gpc_count, sizeof(*c->gpc));
   if (!c->gpc)
      return ENOMEM;
   c->gpc_count = gpc_count;
   return pthread_mutex_init(&c->lock, NULL);
}

void ppu_cwdu_finish(struct ppu_cwdu *c)
{
   if (!c->gpc)
      return;
   pthread_mutex_destroy(&c->lock);
   free(c->gpc);
   c->gpc = NULL;
}

/* Moves pending tasks into free active slots, oldest first. */
static void promote(struct ppu_cwdu_gpc_pools *p)
{
   while (p->active_count < PPU_CWDU_ACTIVE_SLOTS && p->pending_count) {
      p->active[p->active_count++] = p->pending[0];
      memmove(p->pending, p->pending + 1, --p->pending_count * sizeof(p->pending[0]));
   }
}

bool ppu_cwdu_submit(struct ppu_cwdu *c, struct ppu_cwdu_task *task)
{
   pthread_mutex_lock(&c->lock);
   bool ok = true;
   for (uint32_t g = 0; g < c->gpc_count; g++)
      ok = ok && c->gpc[g].pending_count < PPU_CWDU_PENDING_SLOTS;
   if (ok) {
      task->next_workgroup = 0;
      for (uint32_t g = 0; g < c->gpc_count; g++) {
         struct ppu_cwdu_gpc_pools *p = &c->gpc[g];
         p->pending[p->pending_count++] = task;
         promote(p);
      }
   }
   pthread_mutex_unlock(&c->lock);
   return ok;
}

static void remove_at(struct ppu_cwdu_task **slots, uint32_t *count, uint32_t i)
{
   memmove(slots + i, slots + i + 1, (*count - i - 1) * sizeof(slots[0]));
   (*count)--;
}

bool ppu_cwdu_take_workgroup(struct ppu_cwdu *c, uint32_t gpc, struct ppu_grid **grid,
                             uint64_t *index)
{
   pthread_mutex_lock(&c->lock);
   struct ppu_cwdu_gpc_pools *p = &c->gpc[gpc];
   bool found = false;
   while (!found && p->active_count) {
      struct ppu_cwdu_task *t = p->active[0];
      if (t->next_workgroup < t->grid->workgroup_count && !ppu_grid_aborted(t->grid)) {
         *grid = t->grid;
         *index = t->next_workgroup++;
         found = true;
      } else {
         /* Every workgroup of the task is handed out: the GPC is done with
          * it; the next pending task gets the slot. */
         remove_at(p->active, &p->active_count, 0);
         promote(p);
      }
   }
   pthread_mutex_unlock(&c->lock);
   return found;
}

void ppu_cwdu_retire(struct ppu_cwdu *c, struct ppu_cwdu_task *task)
{
   pthread_mutex_lock(&c->lock);
   for (uint32_t g = 0; g < c->gpc_count; g++) {
      struct ppu_cwdu_gpc_pools *p = &c->gpc[g];
      for (uint32_t i = p->active_count; i-- > 0;)
         if (p->active[i] == task)
            remove_at(p->active, &p->active_count, i);
      for (uint32_t i = p->pending_count; i-- > 0;)
         if (p->pending[i] == task)
            remove_at(p->pending, &p->pending_count, i);
      promote(p);
   }
   pthread_mutex_unlock(&c->lock);
}
