/* vkppu only: the hardware configuration the driver reads from
 * VKPPU_HW_CONFIG (docs/hw-config.md). A valid preset changes the chip the
 * application sees; an invalid configuration makes vkCreateDevice fail with
 * VK_ERROR_INITIALIZATION_FAILED and a message naming file, line and
 * mistake - never a crash, never a silently different chip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stderr_capture.h"
#include "vk_test_context.h"

/* The driver's own report of the failure (debug utils, ERROR), and the
 * loader's two messages saying that the ICD's vkCreateDevice failed. */
static const char *const expected_config_error[] = {
    "VKPPU_HW_CONFIG",
    "terminator_CreateDevice: Failed in ICD",
    "Failed to create device chain",
    NULL,
};

/* Creates a context with VKPPU_HW_CONFIG=spec and tries a device; returns
 * the vkCreateDevice result and what the driver wrote to stderr (heap). */
static VkResult create_device_with(const char *spec, char **stderr_text, VkDeviceSize *heap0)
{
   setenv("VKPPU_HW_CONFIG", spec, 1);
   struct vkt_context ctx;
   VkResult r = VK_ERROR_UNKNOWN;
   *stderr_text = NULL;
   if (vkt_context_create(&ctx)) {
      if (heap0)
         *heap0 = ctx.memory.memoryHeaps[0].size;
      struct vkt_device dev;
      struct vkt_device_desc desc = {0};
      struct stderr_capture cap;
      bool captured = stderr_capture_begin(&cap);
      vkt_tolerate_begin(expected_config_error);
      r = vkt_device_create(&ctx, &desc, &dev);
      vkt_tolerate_end();
      if (captured)
         *stderr_text = stderr_capture_end(&cap);
      if (r == VK_SUCCESS)
         vkt_device_destroy(&dev);
      vkt_context_destroy(&ctx);
   }
   unsetenv("VKPPU_HW_CONFIG");
   return r;
}

static bool only_on_vkppu(void)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return false;
   bool vkppu = ctx.is_vkppu;
   vkt_context_destroy(&ctx);
   if (!vkppu)
      vkt_skip("VKPPU_HW_CONFIG is vkppu's");
   return vkppu;
}

TEST_CASE(a_bad_config_file_fails_device_creation_with_file_and_line)
{
   if (!only_on_vkppu())
      return;
   char path[] = "/tmp/vkppu_hw_config_XXXXXX.conf";
   int fd = mkstemps(path, 5);
   REQUIRE(fd >= 0);
   static const char text[] = "# a chip with a typo\ngpu.gpcs = 1\nsm.warp_max = 32\n";
   REQUIRE(write(fd, text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
   close(fd);

   char *err = NULL;
   VkResult r = create_device_with(path, &err, NULL);
   unlink(path);
   CHECK_MSG(r == VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice -> %s", vkt_result_name(r));
   char expected[256];
   snprintf(expected, sizeof(expected), "%s:3: unknown key 'sm.warp_max'", path);
   CHECK_MSG(err && strstr(err, expected), "stderr lacks \"%s\"", expected);
   CHECK(err && strstr(err, "did you mean 'sm.warps_max'?"));
   free(err);
}

TEST_CASE(an_unknown_preset_or_missing_file_fails_device_creation)
{
   if (!only_on_vkppu())
      return;
   char *err = NULL;
   VkResult r = create_device_with("dekstop", &err, NULL);
   CHECK(r == VK_ERROR_INITIALIZATION_FAILED);
   CHECK(err && strstr(err, "did you mean 'desktop'?"));
   free(err);

   r = create_device_with("/nonexistent/chip.conf", &err, NULL);
   CHECK(r == VK_ERROR_INITIALIZATION_FAILED);
   CHECK(err && strstr(err, "/nonexistent/chip.conf: cannot read"));
   free(err);
}

TEST_CASE(a_chip_below_the_advertised_limits_is_refused)
{
   if (!only_on_vkppu())
      return;
   char path[] = "/tmp/vkppu_hw_config_XXXXXX.conf";
   int fd = mkstemps(path, 5);
   REQUIRE(fd >= 0);
   static const char text[] = "sm.shared_memory = 16 KiB\n";
   REQUIRE(write(fd, text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
   close(fd);
   char *err = NULL;
   VkResult r = create_device_with(path, &err, NULL);
   unlink(path);
   CHECK(r == VK_ERROR_INITIALIZATION_FAILED);
   CHECK(err && strstr(err, "sm.shared_memory = 16384 B"));
   free(err);
}

TEST_CASE(presets_bring_up_a_device_and_set_its_memory)
{
   if (!only_on_vkppu())
      return;
   VkDeviceSize heap_default = 0, heap_mobile = 0, heap_desktop = 0;
   char *err = NULL;
   CHECK(create_device_with("default", &err, &heap_default) == VK_SUCCESS);
   free(err);
   CHECK(create_device_with("mobile", &err, &heap_mobile) == VK_SUCCESS);
   free(err);
   CHECK(create_device_with("desktop", &err, &heap_desktop) == VK_SUCCESS);
   free(err);
   /* Device-local heap: 3/4 of VRAM (8, 4 and 11 GiB). */
   CHECK_EQ_U64(heap_default, (8ull << 30) / 4 * 3);
   CHECK_EQ_U64(heap_mobile, (4ull << 30) / 4 * 3);
   CHECK_EQ_U64(heap_desktop, (11ull << 30) / 4 * 3);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
