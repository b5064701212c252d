/* The chip configuration's keys (the table lives in ppu/hw_config.h) and
 * the defaults drawn from it, so a default is written down exactly once. */
#include <assert.h>
#include <string.h>

#include "config_internal.h"

static_assert(sizeof(enum ppu_gpu_mode) == sizeof(uint32_t), "enum keys are stored as 32 bits");

const char *const ppu_gpu_mode_names[] = {"functional", "timing", NULL};
const char *const ppu_sm_exec_names[] = {"auto", "interp", "jit", NULL};
const char *const ppu_ttu_predictor_hash_names[] = {"default", "grid_spherical", "two_point", NULL};
const char *const ppu_ttu_predictor_repacking_names[] = {"default", "on", "off", NULL};
const char *const ppu_ttu_predictor_replacement_names[] = {"default", "lru", "fifo", NULL};

#define PPU_HWCFG_FIELD_SIZE_(field) sizeof(((struct ppu_gpu_config *)0)->field)
#define PPU_HWCFG_ROW_(id, name_, type_, field, def_, min_, max_, step_, unit_, use_, enums_,      \
                       desc_)                                                                      \
   [PPU_HWCFG_KEY_##id] = {.name = name_,                                                          \
                           .type = type_,                                                          \
                           .def = (uint64_t)(def_),                                                \
                           .min = (uint64_t)(min_),                                                \
                           .max = (uint64_t)(max_),                                                \
                           .fdef = (double)(def_),                                                 \
                           .fmin = (double)(min_),                                                 \
                           .fmax = (double)(max_),                                                 \
                           .step = step_,                                                          \
                           .unit = unit_,                                                          \
                           .use = use_,                                                            \
                           .enum_names = enums_,                                                   \
                           .description = desc_,                                                   \
                           .offset = offsetof(struct ppu_gpu_config, field),                       \
                           .size = PPU_HWCFG_FIELD_SIZE_(field)},

const struct ppu_hw_config_key ppu_hw_config_keys[PPU_HWCFG_KEY_COUNT] = {
    PPU_HW_CONFIG_KEYS(PPU_HWCFG_ROW_)};

#undef PPU_HWCFG_ROW_

const struct ppu_hw_config_key *ppu_hw_config_find_key(const char *name)
{
   for (unsigned i = 0; i < PPU_HWCFG_KEY_COUNT; i++) {
      if (strcmp(ppu_hw_config_keys[i].name, name) == 0)
         return &ppu_hw_config_keys[i];
   }
   return NULL;
}

uint64_t ppu_hw_config_get(const struct ppu_gpu_config *cfg, const struct ppu_hw_config_key *k)
{
   const unsigned char *p = (const unsigned char *)cfg + k->offset;
   if (k->type == PPU_HWCFG_BOOL) {
      bool b;
      memcpy(&b, p, sizeof(b));
      return b;
   }
   if (k->size == sizeof(uint64_t)) {
      uint64_t v;
      memcpy(&v, p, sizeof(v));
      return v;
   }
   uint32_t v;
   memcpy(&v, p, sizeof(v));
   return v;
}

double ppu_hw_config_get_float(const struct ppu_gpu_config *cfg, const struct ppu_hw_config_key *k)
{
   double v;
   memcpy(&v, (const unsigned char *)cfg + k->offset, sizeof(v));
   return v;
}

/* The parser's only way to write a field; values are range-checked first. */
void ppu_hw_config_set(struct ppu_gpu_config *cfg, const struct ppu_hw_config_key *k, uint64_t v,
                       double f)
{
   unsigned char *p = (unsigned char *)cfg + k->offset;
   if (k->type == PPU_HWCFG_FLOAT) {
      memcpy(p, &f, sizeof(f));
   } else if (k->type == PPU_HWCFG_BOOL) {
      bool b = v != 0;
      memcpy(p, &b, sizeof(b));
   } else if (k->size == sizeof(uint64_t)) {
      memcpy(p, &v, sizeof(v));
   } else {
      uint32_t w = (uint32_t)v;
      memcpy(p, &w, sizeof(w));
   }
}

bool ppu_hw_config_is_default(const struct ppu_gpu_config *cfg, const struct ppu_hw_config_key *k)
{
   if (k->type == PPU_HWCFG_FLOAT)
      return ppu_hw_config_get_float(cfg, k) == k->fdef;
   return ppu_hw_config_get(cfg, k) == k->def;
}

bool ppu_hw_config_equal(const struct ppu_gpu_config *a, const struct ppu_gpu_config *b)
{
   for (unsigned i = 0; i < PPU_HWCFG_KEY_COUNT; i++) {
      const struct ppu_hw_config_key *k = &ppu_hw_config_keys[i];
      if (k->type == PPU_HWCFG_FLOAT
              ? ppu_hw_config_get_float(a, k) != ppu_hw_config_get_float(b, k)
              : ppu_hw_config_get(a, k) != ppu_hw_config_get(b, k))
         return false;
   }
   return true;
}

void ppu_gpu_config_default(struct ppu_gpu_config *cfg)
{
   memset(cfg, 0, sizeof(*cfg));
   for (unsigned i = 0; i < PPU_HWCFG_KEY_COUNT; i++) {
      const struct ppu_hw_config_key *k = &ppu_hw_config_keys[i];
      ppu_hw_config_set(cfg, k, k->def, k->fdef);
   }
}
