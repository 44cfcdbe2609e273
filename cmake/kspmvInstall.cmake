# Installs the headers and exports kspmv::kspmv (plus the targets it links) for find_package(kspmv).
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/kspmv DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/generated/include/kspmv/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kspmv)
set(_kspmv_export_targets kspmv_core)
if(KSPMV_ENABLE_KOKKOS)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/backends/kokkoskernels/include/kspmv
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
  list(APPEND _kspmv_export_targets kspmv)
endif()
install(TARGETS ${_kspmv_export_targets} EXPORT kspmvTargets)  # kspmv_cuda installs itself
install(EXPORT kspmvTargets NAMESPACE kspmv:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kspmv)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kspmvConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kspmvConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kspmv)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kspmvConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kspmvConfig.cmake ${PROJECT_BINARY_DIR}/kspmvConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/kspmvFindKokkos.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kspmv)
