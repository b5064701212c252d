/* The camera convention of ../shared/scenes/README.md ("Camera convention
 * used for the suggested views"), world up +Y: the unit view direction and
 * the right and true-up vectors scaled by tan(fov / 2), so that a shader
 * only adds (dir = normalize(forward + sx * right + sy * up)). */
#ifndef CAMERA_BASIS_H
#define CAMERA_BASIS_H

#include <stdbool.h>

/* False for a degenerate camera (eye = look-at, or looking along +-Y). */
bool camera_basis(const float eye[3], const float look_at[3], float fov_degrees, float forward[3],
                  float right[3], float up[3]);

#endif
