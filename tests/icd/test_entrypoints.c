/* Every command of every extension the driver advertises must be
 * implemented: an advertised extension whose command resolves to NULL breaks
 * the programs that enable it. The generated table knows which commands
 * belong to the advertised extensions; this test holds it to that. */
#include <stdio.h>

#include "test_harness.h"
#include "vkppu_entrypoints.h"

TEST_CASE(every_advertised_extension_command_is_implemented)
{
   int missing = vkppu_entrypoints_missing(stderr);
   CHECK_MSG(missing == 0, "%d command(s) of advertised extensions have no implementation",
             missing);
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
