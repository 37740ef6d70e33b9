# cmake -DPYTHON=... -DSCRIPT=gen.py -DEXPECTED=file -P compare_generated.cmake:
# fails unless the script's standard output equals the committed file.
execute_process(COMMAND "${PYTHON}" "${SCRIPT}" OUTPUT_VARIABLE got RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} failed (${rc})")
endif()
file(READ "${EXPECTED}" want)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "${EXPECTED} differs from the output of ${SCRIPT}: regenerate it")
endif()
message(STATUS "${EXPECTED} is ${SCRIPT}'s output")
