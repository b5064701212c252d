# Runs rt_ambient_occlusion (RT) and rq_ambient_occlusion (RQ) with the same
# arguments (ARGS, a ;-list) and fails unless both succeed and their PNGs
# are identical. Exit 77 from either is passed on (skipped).
foreach(sample RT RQ)
  execute_process(COMMAND ${${sample}} ${ARGS} --output ${OUT}_${sample}.png
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(status EQUAL 77)
    message("skipped: ${sample} cannot run here")
    # cmake -P cannot exit with 77: CTest's SKIP_REGULAR_EXPRESSION matches
    # the line above.
    message(FATAL_ERROR "SKIP")
  elseif(NOT status EQUAL 0)
    message(FATAL_ERROR "${sample} failed with status ${status}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}_RT.png ${OUT}_RQ.png
                RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "the ray-tracing pipeline image ${OUT}_RT.png differs from the ray-query "
                      "image ${OUT}_RQ.png")
endif()
message("images equal: ${OUT}_RT.png ${OUT}_RQ.png")
