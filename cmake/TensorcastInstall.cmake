# SPDX-License-Identifier: MIT OR Apache-2.0
# Install rules for tensorcast as a system library (Linux). Included by CMakeLists.txt
# after tensorcast_add_cargo_libraries(), whose TENSORCAST_* variables it reads, and after
# the options TCAST_INSTALL_SHARED, TCAST_INSTALL_STATIC and TCAST_INSTALL_DOCS (all ON by
# default).
#
#   cmake --install <build-dir> --prefix <prefix>
#
# installs, with <libdir> = CMAKE_INSTALL_LIBDIR (GNUInstallDirs: "lib" under a custom
# prefix, "lib/<multiarch>" on Debian when the prefix is /usr):
#   TCAST_INSTALL_SHARED:
#   <libdir>/libtensorcast.so.X.Y.Z      the cdylib, SONAME libtensorcast.so.X
#   <libdir>/libtensorcast.so.X          -> libtensorcast.so.X.Y.Z
#   <libdir>/libtensorcast.so            -> libtensorcast.so.X
#   <libdir>/cmake/tensorcast/tensorcastTargets-shared.cmake   tensorcast::tensorcast
#   TCAST_INSTALL_STATIC:
#   <libdir>/libtensorcast.a             the staticlib
#   <libdir>/cmake/tensorcast/tensorcastTargets-static.cmake   tensorcast::tensorcast_static
#   always:
#   include/tensorcast.h, include/tensorcast.hpp (the C++17 layer, header-only)
#   <libdir>/cmake/tensorcast/           tensorcastConfig.cmake (components shared and
#                                        static: whichever targets files are installed),
#                                        tensorcastConfigVersion.cmake (SameMajorVersion)
#   <libdir>/pkgconfig/tensorcast.pc     Libs: -ltensorcast; with both libraries,
#                                        Libs.private: the static link's system libraries;
#                                        with the static one only, those in Libs (then
#                                        -ltensorcast can only mean libtensorcast.a); with
#                                        the shared one only, no Libs.private
#   TCAST_BUILD_ORT (OFF by default):
#   <ortdir>/libtensorcast_ort.so        the onnxruntime plugin (SONAME libtensorcast_ort.so,
#                                        exporting CreateEpFactories, ReleaseEpFactory and
#                                        RegisterCustomOps only), where <ortdir> is the
#                                        cache variable TCAST_INSTALL_ORTDIR, by default
#                                        <libdir>/tensorcast: a module a host dlopen()s by
#                                        path, not a library programs link, so it stays out
#                                        of the linker's search path (Debian Policy 10.2,
#                                        the FHS's /usr/lib/<package>), unversioned
#   TCAST_INSTALL_CSHARP (OFF by default; needs TCAST_INSTALL_SHARED and Mono's mcs):
#   <libdir>/TensorcastSharp.dll         the C# bindings (bindings/csharp/src/*.cs, the
#                                        .csproj's <Compile> items), beside
#                                        libtensorcast.so, where the assembly's resolver
#                                        looks first (bindings/csharp/README.md)
#   TCAST_INSTALL_DOCS, in CMAKE_INSTALL_DOCDIR (share/doc/tensorcast):
#   LICENSE-MIT, LICENSE-APACHE, README.md, CHANGELOG.md, SECURITY.md and CONTRIBUTING.md
#   (those present in the source tree), docs/*.md and docs/perf/ as docs/, and the
#   READMEs of bindings/go, bindings/csharp and integrations/onnxruntime at those paths
#   (what the installed documents link to)
#
# cargo, not CMake, links the libraries, so the package files are written from templates
# in cmake/ rather than by install(EXPORT). The CMake files find the libraries relative
# to their own location (the installed tree can move); tensorcast.pc gets the prefix
# given to `cmake --install`.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux" OR NOT TENSORCAST_SONAME)
  message(STATUS "tensorcast: the install rules are written for Linux only; "
                 "`cmake --install` installs nothing on ${CMAKE_SYSTEM_NAME}")
  return()
endif()

file(STRINGS "${PROJECT_SOURCE_DIR}/Cargo.toml" TCAST_DESCRIPTION
     REGEX "^description[ \t]*=" LIMIT_COUNT 1)
