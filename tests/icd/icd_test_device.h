/* A device for the icd unit tests, made by calling the driver's entry
 * points directly (no loader): the first physical device, one queue of
 * family 0. */
#ifndef ICD_TEST_DEVICE_H
#define ICD_TEST_DEVICE_H

#include <stdbool.h>

#include <vulkan/vulkan.h>

/* Creates the device on `instance`; false if any call fails. */
bool icd_test_device_create(VkInstance instance, VkDevice *device);

#endif
