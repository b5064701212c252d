/* Fault records: names, construction and the report a person reads. */
#include "fault.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "host_interface.h"
#include "ppu/methods.h"

const char *ppu_fault_kind_name(enum ppu_fault_kind kind)
{
   switch (kind) {
   case PPU_FAULT_NONE:
      return "NONE";
   case PPU_FAULT_MMU_UNMAPPED:
      return "MMU_UNMAPPED";
   case PPU_FAULT_MMU_WRITE_PROTECT:
      return "MMU_WRITE_PROTECT";
   case PPU_FAULT_MMU_BAD_PTE:
      return "MMU_BAD_PTE";
   case PPU_FAULT_BAD_GPFIFO_ENTRY:
      return "BAD_GPFIFO_ENTRY";
   case PPU_FAULT_BAD_METHOD:
      return "BAD_METHOD";
   case PPU_FAULT_BAD_METHOD_DATA:
      return "BAD_METHOD_DATA";
   case PPU_FAULT_WATCHDOG:
      return "WATCHDOG";
   case PPU_FAULT_ILLEGAL_INSTRUCTION:
      return "ILLEGAL_INSTRUCTION";
   case PPU_FAULT_MISALIGNED_ADDRESS:
      return "MISALIGNED_ADDRESS";
   case PPU_FAULT_OUT_OF_RANGE:
      return "OUT_OF_RANGE";
   case PPU_FAULT_SIMT_STACK:
      return "SIMT_STACK";
   case PPU_FAULT_BAD_RAY_QUERY:
      return "BAD_RAY_QUERY";
   case PPU_FAULT_BAD_TEXTURE_HEADER:
      return "BAD_TEXTURE_HEADER";
   }
   return "UNKNOWN";
}

static const char *fault_kind_meaning(enum ppu_fault_kind kind)
{
   switch (kind) {
   case PPU_FAULT_NONE:
      return "no fault";
   case PPU_FAULT_MMU_UNMAPPED:
      return "no valid translation for the address";
   case PPU_FAULT_MMU_WRITE_PROTECT:
      return "write to a page mapped without WRITABLE";
   case PPU_FAULT_MMU_BAD_PTE:
      return "page-table entry with reserved bits set or a PA outside VRAM";
   case PPU_FAULT_BAD_GPFIFO_ENTRY:
      return "malformed GPFIFO entry";
   case PPU_FAULT_BAD_METHOD:
      return "unknown method or subchannel, or a malformed method header";
   case PPU_FAULT_BAD_METHOD_DATA:
      return "a known method given a value it rejects";
   case PPU_FAULT_WATCHDOG:
      return "work did not finish within its budget";
   case PPU_FAULT_ILLEGAL_INSTRUCTION:
      return "an instruction encoding the ISA does not define";
   case PPU_FAULT_MISALIGNED_ADDRESS:
      return "a shader memory access not aligned to its size";
   case PPU_FAULT_OUT_OF_RANGE:
      return "a shared or local memory address beyond its allocation";
   case PPU_FAULT_SIMT_STACK:
      return "reconvergence stack overflow, underflow or a missing PBK/PCNT/CALL entry";
   case PPU_FAULT_BAD_RAY_QUERY:
      return "a TTU instruction on a ray query in the wrong state, or on memory that is not a BVH";
   case PPU_FAULT_BAD_TEXTURE_HEADER:
      return "a texture instruction given a texture or sampler header with invalid fields";
   }
   return "unknown fault kind";
}

const char *ppu_engine_name(enum ppu_engine engine)
{
   switch (engine) {
   case PPU_ENGINE_HOST:
      return "host";
   case PPU_ENGINE_COMPUTE:
      return "compute";
   case PPU_ENGINE_GRAPHICS:
      return "graphics";
   case PPU_ENGINE_COPY:
      return "copy";
   }
   return "unknown";
}

static void fault_vset(struct ppu_fault *f, enum ppu_fault_kind kind, enum ppu_engine engine,
                       const char *fmt, va_list ap)
{
   memset(f, 0, sizeof(*f));
   f->kind = kind;
   f->engine = engine;
   vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
}

void ppu_fault_set(struct ppu_fault *f, enum ppu_fault_kind kind, enum ppu_engine engine,
                   const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fault_vset(f, kind, engine, fmt, ap);
   va_end(ap);
}

void ppu_fault_set_mmu(struct ppu_fault *f, enum ppu_fault_kind kind, enum ppu_engine engine,
                       uint64_t va, bool write, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fault_vset(f, kind, engine, fmt, ap);
   va_end(ap);
   f->address = va;
   f->write = write;
}

static const char *subchannel_name(uint32_t subch)
{
   switch (subch) {
   case PPU_SUBCH_HOST:
      return "host";
   case PPU_SUBCH_COMPUTE:
      return "compute";
   case PPU_SUBCH_GRAPHICS:
      return "graphics";
   case PPU_SUBCH_COPY:
      return "copy";
   }
   return "none";
}

static bool is_mmu_fault(enum ppu_fault_kind kind)
{
   return kind == PPU_FAULT_MMU_UNMAPPED || kind == PPU_FAULT_MMU_WRITE_PROTECT ||
          kind == PPU_FAULT_MMU_BAD_PTE || kind == PPU_FAULT_MISALIGNED_ADDRESS ||
          kind == PPU_FAULT_OUT_OF_RANGE;
}

void ppu_fault_format(const struct ppu_channel *ch, const struct ppu_fault *f, char *buf,
                      size_t size)
{
   if (!buf || size == 0)
      return;
   const char *name = ch ? ppu_channel_name(ch) : "(unknown)";
   char address[64];
   if (is_mmu_fault(f->kind))
      snprintf(address, sizeof(address), "0x%010llx (%s)", (unsigned long long)f->address,
               f->write ? "write" : "read");
   else
      snprintf(address, sizeof(address), "none");
   uint64_t entry = f->gpfifo_entry;
   snprintf(buf, size,
            "PPU fault on channel \"%s\"\n"
            "  engine:  %s\n"
            "  kind:    %s (%s)\n"
            "  address: %s\n"
            "  pc:      0x%010llx\n"
            "  method:  subchannel %u (%s) method 0x%03x data 0x%08x\n"
            "  gpfifo:  entry %u = 0x%016llx (segment VA 0x%010llx, %u words)\n"
            "  detail:  %s\n",
            name, ppu_engine_name(f->engine), ppu_fault_kind_name(f->kind),
            fault_kind_meaning(f->kind), address, (unsigned long long)f->pc, f->subchannel,
            subchannel_name(f->subchannel), f->method, f->method_data, f->gp_get,
            (unsigned long long)entry, (unsigned long long)PPU_GPFIFO_ENTRY_VA(entry),
            PPU_GPFIFO_ENTRY_LEN(entry), f->detail[0] ? f->detail : "-");
}
