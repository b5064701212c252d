/* SHA-256 (FIPS 180-4, section 6.2), written for the pipeline cache: its
 * entries are keyed by, and checked against, digests an application cannot
 * make collide by accident or by crafting a blob (icd/pipeline_cache.c).
 * Streaming: init, update any number of times, final. */
#ifndef VKPPU_SHA256_H
#define VKPPU_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define VKPPU_SHA256_BYTES 32u

struct vkppu_sha256 {
   uint32_t state[8];
   uint64_t length;   /* bytes hashed so far */
   uint8_t block[64]; /* the partial block */
   uint32_t used;     /* bytes in block */
};

void vkppu_sha256_init(struct vkppu_sha256 *s);
void vkppu_sha256_update(struct vkppu_sha256 *s, const void *data, size_t n);
void vkppu_sha256_u32(struct vkppu_sha256 *s, uint32_t v); /* little-endian */
void vkppu_sha256_final(struct vkppu_sha256 *s, uint8_t digest[VKPPU_SHA256_BYTES]);

#endif /* VKPPU_SHA256_H */
