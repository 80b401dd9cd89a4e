# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the tensorcast Rust crate with cargo and exposes its C libraries to CMake.
#
#   tensorcast_cargo_version(<out-var> <manifest-dir>)
#       Reads the [package] version from Cargo.toml (usable before project()).
#
#   tensorcast_native_static_libs(<out-var> <manifest-dir>)
#       Reads the system libraries a program linking the staticlib needs on Linux, as
#       names for -l, from <manifest-dir>/cmake/native-static-libs.txt.
#
#   tensorcast_cargo_invocation(<env-var> <flags-var> ...)
#       The cargo flags and environment of the options below (described there).
#
#   tensorcast_add_cargo_libraries(MANIFEST_DIR <dir> PROFILE <release|debug>
#                                  [ORT] [LOCKED] [OFFLINE] [CARGO_FLAGS <flag>...]
#                                  [REMAP_PATHS [REMAP_SOURCE_TO <path>]]
#                                  [DEBUGINFO <OFF|line-tables-only|limited|full>])
#       Adds the always-run target `tensorcast_cargo` (cargo is incremental, so a run with
#       nothing to do is cheap), which runs cargo with the flags and the environment
#       tensorcast_cargo_invocation() derives from the options after PROFILE (see there),
#       and two imported targets that depend on it, named as the installed package
#       names them (tensorcastTargets-*.cmake.in), so that a project
#       links the same names whether it finds tensorcast installed or adds its source
#       tree with add_subdirectory():
#         tensorcast::tensorcast         the cdylib (libtensorcast.so)
#         tensorcast::tensorcast_static  the staticlib (libtensorcast.a) with the system
#                                        libraries Rust's std needs (Linux: the list in
#                                        cmake/native-static-libs.txt)
#       Both carry <manifest-dir>/include as their include directory. Sets in the
#       caller's scope:
#         TENSORCAST_LIBRARY_DIR         cargo's directory holding both libraries
#         TENSORCAST_SHARED_LIBRARY      the cdylib's path
#         TENSORCAST_STATIC_LIBRARY      the staticlib's path (Linux: the build tree's copy
#                                        where only tcast_* is global, see below)
#         TENSORCAST_SONAME              the cdylib's SONAME (Linux: libtensorcast.so.<major>,
#                                        set by capi/build.rs), else empty
#         TENSORCAST_NATIVE_STATIC_LIBS  on Linux, the system libraries a program linking the
#                                        staticlib needs, as names for -l, read from
#                                        <manifest-dir>/cmake/native-static-libs.txt
#         TENSORCAST_CARGO_FLAGS         what was added to `cargo build` (--locked, ...)
#         TENSORCAST_CARGO_ENV           the VAR=VALUE words the cargo run gets
#         TENSORCAST_ORT_LIBRARY         with ORT: the onnxruntime plugin's path
#                                        (libtensorcast_ort.so, SONAME the same), else empty
#       ORT builds the onnxruntime plugin (integrations/onnxruntime, package tensorcast-ort)
#       in the same cargo run, `-p tensorcast-c -p tensorcast-ort`: one resolution, one
#       set of flags and one target directory, so the core is compiled once and both
#       libraries link that rlib (the plugin holds the core; it does not load
#       libtensorcast.so). The linker wrapper leaves the plugin's link unchanged (its
#       SONAME is not libtensorcast.so.<major>).
#       On Linux, a link named after the SONAME is made beside the cdylib after each cargo
#       run, so that programs linked against it there find it at run time.
#       On Linux, too (docs/c-api.md, section 11): cargo links through
#       cmake/tensorcast-linker.sh, so that the cdylib's functions carry the symbol version
#       TENSORCAST_<major> (tensorcast_versioned_link_env below; the linker it ends up
#       running is the cache variable TCAST_CARGO_LINKER), and after cargo,
#       cmake/tensorcast-localize-static.sh writes <build-dir>/tensorcast-static/
#       libtensorcast.a, the staticlib with every global symbol but tcast_* made local,
#       which is what tensorcast::tensorcast_static links and what is installed.
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

