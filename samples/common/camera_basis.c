/* See camera_basis.h. */
#include "camera_basis.h"

#include <math.h>

static void cross3(const float *a, const float *b, float *out)
{
   out[0] = a[1] * b[2] - a[2] * b[1];
   out[1] = a[2] * b[0] - a[0] * b[2];
   out[2] = a[0] * b[1] - a[1] * b[0];
}

static bool normalize3(float *v)
{
   float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
   if (!(len > 0.0f) || !isfinite(len))
      return false;
   for (int i = 0; i < 3; i++)
      v[i] /= len;
   return true;
}

bool camera_basis(const float eye[3], const float look_at[3], float fov_degrees, float forward[3],
                  float right[3], float up[3])
{
   static const float world_up[3] = {0, 1, 0};
   float f[3], r[3], u[3];
   for (int i = 0; i < 3; i++)
      f[i] = look_at[i] - eye[i];
   if (!normalize3(f))
      return false;
   cross3(f, world_up, r);
   if (!normalize3(r)) /* looking straight up or down */
      return false;
   cross3(r, f, u);
   float t = tanf(fov_degrees * (float)M_PI / 360.0f);
   for (int i = 0; i < 3; i++) {
      forward[i] = f[i];
      right[i] = r[i] * t;
      up[i] = u[i] * t;
   }
   return true;
}
