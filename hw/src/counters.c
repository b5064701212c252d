/* Name, unit and description lookups over the PPU_COUNTERS table. */
#include "ppu/counters.h"

#include <stddef.h>

static const struct {
   const char *name, *unit, *description;
} counter_table[PPU_COUNTER_COUNT] = {
#define PPU_COUNTER_ROW_(id, name, unit, desc) [PPU_COUNTER_##id] = {name, unit, desc},
    PPU_COUNTERS(PPU_COUNTER_ROW_)
#undef PPU_COUNTER_ROW_
};

const char *ppu_counter_name(enum ppu_counter id)
{
   return (unsigned)id < PPU_COUNTER_COUNT ? counter_table[id].name : NULL;
}

const char *ppu_counter_unit(enum ppu_counter id)
{
   return (unsigned)id < PPU_COUNTER_COUNT ? counter_table[id].unit : NULL;
}

const char *ppu_counter_description(enum ppu_counter id)
{
   return (unsigned)id < PPU_COUNTER_COUNT ? counter_table[id].description : NULL;
}
