# Install rules for tensorcast as a system library (Linux). Included by CMakeLists.txt
# after tensorcast_add_cargo_libraries(), whose TENSORCAST_* variables it reads.
#
#   cmake --install <build-dir> --prefix <prefix>
#
# installs, with <libdir> = CMAKE_INSTALL_LIBDIR (GNUInstallDirs: "lib" under a custom
# prefix, "lib/<multiarch>" on Debian when the prefix is /usr):
#   <libdir>/libtensorcast.so.X.Y.Z      the cdylib, SONAME libtensorcast.so.X
#   <libdir>/libtensorcast.so.X          -> libtensorcast.so.X.Y.Z
#   <libdir>/libtensorcast.so            -> libtensorcast.so.X
#   <libdir>/libtensorcast.a             the staticlib
#   include/tensorcast.h, include/tensorcast.hpp (the C++17 layer, header-only)
#   <libdir>/cmake/tensorcast/           tensorcastConfig.cmake, tensorcastConfigVersion.cmake
#                                        (SameMajorVersion), tensorcastTargets.cmake:
#                                        tensorcast::tensorcast, tensorcast::tensorcast_static
#   <libdir>/pkgconfig/tensorcast.pc
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
install(FILES "${TENSORCAST_SHARED_LIBRARY}"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}" RENAME "${TCAST_REAL_NAME}")
file(CREATE_LINK "${TCAST_REAL_NAME}" "${TCAST_INSTALL_STAGE}/${TCAST_SONAME}" SYMBOLIC)
file(CREATE_LINK "${TCAST_SONAME}" "${TCAST_INSTALL_STAGE}/libtensorcast.so" SYMBOLIC)
install(FILES "${TCAST_INSTALL_STAGE}/${TCAST_SONAME}" "${TCAST_INSTALL_STAGE}/libtensorcast.so"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(FILES "${TENSORCAST_STATIC_LIBRARY}" DESTINATION "${CMAKE_INSTALL_LIBDIR}")
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
configure_file("${PROJECT_SOURCE_DIR}/cmake/tensorcastTargets.cmake.in"
               "${TCAST_INSTALL_STAGE}/tensorcastTargets.cmake" @ONLY)
install(FILES "${TCAST_INSTALL_STAGE}/tensorcastConfig.cmake"
              "${TCAST_INSTALL_STAGE}/tensorcastConfigVersion.cmake"
              "${TCAST_INSTALL_STAGE}/tensorcastTargets.cmake"
        DESTINATION "${TCAST_PACKAGE_DIR}")

# pkg-config. Everything but the prefix is filled in now; the prefix when installing,
# since `cmake --install --prefix` may differ from CMAKE_INSTALL_PREFIX.
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(TCAST_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(TCAST_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
list(TRANSFORM TCAST_NATIVE_STATIC_LIBS PREPEND "-l" OUTPUT_VARIABLE TCAST_PC_LIBS_PRIVATE)
string(JOIN " " TCAST_PC_LIBS_PRIVATE ${TCAST_PC_LIBS_PRIVATE})
set(TCAST_PC_PREFIX "@TCAST_PC_PREFIX@") # kept for the second pass
configure_file("${PROJECT_SOURCE_DIR}/cmake/tensorcast.pc.in"
               "${TCAST_INSTALL_STAGE}/tensorcast.pc.in" @ONLY)
install(CODE "
  set(TCAST_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${TCAST_INSTALL_STAGE}/tensorcast.pc.in\"
                 \"${TCAST_INSTALL_STAGE}/tensorcast.pc\" @ONLY)")
install(FILES "${TCAST_INSTALL_STAGE}/tensorcast.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
