/* VkPipelineCache: compiled compute programs keyed by the SHA-256 of
 * everything the compiler's output depends on (compute_pipeline.c
 * program_key), with vkGetPipelineCacheData / initial data /
 * vkMergePipelineCaches.
 *
 * Serialized form (all little-endian):
 *
 *   VkPipelineCacheHeaderVersionOne (32 bytes): headerSize 32, headerVersion
 *       1, vendorID, deviceID, pipelineCacheUUID — as the spec requires
 *       ("Pipeline Cache Header"). pipelineCacheUUID changes with the
 *       compiler's sources (VKPPU_COMPILER_BUILD_ID).
 *   payload header (24 bytes): magic "VPC2", entry count, payload bytes
 *       (u64, what follows), FNV-1a 64 checksum of those bytes (is the blob
 *       whole?).
 *   entries: key (32-byte SHA-256), entry digest (SHA-256 of key, program
 *       info and code: is this entry what we stored?), struct
 *       vkppu_program_info (7 x u32) + u32 pad, then code_words u32 words.
 *
 * Initial data is untrusted application input. A blob whose framing does
 * not match this device exactly (header, UUID, checksum, sizes) is ignored
 * as a whole; an entry whose digest does not match, or whose program fails
 * the check every freshly compiled program passes
 * (vkppu_compute_program_check: QMD limits, every instruction legal as the
 * SM decodes it, branches inside the program), is dropped alone. Either
 * way the pipeline is compiled again rather than built from doubtful code,
 * and creation still succeeds, as the spec lets an implementation ignore
 * incompatible data. A blob forged with recomputed digests can still only
 * hold programs the chip would accept from a shader, and those can do no
 * more than any shader can.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sha256.h"
#include "vkppu_physical_device.h"
#include "vkppu_pipeline.h"

#define CACHE_MAGIC 0x32435056u /* "VPC2" */
#define HEADER_BYTES 32u
#define PAYLOAD_HEADER_BYTES 24u
#define KEY_BYTES 32u
#define DIGEST_BYTES 32u
#define INFO_OFFSET (KEY_BYTES + DIGEST_BYTES)
#define ENTRY_HEADER_BYTES (INFO_OFFSET + 8u * 4u)

struct vkppu_cache_entry {
   struct vkppu_cache_entry *next;
   struct vkppu_program_key key;
   struct vkppu_program_info info;
   uint32_t code[];
};

static uint64_t fnv1a64(const uint8_t *p, size_t n)
{
   uint64_t h = 0xcbf29ce484222325ull;
   for (size_t i = 0; i < n; i++) {
      h ^= p[i];
      h *= 0x100000001b3ull;
   }
   return h;
}

static size_t entry_bytes(const struct vkppu_cache_entry *e)
{
   return ENTRY_HEADER_BYTES + (size_t)e->info.code_words * 4;
}

/* SHA-256 of key, info and code as serialized: what an entry's digest
 * must be. */
static void entry_digest(const struct vkppu_program_key *key, const struct vkppu_program_info *info,
                         const uint32_t *code, uint8_t out[DIGEST_BYTES])
{
   struct vkppu_sha256 h;
   vkppu_sha256_init(&h);
   vkppu_sha256_update(&h, key->digest, KEY_BYTES);
   vkppu_sha256_update(&h, info, sizeof(*info));
   vkppu_sha256_update(&h, code, (size_t)info->code_words * 4);
   vkppu_sha256_final(&h, out);
}

static struct vkppu_cache_entry *find(struct vkppu_pipeline_cache *cache,
                                      const struct vkppu_program_key *key)
{
   for (struct vkppu_cache_entry *e = cache->entries; e; e = e->next) {
      if (memcmp(e->key.digest, key->digest, KEY_BYTES) == 0)
         return e;
   }
   return NULL;
}

