/* Every command of every extension the driver advertises must be
 * implemented: an advertised extension whose command resolves to NULL breaks
 * the programs that enable it. The generated table knows which commands
 * belong to the advertised extensions; this test holds it to that. */
#include <stdio.h>

#include "test_harness.h"
#include "vkppu_entrypoints.h"
#include "vkppu_instance.h"

TEST_CASE(every_advertised_extension_command_is_implemented)
{
   int missing = vkppu_entrypoints_missing(stderr);
   CHECK_MSG(missing == 0, "%d command(s) of advertised extensions have no implementation",
             missing);
}

/* The same for the core versions: a device that reports Vulkan 1.x must
 * implement every command of 1.0 up to 1.x, or a program written for that
 * version reaches the "not supported" fallback. */
TEST_CASE(every_command_of_the_reported_core_version_is_implemented)
{
   /* No queue family has SPARSE_BINDING (sparseBinding is VK_FALSE), so no
    * valid call of vkQueueBindSparse exists: its "not supported" fallback
    * is the honest answer. */
   static const char *const exempt[] = {"vkQueueBindSparse", NULL};
   int missing = vkppu_core_entrypoints_missing(stderr, VKPPU_DEVICE_API_VERSION, exempt);
   CHECK_MSG(missing == 0, "%d core command(s) up to Vulkan 1.%u have no implementation", missing,
             VK_API_VERSION_MINOR(VKPPU_DEVICE_API_VERSION));
}

TEST_CASE(extension_tables_index_their_own_names)
{
   for (int i = 0; i < VKPPU_DEVICE_EXT_COUNT; i++)
      CHECK(vkppu_device_extension_index(vkppu_device_extensions[i].extensionName) == i);
   for (int i = 0; i < VKPPU_INSTANCE_EXT_COUNT; i++)
      CHECK(vkppu_instance_extension_index(vkppu_instance_extensions[i].extensionName) == i);
   CHECK(vkppu_device_extension_index("VK_KHR_not_an_extension") == -1);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
