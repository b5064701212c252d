/* Reading a hardware configuration file (format: ppu/hw_config.h and
 * docs/hw-config.md). Every mistake is reported with its file and line, and
 * reading goes on so that one run shows them all. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_internal.h"

/* A configuration is a few dozen lines; anything this big is not one. */
#define CONFIG_FILE_MAX_BYTES (1u << 20)
#define LINE_MAX_CHARS 1024u

struct parse {
   const char *source;
   char *err;
   size_t err_size, err_len;
   unsigned errors;
   unsigned line_of[PPU_HWCFG_KEY_COUNT]; /* 0 = not given */
};

__attribute__((format(printf, 3, 4))) static void report(struct parse *p, unsigned line,
                                                         const char *fmt, ...)
{
   p->errors++;
   if (!p->err || p->err_len + 1 >= p->err_size)
      return;
   char *at = p->err + p->err_len;
   size_t room = p->err_size - p->err_len;
   int n = line ? snprintf(at, room, "%s:%u: ", p->source, line)
                : snprintf(at, room, "%s: ", p->source);
   if (n > 0 && (size_t)n < room) {
      va_list ap;
      va_start(ap, fmt);
      int m = vsnprintf(at + n, room - (size_t)n, fmt, ap);
      va_end(ap);
      if (m > 0)
         n += m;
   }
   if (n > 0 && (size_t)n + 1 < room) {
      at[n++] = '\n';
      at[n] = '\0';
   }
   size_t written = strlen(at);
   p->err_len += written;
}

static unsigned edit_distance(const char *a, const char *b)
{
   size_t la = strlen(a), lb = strlen(b);
   if (la > 64 || lb > 64)
      return ~0u;
   unsigned row[65];
   for (size_t j = 0; j <= lb; j++)
      row[j] = (unsigned)j;
   for (size_t i = 1; i <= la; i++) {
      unsigned diag = row[0];
      row[0] = (unsigned)i;
      for (size_t j = 1; j <= lb; j++) {
         unsigned up = row[j];
         unsigned cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
         unsigned best = diag + cost;
         if (up + 1 < best)
            best = up + 1;
         if (row[j - 1] + 1 < best)
            best = row[j - 1] + 1;
         row[j] = best;
         diag = up;
      }
   }
   return row[lb];
}

const char *ppu_hw_config_suggest(const char *word, const char *const *names, unsigned count)
{
   const char *best = NULL;
   unsigned best_d = ~0u;
   bool dotted = strchr(word, '.') != NULL;
   for (unsigned i = 0; count ? i < count : names[i] != NULL; i++) {
      unsigned d = edit_distance(word, names[i]);
      /* "shared_memory" for "sm.shared_memory": the section was left out. */
      const char *tail = strchr(names[i], '.');
      if (!dotted && tail) {
         unsigned t = edit_distance(word, tail + 1);
         if (t < d)
            d = t;
      }
      if (d < best_d) {
         best_d = d;
         best = names[i];
      }
   }
   /* Close enough to be a typo: a couple of edits, more for long names. */
   size_t len = strlen(word);
   unsigned limit = len >= 12 ? (unsigned)(len / 4) : 2;
   return best_d <= limit ? best : NULL;
}

static const char *key_suggestion(const char *word)
{
   const char *names[PPU_HWCFG_KEY_COUNT];
   for (unsigned i = 0; i < PPU_HWCFG_KEY_COUNT; i++)
      names[i] = ppu_hw_config_keys[i].name;
   return ppu_hw_config_suggest(word, names, PPU_HWCFG_KEY_COUNT);
}

static char *trim(char *s)
{
   while (*s == ' ' || *s == '\t')
      s++;
   size_t n = strlen(s);
   while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
      s[--n] = '\0';
   return s;
}

/* Reads an unsigned integer (decimal or 0x hex) at the start of s. */
static bool read_u64(const char *s, uint64_t *out, const char **rest)
{
   if (!isdigit((unsigned char)*s))
      return false;
   char *end;
   errno = 0;
   unsigned long long v = strtoull(s, &end, 0);
   if (errno == ERANGE || end == s)
      return false;
   *out = v;
   *rest = end;
   return true;
}

