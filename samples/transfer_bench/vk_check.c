#include "vk_check.h"

#include "vk_sample.h"

#include <stdio.h>

const char *vk_result_name(VkResult result)
{
   return vk_sample_result_string(result);
}

bool vk_failed(VkResult result, const char *call)
{
   if (result == VK_SUCCESS)
      return false;
   fprintf(stderr, "transfer_bench: %s failed: %s (%d)\n", call, vk_result_name(result),
           (int)result);
   return true;
}

bool vk_is_out_of_memory(VkResult result)
{
   return result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY;
}
