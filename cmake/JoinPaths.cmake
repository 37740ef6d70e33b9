# join_paths(<out> <base> <path>...): <base>/<path>/..., except that an
# absolute <path> replaces everything before it. pkg-config files need this:
# "${prefix}/${CMAKE_INSTALL_LIBDIR}" is wrong when the libdir is given as an
# absolute path (-DCMAKE_INSTALL_LIBDIR=/usr/lib64), and cmake_path(APPEND)
# would also normalise the literal "${prefix}" placeholder away.
function(join_paths out base)
  set(joined "${base}")
  foreach(part IN LISTS ARGN)
    if(part STREQUAL "")
      continue()
    elseif(IS_ABSOLUTE "${part}")
      set(joined "${part}")
    elseif(joined STREQUAL "")
      set(joined "${part}")
    else()
      string(REGEX REPLACE "/+$" "" joined "${joined}")
      set(joined "${joined}/${part}")
    endif()
  endforeach()
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()
