/* trace.json in the Chrome trace event format (the JSON object form with a
 * traceEvents array; Perfetto and chrome://tracing open it): each submit
 * and present a complete ("X") event on the wall clock, each frame one
 * around its rows, per unit a counter ("C") track of the rows' counter
 * deltas, and in timing mode the same rows again on a simulated timeline
 * laid end to end by chip cycles. */
#include <stdlib.h>
#include <string.h>

#include "profiler.h"

enum { PID_WALL = 1, PID_SIMULATED = 2 };
enum { TID_ROWS = 1, TID_FRAMES = 2 };

/* 1 us of the simulated timeline = this many chip cycles: 1 GHz, the
 * default gpu.clock (docs/hw-config.md). */
#define CYCLES_PER_US 1000.0

static int counter_index(const struct prof_device *d, const char *name)
{
   for (uint32_t i = 0; i < d->counter_count; i++)
      if (!strcmp(d->counter_names[i], name))
         return (int)i;
   return -1;
}

static void event_sep(FILE *f, bool *first)
{
   fprintf(f, "%s\n", *first ? "" : ",");
   *first = false;
}

static void metadata(FILE *f, bool *first, int pid, int tid, const char *what, const char *name)
{
   event_sep(f, first);
   fprintf(f, "{\"name\": \"%s\", \"ph\": \"M\", \"pid\": %d, \"tid\": %d, \"args\": {\"name\": ",
           what, pid, tid);
   prof_json_string(f, name);
   fprintf(f, "}}");
}

/* One counter event per unit whose counters are not all 0 in this row, at
 * ts; with zero, the same events with 0 (the end of a row's step). */
static void unit_counters(FILE *f, bool *first, const struct prof_device *d,
                          const struct prof_row *row, double ts, bool zero, uint32_t *members)
{
   for (uint32_t i = 0; i < d->counter_count; i++) {
      uint32_t n = prof_unit_members(d, i, members);
      bool any = false;
      for (uint32_t k = 0; k < n; k++)
         any |= row->delta[members[k]] != 0;
      if (!any)
         continue;
      const char *name = d->counter_names[i];
      size_t unit_len = strcspn(name, ".");
      event_sep(f, first);
      fprintf(f, "{\"name\": \"%.*s\", \"ph\": \"C\", \"pid\": %d, \"ts\": %.1f, \"args\": {",
              (int)unit_len, name, PID_WALL, ts);
      bool first_arg = true;
      for (uint32_t k = 0; k < n; k++) {
         uint32_t j = members[k];
         if (!row->delta[j])
            continue;
         fprintf(f, "%s\"%s\": %llu", first_arg ? "" : ", ", d->counter_names[j] + unit_len + 1,
                 zero ? 0ull : (unsigned long long)row->delta[j]);
         first_arg = false;
      }
      fprintf(f, "}}");
   }
}

static void row_event(FILE *f, bool *first, const struct prof_device *d, uint32_t r, int pid,
                      double ts, double dur)
{
   const struct prof_row *row = &d->rows[r];
   event_sep(f, first);
   fprintf(f,
           "{\"name\": \"%s %u\", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": %d, \"tid\": %d, "
           "\"ts\": %.3f, \"dur\": %.3f, \"args\": {\"frame\": %u, \"ray_cost_nodes\": %llu",
           row->kind == PROF_ROW_PRESENT ? "present" : "submit", r,
           row->kind == PROF_ROW_PRESENT ? "present" : "submit", pid, TID_ROWS, ts, dur, row->frame,
           (unsigned long long)row->ray_cost_sum);
   for (uint32_t i = 0; i < d->counter_count; i++)
      if (row->delta[i])
         fprintf(f, ", \"%s\": %llu", d->counter_names[i], (unsigned long long)row->delta[i]);
   fprintf(f, "}}");
}

bool prof_write_trace(const struct prof_device *d)
{
   char path[4200];
   FILE *f = prof_open_output(d, "trace.json", path, sizeof(path));
   if (!f)
      return false;
   int cycles = counter_index(d, "timing.chip_cycles");
   uint64_t total_cycles = 0;
   for (uint32_t r = 0; cycles >= 0 && r < d->row_count; r++)
      total_cycles += d->rows[r].delta[cycles];

   uint32_t *members = malloc(d->counter_count * sizeof(uint32_t));
   if (!members) {
      fclose(f);
      return false;
   }
   fprintf(f, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [");
   bool first = true;
   char name[400];
   snprintf(name, sizeof(name), "%s (wall clock)", d->name);
   metadata(f, &first, PID_WALL, 0, "process_name", name);
   metadata(f, &first, PID_WALL, TID_ROWS, "thread_name", "submits and presents");
   metadata(f, &first, PID_WALL, TID_FRAMES, "thread_name", "frames");
   for (uint32_t r = 0; r < d->row_count; r++) {
      const struct prof_row *row = &d->rows[r];
      row_event(f, &first, d, r, PID_WALL, row->begin_us, row->end_us - row->begin_us);
      unit_counters(f, &first, d, row, row->begin_us, false, members);
      unit_counters(f, &first, d, row, row->end_us, true, members);
   }
   for (uint32_t i = 0; i < d->frame_count; i++) {
      const struct prof_frame *fr = &d->frames[i];
      const struct prof_row *a = &d->rows[fr->first_row];
      const struct prof_row *b = &d->rows[fr->first_row + fr->row_count - 1];
      event_sep(f, &first);
      fprintf(f,
              "{\"name\": \"frame %u\", \"cat\": \"frame\", \"ph\": \"X\", \"pid\": %d, "
              "\"tid\": %d, \"ts\": %.3f, \"dur\": %.3f}",
              i, PID_WALL, TID_FRAMES, a->begin_us, b->end_us - a->begin_us);
   }
   if (total_cycles) {
      metadata(f, &first, PID_SIMULATED, 0, "process_name",
               "simulated chip (timing mode; 1 us = 1000 chip cycles)");
      metadata(f, &first, PID_SIMULATED, TID_ROWS, "thread_name", "submits and presents");
      double at = 0;
      for (uint32_t r = 0; r < d->row_count; r++) {
         double dur = (double)d->rows[r].delta[cycles] / CYCLES_PER_US;
         if (dur > 0)
            row_event(f, &first, d, r, PID_SIMULATED, at, dur);
         at += dur;
      }
   }
   free(members);
   fprintf(f, "\n]}\n");
   return prof_close_output(f, path);
}
