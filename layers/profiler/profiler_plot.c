/* plot_<unit>.png: per unit (the counter name's prefix: host, ttu, sm, ...)
 * a bar chart of its counters per frame. One row per counter that counted
 * anything, labeled with its name and its total over the run; in the row,
 * one bar per frame (the last PLOT_MAX_FRAMES frames when there are more),
 * its length log10(1 + value) over log10(1 + the unit's largest frame
 * value), so counters of one unit that differ by orders of magnitude all
 * show. Labels use a 3x5 pixel font drawn at twice its size. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "png_write.h"
#include "profiler.h"

#define PLOT_WIDTH 720
#define PLOT_LABEL_WIDTH 300
#define PLOT_MAX_FRAMES 16
#define FONT_SCALE 2
#define CHAR_ADVANCE (4 * FONT_SCALE)

/* Glyph rows top to bottom, 3 pixels each; letters drawn as capitals. */
static const char *glyph(char c)
{
   static const char *letters[26] = {
       "010101111101101", "110101110101110", "011100100100011", "110101101101110",
       "111100110100111", "111100110100100", "011100101101011", "101101111101101",
       "111010010010111", "001001001101010", "101101110101101", "100100100100111",
       "101111111101101", "110101101101101", "010101101101010", "110101110100100",
       "010101101110011", "110101110101101", "011100010001110", "111010010010010",
       "101101101101111", "101101101101010", "101101111111101", "101101010101101",
       "101101010010010", "111001010100111"};
   static const char *digits[10] = {"111101101101111", "010110010010111", "110001010100111",
                                    "110001010001110", "101101111001001", "111100110001110",
                                    "011100111101111", "111001010010010", "111101111101111",
                                    "111101111001110"};
   if (c >= 'a' && c <= 'z')
      return letters[c - 'a'];
   if (c >= 'A' && c <= 'Z')
      return letters[c - 'A'];
   if (c >= '0' && c <= '9')
      return digits[c - '0'];
   if (c == '.')
      return "000000000000010";
   if (c == '_')
      return "000000000000111";
   return "000000000000000";
}

struct canvas {
   uint32_t width, height;
   uint8_t *rgba;
};

static void fill(struct canvas *c, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h,
                 const uint8_t color[3])
{
   for (uint32_t y = y0; y < y0 + h && y < c->height; y++)
      for (uint32_t x = x0; x < x0 + w && x < c->width; x++) {
         uint8_t *p = c->rgba + ((size_t)y * c->width + x) * 4;
         memcpy(p, color, 3);
         p[3] = 255;
      }
}

static void text(struct canvas *c, uint32_t x, uint32_t y, const char *s, const uint8_t color[3])
{
   for (; *s; s++, x += CHAR_ADVANCE) {
      const char *g = glyph(*s);
      for (int row = 0; row < 5; row++)
         for (int col = 0; col < 3; col++)
            if (g[row * 3 + col] == '1')
               fill(c, x + col * FONT_SCALE, y + row * FONT_SCALE, FONT_SCALE, FONT_SCALE, color);
   }
}

static bool plot_unit(const struct prof_device *d, const uint32_t *members, uint32_t n)
{
   static const uint8_t white[3] = {255, 255, 255}, ink[3] = {32, 32, 32}, bar[3] = {46, 110, 190},
                        rule[3] = {220, 220, 220};
   uint32_t f0 = d->frame_count > PLOT_MAX_FRAMES ? d->frame_count - PLOT_MAX_FRAMES : 0;
   uint32_t frames = d->frame_count - f0;
   uint64_t unit_max = 0;
   uint32_t rows = 0;
   for (uint32_t k = 0; k < n; k++) {
      uint32_t i = members[k];
      uint64_t counter_max = 0;
      for (uint32_t fr = f0; fr < d->frame_count; fr++)
         counter_max = d->frames[fr].delta[i] > counter_max ? d->frames[fr].delta[i] : counter_max;
      rows += counter_max != 0;
      unit_max = counter_max > unit_max ? counter_max : unit_max;
   }
   if (!rows)
      return true; /* the unit counted nothing: no chart */
   uint32_t bar_h = frames * 3 > 12 ? 3 : 12 / frames;
   uint32_t row_h = (frames * bar_h > 5 * FONT_SCALE ? frames * bar_h : 5 * FONT_SCALE) + 6;
   struct canvas c = {PLOT_WIDTH, 8 + rows * row_h, NULL};
   c.rgba = malloc((size_t)c.width * c.height * 4);
   if (!c.rgba)
      return false;
   fill(&c, 0, 0, c.width, c.height, white);
   uint32_t y = 4;
   double scale = log10(1.0 + (double)unit_max);
   uint32_t bar_space = PLOT_WIDTH - PLOT_LABEL_WIDTH - 8;
   for (uint32_t k = 0; k < n; k++) {
      uint32_t i = members[k];
      uint64_t total = 0, counter_max = 0;
      for (uint32_t fr = 0; fr < d->frame_count; fr++)
         total += d->frames[fr].delta[i];
      for (uint32_t fr = f0; fr < d->frame_count; fr++)
         counter_max = d->frames[fr].delta[i] > counter_max ? d->frames[fr].delta[i] : counter_max;
      if (!counter_max)
         continue;
      char label[160];
      snprintf(label, sizeof(label), "%s %llu", d->counter_names[i], (unsigned long long)total);
      text(&c, 4, y + 1, label, ink);
      fill(&c, PLOT_LABEL_WIDTH, y + row_h - 3, bar_space, 1, rule);
      for (uint32_t fr = f0; fr < d->frame_count; fr++) {
         double v = log10(1.0 + (double)d->frames[fr].delta[i]) / scale;
         fill(&c, PLOT_LABEL_WIDTH, y + (fr - f0) * bar_h, (uint32_t)(v * bar_space + 0.5),
              bar_h > 1 ? bar_h - 1 : 1, bar);
      }
      y += row_h;
   }
   char name[80], path[4200];
   const char *unit = d->counter_names[members[0]];
   snprintf(name, sizeof(name), "plot_%.*s.png", (int)strcspn(unit, "."), unit);
   snprintf(path, sizeof(path), "%s/%s", d->dir, name);
   bool ok = png_rgba_write(path, c.rgba, c.width, c.height);
   free(c.rgba);
   return ok;
}

bool prof_write_plots(const struct prof_device *d)
{
   uint32_t *members = malloc(d->counter_count * sizeof(uint32_t));
   if (!members)
      return false;
   bool ok = true;
   for (uint32_t i = 0; i < d->counter_count; i++) {
      uint32_t n = prof_unit_members(d, i, members);
      if (n)
         ok = plot_unit(d, members, n) && ok;
   }
   free(members);
   return ok;
}
