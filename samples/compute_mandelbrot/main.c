/* compute_mandelbrot: renders the Mandelbrot set with a compute shader on
 * whatever Vulkan driver the loader picks, checks every pixel against a CPU
 * reference that does the same fixed-point arithmetic, and writes a PNG.
 *
 *   compute_mandelbrot [--output FILE] [--width N] [--height N]
 *                      [--iterations N] [--validate]
 *
 * Exits 0 only when the GPU image equals the reference, the PNG was written
 * and (with --validate) the validation layer reported no error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mandelbrot_reference.h"
#include "png_output.h"
#include "vk_compute.h"

#define WORKGROUP 8u /* local_size_x and _y of shaders/mandelbrot.comp */

struct options {
   const char *output;
   uint32_t width, height, iterations;
   bool validate;
};

static double seconds_now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool parse_options(int argc, char **argv, struct options *o)
{
   *o = (struct options){"mandelbrot.png", 256, 192, 64, false};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = true;
      if (!strcmp(a, "--validate")) {
         o->validate = true;
         continue;
      } else if (!strcmp(a, "--output") && v) {
         o->output = v;
      } else if (!strcmp(a, "--width") && v) {
         ok = vk_sample_parse_u32(v, 1, 4096, &o->width);
      } else if (!strcmp(a, "--height") && v) {
         ok = vk_sample_parse_u32(v, 1, 4096, &o->height);
      } else if (!strcmp(a, "--iterations") && v) {
         ok = vk_sample_parse_u32(v, 1, 100000, &o->iterations);
      } else {
         ok = false;
      }
      if (!ok) {
         fprintf(stderr,
                 "usage: %s [--output FILE] [--width 1..4096] [--height 1..4096] "
                 "[--iterations 1..100000] [--validate]\n",
                 argv[0]);
         return false;
      }
      i++;
   }
   return true;
}

int main(int argc, char **argv)
{
   struct options o;
   if (!parse_options(argc, argv, &o))
      return 2;
   struct mandelbrot_params params = mandelbrot_default_view(o.width, o.height, o.iterations);
   size_t pixels = (size_t)o.width * o.height;
   uint32_t *expect = malloc(pixels * 4);
   if (!expect)
      return 1;
   double t0 = seconds_now();
   mandelbrot_reference(&params, expect);
   double cpu_seconds = seconds_now() - t0;

   int status = 1;
   struct vk_sample_device vc;
   struct vk_sample_buffer counts = {0};
   struct vk_sample_compute_pipeline pipe = {0};
   VkResult r = vk_sample_device_create(&vc, "compute_mandelbrot", o.validate);
   if (r == VK_SUCCESS)
      r = vk_sample_buffer_create(&vc, pixels * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &counts);
   if (r == VK_SUCCESS) {
      memset(counts.map, 0xff, pixels * 4); /* no count is ever 0xffffffff */
      r = vk_compute_pipeline_create(&vc, MANDELBROT_SPV, sizeof(params), &counts, &pipe);
   }
   double gpu_seconds = 0;
   if (r == VK_SUCCESS) {
      double t1 = seconds_now();
      r = vk_compute_run(&vc, &pipe, &params, sizeof(params), (o.width + WORKGROUP - 1) / WORKGROUP,
                         (o.height + WORKGROUP - 1) / WORKGROUP);
      gpu_seconds = seconds_now() - t1; /* record, submit, wait: host wall time */
   }
   if (r == VK_SUCCESS) {
      const uint32_t *got = counts.map;
      size_t wrong = 0;
      for (size_t i = 0; i < pixels; i++) {
         if (got[i] != expect[i] && wrong++ < 5)
            fprintf(stderr, "compute_mandelbrot: pixel (%zu, %zu): GPU %u, reference %u\n",
                    i % o.width, i / o.width, got[i], expect[i]);
      }
      printf("compute_mandelbrot: %s: %ux%u, %u iterations: %zu of %zu pixels differ from "
             "the CPU reference\n",
             vc.device_name, o.width, o.height, o.iterations, wrong, pixels);
      printf("compute_mandelbrot: dispatch %.3f s (record + submit + wait), CPU reference "
             "%.3f s (one host thread)\n",
             gpu_seconds, cpu_seconds);
      bool written = png_write_counts(o.output, got, o.width, o.height, o.iterations);
      if (written)
         printf("compute_mandelbrot: wrote %s\n", o.output);
      status = wrong == 0 && written ? 0 : 1;
   }
   if (vc.device) {
      vk_sample_compute_pipeline_destroy(vc.device, &pipe);
      vk_sample_buffer_destroy(&vc, &counts);
   }
   if (vc.inst.error_messages) {
      fprintf(stderr, "compute_mandelbrot: %u error messages\n", vc.inst.error_messages);
      status = 1;
   }
   vk_sample_device_destroy(&vc);
   free(expect);
   return status;
}
