/* icd/sha256.c against the example digests of FIPS 180-4 (NIST's
 * "SHA-256" example values: "abc", the empty message, the two-block
 * 448-bit message, and one million 'a' fed in uneven pieces so that the
 * streaming path crosses block boundaries everywhere). */
#include <stdio.h>
#include <string.h>

#include "sha256.h"
#include "test_harness.h"

static void hex(const uint8_t d[VKPPU_SHA256_BYTES], char out[2 * VKPPU_SHA256_BYTES + 1])
{
   for (unsigned i = 0; i < VKPPU_SHA256_BYTES; i++)
      snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void check_digest(const char *msg, size_t len, const char *want)
{
   struct vkppu_sha256 s;
   uint8_t d[VKPPU_SHA256_BYTES];
   char got[2 * VKPPU_SHA256_BYTES + 1];
   vkppu_sha256_init(&s);
   vkppu_sha256_update(&s, msg, len);
   vkppu_sha256_final(&s, d);
   hex(d, got);
   CHECK_MSG(strcmp(got, want) == 0, "SHA-256 of %zu bytes: %s, want %s", len, got, want);
}

TEST_CASE(sha256_matches_fips_180_examples)
{
   check_digest("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
   check_digest("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
   const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
   check_digest(two, strlen(two),
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE(sha256_streams_a_million_a_in_uneven_pieces)
{
   static char chunk[997];
   memset(chunk, 'a', sizeof(chunk));
   struct vkppu_sha256 s;
   vkppu_sha256_init(&s);
   size_t left = 1000000, piece = 1;
   while (left > 0) {
      size_t n = piece < left ? piece : left;
      vkppu_sha256_update(&s, chunk, n);
      left -= n;
      piece = (piece + 37) % sizeof(chunk) + 1; /* 1, 39, 77, ...: never a block size */
   }
   uint8_t d[VKPPU_SHA256_BYTES];
   char got[2 * VKPPU_SHA256_BYTES + 1];
   vkppu_sha256_final(&s, d);
   hex(d, got);
   CHECK_MSG(strcmp(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0,
             "SHA-256 of a million 'a': %s", got);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
