/* See scene_choice.h. */
#include "scene_choice.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "procedural_scene.h"

/* "x,y,z": three numbers of magnitude at most 1e30 (NaN never is). */
static bool parse_vec3(const char *s, float *out)
{
   for (int i = 0; i < 3; i++) {
      char *end = NULL;
      double v = strtod(s, &end);
      if (end == s || !(v >= -1e30 && v <= 1e30) || *end != (i < 2 ? ',' : '\0'))
         return false;
      out[i] = (float)v;
      s = end + 1;
   }
   return true;
}

enum scene_choice_arg scene_choice_arg(struct scene_choice *c, const char *a, const char *v)
{
   bool ok = true;
   if (!strcmp(a, "--scene")) {
      c->scene_name = v;
   } else if (!strcmp(a, "--scenes-dir")) {
      c->scenes_dir = v;
   } else if (!strcmp(a, "--obj")) {
      c->obj = v;
   } else if (!strcmp(a, "--eye")) {
      ok = c->eye_given = parse_vec3(v, c->eye);
   } else if (!strcmp(a, "--look-at")) {
      ok = c->look_at_given = parse_vec3(v, c->look_at);
   } else if (!strcmp(a, "--fov")) {
      char *end = NULL;
      double fov = strtod(v, &end);
      ok = c->fov_given = v[0] && !*end && fov >= 0.01 && fov <= 179.0;
      c->fov_degrees = (float)fov;
   } else {
      return SCENE_CHOICE_NOT_MINE;
   }
   return ok ? SCENE_CHOICE_TAKEN : SCENE_CHOICE_BAD_VALUE;
}

static bool is_directory(const char *path)
{
   struct stat st;
   return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void scene_choice_print_names(FILE *f)
{
   for (size_t i = 0; i < scene_catalog_count(); i++)
      fprintf(f, " %s", scene_catalog_at(i)->name);
}

int scene_choice_finish(struct scene_choice *c, const char *tag, const char *default_scenes_dir)
{
   if (c->scene_name && c->obj) {
      fprintf(stderr, "%s: --scene and --obj exclude each other\n", tag);
      return 2;
   }
   if (!c->scenes_dir) {
      const char *env = getenv("VKPPU_SCENES_DIR");
      c->scenes_dir = env && env[0] ? env : default_scenes_dir;
   }
   if (c->obj) {
      if (!c->eye_given || !c->look_at_given || !c->fov_given) {
         fprintf(stderr, "%s: --obj needs --eye, --look-at and --fov\n", tag);
         return 2;
      }
      snprintf(c->mesh_path, sizeof(c->mesh_path), "%s", c->obj);
      return 0;
   }
   c->scene = scene_catalog_find(c->scene_name ? c->scene_name : "cornell_tiny");
   if (!c->scene) {
      fprintf(stderr, "%s: unknown scene '%s'; scenes:", tag, c->scene_name);
      scene_choice_print_names(stderr);
      fprintf(stderr, "\n");
      return 2;
   }
   if (!c->scene_name && !is_directory(c->scenes_dir)) {
      printf("%s: scenes folder %s not found: rendering the built-in procedural scene\n", tag,
             c->scenes_dir);
      c->scene = scene_catalog_find("procedural");
   }
   if (c->scene->file && !is_directory(c->scenes_dir)) {
      printf("%s: SKIP: scenes folder %s not found (--scenes-dir or VKPPU_SCENES_DIR)\n", tag,
             c->scenes_dir);
      return 77;
   }
   if (!c->eye_given)
      memcpy(c->eye, c->scene->eye, sizeof(c->eye));
   if (!c->look_at_given)
      memcpy(c->look_at, c->scene->look_at, sizeof(c->look_at));
   if (!c->fov_given)
      c->fov_degrees = c->scene->fov_degrees;
   if (c->scene->file)
      snprintf(c->mesh_path, sizeof(c->mesh_path), "%s/%s", c->scenes_dir, c->scene->file);
   else
      snprintf(c->mesh_path, sizeof(c->mesh_path), "(built-in %s scene)", c->scene->name);
   return 0;
}

bool scene_choice_load(const struct scene_choice *c, const char *tag, struct obj_mesh *mesh)
{
   if (c->scene && !c->scene->file) {
      if (procedural_scene_build(mesh))
         return true;
      fprintf(stderr, "%s: out of memory for the procedural scene\n", tag);
      return false;
   }
   char error[512];
   if (obj_mesh_load(c->mesh_path, mesh, error, sizeof(error)))
      return true;
   fprintf(stderr, "%s: %s\n", tag, error);
   return false;
}
