/* Sweeps the TTU's ray-intersection predictor (docs/ttu.md) over the
 * settings of the MICRO'21 paper's figures: table entries, Go Up Level and
 * hash, against the predictor off, on ao.comp's AO rays, per scene. Writes
 * one CSV row per scene and setting (plus GMEAN rows) and, per swept
 * parameter, grouped bar charts like the paper's (x: scenes and GMEAN,
 * bars: the parameter's values with the others at the paper's defaults).
 * Not a test.
 *
 *   predictor_sweep [--width N] [--height N] [--spp N] [--ao-fraction F]
 *                   [--threads N] [--entries N,N...] [--go-up-level N,N...]
 *                   [--hash grid|two_point[,...]] [--csv FILE] [--plots DIR]
 *                   [scene ...]
 *
 * Every combination of the listed entries, Go Up Levels and hashes runs
 * (4-way, 15-bit tags, one node per entry, as the paper's best table). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "png_write.h"
#include "rt_model.h"

#define MAX_SCENES 16
#define MAX_VALUES 8

/* The paper's defaults (section 6): where a parameter is not the one a
 * chart sweeps, it sits here if the sweep includes this value. */
#define PAPER_ENTRIES 1024u
#define PAPER_GO_UP_LEVEL 3u
#define PAPER_HASH PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL

struct options {
   struct rt_ao_bench run;
   uint32_t entries[MAX_VALUES], entry_count;
   uint32_t levels[MAX_VALUES], level_count;
   uint32_t hashes[MAX_VALUES], hash_count;
   const char *csv, *plots;
   const char *scenes[MAX_SCENES];
   int scene_count;
};

/* One predictor setting; index 0 of the sweep is the predictor off. */
struct setting {
   bool on;
   uint32_t entries, level, hash;
   char label[48];
};

/* A finished scene: its predictor-off figures and one cell per setting. */
struct cell {
   struct rt_predictor_figures f;
   uint64_t fetches_on;
   bool ao_identical; /* per-pixel AO equal to the predictor-off run's */
};
struct scene_result {
   const char *name;
   uint64_t ao_rays, fetches_off;
   struct cell *cells; /* [setting_count] */
};

static const char *hash_name(uint32_t h)
{
   return h == PPU_TTU_PREDICTOR_HASH_TWO_POINT ? "two_point" : "grid_spherical";
}

/* ---- Geometric means (the paper's GMEAN bars) ---- */

/* Plain geometric mean of non-negative fractions: one scene at 0 makes it
 * 0, as it does in the paper's definition. */
static double gmean(const double *v, int n)
{
   double s = 0;
   for (int i = 0; i < n; i++) {
      if (!(v[i] > 0))
         return 0;
      s += log(v[i]);
   }
   return n ? exp(s / n) : 0;
}

/* Savings can be negative: the geometric mean of 1 + saving, minus 1 (the
 * paper's mean speedup - 1). */
static double gmean_plus_one(const double *v, int n)
{
   double w[MAX_SCENES];
   for (int i = 0; i < n; i++)
      w[i] = 1.0 + v[i];
   return gmean(w, n) - 1.0;
}

enum metric { M_PREDICTED, M_VERIFIED, M_MISPREDICTED, M_SAVED, M_EQ1 };

static double metric_of(const struct rt_predictor_figures *f, enum metric m)
{
   switch (m) {
   case M_PREDICTED:
      return f->predicted;
   case M_VERIFIED:
      return f->verified;
   case M_MISPREDICTED:
      return f->mispredicted;
   case M_SAVED:
      return f->fetches_saved;
   default:
      return f->eq1;
   }
}

/* GMEAN over scenes of one metric of one setting, as a fraction. */
static double setting_gmean(const struct scene_result *r, int scenes, int setting, enum metric m)
{
   double v[MAX_SCENES];
   for (int s = 0; s < scenes; s++)
      v[s] = metric_of(&r[s].cells[setting].f, m);
   return m == M_SAVED || m == M_EQ1 ? gmean_plus_one(v, scenes) : gmean(v, scenes);
}

