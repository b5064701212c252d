/* The one check every compute program passes before it is uploaded,
 * whether the compiler just produced it or a pipeline cache handed it back
 * (pipeline_cache.c: initial data is application input, so a cached program
 * is trusted exactly as much as the compiler's own output — no more).
 *
 * A program passes when it is something the chip accepts and the device can
 * launch: the QMD rules (hw/include/ppu/qmd.h, docs/compute.md: workgroup
 * size, registers, shared and local memory, a workgroup fitting one SM), and
 * every instruction legal for the program's register count as the SM's own
 * decoder judges it (ppu_insn_decode, ppu_insn_check_operands), with every
 * branch target inside the program. */
#include <inttypes.h>
#include <stdio.h>

#include "ppu/isa.h"
#include "ppu/qmd.h"
#include "vkppu_pipeline.h"

static bool is_branch(uint8_t op)
{
   return op == PPU_OP_BRA || op == PPU_OP_SSY || op == PPU_OP_PBK || op == PPU_OP_PCNT ||
          op == PPU_OP_CALL;
}

bool vkppu_compute_program_check(const struct vkppu_program_info *info, const uint32_t *code,
                                 char *why, size_t why_size)
{
   const uint64_t invocations =
       (uint64_t)info->workgroup_size[0] * info->workgroup_size[1] * info->workgroup_size[2];
   if (invocations == 0 || invocations > PPU_QMD_MAX_WORKGROUP_INVOCATIONS) {
      snprintf(why, why_size, "workgroup %ux%ux%u is outside 1..%u invocations",
               info->workgroup_size[0], info->workgroup_size[1], info->workgroup_size[2],
               PPU_QMD_MAX_WORKGROUP_INVOCATIONS);
      return false;
   }
   if (info->register_count == 0 || info->register_count > VKPPU_MAX_REGISTERS_PER_THREAD ||
       info->register_count * invocations > VKPPU_SM_REGISTERS) {
      snprintf(why, why_size,
               "%u registers per thread for %" PRIu64 " invocations: outside 1..%u, or more "
               "than the %u registers of one SM",
               info->register_count, invocations, VKPPU_MAX_REGISTERS_PER_THREAD,
               VKPPU_SM_REGISTERS);
      return false;
   }
   if (info->shared_memory_size > VKPPU_SM_SHARED_MEMORY ||
       info->local_memory_size > PPU_QMD_LOCAL_MAX_SIZE) {
      snprintf(why, why_size,
               "%u bytes shared memory (at most %u), %u bytes local memory per thread (at "
               "most %u)",
               info->shared_memory_size, VKPPU_SM_SHARED_MEMORY, info->local_memory_size,
               PPU_QMD_LOCAL_MAX_SIZE);
      return false;
   }
   if (info->code_words == 0 || info->code_words % PPU_INSN_WORDS != 0 ||
       info->code_words > VKPPU_MAX_PROGRAM_WORDS) {
      snprintf(why, why_size, "%u code words: not a whole number of instructions in 1..%u",
               info->code_words, VKPPU_MAX_PROGRAM_WORDS);
      return false;
   }
   const uint64_t code_bytes = (uint64_t)info->code_words * 4;
   for (uint32_t w = 0; w < info->code_words; w += PPU_INSN_WORDS) {
      struct ppu_insn_fields f;
      const char *illegal = NULL;
      if (!ppu_insn_decode(code + w, &f, &illegal))
         illegal = illegal ? illegal : "illegal encoding";
      else
         illegal = ppu_insn_check_operands(&f, info->register_count);
      if (!illegal && is_branch(f.op) && f.imm >= code_bytes)
         illegal = "branch target beyond the program";
      if (illegal) {
         snprintf(why, why_size, "instruction at 0x%x: %s", w * 4, illegal);
         return false;
      }
   }
   return true;
}
