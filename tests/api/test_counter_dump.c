/* vkppu only: VKPPU_COUNTERS_FILE writes every hardware counter as CSV when
 * the device is destroyed (docs/counters.md). A run of copy-engine work must
 * show up in the host and copy counters; every counter of the table appears
 * exactly once; a path that cannot be written is reported, never fatal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ppu/counters.h>

#include "stderr_capture.h"
#include "vk_test_context.h"

static const char *const counter_names[] = {
#define NAME_(id, name, unit, desc) name,
    PPU_COUNTERS(NAME_)
#undef NAME_
};
#define COUNTER_NAMES (sizeof(counter_names) / sizeof(counter_names[0]))

/* Creates a device, fills a buffer `fills` times, destroys it. */
static void run_fills(uint32_t fills)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct vkt_buffer buf;
   VKT_REQUIRE(vkt_buffer_create(&dev, 4096, VKT_USAGE_TRANSFER, VKT_MEMORY_DEVICE, &buf));
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   for (uint32_t i = 0; i < fills; i++)
      vkCmdFillBuffer(cmd, buf.buffer, 0, 4096, i);
   VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkt_buffer_destroy(&dev, &buf);
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(every_counter_is_written_once_with_its_value)
{
   char path[] = "/tmp/vkppu_counters_XXXXXX";
   int fd = mkstemp(path);
   REQUIRE(fd >= 0);
   close(fd);
   setenv("VKPPU_COUNTERS_FILE", path, 1);
   run_fills(5);
   unsetenv("VKPPU_COUNTERS_FILE");
   FILE *f = fopen(path, "r");
   REQUIRE(f);
   char line[512];
   CHECK(fgets(line, sizeof(line), f) && strcmp(line, "counter,value,unit\n") == 0);
   uint32_t seen[COUNTER_NAMES] = {0};
   unsigned long long methods = 0, rows = 0;
   while (fgets(line, sizeof(line), f)) {
      rows++;
      char *comma = strchr(line, ',');
      REQUIRE(comma);
      *comma = 0;
      for (size_t i = 0; i < COUNTER_NAMES; i++)
         seen[i] += strcmp(line, counter_names[i]) == 0;
      if (strcmp(line, "host.methods") == 0)
         methods = strtoull(comma + 1, NULL, 10);
   }
   fclose(f);
   unlink(path);
   CHECK_EQ_U64(rows, COUNTER_NAMES);
   for (size_t i = 0; i < COUNTER_NAMES; i++) {
      if (seen[i] != 1)
         test_fail(__FILE__, __LINE__, "%s appears %u times", counter_names[i], seen[i]);
   }
   /* Five fills are at least five launches of the copy engine. */
   CHECK(methods >= 5);
}

TEST_CASE(an_unwritable_path_is_reported_and_harmless)
{
   setenv("VKPPU_COUNTERS_FILE", "/nonexistent-vkppu-dir/counters.csv", 1);
   struct stderr_capture cap;
   bool captured = stderr_capture_begin(&cap);
   run_fills(1);
   char *text = captured ? stderr_capture_end(&cap) : NULL;
   unsetenv("VKPPU_COUNTERS_FILE");
   REQUIRE(text);
   CHECK(text_contains_nocase(text, "VKPPU_COUNTERS_FILE=/nonexistent-vkppu-dir/counters.csv"));
   free(text);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