/* Called with the lock held (or before the cache is visible). */
static void insert_locked(struct vkppu_pipeline_cache *cache, const struct vkppu_program_key *key,
                          const struct vkppu_program_info *info, const uint32_t *code)
{
   if (find(cache, key) || info->code_words > VKPPU_MAX_PROGRAM_WORDS)
      return;
   struct vkppu_cache_entry *e = malloc(sizeof(*e) + (size_t)info->code_words * 4);
   if (!e)
      return; /* only means the program is not cached */
   e->key = *key;
   e->info = *info;
   memcpy(e->code, code, (size_t)info->code_words * 4);
   e->next = cache->entries;
   cache->entries = e;
   cache->entry_count++;
}

bool vkppu_pipeline_cache_lookup(struct vkppu_pipeline_cache *cache,
                                 const struct vkppu_program_key *key,
                                 struct vkppu_program_info *info, uint32_t **code)
{
   bool hit = false;
   pthread_mutex_lock(&cache->lock);
   const struct vkppu_cache_entry *e = find(cache, key);
   if (e) {
      uint32_t *copy = malloc((size_t)e->info.code_words * 4 + 4);
      if (copy) {
         memcpy(copy, e->code, (size_t)e->info.code_words * 4);
         *info = e->info;
         *code = copy;
         hit = true;
      }
   }
   pthread_mutex_unlock(&cache->lock);
   return hit;
}

void vkppu_pipeline_cache_insert(struct vkppu_pipeline_cache *cache,
                                 const struct vkppu_program_key *key,
                                 const struct vkppu_program_info *info, const uint32_t *code)
{
   pthread_mutex_lock(&cache->lock);
   insert_locked(cache, key, info, code);
   pthread_mutex_unlock(&cache->lock);
}

static void write_header(const struct vkppu_physical_device *pd, uint8_t *out)
{
   VkPipelineCacheHeaderVersionOne h = {
       .headerSize = HEADER_BYTES,
       .headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE,
       .vendorID = VKPPU_VENDOR_ID,
       .deviceID = VKPPU_DEVICE_ID,
   };
   memcpy(h.pipelineCacheUUID, pd->pipeline_cache_uuid, VK_UUID_SIZE);
   _Static_assert(sizeof(h) == HEADER_BYTES, "VkPipelineCacheHeaderVersionOne is 32 bytes");
   memcpy(out, &h, HEADER_BYTES);
}

static uint32_t read_u32(const uint8_t *p)
{
   uint32_t v;
   memcpy(&v, p, 4);
   return v;
}

static uint64_t read_u64(const uint8_t *p)
{
   uint64_t v;
   memcpy(&v, p, 8);
   return v;
}

/* Loads initial data; returns a reason when it is ignored as a whole, else
 * NULL. Entries that are not exactly what this driver stored, or whose
 * program it would not run, are dropped one by one (*dropped counts them,
 * the last reason goes to *drop_why). */
