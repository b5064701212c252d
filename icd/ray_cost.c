/* vkSetRayCostRecordingVKPPU and vkReadRayCostVKPPU (private_entrypoints.h)
 * and the QMD side of the ray cost plane: one plane per device, at a fixed
 * pitch, that every profiled grid adds into at its invocations' (x, y), so
 * the profiler layer reads one 2D map whatever sizes the dispatches had. */
#include "vkppu_ray_cost.h"

#include "drv_device.h"
#include "gpu_memory.h"
#include "ppu/qmd.h"
#include "private_entrypoints.h"
#include "vkppu_device.h"

static void atomic_max_u32(_Atomic uint32_t *v, uint64_t x)
{
   uint32_t old = atomic_load_explicit(v, memory_order_relaxed);
   while (x > old && !atomic_compare_exchange_weak(v, &old, (uint32_t)x))
      ;
}

void vkppu_ray_cost_fill_qmd(struct vkppu_device *dev, struct ppu_qmd *qmd, const uint64_t *threads)
{
   struct vkppu_ray_cost *rc = dev->ray_cost;
   if (!rc)
      return;
   qmd->ray_cost = (struct ppu_qmd_ray_cost){
       .va = rc->bo->va, .pitch = rc->width, .width = rc->width, .height = rc->height};
   atomic_max_u32(&rc->used_width, threads && threads[0] < rc->width ? threads[0] : rc->width);
   atomic_max_u32(&rc->used_height, threads && threads[1] < rc->height ? threads[1] : rc->height);
}

void vkppu_ray_cost_finish(struct vkppu_device *dev)
{
   struct vkppu_ray_cost *rc = dev->ray_cost;
   if (!rc)
      return;
   dev->ray_cost = NULL;
   drv_bo_destroy(dev->drv, rc->bo);
   vkppu_device_free(dev, NULL, rc);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_SetRayCostRecordingVKPPU(VkDevice device, uint32_t width,
                                                              uint32_t height)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   vkppu_ray_cost_finish(dev);
   if (width == 0 || height == 0)
      return VK_SUCCESS;
   struct vkppu_ray_cost *rc =
       vkppu_device_zalloc(dev, NULL, sizeof(*rc), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!rc)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   enum drv_result r = drv_bo_create(dev->drv, (uint64_t)width * height * 4,
                                     DRV_BO_HOST_MAPPED | DRV_BO_INTERNAL, 0, &rc->bo);
   if (r != DRV_SUCCESS) {
      vkppu_device_free(dev, NULL, rc);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   rc->width = width;
   rc->height = height;
   dev->ray_cost = rc;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_ReadRayCostVKPPU(VkDevice device, uint32_t *pWidth,
                                                      uint32_t *pHeight, uint32_t *pData,
                                                      VkBool32 reset)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_ray_cost *rc = dev->ray_cost;
   if (!rc)
      return VK_ERROR_FEATURE_NOT_PRESENT;
   uint32_t w = atomic_load_explicit(&rc->used_width, memory_order_relaxed);
   uint32_t h = atomic_load_explicit(&rc->used_height, memory_order_relaxed);
   *pWidth = w;
   *pHeight = h;
   if (!pData)
      return VK_SUCCESS;
   uint8_t *plane = rc->bo->map;
   for (uint32_t y = 0; y < h; y++) {
      uint8_t *row = plane + (size_t)y * rc->width * 4;
      memcpy(pData + (size_t)y * w, row, (size_t)w * 4);
      if (reset)
         memset(row, 0, (size_t)w * 4);
   }
   return VK_SUCCESS;
}