/* ---- A grayscale canvas, a 3x5 font and grouped bar charts ---- */

struct image {
   int w, h;
   uint8_t *px;
};

/* Fills [x0, x1) x [y0, y1), clipped to the image. */
static void fill_rect(struct image *im, int x0, int y0, int x1, int y1, uint8_t v)
{
   x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
   x1 = x1 > im->w ? im->w : x1, y1 = y1 > im->h ? im->h : y1;
   if (x1 <= x0)
      return;
   for (int y = y0; y < y1; y++)
      memset(im->px + (size_t)y * im->w + x0, v, (size_t)(x1 - x0));
}

static void outline_rect(struct image *im, int x0, int y0, int x1, int y1, uint8_t v)
{
   fill_rect(im, x0, y0, x1, y0 + 1, v);
   fill_rect(im, x0, y1 - 1, x1, y1, v);
   fill_rect(im, x0, y0, x0 + 1, y1, v);
   fill_rect(im, x1 - 1, y0, x1, y1, v);
}

/* Rows top to bottom, bit 2 the left column; lower case drawn as upper. */
static const uint8_t *glyph(char c)
{
   static const char chars[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-%._(),=:/+";
   static const uint8_t rows[][5] = {
       {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
       {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
       {2, 5, 7, 5, 5}, {6, 5, 6, 5, 6}, {3, 4, 4, 4, 3}, {6, 5, 5, 5, 6}, {7, 4, 6, 4, 7},
       {7, 4, 6, 4, 4}, {3, 4, 5, 5, 3}, {5, 5, 7, 5, 5}, {7, 2, 2, 2, 7}, {1, 1, 1, 5, 2},
       {5, 5, 6, 5, 5}, {4, 4, 4, 4, 7}, {5, 7, 7, 5, 5}, {6, 5, 5, 5, 5}, {2, 5, 5, 5, 2},
       {6, 5, 6, 4, 4}, {2, 5, 5, 6, 3}, {6, 5, 6, 5, 5}, {3, 4, 2, 1, 6}, {7, 2, 2, 2, 2},
       {5, 5, 5, 5, 7}, {5, 5, 5, 5, 2}, {5, 5, 7, 7, 5}, {5, 5, 2, 5, 5}, {5, 5, 2, 2, 2},
       {7, 1, 2, 4, 7}, {0, 0, 7, 0, 0}, {5, 1, 2, 4, 5}, {0, 0, 0, 0, 2}, {0, 0, 0, 0, 7},
       {1, 2, 2, 2, 1}, {4, 2, 2, 2, 4}, {0, 0, 0, 2, 4}, {0, 7, 0, 7, 0}, {0, 2, 0, 2, 0},
       {1, 1, 2, 4, 4}, {0, 2, 7, 2, 0}};
   if (c >= 'a' && c <= 'z')
      c = (char)(c - 'a' + 'A');
   const char *p = c ? strchr(chars, c) : NULL;
   return p ? rows[p - chars] : NULL; /* NULL: a blank (space or unknown) */
}

static int text_width(const char *s, int scale)
{
   int n = (int)strlen(s);
   return n ? (4 * n - 1) * scale : 0;
}

static void draw_text(struct image *im, int x, int y, int scale, const char *s, uint8_t v)
{
   for (; *s; s++, x += 4 * scale) {
      const uint8_t *g = glyph(*s);
      for (int r = 0; g && r < 5; r++)
         for (int c = 0; c < 3; c++)
            if (g[r] & (4 >> c))
               fill_rect(im, x + c * scale, y + r * scale, x + (c + 1) * scale, y + (r + 1) * scale,
                         v);
   }
}

/* 1, 2 or 5 times a power of ten, so tick labels stay short. */
static double nice_step(double range)
{
   double p = pow(10, floor(log10(range))), m = range / p;
   return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

struct chart {
   char title[160];
   int groups, bars;
   const char *group_names[MAX_SCENES + 1];
   char bar_names[MAX_VALUES][32];
   double values[MAX_SCENES + 1][MAX_VALUES]; /* percent */
};

/* Gray levels from dark to light, each bar outlined so that the lightest
 * still stands out against the white background. */
static uint8_t bar_gray(int i, int n)
{
   return (uint8_t)(n > 1 ? 40 + i * 180 / (n - 1) : 80);
}

static bool draw_chart(const struct chart *c, const char *path)
{
   enum { W = 1000, H = 520, LEFT = 80, RIGHT = 20, TOP = 70, BOTTOM = 60, S = 2 };
   struct image im = {W, H, malloc((size_t)W * H)};
   if (!im.px)
      return false;
   memset(im.px, 255, (size_t)W * H);
   double lo = 0, hi = 0;
   for (int g = 0; g < c->groups; g++)
      for (int b = 0; b < c->bars; b++)
         lo = fmin(lo, c->values[g][b]), hi = fmax(hi, c->values[g][b]);
   if (hi - lo < 1e-9)
      hi = lo + 1;
   double step = nice_step((hi - lo) / 6);
   /* Rounding outwards, but a value on a tick (0 above all) keeps it. */
   lo = floor(lo / step + 1e-9) * step;
   hi = ceil(hi / step - 1e-9) * step;
   int px0 = LEFT, px1 = W - RIGHT, py0 = TOP, py1 = H - BOTTOM;
#define Y_OF(v) (py1 - (int)lround(((v)-lo) / (hi - lo) * (py1 - py0)))
   int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
   for (int t = 0; lo + t * step <= hi + step * 1e-6; t++) {
      double v = lo + t * step;
      int y = Y_OF(v);
      fill_rect(&im, px0, y, px1, y + 1, 225);
      char label[32];
      snprintf(label, sizeof(label), "%.*f", decimals, fabs(v) < step * 1e-6 ? 0.0 : v);
      draw_text(&im, px0 - 8 - text_width(label, S), y - 5 * S / 2, S, label, 0);
      fill_rect(&im, px0 - 5, y, px0, y + 1, 0);
   }
   int gw = (px1 - px0) / c->groups, bw = gw * 7 / 10 / c->bars;
   for (int g = 0; g < c->groups; g++) {
      int gx = px0 + g * gw + (gw - bw * c->bars) / 2;
      for (int b = 0; b < c->bars; b++) {
         int x0 = gx + b * bw, ya = Y_OF(0), yb = Y_OF(c->values[g][b]);
         int y0 = ya < yb ? ya : yb, y1 = (ya < yb ? yb : ya) + 1;
         fill_rect(&im, x0, y0, x0 + bw, y1, bar_gray(b, c->bars));
         outline_rect(&im, x0, y0, x0 + bw, y1, 0);
      }
      /* Long scene names break at '_' rather than overflow the group. */
      const char *name = c->group_names[g];
      const char *cut = strchr(name, '_');
      int ly = py1 + 10;
      if (text_width(name, S) <= gw - 4 || !cut) {
         draw_text(&im, px0 + g * gw + (gw - text_width(name, S)) / 2, ly, S, name, 0);
      } else {
         char first[64];
         snprintf(first, sizeof(first), "%.*s", (int)(cut - name), name);
         draw_text(&im, px0 + g * gw + (gw - text_width(first, S)) / 2, ly, S, first, 0);
         draw_text(&im, px0 + g * gw + (gw - text_width(cut + 1, S)) / 2, ly + 7 * S, S, cut + 1,
                   0);
      }
      if (g == c->groups - 1 && g > 0) /* GMEAN apart from the scenes */
         for (int y = py0; y < py1; y += 6)
            fill_rect(&im, px0 + g * gw, y, px0 + g * gw + 1, y + 3, 120);
   }
   fill_rect(&im, px0, py0, px0 + 1, py1 + 1, 0);
   fill_rect(&im, px0, Y_OF(0), px1, Y_OF(0) + 1, 0);
#undef Y_OF
   draw_text(&im, LEFT, 10, S, c->title, 0);
   int lx = LEFT;
   for (int b = 0; b < c->bars; b++) {
      fill_rect(&im, lx, 36, lx + 14, 50, bar_gray(b, c->bars));
      outline_rect(&im, lx, 36, lx + 14, 50, 0);
      draw_text(&im, lx + 20, 38, S, c->bar_names[b], 0);
      lx += 20 + text_width(c->bar_names[b], S) + 24;
   }
   bool ok = png_gray_write(path, im.px, W, H);
   free(im.px);
   return ok;
}

/* ---- The sweep ---- */

/* The chip gets the documented defaults (ppu_gpu_config_default) with the
 * swept fields replaced; Go Up Level 0 must be written as ZERO. */
static bool predictor_config(const struct setting *s, struct ppu_ttu_predictor_config *cfg,
                             char *err, size_t err_size)
{
   struct ppu_gpu_config defaults;
   ppu_gpu_config_default(&defaults);
   *cfg = defaults.ttu_predictor;
   cfg->enabled = true;
   cfg->entries = s->entries;
   cfg->go_up_level = s->level;
   cfg->hash = s->hash;
   struct ppu_ttu_predictor_config resolved;
   return ppu_ttu_predictor_config_resolve(cfg, &resolved, err, err_size);
}

static const char *csv_header =
    "scene,setting,predictor (on/off),table_entries (entries),go_up_level (BVH levels),"
    "hash (name),ao_rays (rays),predicted (% of AO rays),verified (% of AO rays),"
    "mispredicted (% of AO rays),node_fetches_off (nodes),node_fetches_on (nodes),"
    "fetches_saved (% of off fetches),eq1 (% of off fetches),ao_identical (1 = same per-pixel "
    "AO as off)\n";

static void csv_row(FILE *f, const char *scene, const struct setting *s, const char *ao_rays,
                    const char *off, const char *on, const struct rt_predictor_figures *x,
                    const char *identical)
{
   char e[16] = "", k[16] = "";
   if (s->on)
      snprintf(e, sizeof(e), "%u", s->entries), snprintf(k, sizeof(k), "%u", s->level);
   fprintf(f, "%s,%s,%s,%s,%s,%s,%s,%.3f,%.3f,%.3f,%s,%s,%.3f,%.3f,%s\n", scene, s->label,
           s->on ? "on" : "off", e, k, s->on ? hash_name(s->hash) : "", ao_rays, 100 * x->predicted,
           100 * x->verified, 100 * x->mispredicted, off, on, 100 * x->fetches_saved, 100 * x->eq1,
           identical);
}

/* Runs every setting on one scene; false on a failed run. *skipped when
 * the scene's file is not there. */
static bool sweep_scene(const char *name, const struct options *o, const struct setting *settings,
                        int setting_count, struct scene_result *r, FILE *csv, bool *skipped)
{
   const struct scene_camera *cam;
   struct obj_mesh mesh;
   int opened = rt_scene_open(name, &cam, &mesh);
   *skipped = opened == 0;
   if (opened <= 0)
      return opened == 0;
   char err[160];
   size_t pixels = (size_t)o->run.width * o->run.height;
   uint32_t *off = malloc(pixels * 4), *on = malloc(pixels * 4);
   struct rt_ao_measurement m;
   bool ok = off && on && rt_ao_measure(&mesh, cam, &o->run, NULL, off, &m);
   if (ok) {
      struct rt_ao_stats st;
      rt_ao_stats(off, o->run.width, o->run.height, o->run.spp, &st);
      r->name = name;
      r->ao_rays = st.ao_rays;
      r->fetches_off = m.counters[PPU_COUNTER_TTU_NODE_FETCHES];
      r->cells[0] = (struct cell){.fetches_on = r->fetches_off, .ao_identical = true};
      printf("%-16s %7llu AO rays, %4.1f%% occluded, %9llu node fetches off; %d settings: ", name,
             (unsigned long long)st.ao_rays, 100 * (1 - st.mean_ao),
             (unsigned long long)r->fetches_off, setting_count - 1);
      fflush(stdout);
   }
   char rays[24], fetches_off[24], fetches_on[24];
   snprintf(rays, sizeof(rays), "%llu", (unsigned long long)r->ao_rays);
   snprintf(fetches_off, sizeof(fetches_off), "%llu", (unsigned long long)r->fetches_off);
   if (ok)
      csv_row(csv, name, &settings[0], rays, fetches_off, fetches_off, &r->cells[0].f, "1");
   int differ = 0;
   for (int i = 1; ok && i < setting_count; i++) {
      struct ppu_ttu_predictor_config cfg;
      ok = predictor_config(&settings[i], &cfg, err, sizeof(err)) &&
           rt_ao_measure(&mesh, cam, &o->run, &cfg, on, &m);
      if (!ok)
         break;
      struct cell *c = &r->cells[i];
      c->fetches_on = m.counters[PPU_COUNTER_TTU_NODE_FETCHES];
      c->ao_identical = !memcmp(on, off, pixels * 4);
      differ += !c->ao_identical;
      rt_predictor_figures(m.counters, r->fetches_off, r->ao_rays, &c->f);
      snprintf(fetches_on, sizeof(fetches_on), "%llu", (unsigned long long)c->fetches_on);
      csv_row(csv, name, &settings[i], rays, fetches_off, fetches_on, &c->f,
              c->ao_identical ? "1" : "0");
      putchar('.');
      fflush(stdout);
   }
   fflush(csv);
   if (ok)
      printf(differ ? " per-pixel AO differs in %d settings\n" : " done, AO identical\n", differ);
   else
      fprintf(stderr, "\npredictor_sweep: %s failed\n", name);
   free(off);
   free(on);
   obj_mesh_free(&mesh);
   return ok;
}

static int find_setting(const struct setting *settings, int n, uint32_t entries, uint32_t level,
                        uint32_t hash)
{
   for (int i = 1; i < n; i++)
      if (settings[i].entries == entries && settings[i].level == level && settings[i].hash == hash)
         return i;
   return -1;
}

static uint32_t pick(const uint32_t *values, uint32_t n, uint32_t preferred)
{
   for (uint32_t i = 0; i < n; i++)
      if (values[i] == preferred)
         return preferred;
   return values[0];
}

/* One parameter's two charts (% verified, % fetches saved) and the .txt
 * that names what a reader of the PNG cannot: bars in order, the fixed
 * parameters and the values plotted. */
static bool plot_parameter(const struct options *o, const struct setting *settings,
                           int setting_count, const struct scene_result *r, int scenes,
                           const char *param)
{
   uint32_t fe = pick(o->entries, o->entry_count, PAPER_ENTRIES);
   uint32_t fk = pick(o->levels, o->level_count, PAPER_GO_UP_LEVEL);
   uint32_t fh = pick(o->hashes, o->hash_count, PAPER_HASH);
   const uint32_t *values = !strcmp(param, "entries")       ? o->entries
                            : !strcmp(param, "go_up_level") ? o->levels
                                                            : o->hashes;
   uint32_t n = !strcmp(param, "entries")       ? o->entry_count
                : !strcmp(param, "go_up_level") ? o->level_count
                                                : o->hash_count;
   char fixed[128];
   if (!strcmp(param, "entries"))
      snprintf(fixed, sizeof(fixed), "K=%u, %s", fk, hash_name(fh));
   else if (!strcmp(param, "go_up_level"))
      snprintf(fixed, sizeof(fixed), "%u entries, %s", fe, hash_name(fh));
   else
      snprintf(fixed, sizeof(fixed), "%u entries, K=%u", fe, fk);
   static const struct {
      enum metric m;
      const char *file, *what;
   } metrics[] = {{M_VERIFIED, "verified", "% VERIFIED"},
                  {M_SAVED, "saved", "% NODE FETCHES SAVED"}};
   bool ok = true;
   for (int mi = 0; mi < 2; mi++) {
      struct chart c = {.groups = scenes + 1, .bars = (int)n};
      snprintf(c.title, sizeof(c.title), "%s BY %s (%s)", metrics[mi].what, param, fixed);
      int idx[MAX_VALUES];
      for (uint32_t b = 0; b < n; b++) {
         uint32_t e = fe, k = fk, h = fh;
         if (!strcmp(param, "entries"))
            e = values[b], snprintf(c.bar_names[b], 32, "%u ENTRIES", e);
         else if (!strcmp(param, "go_up_level"))
            k = values[b], snprintf(c.bar_names[b], 32, "K=%u", k);
         else
            h = values[b], snprintf(c.bar_names[b], 32, "%s", hash_name(h));
         idx[b] = find_setting(settings, setting_count, e, k, h);
      }
      for (int s = 0; s <= scenes; s++) {
         c.group_names[s] = s < scenes ? r[s].name : "GMEAN";
         for (uint32_t b = 0; b < n; b++)
            c.values[s][b] = 100 * (s < scenes ? metric_of(&r[s].cells[idx[b]].f, metrics[mi].m)
                                               : setting_gmean(r, scenes, idx[b], metrics[mi].m));
      }
      char path[1024];
      snprintf(path, sizeof(path), "%s/%s_%s.png", o->plots, param, metrics[mi].file);
      ok = draw_chart(&c, path) && ok;
      snprintf(path, sizeof(path), "%s/%s_%s.txt", o->plots, param, metrics[mi].file);
      FILE *t = fopen(path, "w");
      if (!t) {
         perror(path);
         ok = false;
         continue;
      }
      fprintf(t, "%s: %s over %s (%ux%u, %u spp, AO radius %.2f x diagonal)\n", path,
              metrics[mi].what, param, o->run.width, o->run.height, o->run.spp, o->run.ao_fraction);
      fprintf(t, "fixed: %s, 4-way, 15-bit tags, 1 node per entry\n", fixed);
      fprintf(t, "mean: %s\n",
              metrics[mi].m == M_SAVED ? "GMEAN = geometric mean of (1 + saved) - 1"
                                       : "GMEAN = geometric mean");
      fprintf(t, "repacking: timing-mode setting, no effect in functional mode (not swept)\n");
      fprintf(t, "bars, left to right (dark to light):");
      for (uint32_t b = 0; b < n; b++)
         fprintf(t, "%s%s (gray %u)", b ? ", " : " ", c.bar_names[b],
                 (unsigned)bar_gray((int)b, (int)n));
      fprintf(t, "\ngroup");
      for (uint32_t b = 0; b < n; b++)
         fprintf(t, ",%s", c.bar_names[b]);
      fprintf(t, "\n");
      for (int s = 0; s <= scenes; s++) {
         fprintf(t, "%s", c.group_names[s]);
         for (uint32_t b = 0; b < n; b++)
            fprintf(t, ",%.2f", c.values[s][b]);
         fprintf(t, "\n");
      }
      fclose(t);
   }
   return ok;
}

static bool parse_list(const char *s, uint32_t *out, uint32_t *count, bool hashes)
{
   char buf[256];
   snprintf(buf, sizeof(buf), "%s", s);
   *count = 0;
   for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      if (*count == MAX_VALUES)
         return false;
      if (hashes) {
         if (!strcmp(tok, "grid") || !strcmp(tok, "grid_spherical"))
            out[(*count)++] = PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL;
         else if (!strcmp(tok, "two_point"))
            out[(*count)++] = PPU_TTU_PREDICTOR_HASH_TWO_POINT;
         else
            return false;
         continue;
      }
      char *end;
      unsigned long v = strtoul(tok, &end, 10);
      if (*end || v > (1ul << 24))
         return false;
      out[(*count)++] = (uint32_t)v;
   }
   return *count > 0;
}

static bool parse_u32(const char *s, uint32_t *v)
{
   char *end;
   unsigned long x = strtoul(s, &end, 10);
   if (!*s || *end || x > 65536)
      return false;
   *v = (uint32_t)x;
   return true;
}

static bool parse_options(int argc, char **argv, struct options *o)
{
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = true;
      if (!strcmp(a, "--width") && v)
         ok = parse_u32(v, &o->run.width) && o->run.width, i++;
      else if (!strcmp(a, "--height") && v)
         ok = parse_u32(v, &o->run.height) && o->run.height, i++;
      else if (!strcmp(a, "--spp") && v)
         ok = parse_u32(v, &o->run.spp) && o->run.spp, i++;
      else if (!strcmp(a, "--ao-fraction") && v)
         o->run.ao_fraction = strtod(v, NULL),
         ok = o->run.ao_fraction > 0 && o->run.ao_fraction <= 1, i++;
      else if (!strcmp(a, "--threads") && v)
         ok = parse_u32(v, &o->run.host_threads), i++;
      else if (!strcmp(a, "--entries") && v)
         ok = parse_list(v, o->entries, &o->entry_count, false), i++;
      else if (!strcmp(a, "--go-up-level") && v)
         ok = parse_list(v, o->levels, &o->level_count, false), i++;
      else if (!strcmp(a, "--hash") && v)
         ok = parse_list(v, o->hashes, &o->hash_count, true), i++;
      else if (!strcmp(a, "--csv") && v)
         o->csv = v, i++;
      else if (!strcmp(a, "--plots") && v)
         o->plots = v, i++;
      else if (a[0] != '-' && o->scene_count < MAX_SCENES) {
         ok = scene_catalog_find(a) != NULL;
         if (!ok)
            fprintf(stderr, "predictor_sweep: unknown scene %s\n", a);
         o->scenes[o->scene_count++] = a;
      } else
         ok = false;
      if (!ok)
         return false;
   }
   return true;
}

int main(int argc, char **argv)
{
   struct options o = {
       .run = {.width = 128, .height = 128, .spp = 4, .band_pixels = 256 * 256, .ao_fraction = 0.3},
       .entries = {256, 1024, 4096},
       .entry_count = 3,
       .levels = {0, 1, 2, 3, 5},
       .level_count = 5,
       .hashes = {PPU_TTU_PREDICTOR_HASH_GRID_SPHERICAL, PPU_TTU_PREDICTOR_HASH_TWO_POINT},
       .hash_count = 2,
       .csv = "predictor_sweep.csv",
       .plots = "predictor_sweep_plots"};
   if (!parse_options(argc, argv, &o)) {
      fprintf(stderr,
              "usage: %s [--width N] [--height N] [--spp N] [--ao-fraction F] [--threads N] "
              "[--entries N,N...] [--go-up-level N,N...] [--hash grid|two_point[,...]] "
              "[--csv FILE] [--plots DIR] [scene ...]\n",
              argv[0]);
      return 2;
   }
   if (!o.scene_count) {
      static const char *defaults[] = {"cornell_tiny",    "teapot",  "bunny",
                                       "dabrovic_sponza", "sibenik", "conference"};
      for (int i = 0; i < 6; i++)
         o.scenes[o.scene_count++] = defaults[i];
   }
   /* Settings: off, then every combination; each validated up front so a
    * bad list fails before any scene runs. */
   int setting_count = 1 + (int)(o.entry_count * o.level_count * o.hash_count);
   struct setting *settings = calloc((size_t)setting_count, sizeof(*settings));
   struct scene_result results[MAX_SCENES] = {0};
   if (!settings)
      return 1;
   snprintf(settings[0].label, sizeof(settings[0].label), "off");
   int n = 1;
   for (uint32_t h = 0; h < o.hash_count; h++)
      for (uint32_t e = 0; e < o.entry_count; e++)
         for (uint32_t k = 0; k < o.level_count; k++, n++) {
            struct setting *s = &settings[n];
            *s = (struct setting){true, o.entries[e], o.levels[k], o.hashes[h], ""};
            snprintf(s->label, sizeof(s->label), "e%u_k%u_%s", s->entries, s->level,
                     s->hash == PPU_TTU_PREDICTOR_HASH_TWO_POINT ? "two_point" : "grid");
            struct ppu_ttu_predictor_config cfg;
            char err[160];
            if (!predictor_config(s, &cfg, err, sizeof(err))) {
               fprintf(stderr, "predictor_sweep: %s: %s\n", s->label, err);
               return 2;
            }
         }
   const char *dir;
   if (!rt_scenes_available(&dir)) {
      printf("predictor_sweep: no scenes directory %s\n", dir);
      return 0;
   }
   FILE *csv = fopen(o.csv, "w");
   if (!csv) {
      perror(o.csv);
      return 1;
   }
   fputs(csv_header, csv);
   printf("ao.comp %ux%u, %u AO rays per pixel, AO radius %.2f x scene diagonal; predictor off "
          "and %d settings (4-way, 15-bit tags, 1 node per entry)\n",
          o.run.width, o.run.height, o.run.spp, o.run.ao_fraction, setting_count - 1);
   printf("repacking (paper section 4.4) is a timing-mode setting: it has no effect in "
          "functional mode, so it is not swept\n");
   int scenes = 0, failed = 0;
   for (int i = 0; i < o.scene_count; i++) {
      struct scene_result *r = &results[scenes];
      r->cells = calloc((size_t)setting_count, sizeof(*r->cells));
      bool skipped;
      bool ok = r->cells && sweep_scene(o.scenes[i], &o, settings, setting_count, r, csv, &skipped);
      failed += !ok;
      if (ok && !skipped)
         scenes++;
      else
         free(r->cells), r->cells = NULL;
   }
   /* GMEAN rows: the values the charts' GMEAN groups show. */
   printf("\nGMEAN over %d scenes (%% of AO rays; savings: geometric mean of 1 + saved, - 1)\n",
          scenes);
   printf("%-22s %9s %9s %9s %8s %8s %9s\n", "setting", "predicted", "verified", "mispred", "saved",
          "eq1", "AO same");
   for (int i = 1; scenes && i < setting_count; i++) {
      struct rt_predictor_figures g = {
          setting_gmean(results, scenes, i, M_PREDICTED),
          setting_gmean(results, scenes, i, M_VERIFIED),
          setting_gmean(results, scenes, i, M_MISPREDICTED),
          setting_gmean(results, scenes, i, M_SAVED),
          setting_gmean(results, scenes, i, M_EQ1),
      };
      int same = 0;
      for (int s = 0; s < scenes; s++)
         same += results[s].cells[i].ao_identical;
      csv_row(csv, "GMEAN", &settings[i], "", "", "", &g, "");
      printf("%-22s %8.1f%% %8.1f%% %8.1f%% %7.1f%% %7.1f%% %5d/%d\n", settings[i].label,
             100 * g.predicted, 100 * g.verified, 100 * g.mispredicted, 100 * g.fetches_saved,
             100 * g.eq1, same, scenes);
   }
   if (fclose(csv) != 0) {
      perror(o.csv);
      failed++;
   }
   printf("CSV: %s\n", o.csv);
   if (scenes) {
      if (mkdir(o.plots, 0777) != 0 && errno != EEXIST) {
         perror(o.plots);
         failed++;
      } else {
         static const char *params[] = {"entries", "go_up_level", "hash"};
         for (int p = 0; p < 3; p++)
            failed += !plot_parameter(&o, settings, setting_count, results, scenes, params[p]);
         printf("plots: %s/{entries,go_up_level,hash}_{verified,saved}.png (+ .txt)\n", o.plots);
      }
   }
   for (int s = 0; s < scenes; s++)
      free(results[s].cells);
   free(settings);
   return failed ? 1 : 0;
}