function(tensorcast_native_static_libs out_var manifest_dir)
  set(file "${manifest_dir}/cmake/native-static-libs.txt")
  file(STRINGS "${file}" lines REGEX "^[^#]")
  string(JOIN " " names ${lines})
  string(REGEX REPLACE "[ \t]+" ";" names "${names}")
  list(FILTER names EXCLUDE REGEX "^$")
  if(NOT names)
    message(FATAL_ERROR "tensorcast: no library names in ${file}")
  endif()
  # An edit of the list configures the build again.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
  set(${out_var} "${names}" PARENT_SCOPE)
endfunction()

# tensorcast_cargo_invocation(<env-var> <flags-var> MANIFEST_DIR <dir> TARGET_DIR <dir>
#                             PROFILE <release|debug> [LOCKED] [OFFLINE]
#                             [CARGO_FLAGS <flag>...] [REMAP_PATHS [REMAP_SOURCE_TO <path>]]
#                             [DEBUGINFO <OFF|line-tables-only|limited|full>])
#   What a packager controls of the cargo run: sets <flags-var> to the arguments added to
#   `cargo build` and <env-var> to the VAR=VALUE words given to `cmake -E env` around it.
#     LOCKED           --locked: build exactly what Cargo.lock says, fail rather than
#                      update it (Cargo.lock is committed)
#     OFFLINE          --offline: never touch the network (vendored sources, or a
#                      populated CARGO_HOME)
#     CARGO_FLAGS      further arguments to `cargo build`, e.g. --frozen or -j2
#     REMAP_PATHS      rustc --remap-path-prefix for every crate compiled, so that the
#                      libraries (panic locations, and debug info when there is some) do
#                      not hold the builder's paths: the source tree becomes
#                      REMAP_SOURCE_TO (default tensorcast-<version>; a vendor/ directory
#                      in the tree follows it), CARGO_HOME (its registry sources) becomes
#                      cargo-home and a target directory outside the tree becomes target.
#                      Passed as CARGO_ENCODED_RUSTFLAGS, after the flags of RUSTFLAGS or
#                      CARGO_ENCODED_RUSTFLAGS as set when CMake configures; this
#                      variable outranks `build.rustflags` of cargo's config files,
#                      which then no longer apply.
#     DEBUGINFO        the profile's debug info (CARGO_PROFILE_<PROFILE>_DEBUG): OFF leaves
#                      cargo's default (none for release), ON means full
function(tensorcast_cargo_invocation env_var flags_var)
  cmake_parse_arguments(ARG "LOCKED;OFFLINE;REMAP_PATHS"
                        "MANIFEST_DIR;TARGET_DIR;PROFILE;REMAP_SOURCE_TO;DEBUGINFO"
                        "CARGO_FLAGS" ${ARGN})
  set(flags)
  if(ARG_LOCKED)
    list(APPEND flags --locked)
  endif()
  if(ARG_OFFLINE)
    list(APPEND flags --offline)
  endif()
  list(APPEND flags ${ARG_CARGO_FLAGS})

  set(env)
  # Debug info for a -dbgsym/-debuginfo package.
  if(ARG_PROFILE STREQUAL "release")
    set(profile_var CARGO_PROFILE_RELEASE_DEBUG)
  else()
    set(profile_var CARGO_PROFILE_DEV_DEBUG)
  endif()
  if(NOT ARG_DEBUGINFO OR ARG_DEBUGINFO STREQUAL "OFF")
    # cargo's default for the profile
  elseif(ARG_DEBUGINFO STREQUAL "ON")
    list(APPEND env "${profile_var}=full")
  elseif(ARG_DEBUGINFO MATCHES "^(line-tables-only|limited|full)$")
    list(APPEND env "${profile_var}=${ARG_DEBUGINFO}")
  else()
    message(FATAL_ERROR "tensorcast: TCAST_DEBUGINFO must be OFF, line-tables-only, limited "
                        "or full (ON means full), not '${ARG_DEBUGINFO}'")
  endif()

  # The flags rustc gets for every crate: those of the environment at configure time,
  # then the path remappings.
  string(ASCII 31 unit_separator)
  set(rustflags)
  if(NOT "$ENV{CARGO_ENCODED_RUSTFLAGS}" STREQUAL "")
    string(REPLACE "${unit_separator}" ";" rustflags "$ENV{CARGO_ENCODED_RUSTFLAGS}")
  elseif(NOT "$ENV{RUSTFLAGS}" STREQUAL "")
    string(STRIP "$ENV{RUSTFLAGS}" rustflags)
    string(REGEX REPLACE "[ \t\r\n]+" ";" rustflags "${rustflags}")
  endif()
  if(ARG_REMAP_PATHS)
    if(NOT ARG_REMAP_SOURCE_TO)
      tensorcast_cargo_version(version "${ARG_MANIFEST_DIR}")
      set(ARG_REMAP_SOURCE_TO "tensorcast-${version}")
    endif()
    if(NOT "$ENV{CARGO_HOME}" STREQUAL "")
      get_filename_component(cargo_home "$ENV{CARGO_HOME}" ABSOLUTE)
    elseif(NOT "$ENV{HOME}" STREQUAL "")
      set(cargo_home "$ENV{HOME}/.cargo")
    else()
      set(cargo_home "")
    endif()
    # rustc applies the last matching mapping: more specific (longer) prefixes go later,
    # whichever of these directories holds another.
    set(pairs "${ARG_MANIFEST_DIR}|${ARG_REMAP_SOURCE_TO}")
    if(cargo_home)
      list(APPEND pairs "${cargo_home}|cargo-home")
    endif()
    file(RELATIVE_PATH target_in_tree "${ARG_MANIFEST_DIR}" "${ARG_TARGET_DIR}")
    if(target_in_tree MATCHES "^\\.\\./" OR IS_ABSOLUTE "${target_in_tree}")
      list(APPEND pairs "${ARG_TARGET_DIR}|target")
    endif()
    # The same directories as the file system resolves them, when a link leads there.
    foreach(pair IN LISTS pairs)
      string(REGEX MATCH "^[^|]*" from "${pair}")
      string(REGEX REPLACE "^[^|]*\\|" "" to "${pair}")
      get_filename_component(real "${from}" REALPATH)
      if(NOT real STREQUAL from)
        list(APPEND pairs "${real}|${to}")
      endif()
    endforeach()
    set(by_length)
    foreach(pair IN LISTS pairs)
      string(REGEX MATCH "^[^|]*" from "${pair}")
      string(LENGTH "${from}" length)
      math(EXPR key "100000 + ${length}")
      list(APPEND by_length "${key}|${pair}")
    endforeach()
    list(SORT by_length)
    foreach(entry IN LISTS by_length)
      string(REGEX REPLACE "^[0-9]+\\|" "" pair "${entry}")
      string(REGEX MATCH "^[^|]*" from "${pair}")
      string(REGEX REPLACE "^[^|]*\\|" "" to "${pair}")
      list(APPEND rustflags "--remap-path-prefix=${from}=${to}")
    endforeach()
  endif()
  if(rustflags)
    # CARGO_ENCODED_RUSTFLAGS separates flags with 0x1f, so paths may hold spaces.
    list(JOIN rustflags "${unit_separator}" encoded)
    list(APPEND env "CARGO_ENCODED_RUSTFLAGS=${encoded}")
  endif()

  set(${env_var} "${env}" PARENT_SCOPE)
  set(${flags_var} "${flags}" PARENT_SCOPE)
