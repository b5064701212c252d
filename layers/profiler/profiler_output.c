/* counters.csv and counters.json: the recorded rows and frames as tables
 * (docs/profiler.md gives both formats), and the file helpers every output
 * uses. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profiler.h"

FILE *prof_open_output(const struct prof_device *d, const char *name, char *path, size_t size)
{
   snprintf(path, size, "%s/%s", d->dir, name);
   FILE *f = fopen(path, "w");
   if (!f)
      fprintf(stderr, PROFILER_LAYER_NAME ": cannot write %s: %s\n", path, strerror(errno));
   return f;
}

bool prof_close_output(FILE *f, const char *path)
{
   if (fclose(f) == 0)
      return true;
   fprintf(stderr, PROFILER_LAYER_NAME ": writing %s: %s\n", path, strerror(errno));
   return false;
}

static bool same_unit(const char *a, const char *b)
{
   size_t len = strcspn(a, ".");
   return !strncmp(a, b, len) && b[len] == '.';
}

uint32_t prof_unit_members(const struct prof_device *d, uint32_t i, uint32_t *members)
{
   for (uint32_t j = 0; j < i; j++)
      if (same_unit(d->counter_names[i], d->counter_names[j]))
         return 0;
   uint32_t n = 0;
   for (uint32_t j = i; j < d->counter_count; j++)
      if (same_unit(d->counter_names[i], d->counter_names[j]))
         members[n++] = j;
   return n;
}

static const char *kind_name(enum prof_row_kind k)
{
   return k == PROF_ROW_PRESENT ? "present" : "submit";
}

bool prof_write_csv(const struct prof_device *d)
{
   char path[4200];
   FILE *f = prof_open_output(d, "counters.csv", path, sizeof(path));
   if (!f)
      return false;
   fprintf(f, "row,kind,frame,begin_us,end_us,ray_cost_nodes");
   for (uint32_t i = 0; i < d->counter_count; i++)
      fprintf(f, ",%s", d->counter_names[i]);
   fputc('\n', f);
   for (uint32_t r = 0; r < d->row_count; r++) {
      const struct prof_row *row = &d->rows[r];
      fprintf(f, "%u,%s,%u,%.1f,%.1f,%llu", r, kind_name(row->kind), row->frame, row->begin_us,
              row->end_us, (unsigned long long)row->ray_cost_sum);
      for (uint32_t i = 0; i < d->counter_count; i++)
         fprintf(f, ",%llu", (unsigned long long)row->delta[i]);
      fputc('\n', f);
   }
   return prof_close_output(f, path);
}

/* Counter names and the device name are plain ASCII without quotes or
 * backslashes, but the device name comes from the driver: escape anyway. */
void prof_json_string(FILE *f, const char *s)
{
   fputc('"', f);
   for (; *s; s++) {
      if (*s == '"' || *s == '\\')
         fprintf(f, "\\%c", *s);
      else if ((unsigned char)*s < 0x20)
         fprintf(f, "\\u%04x", *s);
      else
         fputc(*s, f);
   }
   fputc('"', f);
}

static void json_counters(FILE *f, const struct prof_device *d, const uint64_t *values)
{
   fputc('{', f);
   for (uint32_t i = 0; i < d->counter_count; i++) {
      fprintf(f, "%s", i ? ", " : "");
      prof_json_string(f, d->counter_names[i]);
      fprintf(f, ": %llu", (unsigned long long)values[i]);
   }
   fputc('}', f);
}

bool prof_write_json(const struct prof_device *d)
{
   char path[4200];
   FILE *f = prof_open_output(d, "counters.json", path, sizeof(path));
   if (!f)
      return false;
   fprintf(f, "{\n  \"layer\": \"" PROFILER_LAYER_NAME "\",\n  \"device\": ");
   prof_json_string(f, d->name);
   fprintf(f, ",\n  \"counters\": [");
   for (uint32_t i = 0; i < d->counter_count; i++) {
      fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
      prof_json_string(f, d->counter_names[i]);
      fprintf(f, ", \"unit\": ");
      prof_json_string(f, d->counter_units[i]);
      fputc('}', f);
   }
   fprintf(f, "\n  ],\n  \"at_device_creation\": ");
   json_counters(f, d, d->at_creation);
   fprintf(f, ",\n  \"after_last_row\": ");
   json_counters(f, d, d->last);
   fprintf(f, ",\n  \"rows\": [");
   for (uint32_t r = 0; r < d->row_count; r++) {
      const struct prof_row *row = &d->rows[r];
      fprintf(f,
              "%s\n    {\"row\": %u, \"kind\": \"%s\", \"frame\": %u, \"begin_us\": %.1f, "
              "\"end_us\": %.1f, \"ray_cost_nodes\": %llu, \"counters\": ",
              r ? "," : "", r, kind_name(row->kind), row->frame, row->begin_us, row->end_us,
              (unsigned long long)row->ray_cost_sum);
      json_counters(f, d, row->delta);
      fputc('}', f);
   }
   fprintf(f, "\n  ],\n  \"frames\": [");
   for (uint32_t i = 0; i < d->frame_count; i++) {
      const struct prof_frame *fr = &d->frames[i];
      fprintf(f, "%s\n    {\"frame\": %u, \"first_row\": %u, \"rows\": %u, ", i ? "," : "", i,
              fr->first_row, fr->row_count);
      if (fr->heat_width)
         fprintf(f,
                 "\"heatmap\": {\"file\": \"%s\", \"width\": %u, \"height\": %u, "
                 "\"max_nodes\": %llu, \"sum_nodes\": %llu}, ",
                 fr->heat_file, fr->heat_width, fr->heat_height, (unsigned long long)fr->heat_max,
                 (unsigned long long)fr->heat_sum);
      fprintf(f, "\"counters\": ");
      json_counters(f, d, fr->delta);
      fputc('}', f);
   }
   fprintf(f, "\n  ]\n}\n");
   return prof_close_output(f, path);
}
