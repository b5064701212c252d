/* See fault_report.h. */
#include "fault_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "channel.h"
#include "drv_device.h"
#include "program_names.h"
#include "ppu/gpu.h"
#include "ppu/methods.h"
#include "wait.h"

static const char *va_region_name(uint64_t va)
{
   if (va < DRV_VA_NULL_GUARD_END)
      return "the null guard (never mapped)";
   if (va < DRV_VA_USER_START)
      return "driver-internal memory";
   if (va < DRV_VA_END)
      return "application memory";
   return "outside the 40-bit GPU VA space";
}

static const char *segment_kind_text(enum drv_segment_kind kind)
{
   switch (kind) {
   case DRV_SEGMENT_COMMANDS:
      return "command buffer";
   case DRV_SEGMENT_WAITS:
      return "driver segment: semaphore waits of a batch";
   case DRV_SEGMENT_SIGNALS:
      return "driver segment: semaphore signals of a batch";
   case DRV_SEGMENT_COMPLETION:
      return "driver segment: queue completion release";
   case DRV_SEGMENT_HOST_JOB:
      return "driver segment: host-assisted job request and wait";
   default:
      return "unknown";
   }
}

/* The ring index holding the faulting entry. The fault record names it
 * (gp_get); the ring's content is checked against the record's entry, and if
 * they disagree the ring is searched for that entry, newest first. */
static int64_t find_entry(const struct drv_channel *ch, const struct ppu_fault *f)
{
   uint32_t mask = ch->entries - 1;
   uint32_t named = f->gp_get & mask;
   if (ch->gpfifo[named] == f->gpfifo_entry && ch->tags[named].kind)
      return named;
   for (uint32_t back = 1; back <= ch->entries; back++) {
      uint32_t i = (ch->put - back) & mask;
      if (ch->gpfifo[i] == f->gpfifo_entry && ch->tags[i].kind)
         return i;
   }
   return -1;
}

static size_t describe_source(const struct drv_channel *ch, const struct ppu_fault *f, char *buf,
                              size_t size)
{
   int64_t index = find_entry(ch, f);
   if (index < 0) {
      return (size_t)snprintf(
          buf, size, "  source: GPFIFO entry 0x%016" PRIx64 " was not written by this driver\n",
          f->gpfifo_entry);
   }
   const struct drv_gp_tag *tag = &ch->tags[index];
   if (tag->kind != DRV_SEGMENT_COMMANDS) {
      return (size_t)snprintf(buf, size, "  source: GPFIFO entry %" PRId64 ": %s\n", index,
                              segment_kind_text((enum drv_segment_kind)tag->kind));
   }
   return (size_t)snprintf(buf, size,
                           "  source: GPFIFO entry %" PRId64 ": VkCommandBuffer 0x%" PRIx64
                           "%s%s%s, segment %u of %u (VA 0x%" PRIx64 ", %u words)\n",
                           index, tag->owner, tag->label[0] ? " \"" : "", tag->label,
                           tag->label[0] ? "\"" : "", tag->segment + 1, tag->segment_count,
                           (uint64_t)PPU_GPFIFO_ENTRY_VA(f->gpfifo_entry),
                           PPU_GPFIFO_ENTRY_LEN(f->gpfifo_entry));
}

void drv_fault_record(struct drv_device *dev, struct ppu_channel *hw)
{
   struct ppu_fault f;
   if (!ppu_channel_fault(hw, &f))
      return;

   char report[DRV_FAULT_REPORT_SIZE];
   size_t len = 0;
   pthread_mutex_lock(&dev->fault_lock);
   const struct drv_channel *ch = NULL;
   for (uint32_t i = 0; i < DRV_MAX_CHANNELS; i++) {
      if (dev->channels[i] && dev->channels[i]->hw == hw)
         ch = dev->channels[i];
   }
   len += (size_t)snprintf(report + len, sizeof(report) - len,
                           "device lost: %s: channel \"%s\" stopped on a fault\n", dev->name,
                           ch ? ch->name : "(unknown)");
   ppu_fault_format(hw, &f, report + len, sizeof(report) - len);
   len = strlen(report);
   if (len && report[len - 1] != '\n' && len + 1 < sizeof(report)) {
      report[len++] = '\n';
      report[len] = '\0';
   }
   if (len < sizeof(report) && ch)
      len += describe_source(ch, &f, report + len, sizeof(report) - len);
   if (len < sizeof(report) && f.kind == PPU_FAULT_OUT_OF_RANGE) {
      /* Not a VA: an offset into the thread's shared or local memory. */
      len += (size_t)snprintf(report + len, sizeof(report) - len,
                              "  address 0x%" PRIx64 " is an offset into shared or local memory; "
                              "a ray-tracing pipeline's call stack ends with the local memory "
                              "(its default stack or vkCmdSetRayTracingPipelineStackSizeKHR)\n",
                              f.address);
   } else if (len < sizeof(report) && f.address) {
      len += (size_t)snprintf(report + len, sizeof(report) - len,
                              "  address 0x%" PRIx64 " lies in %s\n", f.address,
                              va_region_name(f.address));
   }
   if (len < sizeof(report) && f.pc) {
      char name[DRV_PROGRAM_NAME_SIZE];
      uint64_t start = 0;
      if (drv_program_lookup(dev, f.pc, name, sizeof(name), &start)) {
         len += (size_t)snprintf(report + len, sizeof(report) - len,
                                 "  shader: %s, PC 0x%" PRIx64 " = program start 0x%" PRIx64
                                 " + 0x%" PRIx64 " (instruction %" PRIu64 ")\n",
                                 name, f.pc, start, f.pc - start, (f.pc - start) / 16);
      } else {
         len += (size_t)snprintf(report + len, sizeof(report) - len,
                                 "  shader: PC 0x%" PRIx64 " is in no program this driver placed\n",
                                 f.pc);
      }
   }
   if (dev->fault_count++ == 0)
      snprintf(dev->fault_report, sizeof(dev->fault_report), "%s", report);
   pthread_mutex_unlock(&dev->fault_lock);

   atomic_store_explicit(&dev->lost, true, memory_order_release);
   drv_wake_waiters(dev);
}
