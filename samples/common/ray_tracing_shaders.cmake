# vkppu_ray_tracing_shaders(<target> <shader>...): compiles
# shaders/<shader> of the calling sample (rgen, rmiss, rchit, rahit, rint,
# rcall) to <binary dir>/<shader>.spv with glslangValidator and makes the
# custom target <target> depend on them. SPIR-V 1.4 for a Vulkan 1.1
# environment, like the ray-query samples: the oldest ray tracing allows
# (VK_KHR_spirv_1_4). Used by rt_ambient_occlusion and rt_reflections.
find_program(GLSLANG_VALIDATOR glslangValidator REQUIRED)
function(vkppu_ray_tracing_shaders target)
  set(spvs "")
  foreach(shader ${ARGN})
    set(spv ${CMAKE_CURRENT_BINARY_DIR}/${shader}.spv)
    add_custom_command(OUTPUT ${spv}
                       COMMAND ${GLSLANG_VALIDATOR} -V --quiet --target-env vulkan1.1
                               --target-env spirv1.4 ${CMAKE_CURRENT_SOURCE_DIR}/shaders/${shader}
                               -o ${spv}
                       DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/shaders/${shader}
                       COMMENT "glslangValidator ${shader}")
    list(APPEND spvs ${spv})
  endforeach()
  add_custom_target(${target} DEPENDS ${spvs})
endfunction()
