# ptxd CMake toolchain file: every CUDA compile of the project goes through ptxd (nvcc --cicc-prefix).
#
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=/abs/path/to/ptxd/make-integration/ptxd.cmake
#
# Give the toolchain file as an absolute path. Set PTXD_CICC (cache variable or environment) to use
# another ptxd-cicc; by default the one of the ptxd checkout this file belongs to is used. Other
# CMAKE_CUDA_FLAGS given on the command line are kept: CMake appends them to CMAKE_CUDA_FLAGS_INIT.

if(NOT PTXD_CICC)
  if(DEFINED ENV{PTXD_CICC})
    set(PTXD_CICC "$ENV{PTXD_CICC}")
  else()
    get_filename_component(PTXD_CICC "${CMAKE_CURRENT_LIST_DIR}/../bin/ptxd-cicc" ABSOLUTE)
  endif()
endif()
set(PTXD_CICC "${PTXD_CICC}" CACHE FILEPATH "ptxd's drop-in cicc (nvcc --cicc-prefix)")

if(NOT EXISTS "${PTXD_CICC}")
  message(FATAL_ERROR "ptxd.cmake: ${PTXD_CICC} does not exist (build ptxd with `npm run build`, or set PTXD_CICC)")
endif()

# The compiler-identification and ABI probes use these flags too, so the whole configure runs on ptxd.
set(CMAKE_CUDA_FLAGS_INIT "--cicc-prefix=${PTXD_CICC}")
