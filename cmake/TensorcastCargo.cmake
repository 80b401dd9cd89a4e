# Builds the tensorcast Rust crate with cargo and exposes its C libraries to CMake.
#
#   tensorcast_cargo_version(<out-var> <manifest-dir>)
#       Reads the [package] version from Cargo.toml (usable before project()).
#
#   tensorcast_add_cargo_libraries(MANIFEST_DIR <dir> PROFILE <release|debug>)
#       Adds the always-run target `tensorcast_cargo` (cargo is incremental, so a run with
#       nothing to do is cheap) and two imported targets that depend on it:
#         tensorcast::shared  the cdylib (libtensorcast.so)
#         tensorcast::static  the staticlib (libtensorcast.a) with the system libraries
#                             Rust's std needs (pthread, dl, m on Linux)
#       Both carry <manifest-dir>/include as their include directory. Sets
#       TENSORCAST_LIBRARY_DIR in the caller's scope to the directory holding them.
#
# The libraries land in cargo's usual target directory: $CARGO_TARGET_DIR when it is set
# at configure time, else <manifest-dir>/target. The directory is passed to cargo
# explicitly, so the build uses it even if the variable is unset later.

function(tensorcast_cargo_version out_var manifest_dir)
  file(STRINGS "${manifest_dir}/Cargo.toml" version_line
       REGEX "^version[ \t]*=[ \t]*\"[^\"]+\"" LIMIT_COUNT 1)
  if(NOT version_line MATCHES "\"([0-9]+\\.[0-9]+\\.[0-9]+)[^\"]*\"")
    message(FATAL_ERROR "tensorcast: no version found in ${manifest_dir}/Cargo.toml")
  endif()
  set(${out_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

function(tensorcast_add_cargo_libraries)
  cmake_parse_arguments(ARG "" "MANIFEST_DIR;PROFILE" "" ${ARGN})
  if(NOT ARG_MANIFEST_DIR)
    message(FATAL_ERROR "tensorcast_add_cargo_libraries: MANIFEST_DIR is required")
  endif()

  find_program(CARGO_EXECUTABLE NAMES cargo
               HINTS "$ENV{CARGO_HOME}/bin" "$ENV{HOME}/.cargo/bin"
               DOC "cargo, to build the tensorcast Rust crate")
  if(NOT CARGO_EXECUTABLE)
    message(FATAL_ERROR "tensorcast: cargo not found; install Rust (https://rustup.rs) "
                        "or set CARGO_EXECUTABLE")
  endif()

  if(ARG_PROFILE STREQUAL "release")
    set(profile_flags --release)
    set(profile_dir release)
  elseif(ARG_PROFILE STREQUAL "debug")
    set(profile_flags)
    set(profile_dir debug)
  else()
    message(FATAL_ERROR "tensorcast: TCAST_CARGO_PROFILE must be release or debug, "
                        "not '${ARG_PROFILE}'")
  endif()

  if(NOT "$ENV{CARGO_TARGET_DIR}" STREQUAL "")
    # cargo resolves a relative CARGO_TARGET_DIR against its working directory, which is
    # the manifest directory here.
    get_filename_component(target_dir "$ENV{CARGO_TARGET_DIR}" ABSOLUTE
                           BASE_DIR "${ARG_MANIFEST_DIR}")
  else()
    set(target_dir "${ARG_MANIFEST_DIR}/target")
  endif()
  set(lib_dir "${target_dir}/${profile_dir}")

  set(shared_lib
      "${lib_dir}/${CMAKE_SHARED_LIBRARY_PREFIX}tensorcast${CMAKE_SHARED_LIBRARY_SUFFIX}")
  set(static_lib
      "${lib_dir}/${CMAKE_STATIC_LIBRARY_PREFIX}tensorcast${CMAKE_STATIC_LIBRARY_SUFFIX}")
  set(byproducts "${shared_lib}" "${static_lib}")
  if(WIN32)
    set(import_lib "${lib_dir}/tensorcast.dll.lib")
    list(APPEND byproducts "${import_lib}")
  endif()

  add_custom_target(tensorcast_cargo ALL
    COMMAND "${CARGO_EXECUTABLE}" build --lib ${profile_flags}
            --manifest-path "${ARG_MANIFEST_DIR}/Cargo.toml"
            --target-dir "${target_dir}"
    WORKING_DIRECTORY "${ARG_MANIFEST_DIR}"
    BYPRODUCTS ${byproducts}
    USES_TERMINAL
    COMMENT "cargo build of the tensorcast library (${profile_dir} profile)"
    VERBATIM)

  set(include_dir "${ARG_MANIFEST_DIR}/include")

  add_library(tensorcast::shared SHARED IMPORTED GLOBAL)
  set_target_properties(tensorcast::shared PROPERTIES
    IMPORTED_LOCATION "${shared_lib}"
    INTERFACE_INCLUDE_DIRECTORIES "${include_dir}")
  if(WIN32)
    set_target_properties(tensorcast::shared PROPERTIES IMPORTED_IMPLIB "${import_lib}")
  elseif(NOT APPLE)
    # rustc gives the cdylib no SONAME: link it as -ltensorcast so that executables
    # record "libtensorcast.so" rather than this build's absolute path.
    set_target_properties(tensorcast::shared PROPERTIES IMPORTED_NO_SONAME TRUE)
  endif()
  add_dependencies(tensorcast::shared tensorcast_cargo)

  add_library(tensorcast::static STATIC IMPORTED GLOBAL)
  set_target_properties(tensorcast::static PROPERTIES
    IMPORTED_LOCATION "${static_lib}"
    INTERFACE_INCLUDE_DIRECTORIES "${include_dir}")
  # What Rust's std pulls in (`cargo rustc -- --print native-static-libs`).
  set(THREADS_PREFER_PTHREAD_FLAG ON)
  find_package(Threads REQUIRED)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    set(native_libs Threads::Threads ${CMAKE_DL_LIBS} m)
  elseif(APPLE)
    set(native_libs Threads::Threads "-framework CoreFoundation" m)
  elseif(WIN32)
    set(native_libs ws2_32 userenv bcrypt ntdll advapi32 kernel32)
  else()
    set(native_libs Threads::Threads m)
  endif()
  set_target_properties(tensorcast::static PROPERTIES
    INTERFACE_LINK_LIBRARIES "${native_libs}")
  add_dependencies(tensorcast::static tensorcast_cargo)

  set(TENSORCAST_LIBRARY_DIR "${lib_dir}" PARENT_SCOPE)
endfunction()