string(REGEX REPLACE "^[^\"]*\"(.*)\"[ \t]*$" "\\1" TCAST_DESCRIPTION "${TCAST_DESCRIPTION}")
set(TCAST_REAL_NAME "libtensorcast.so.${PROJECT_VERSION}")
set(TCAST_SONAME "${TENSORCAST_SONAME}")
set(TCAST_NATIVE_STATIC_LIBS "${TENSORCAST_NATIVE_STATIC_LIBS}")
set(TCAST_PACKAGE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/tensorcast")
set(TCAST_INSTALL_STAGE "${CMAKE_CURRENT_BINARY_DIR}/tensorcast-install")
file(MAKE_DIRECTORY "${TCAST_INSTALL_STAGE}")

# The libraries and the header. The two links are made here (pointing at names that
# exist only once installed) and installed as links.
if(NOT TCAST_INSTALL_SHARED AND NOT TCAST_INSTALL_STATIC)
  message(FATAL_ERROR "tensorcast: TCAST_INSTALL_SHARED and TCAST_INSTALL_STATIC are both OFF: "
                      "`cmake --install` would install no library")
endif()
set(TCAST_PACKAGE_COMPONENTS)
if(TCAST_INSTALL_SHARED)
  list(APPEND TCAST_PACKAGE_COMPONENTS shared)
  install(FILES "${TENSORCAST_SHARED_LIBRARY}"
          DESTINATION "${CMAKE_INSTALL_LIBDIR}" RENAME "${TCAST_REAL_NAME}")
  file(CREATE_LINK "${TCAST_REAL_NAME}" "${TCAST_INSTALL_STAGE}/${TCAST_SONAME}" SYMBOLIC)
  file(CREATE_LINK "${TCAST_SONAME}" "${TCAST_INSTALL_STAGE}/libtensorcast.so" SYMBOLIC)
  install(FILES "${TCAST_INSTALL_STAGE}/${TCAST_SONAME}" "${TCAST_INSTALL_STAGE}/libtensorcast.so"
          DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()
if(TCAST_INSTALL_STATIC)
  list(APPEND TCAST_PACKAGE_COMPONENTS static)
  install(FILES "${TENSORCAST_STATIC_LIBRARY}" DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()
install(FILES "${PROJECT_SOURCE_DIR}/include/tensorcast.h" "${PROJECT_SOURCE_DIR}/include/tensorcast.hpp"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")

# CMake package: the paths from the package directory to the library and header
# directories, relative so that the tree stays usable when moved.
file(RELATIVE_PATH TCAST_PACKAGE_TO_LIBDIR
     "${CMAKE_INSTALL_FULL_LIBDIR}/cmake/tensorcast" "${CMAKE_INSTALL_FULL_LIBDIR}")
file(RELATIVE_PATH TCAST_PACKAGE_TO_INCLUDEDIR
     "${CMAKE_INSTALL_FULL_LIBDIR}/cmake/tensorcast" "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/tensorcastConfig.cmake.in"
  "${TCAST_INSTALL_STAGE}/tensorcastConfig.cmake"
  INSTALL_DESTINATION "${TCAST_PACKAGE_DIR}"
  NO_SET_AND_CHECK_MACRO)
write_basic_package_version_file(
  "${TCAST_INSTALL_STAGE}/tensorcastConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion)
install(FILES "${TCAST_INSTALL_STAGE}/tensorcastConfig.cmake"
              "${TCAST_INSTALL_STAGE}/tensorcastConfigVersion.cmake"
        DESTINATION "${TCAST_PACKAGE_DIR}")
# One targets file per installed library, so that a distribution can ship them apart.
foreach(component IN LISTS TCAST_PACKAGE_COMPONENTS)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/tensorcastTargets-${component}.cmake.in"
                 "${TCAST_INSTALL_STAGE}/tensorcastTargets-${component}.cmake" @ONLY)
  install(FILES "${TCAST_INSTALL_STAGE}/tensorcastTargets-${component}.cmake"
          DESTINATION "${TCAST_PACKAGE_DIR}")
endforeach()

# pkg-config. Everything but the prefix is filled in now; the prefix when installing,
# since `cmake --install --prefix` may differ from CMAKE_INSTALL_PREFIX.
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(TCAST_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(TCAST_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
list(TRANSFORM TCAST_NATIVE_STATIC_LIBS PREPEND "-l" OUTPUT_VARIABLE TCAST_PC_NATIVE_LIBS)
string(JOIN " " TCAST_PC_NATIVE_LIBS ${TCAST_PC_NATIVE_LIBS})
set(TCAST_PC_LIBS "-L\${libdir} -ltensorcast")
set(TCAST_PC_LIBS_PRIVATE_LINE "")
if(TCAST_INSTALL_SHARED AND TCAST_INSTALL_STATIC)
  # -ltensorcast finds the shared library; `pkg-config --static` adds what the static
  # one needs.
  set(TCAST_PC_LIBS_PRIVATE_LINE "Libs.private: ${TCAST_PC_NATIVE_LIBS}\n")
elseif(TCAST_INSTALL_STATIC)
  # -ltensorcast can only find libtensorcast.a: every link needs the system libraries.
  string(APPEND TCAST_PC_LIBS " ${TCAST_PC_NATIVE_LIBS}")
endif()
set(TCAST_PC_PREFIX "@TCAST_PC_PREFIX@") # kept for the second pass
configure_file("${PROJECT_SOURCE_DIR}/cmake/tensorcast.pc.in"
               "${TCAST_INSTALL_STAGE}/tensorcast.pc.in" @ONLY)
install(CODE "
  set(TCAST_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${TCAST_INSTALL_STAGE}/tensorcast.pc.in\"
                 \"${TCAST_INSTALL_STAGE}/tensorcast.pc\" @ONLY)")
install(FILES "${TCAST_INSTALL_STAGE}/tensorcast.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# The onnxruntime plugin: a module that onnxruntime loads by its full path
# (register_execution_provider_library / RegisterExecutionProviderLibrary), so it goes in
# a directory of its own, not beside libtensorcast.so, and has no versioned name or links.
set(TCAST_INSTALL_ORTDIR "${CMAKE_INSTALL_LIBDIR}/tensorcast" CACHE STRING
    "Where TCAST_BUILD_ORT installs libtensorcast_ort.so (relative: under the prefix)")
if(TCAST_BUILD_ORT)
  install(FILES "${TENSORCAST_ORT_LIBRARY}" DESTINATION "${TCAST_INSTALL_ORTDIR}")
endif()

# The C# assembly, compiled as scripts/test-csharp.sh compiles it, installed beside the
# shared library: its resolver tries the assembly's own directory before the system's.
if(TCAST_INSTALL_CSHARP)
  if(NOT TCAST_INSTALL_SHARED)
    message(FATAL_ERROR "tensorcast: TCAST_INSTALL_CSHARP needs TCAST_INSTALL_SHARED")
  endif()
  find_program(TCAST_MCS mcs)
  if(NOT TCAST_MCS)
    message(FATAL_ERROR "tensorcast: TCAST_INSTALL_CSHARP needs Mono's C# compiler mcs "
                        "(Debian: mono-mcs)")
  endif()
  file(GLOB TCAST_CSHARP_SOURCES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/bindings/csharp/src/*.cs")
  list(SORT TCAST_CSHARP_SOURCES)
  set(TCAST_CSHARP_DLL "${CMAKE_CURRENT_BINARY_DIR}/csharp/TensorcastSharp.dll")
  add_custom_command(OUTPUT "${TCAST_CSHARP_DLL}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/csharp"
    COMMAND "${TCAST_MCS}" -unsafe -optimize -warn:4 -warnaserror -nologo -target:library
            "-out:${TCAST_CSHARP_DLL}" ${TCAST_CSHARP_SOURCES}
    DEPENDS ${TCAST_CSHARP_SOURCES}
    COMMENT "mcs: TensorcastSharp.dll (the C# bindings)"
    VERBATIM)
  add_custom_target(tensorcast_csharp ALL DEPENDS "${TCAST_CSHARP_DLL}")
  install(FILES "${TCAST_CSHARP_DLL}" DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()

# The licences, the README, the changelog and security policy (when the tree has them),
# and the pages of docs/ (in docs/, beside README.md as in the source tree, whose links
# then still lead somewhere).
if(TCAST_INSTALL_DOCS)
  set(TCAST_DOC_FILES)
  foreach(name LICENSE-MIT LICENSE-APACHE README.md CHANGELOG.md SECURITY.md CONTRIBUTING.md)
    if(EXISTS "${PROJECT_SOURCE_DIR}/${name}")
      list(APPEND TCAST_DOC_FILES "${PROJECT_SOURCE_DIR}/${name}")
    endif()
  endforeach()
  install(FILES ${TCAST_DOC_FILES} DESTINATION "${CMAKE_INSTALL_DOCDIR}")
  file(GLOB TCAST_DOC_PAGES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/*.md")
  install(FILES ${TCAST_DOC_PAGES} DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs")
  file(GLOB TCAST_DOC_PERF CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/perf/*")
  install(FILES ${TCAST_DOC_PERF} DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs/perf")
  # The READMEs that README.md and docs/README.md link to, at the same relative paths, so
  # that every link of the installed documents leads to an installed file.
  foreach(page bindings/go/README.md bindings/csharp/README.md integrations/onnxruntime/README.md)
    if(EXISTS "${PROJECT_SOURCE_DIR}/${page}")
      get_filename_component(page_dir "${page}" DIRECTORY)
      install(FILES "${PROJECT_SOURCE_DIR}/${page}" DESTINATION "${CMAKE_INSTALL_DOCDIR}/${page_dir}")
    endif()
  endforeach()
endif()
