/* What executing one method word did: the host interface advances, stalls
 * the channel (the word is executed again later), or stops on the fault. */
#ifndef PPU_METHOD_STATUS_H
#define PPU_METHOD_STATUS_H

enum ppu_method_status {
   PPU_METHOD_DONE = 0,
   PPU_METHOD_STALL, /* e.g. ACQUIRE_GEQ not yet satisfied: retry this word */
   PPU_METHOD_FAULT, /* the fault record is filled in */
};

#endif /* PPU_METHOD_STATUS_H */
