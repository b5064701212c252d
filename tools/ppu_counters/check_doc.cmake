# docs.counter_reference: the checked-in docs/counter-reference.md must be
# exactly what `ppu-counters --doc` prints. -DTOOL=<ppu-counters> -DDOC=<file>
execute_process(COMMAND ${TOOL} --doc OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} --doc failed (${rc})")
endif()
file(READ ${DOC} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${DOC} is stale: run build/tools/ppu_counters/ppu-counters --doc > "
                      "docs/counter-reference.md")
endif()