static const char *load(struct vkppu_pipeline_cache *cache, const struct vkppu_physical_device *pd,
                        const uint8_t *data, size_t size, uint32_t *dropped, char *drop_why,
                        size_t drop_why_size)
{
   uint8_t expect[HEADER_BYTES];
   write_header(pd, expect);
   if (size < HEADER_BYTES + PAYLOAD_HEADER_BYTES)
      return "too short";
   if (memcmp(data, expect, HEADER_BYTES) != 0)
      return "header, vendor, device or pipelineCacheUUID do not match this device";
   const uint8_t *p = data + HEADER_BYTES;
   uint32_t count = read_u32(p + 4);
   uint64_t payload = read_u64(p + 8);
   if (read_u32(p) != CACHE_MAGIC || payload != size - HEADER_BYTES - PAYLOAD_HEADER_BYTES)
      return "payload header does not match";
   p += PAYLOAD_HEADER_BYTES;
   if (fnv1a64(p, (size_t)payload) != read_u64(data + HEADER_BYTES + 16))
      return "checksum mismatch";
   /* The framing is checked in full before any entry is used. */
   size_t left = (size_t)payload;
   const uint8_t *q = p;
   for (uint32_t i = 0; i < count; i++) {
      if (left < ENTRY_HEADER_BYTES)
         return "truncated entry";
      uint32_t words = read_u32(q + INFO_OFFSET);
      if (words > VKPPU_MAX_PROGRAM_WORDS || (size_t)words * 4 > left - ENTRY_HEADER_BYTES)
         return "entry size out of range";
      size_t n = ENTRY_HEADER_BYTES + (size_t)words * 4;
      q += n;
      left -= n;
   }
   if (left != 0)
      return "trailing bytes";
   for (uint32_t i = 0; i < count; i++) {
      struct vkppu_program_key key;
      struct vkppu_program_info info;
      memcpy(key.digest, p, KEY_BYTES);
      memcpy(&info, p + INFO_OFFSET, sizeof(info));
      const size_t n = ENTRY_HEADER_BYTES + (size_t)info.code_words * 4;
      /* An aligned copy: the blob may sit at any address. */
      uint32_t *code = malloc((size_t)info.code_words * 4 + 4);
      if (!code)
         return "out of host memory";
      memcpy(code, p + ENTRY_HEADER_BYTES, (size_t)info.code_words * 4);
      uint8_t digest[DIGEST_BYTES];
      entry_digest(&key, &info, code, digest);
      if (memcmp(digest, p + KEY_BYTES, DIGEST_BYTES) != 0) {
         snprintf(drop_why, drop_why_size, "entry %u: its digest does not match its contents", i);
         (*dropped)++;
      } else if (!vkppu_compute_program_check(&info, code, drop_why, drop_why_size)) {
         (*dropped)++;
      } else {
         insert_locked(cache, &key, &info, code);
      }
      free(code);
      p += n;
   }
   return NULL;
}
_Static_assert(sizeof(struct vkppu_program_info) == 7 * 4, "program info is 7 words");

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_CreatePipelineCache(VkDevice device, const VkPipelineCacheCreateInfo *pCreateInfo,
                          const VkAllocationCallbacks *pAllocator, VkPipelineCache *pPipelineCache)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_pipeline_cache *cache =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*cache), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!cache)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&cache->base, VK_OBJECT_TYPE_PIPELINE_CACHE, dev);
   pthread_mutex_init(&cache->lock, NULL);
   if (pCreateInfo->initialDataSize && pCreateInfo->pInitialData) {
      uint32_t dropped = 0;
      char drop_why[200] = "";
      const char *why = load(cache, dev->physical_device, pCreateInfo->pInitialData,
                             pCreateInfo->initialDataSize, &dropped, drop_why, sizeof(drop_why));
      if (!why && dropped)
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                      "vkCreatePipelineCache: %u entr%s of the initial data dropped, to be "
                      "compiled again (%s)",
                      dropped, dropped == 1 ? "y" : "ies", drop_why);
      if (why) {
         /* Drop whatever a partly valid blob may have added. */
         while (cache->entries) {
            struct vkppu_cache_entry *e = cache->entries;
            cache->entries = e->next;
            free(e);
         }
         cache->entry_count = 0;
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT,
                      "vkCreatePipelineCache: initial data ignored (%s)", why);
      }
   }
   *pPipelineCache = vkppu_pipeline_cache_to_handle(cache);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyPipelineCache(VkDevice device,
                                                      VkPipelineCache pipelineCache,
                                                      const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_pipeline_cache, cache, pipelineCache);
   if (!cache)
      return;
   while (cache->entries) {
      struct vkppu_cache_entry *e = cache->entries;
      cache->entries = e->next;
      free(e);
   }
   pthread_mutex_destroy(&cache->lock);
   vkppu_object_finish(&cache->base);
   vkppu_device_free(dev, pAllocator, cache);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetPipelineCacheData(VkDevice device,
                                                          VkPipelineCache pipelineCache,
                                                          size_t *pDataSize, void *pData)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_pipeline_cache, cache, pipelineCache);
   pthread_mutex_lock(&cache->lock);
   size_t total = HEADER_BYTES + PAYLOAD_HEADER_BYTES;
   for (const struct vkppu_cache_entry *e = cache->entries; e; e = e->next)
      total += entry_bytes(e);
   if (!pData) {
      *pDataSize = total;
      pthread_mutex_unlock(&cache->lock);
      return VK_SUCCESS;
   }
   if (*pDataSize < HEADER_BYTES + PAYLOAD_HEADER_BYTES) {
      /* Not even the header fits: nothing is written (vkGetPipelineCacheData). */
      *pDataSize = 0;
      pthread_mutex_unlock(&cache->lock);
      return VK_INCOMPLETE;
   }
   /* As many whole entries as fit; the result is always a valid cache. */
   uint8_t *out = pData;
   uint8_t *p = out + HEADER_BYTES + PAYLOAD_HEADER_BYTES;
   size_t room = *pDataSize - HEADER_BYTES - PAYLOAD_HEADER_BYTES;
   uint32_t count = 0;
   for (const struct vkppu_cache_entry *e = cache->entries; e; e = e->next) {
      size_t n = entry_bytes(e);
      if (n > room)
         break;
      uint32_t pad = 0;
      memcpy(p, e->key.digest, KEY_BYTES);
      entry_digest(&e->key, &e->info, e->code, p + KEY_BYTES);
      memcpy(p + INFO_OFFSET, &e->info, sizeof(e->info));
      memcpy(p + INFO_OFFSET + sizeof(e->info), &pad, 4);
      memcpy(p + ENTRY_HEADER_BYTES, e->code, (size_t)e->info.code_words * 4);
      p += n;
      room -= n;
      count++;
   }
   pthread_mutex_unlock(&cache->lock);
   write_header(dev->physical_device, out);
   uint64_t payload = (uint64_t)(p - (out + HEADER_BYTES + PAYLOAD_HEADER_BYTES));
   uint8_t *ph = out + HEADER_BYTES;
   uint32_t magic = CACHE_MAGIC;
   uint64_t sum = fnv1a64(ph + PAYLOAD_HEADER_BYTES, (size_t)payload);
   memcpy(ph, &magic, 4);
   memcpy(ph + 4, &count, 4);
   memcpy(ph + 8, &payload, 8);
   memcpy(ph + 16, &sum, 8);
   size_t written = (size_t)(p - out);
   VkResult r = written < total ? VK_INCOMPLETE : VK_SUCCESS;
   *pDataSize = written;
   return r;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_MergePipelineCaches(VkDevice device, VkPipelineCache dstCache,
                                                         uint32_t srcCacheCount,
                                                         const VkPipelineCache *pSrcCaches)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_pipeline_cache, dst, dstCache);
   for (uint32_t i = 0; i < srcCacheCount; i++) {
      struct vkppu_pipeline_cache *src = vkppu_pipeline_cache_from_handle(pSrcCaches[i]);
      /* dstCache must not be among the sources
       * (VUID-vkMergePipelineCaches-dstCache-00770); skip it if it is. */
      if (src == dst)
         continue;
      /* Sources may be in use by other threads (only dstCache is
       * externally synchronized), and another thread may merge the other
       * way round: take the two locks in address order. */
      struct vkppu_pipeline_cache *first = src < dst ? src : dst;
      struct vkppu_pipeline_cache *second = src < dst ? dst : src;
      pthread_mutex_lock(&first->lock);
      pthread_mutex_lock(&second->lock);
      for (const struct vkppu_cache_entry *e = src->entries; e; e = e->next)
         insert_locked(dst, &e->key, &e->info, e->code);
      pthread_mutex_unlock(&second->lock);
      pthread_mutex_unlock(&first->lock);
   }
   return VK_SUCCESS;
}
