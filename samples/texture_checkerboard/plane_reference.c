#include "plane_reference.h"

#include <math.h>

struct plane_params plane_default_params(uint32_t width, uint32_t height, uint32_t samples_side)
{
   /* Eye 1.5 units up, looking 20 degrees below the horizon, 60 degree
    * vertical field of view. */
   const float pitch = -20.0f * 3.14159265f / 180.0f, half_fov = 30.0f * 3.14159265f / 180.0f;
   float aspect = (float)width / (float)height;
   float tan_half = tanf(half_fov);
   struct plane_params p = {
       .cam_pos = {0.0f, 1.5f, 0.0f, 0.0f},
       .cam_right = {tan_half * aspect, 0.0f, 0.0f, 0.0f},
       .cam_up = {0.0f, cosf(pitch) * tan_half, -sinf(pitch) * tan_half, 0.0f},
       .cam_forward = {0.0f, sinf(pitch), cosf(pitch), 0.0f},
       .sky = {0.55f, 0.70f, 0.90f, 1.0f},
       .width = width,
       .height = height,
       .samples_side = samples_side,
       .tile_scale = 0.25f,
   };
   return p;
}

static bool plane_uv(const struct plane_params *p, float px, float py, float uv[2])
{
   float nx = 2.0f * px / (float)p->width - 1.0f;
   float ny = 1.0f - 2.0f * py / (float)p->height;
   float d[3];
   for (int i = 0; i < 3; i++)
      d[i] = p->cam_forward[i] + nx * p->cam_right[i] + ny * p->cam_up[i];
   uv[0] = uv[1] = 0.0f;
   if (d[1] > -1e-6f)
      return false;
   float t = -p->cam_pos[1] / d[1];
   uv[0] = (p->cam_pos[0] + t * d[0]) * p->tile_scale;
   uv[1] = (p->cam_pos[2] + t * d[2]) * p->tile_scale;
   return true;
}

static uint32_t wrap(int64_t i, uint32_t size)
{
   int64_t m = i % (int64_t)size;
   return (uint32_t)(m < 0 ? m + size : m);
}

/* Bilinear filtering of one level with REPEAT addressing. */
static void bilinear(const struct checker_levels *t, uint32_t level, float u, float v,
                     double out[4])
{
   uint32_t s = t->size >> level;
   double x = (double)u * s - 0.5, y = (double)v * s - 0.5;
   double fx = floor(x), fy = floor(y);
   double a = x - fx, b = y - fy;
   uint32_t x0 = wrap((int64_t)fx, s), x1 = wrap((int64_t)fx + 1, s);
   uint32_t y0 = wrap((int64_t)fy, s), y1 = wrap((int64_t)fy + 1, s);
   const uint8_t *tx = t->texels[level];
   for (int c = 0; c < 4; c++) {
      double t00 = tx[((size_t)y0 * s + x0) * 4 + c], t10 = tx[((size_t)y0 * s + x1) * 4 + c];
      double t01 = tx[((size_t)y1 * s + x0) * 4 + c], t11 = tx[((size_t)y1 * s + x1) * 4 + c];
      out[c] =
          ((1 - a) * (1 - b) * t00 + a * (1 - b) * t10 + (1 - a) * b * t01 + a * b * t11) / 255.0;
   }
}

/* textureGrad with a LINEAR/LINEAR sampler (trilinear) or LINEAR/NEAREST. */
static void sample_grad(const struct checker_levels *t, bool trilinear, const float uv[2],
                        const float dx[2], const float dy[2], double out[4])
{
   double rx = hypot((double)dx[0] * t->size, (double)dx[1] * t->size);
   double ry = hypot((double)dy[0] * t->size, (double)dy[1] * t->size);
   double rho = rx > ry ? rx : ry;
   double lambda = rho > 0 ? log2(rho) : -INFINITY;
   double q = t->levels - 1;
   if (lambda <= 0) { /* magnification: level 0 */
      bilinear(t, 0, uv[0], uv[1], out);
      return;
   }
   if (lambda > q)
      lambda = q;
   if (!trilinear) { /* nearest level: ceil(lambda + 0.5) - 1 */
      uint32_t level = (uint32_t)(ceil(lambda + 0.5) - 1);
      bilinear(t, level, uv[0], uv[1], out);
      return;
   }
   uint32_t lo = (uint32_t)floor(lambda);
   uint32_t hi = lo + 1 <= q ? lo + 1 : lo;
   double delta = lambda - lo, a[4], b[4];
   bilinear(t, lo, uv[0], uv[1], a);
   bilinear(t, hi, uv[0], uv[1], b);
   for (int c = 0; c < 4; c++)
      out[c] = (1 - delta) * a[c] + delta * b[c];
}

void plane_reference_render(const struct plane_params *p, const struct checker_levels *levels,
                            bool trilinear, uint8_t *rgba)
{
   float n = (float)p->samples_side;
   for (uint32_t y = 0; y < p->height; y++) {
      for (uint32_t x = 0; x < p->width; x++) {
         double sum[4] = {0, 0, 0, 0};
         for (uint32_t sy = 0; sy < p->samples_side; sy++) {
            for (uint32_t sx = 0; sx < p->samples_side; sx++) {
               float px = (float)x + ((float)sx + 0.5f) / n;
               float py = (float)y + ((float)sy + 0.5f) / n;
               float uv[2], ux[2], uy[2];
               double c[4];
               if (plane_uv(p, px, py, uv) && plane_uv(p, px + 1.0f / n, py, ux) &&
                   plane_uv(p, px, py + 1.0f / n, uy)) {
                  float dx[2] = {ux[0] - uv[0], ux[1] - uv[1]};
                  float dy[2] = {uy[0] - uv[0], uy[1] - uv[1]};
                  sample_grad(levels, trilinear, uv, dx, dy, c);
               } else {
                  for (int i = 0; i < 4; i++)
                     c[i] = p->sky[i];
               }
               for (int i = 0; i < 4; i++)
                  sum[i] += c[i];
            }
         }
         for (int i = 0; i < 4; i++) {
            double v = sum[i] / (double)(n * n);
            v = v < 0 ? 0 : v > 1 ? 1 : v;
            rgba[((size_t)y * p->width + x) * 4 + i] = (uint8_t)lrint(v * 255.0);
         }
      }
   }
}