endfunction()

# The command prefix under which cargo links the cdylib through cmake/tensorcast-linker.sh
# (Linux): `cmake -E env CARGO_TARGET_<HOST>_LINKER=<wrapper> TCAST_REAL_LINKER=<linker>`,
# for rustc's host target, the one cargo builds for here. The linker the wrapper runs is
# the cache variable TCAST_CARGO_LINKER: by default CARGO_TARGET_<HOST>_LINKER as the
# environment gives it at configure time, else cargo's own default, cc.
function(tensorcast_versioned_link_env out_var manifest_dir)
  if(NOT "$ENV{RUSTC}" STREQUAL "")
    set(rustc "$ENV{RUSTC}")
  else()
    get_filename_component(cargo_dir "${CARGO_EXECUTABLE}" DIRECTORY)
    find_program(RUSTC_EXECUTABLE NAMES rustc HINTS "${cargo_dir}"
                 DOC "rustc, asked for its host target")
    set(rustc "${RUSTC_EXECUTABLE}")
  endif()
  execute_process(COMMAND "${rustc}" -vV
                  WORKING_DIRECTORY "${manifest_dir}"
                  OUTPUT_VARIABLE rustc_info RESULT_VARIABLE result)
  if(NOT result EQUAL 0 OR NOT rustc_info MATCHES "host: ([^\n]+)")
    message(FATAL_ERROR "tensorcast: `${rustc} -vV` names no host target")
  endif()
  set(host "${CMAKE_MATCH_1}")
  string(TOUPPER "${host}" host_upper)
  string(REGEX REPLACE "[-.]" "_" host_upper "${host_upper}")
  set(linker_var "CARGO_TARGET_${host_upper}_LINKER")
  if(NOT "$ENV{${linker_var}}" STREQUAL "")
    set(default_linker "$ENV{${linker_var}}")
  else()
    set(default_linker cc)
  endif()
  set(TCAST_CARGO_LINKER "${default_linker}" CACHE STRING
      "the linker (a C compiler driver) cargo runs through cmake/tensorcast-linker.sh")
  # cargo runs the wrapper itself, so it must be executable; a copy of the tree that lost
  # the mode gets an executable copy in the build tree.
  set(wrapper "${manifest_dir}/cmake/tensorcast-linker.sh")
  execute_process(COMMAND test -x "${wrapper}" RESULT_VARIABLE not_executable)
  if(NOT not_executable EQUAL 0)
    file(COPY "${wrapper}" DESTINATION "${CMAKE_CURRENT_BINARY_DIR}/tensorcast-linker"
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                          WORLD_READ WORLD_EXECUTE)
    set(wrapper "${CMAKE_CURRENT_BINARY_DIR}/tensorcast-linker/tensorcast-linker.sh")
  endif()
  set(${out_var} "${CMAKE_COMMAND}" -E env "${linker_var}=${wrapper}"
      "TCAST_REAL_LINKER=${TCAST_CARGO_LINKER}" PARENT_SCOPE)