static const struct {
   const char *name;
   unsigned shift;
} size_units[] = {{"B", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};

/* Parses value for key k; on error writes why into why. */
static bool parse_value(const struct ppu_hw_config_key *k, const char *value, uint64_t *v,
                        double *f, char *why, size_t why_size)
{
   const char *rest = value;
   switch (k->type) {
   case PPU_HWCFG_BOOL: {
      static const char *const yes[] = {"true", "yes", "on", "1"};
      static const char *const no[] = {"false", "no", "off", "0"};
      for (unsigned i = 0; i < 4; i++) {
         if (strcasecmp(value, yes[i]) == 0 || strcasecmp(value, no[i]) == 0) {
            *v = strcasecmp(value, yes[i]) == 0;
            return true;
         }
      }
      snprintf(why, why_size, "expected true or false");
      return false;
   }
   case PPU_HWCFG_ENUM: {
      for (unsigned i = 0; k->enum_names[i]; i++) {
         if (strcasecmp(value, k->enum_names[i]) == 0) {
            *v = i;
            return true;
         }
      }
      size_t n = (size_t)snprintf(why, why_size, "expected one of");
      for (unsigned i = 0; k->enum_names[i] && n < why_size; i++)
         n += (size_t)snprintf(why + n, why_size - n, "%s %s", i ? "," : "", k->enum_names[i]);
      const char *close = ppu_hw_config_suggest(value, k->enum_names, 0);
      if (close && n < why_size)
         snprintf(why + n, why_size - n, " (did you mean '%s'?)", close);
      return false;
   }
   case PPU_HWCFG_FLOAT: {
      char *end;
      errno = 0;
      double d = strtod(value, &end);
      if (end == value || errno == ERANGE || !isfinite(d)) {
         snprintf(why, why_size, "expected a decimal number");
         return false;
      }
      *f = d;
      rest = end;
      break;
   }
   case PPU_HWCFG_INT:
   case PPU_HWCFG_SIZE:
      if (!read_u64(value, v, &rest)) {
         snprintf(why, why_size, "expected a whole number (decimal or 0x hex)%s",
                  k->type == PPU_HWCFG_SIZE ? " and a unit" : "");
         return false;
      }
      break;
   }
   while (*rest == ' ' || *rest == '\t')
      rest++;
   if (k->type == PPU_HWCFG_SIZE) {
      for (unsigned i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++) {
         if (strcmp(rest, size_units[i].name) == 0) {
            if (*v > (UINT64_MAX >> size_units[i].shift)) {
               snprintf(why, why_size, "too large");
               return false;
            }
            *v <<= size_units[i].shift;
            return true;
         }
      }
      /* "64 KB" is ambiguous (1000 or 1024?); the seeds write it, so say so. */
      snprintf(why, why_size, "%s '%s': sizes take B, KiB, MiB, GiB or TiB (powers of 1024)",
               *rest ? "unknown unit" : "missing unit", rest);
      return false;
   }
   if (*rest && (!*k->unit || strcasecmp(rest, k->unit) != 0)) {
      if (*k->unit)
         snprintf(why, why_size, "unexpected '%s' after the number (the unit is %s)", rest,
                  k->unit);
      else
         snprintf(why, why_size, "unexpected '%s' after the number", rest);
      return false;
   }
   return true;
}

static void check_range(struct parse *p, unsigned line, const struct ppu_hw_config_key *k,
                        uint64_t v, double f, const char *text)
{
   char lo[64], hi[64];
   ppu_hw_config_format_value(lo, sizeof(lo), k, k->min, k->fmin, false);
   ppu_hw_config_format_value(hi, sizeof(hi), k, k->max, k->fmax, false);
   bool out =
       k->type == PPU_HWCFG_FLOAT ? !(f >= k->fmin && f <= k->fmax) : v < k->min || v > k->max;
   if (out) {
      report(p, line, "%s = %s is out of range %s .. %s", k->name, text, lo, hi);
   } else if (k->step == PPU_HWCFG_STEP_POW2) {
      if (v & (v - 1))
         report(p, line, "%s = %s is not a power of two", k->name, text);
   } else if (k->step > 1 && v % k->step) {
      char step[64];
      ppu_hw_config_format_value(step, sizeof(step), k, k->step, 0, false);
      report(p, line, "%s = %s is not a multiple of %s", k->name, text, step);
   }
}

static void parse_line(struct parse *p, struct ppu_gpu_config *cfg, char *line, unsigned number)
{
   char *hash = strchr(line, '#');
   if (hash)
      *hash = '\0';
   char *s = trim(line);
   if (!*s)
      return;
   char *eq = strchr(s, '=');
   if (!eq) {
      report(p, number, "expected 'section.key = value', found '%s'", s);
      return;
   }
   *eq = '\0';
   char *name = trim(s), *value = trim(eq + 1);
   if (!*name) {
      report(p, number, "a key name is missing before '='");
      return;
   }
   const struct ppu_hw_config_key *k = ppu_hw_config_find_key(name);
   if (!k) {
      const char *close = key_suggestion(name);
      if (close)
         report(p, number, "unknown key '%s' (did you mean '%s'?)", name, close);
      else
         report(p, number, "unknown key '%s' (docs/hw-config.md lists the keys)", name);
      return;
   }
   unsigned id = (unsigned)(k - ppu_hw_config_keys);
   if (p->line_of[id]) {
      report(p, number, "duplicate key '%s' (first given on line %u)", name, p->line_of[id]);
      return;
   }
   p->line_of[id] = number;
   if (!*value) {
      report(p, number, "no value for '%s'", name);
      return;
   }
   uint64_t v = 0;
   double f = 0;
   char why[256];
   if (!parse_value(k, value, &v, &f, why, sizeof(why))) {
      report(p, number, "bad value '%s' for %s: %s", value, name, why);
      return;
   }
   unsigned before = p->errors;
   check_range(p, number, k, v, f, value);
   if (p->errors == before)
      ppu_hw_config_set(cfg, k, v, f);
}

/* Rules between keys, and values the model refuses, reported on the line
 * that set the (last) key involved. */
static void check_whole(struct parse *p, const struct ppu_gpu_config *cfg)
{
   uint64_t sms = (uint64_t)cfg->gpc_count * cfg->tpcs_per_gpc * cfg->sms_per_tpc;
   if (sms > 256) {
      unsigned line = p->line_of[PPU_HWCFG_KEY_GPU_GPCS];
      if (p->line_of[PPU_HWCFG_KEY_GPU_TPCS_PER_GPC] > line)
         line = p->line_of[PPU_HWCFG_KEY_GPU_TPCS_PER_GPC];
      if (p->line_of[PPU_HWCFG_KEY_GPU_SMS_PER_TPC] > line)
         line = p->line_of[PPU_HWCFG_KEY_GPU_SMS_PER_TPC];
      report(p, line,
             "gpu.gpcs x gpu.tpcs_per_gpc x gpu.sms_per_tpc = %u x %u x %u = %llu SMs; the "
             "model holds at most 256",
             cfg->gpc_count, cfg->tpcs_per_gpc, cfg->sms_per_tpc, (unsigned long long)sms);
   }
}

unsigned ppu_hw_config_parse(struct ppu_gpu_config *cfg, const char *text, const char *source,
                             char *err, size_t err_size)
{
   struct parse p = {.source = source ? source : "<config>", .err = err, .err_size = err_size};
   if (err && err_size)
      err[0] = '\0';
   unsigned number = 0;
   const char *at = text;
   while (*at) {
      number++;
      const char *nl = strchr(at, '\n');
      size_t n = nl ? (size_t)(nl - at) : strlen(at);
      if (n >= LINE_MAX_CHARS) {
         report(&p, number, "line longer than %u characters", LINE_MAX_CHARS - 1);
      } else {
         char line[LINE_MAX_CHARS];
         memcpy(line, at, n);
         line[n] = '\0';
         parse_line(&p, cfg, line, number);
      }
      at += n + (nl != NULL);
   }
   check_whole(&p, cfg);
   return p.errors;
}

static char *read_file(const char *path, char *why, size_t why_size)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      snprintf(why, why_size, "%s", strerror(errno));
      return NULL;
   }
   char *text = malloc(CONFIG_FILE_MAX_BYTES + 1);
   size_t n = text ? fread(text, 1, CONFIG_FILE_MAX_BYTES + 1, f) : 0;
   bool bad = ferror(f);
   fclose(f);
   if (!text || bad || n > CONFIG_FILE_MAX_BYTES || memchr(text, '\0', n)) {
      snprintf(why, why_size, "%s",
               !text ? "out of host memory"
               : bad ? "read error"
                     : "not a text file of at most 1 MiB");
      free(text);
      return NULL;
   }
   text[n] = '\0';
   return text;
}

