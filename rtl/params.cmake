# RTL parameter files (rtl/params/*.params: one Name=value per line, '#' comments; the format
# scripts/synth/params_file.sh reads for synth.sh, pnr.sh and formal.sh). Included from
# rtl/CMakeLists.txt.

# mt_rtl_read_params(FILE OUT): OUT = the file's Name=value entries, in order. A line that is not
# one, or a name given twice, stops the configuration naming the file and line; the file is a
# configure dependency (an edit re-runs CMake).
function(mt_rtl_read_params file out)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "RTL parameter file ${file}: no such file")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
  file(STRINGS "${file}" lines)
  set(entries)
  set(names)
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    string(REGEX REPLACE "#.*" "" kv "${line}")
    string(REGEX REPLACE "[ \t\r]" "" kv "${kv}")
    if(kv STREQUAL "")
      continue()
    endif()
    if(NOT kv MATCHES "^([A-Z][A-Za-z]*)=([0-9]+)$")
      message(FATAL_ERROR "${file}:${n}: '${line}': want Name=integer (an RTL parameter)")
    endif()
    if("${CMAKE_MATCH_1}" IN_LIST names)
      message(FATAL_ERROR "${file}:${n}: ${CMAKE_MATCH_1} given twice")
    endif()
    list(APPEND names "${CMAKE_MATCH_1}")
    list(APPEND entries "${kv}")
  endforeach()
  set(${out} "${entries}" PARENT_SCOPE)
endfunction()

# mt_rtl_param_flags(ENTRIES GPARAMS DEFINES): from Name=value entries, Verilator's -GName=value
# flags and the compile definitions MT_RTL_<NAME>=value (Name in upper snake case: MaxCount ->
# MT_RTL_MAX_COUNT) that tell the C++ side the build's parameters.
function(mt_rtl_param_flags entries gparams defines)
  set(g)
  set(d)
  foreach(kv IN LISTS entries)
    string(REPLACE "=" ";" parts "${kv}")
    list(GET parts 0 name)
    list(GET parts 1 value)
    string(REGEX REPLACE "([a-z])([A-Z])" "\\1_\\2" macro "${name}")
    string(TOUPPER "${macro}" macro)
    list(APPEND g "-G${name}=${value}")
    list(APPEND d "MT_RTL_${macro}=${value}")
  endforeach()
  set(${gparams} "${g}" PARENT_SCOPE)
  set(${defines} "${d}" PARENT_SCOPE)
endfunction()