endfunction()

function(tensorcast_add_cargo_libraries)
  cmake_parse_arguments(ARG "LOCKED;OFFLINE;REMAP_PATHS;ORT"
                        "MANIFEST_DIR;PROFILE;REMAP_SOURCE_TO;DEBUGINFO" "CARGO_FLAGS" ${ARGN})
  if(NOT ARG_MANIFEST_DIR)
    message(FATAL_ERROR "tensorcast_add_cargo_libraries: MANIFEST_DIR is required")
  endif()

  # rustup's cargo first (CARGO_HOME's, else ~/.cargo's), then PATH. An unset CARGO_HOME
  # must not turn into a hint of /bin, which would prefer a system cargo to rustup's.
  set(cargo_hints)
  if(NOT "$ENV{CARGO_HOME}" STREQUAL "")
    list(APPEND cargo_hints "$ENV{CARGO_HOME}/bin")
  endif()
  if(NOT "$ENV{HOME}" STREQUAL "")
    list(APPEND cargo_hints "$ENV{HOME}/.cargo/bin")
  endif()
  find_program(CARGO_EXECUTABLE NAMES cargo HINTS ${cargo_hints}
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
  set(packages -p tensorcast-c)
  set(ort_lib "")
  if(ARG_ORT)
    list(APPEND packages -p tensorcast-ort)
    set(ort_lib
        "${lib_dir}/${CMAKE_SHARED_LIBRARY_PREFIX}tensorcast_ort${CMAKE_SHARED_LIBRARY_SUFFIX}")
    list(APPEND byproducts "${ort_lib}")
  endif()
  string(JOIN " " packages_words ${packages})
  set(soname "")
  set(soname_link_command)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    # capi/build.rs gives the cdylib this SONAME; a program linked against it records the name.
    tensorcast_cargo_version(version "${ARG_MANIFEST_DIR}")
    string(REGEX REPLACE "\\..*" "" major "${version}")
    set(soname "libtensorcast.so.${major}")
    set(soname_link_command
        COMMAND "${CMAKE_COMMAND}" -E create_symlink
                "${CMAKE_SHARED_LIBRARY_PREFIX}tensorcast${CMAKE_SHARED_LIBRARY_SUFFIX}"
                "${lib_dir}/${soname}")
    list(APPEND byproducts "${lib_dir}/${soname}")
  endif()

  # The packager's cargo flags and environment (--locked, --offline, path remapping,
  # debug info): tensorcast_cargo_invocation() above.
  set(invocation_options)
  foreach(option LOCKED OFFLINE REMAP_PATHS)
    if(ARG_${option})
      list(APPEND invocation_options ${option})
    endif()
  endforeach()
  tensorcast_cargo_invocation(cargo_env cargo_flags
    MANIFEST_DIR "${ARG_MANIFEST_DIR}" TARGET_DIR "${target_dir}" PROFILE "${ARG_PROFILE}"
    ${invocation_options} CARGO_FLAGS ${ARG_CARGO_FLAGS}
    REMAP_SOURCE_TO "${ARG_REMAP_SOURCE_TO}" DEBUGINFO "${ARG_DEBUGINFO}")
  set(TENSORCAST_CARGO_ENV "${cargo_env}" PARENT_SCOPE)
  set(TENSORCAST_CARGO_FLAGS "${cargo_flags}" PARENT_SCOPE)

  # --- Symbol versions and a static library that coexists (docs/c-api.md, section 11) ---
  # On Linux, cargo links through cmake/tensorcast-linker.sh, which names the version node
  # of rustc's version script TENSORCAST_<major>, and after cargo the static library is
  # made into one whose only global symbols are tcast_* (cmake/tensorcast-localize-static.sh),
  # written to the build tree; TENSORCAST_STATIC_LIBRARY and the installed copy are that one.
  set(versioned_link_env)
  set(localize_static_command)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    tensorcast_versioned_link_env(versioned_link_env "${ARG_MANIFEST_DIR}")
    set(cargo_static_lib "${static_lib}")
    set(static_lib "${CMAKE_CURRENT_BINARY_DIR}/tensorcast-static/libtensorcast.a")
    file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/tensorcast-static")
    foreach(tool CMAKE_LINKER CMAKE_OBJCOPY CMAKE_AR)
      if(NOT ${tool})
        message(FATAL_ERROR "tensorcast: ${tool} not found; the static library is made "
                            "with ld -r, objcopy and ar (Debian: binutils)")
      endif()
    endforeach()
    set(localize_static_command
        COMMAND sh "${ARG_MANIFEST_DIR}/cmake/tensorcast-localize-static.sh"
                "${CMAKE_LINKER}" "${CMAKE_OBJCOPY}" "${CMAKE_AR}"
                "${cargo_static_lib}" "${static_lib}")
    list(APPEND byproducts "${static_lib}")
  endif()
  # --- end of the symbol versions and the static library ---

  # GNU make hands its jobserver (the -j of `make -jN`, of dpkg-buildpackage -jN) only to
  # the recipe lines it takes for recursive makes: those that name $(MAKE). Naming it here
  # (CMake keeps make variables as they are) lets cargo take its jobs from the jobserver
  # instead of warning that it cannot reach it; CMake 3.28's JOB_SERVER_AWARE does the same.
  set(jobserver_env)
  if(CMAKE_GENERATOR MATCHES "Makefiles")
    set(jobserver_env "TCAST_PARENT_MAKE=$(MAKE)")
  endif()

  add_custom_target(tensorcast_cargo ALL
    COMMAND ${versioned_link_env} "${CMAKE_COMMAND}" -E env ${cargo_env} ${jobserver_env}
            "${CARGO_EXECUTABLE}" build --lib ${profile_flags} ${cargo_flags}
            ${packages} --manifest-path "${ARG_MANIFEST_DIR}/Cargo.toml"
            --target-dir "${target_dir}"
    ${soname_link_command}
    ${localize_static_command}
    WORKING_DIRECTORY "${ARG_MANIFEST_DIR}"
    BYPRODUCTS ${byproducts}
    USES_TERMINAL
    COMMENT "cargo build of the tensorcast library ${packages_words} (${profile_dir} profile)"
    VERBATIM)

  set(include_dir "${ARG_MANIFEST_DIR}/include")

  add_library(tensorcast::tensorcast SHARED IMPORTED GLOBAL)
  set_target_properties(tensorcast::tensorcast PROPERTIES
    IMPORTED_LOCATION "${shared_lib}"
    INTERFACE_INCLUDE_DIRECTORIES "${include_dir}")
  if(WIN32)
    set_target_properties(tensorcast::tensorcast PROPERTIES IMPORTED_IMPLIB "${import_lib}")
  elseif(soname)
    set_target_properties(tensorcast::tensorcast PROPERTIES IMPORTED_SONAME "${soname}")
  elseif(NOT APPLE)
    # Without a SONAME, link it as -ltensorcast so that executables record
    # "libtensorcast.so" rather than this build's absolute path.
    set_target_properties(tensorcast::tensorcast PROPERTIES IMPORTED_NO_SONAME TRUE)
  endif()
  add_dependencies(tensorcast::tensorcast tensorcast_cargo)

  add_library(tensorcast::tensorcast_static STATIC IMPORTED GLOBAL)
  set_target_properties(tensorcast::tensorcast_static PROPERTIES
    IMPORTED_LOCATION "${static_lib}"
    INTERFACE_INCLUDE_DIRECTORIES "${include_dir}")
  # What Rust's std pulls in. On Linux, the list of cmake/native-static-libs.txt (the one
  # place it is written; scripts/test-install.sh compares it with what rustc prints).
  # Elsewhere, lists nothing here checks (the install rules and the checks are Linux-only).
  set(native_static_libs "")
  set(THREADS_PREFER_PTHREAD_FLAG ON)
  find_package(Threads REQUIRED)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    tensorcast_native_static_libs(native_static_libs "${ARG_MANIFEST_DIR}")
    set(native_libs ${native_static_libs})
  elseif(APPLE)
    set(native_libs Threads::Threads "-framework CoreFoundation" m)
  elseif(WIN32)
    set(native_libs ws2_32 userenv bcrypt ntdll advapi32 kernel32)
  else()
    set(native_libs Threads::Threads m)
  endif()
  set_target_properties(tensorcast::tensorcast_static PROPERTIES
    INTERFACE_LINK_LIBRARIES "${native_libs}")
  add_dependencies(tensorcast::tensorcast_static tensorcast_cargo)

  set(TENSORCAST_LIBRARY_DIR "${lib_dir}" PARENT_SCOPE)
  set(TENSORCAST_SHARED_LIBRARY "${shared_lib}" PARENT_SCOPE)
  set(TENSORCAST_STATIC_LIBRARY "${static_lib}" PARENT_SCOPE)
  set(TENSORCAST_SONAME "${soname}" PARENT_SCOPE)
  set(TENSORCAST_ORT_LIBRARY "${ort_lib}" PARENT_SCOPE)
  set(TENSORCAST_NATIVE_STATIC_LIBS "${native_static_libs}" PARENT_SCOPE)
endfunction()