const char *ppu_hw_config_preset_text(const char *name)
{
   for (unsigned i = 0; i < ppu_hw_preset_count; i++) {
      if (strcmp(ppu_hw_presets[i].name, name) == 0)
         return ppu_hw_presets[i].text;
   }
   return NULL;
}

/* A preset or a file on top of the defaults. */
static unsigned load_base(struct ppu_gpu_config *cfg, const char *spec, char *err, size_t err_size)
{
   if (!strchr(spec, '/') && !strchr(spec, '.')) {
      const char *text = ppu_hw_config_preset_text(spec);
      if (text) {
         char source[96];
         snprintf(source, sizeof(source), "preset %s", spec);
         return ppu_hw_config_parse(cfg, text, source, err, err_size);
      }
      const char *names[16];
      unsigned n = ppu_hw_preset_count < 16 ? ppu_hw_preset_count : 16;
      char list[256] = "";
      size_t len = 0;
      for (unsigned i = 0; i < n; i++) {
         names[i] = ppu_hw_presets[i].name;
         len += (size_t)snprintf(list + len, len < sizeof(list) ? sizeof(list) - len : 0, "%s%s",
                                 i ? ", " : "", names[i]);
      }
      const char *close = ppu_hw_config_suggest(spec, names, n);
      if (err && err_size) {
         snprintf(err, err_size,
                  "'%s' is neither a path (a path has a '/' or a '.') nor a built-in preset "
                  "(%s)%s%s%s\n",
                  spec, list, close ? "; did you mean '" : "", close ? close : "",
                  close ? "'?" : "");
      }
      return 1;
   }
   char why[128];
   char *text = read_file(spec, why, sizeof(why));
   if (!text) {
      if (err && err_size)
         snprintf(err, err_size, "%s: cannot read the hardware configuration: %s\n", spec, why);
      return 1;
   }
   unsigned errors = ppu_hw_config_parse(cfg, text, spec, err, err_size);
   free(text);
   return errors;
}

unsigned ppu_hw_config_load(struct ppu_gpu_config *cfg, const char *spec, char *err,
                            size_t err_size)
{
   ppu_gpu_config_default(cfg);
   if (err && err_size)
      err[0] = '\0';
   const char *comma = strchr(spec, ',');
   if (!comma)
      return load_base(cfg, spec, err, err_size);
   /* "base,key=value,...": the overrides are lines of a second file read on
    * top of the base (so they may set a key the base set). */
   size_t base_len = (size_t)(comma - spec);
   char *copy = malloc(strlen(spec) + 1);
   if (!copy) {
      if (err && err_size)
         snprintf(err, err_size, "out of memory reading '%s'\n", spec);
      return 1;
   }
   strcpy(copy, spec);
   copy[base_len] = '\0';
   unsigned errors = load_base(cfg, copy, err, err_size);
   char *overrides = copy + base_len + 1;
   for (char *c = overrides; *c; c++)
      if (*c == ',')
         *c = '\n';
   size_t used = err ? strlen(err) : 0;
   errors += ppu_hw_config_parse(cfg, overrides, "overrides after ','", err ? err + used : NULL,
                                 err_size > used ? err_size - used : 0);
   free(copy);
   return errors;
}
