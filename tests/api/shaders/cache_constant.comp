#version 450
// Writes one distinctive constant everywhere: its bits appear as an
// instruction immediate in the compiled program, which
// test_pipeline_cache_trust.c alters inside a cache blob.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out {
   uint v[];
} o;
void main()
{
   o.v[gl_GlobalInvocationID.x] = 0x5EED1234u;
}
