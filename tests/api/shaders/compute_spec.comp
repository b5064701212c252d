#version 450
// A specialization constant sets both the workgroup size and a value.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VALUE = 7;
layout(set = 0, binding = 0) buffer Out {
   uint v[];
} o;
void main()
{
   o.v[gl_GlobalInvocationID.x] = VALUE + gl_WorkGroupSize.x;
}
