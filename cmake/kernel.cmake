# The kernel image for one board (included from CMakeLists.txt when BOARD is set).
if(NOT EXISTS ${CMAKE_SOURCE_DIR}/board/${BOARD}/board.cmake)
  message(FATAL_ERROR "unknown board '${BOARD}' (boards: ${TINYMM_BOARDS})")
endif()
include(${CMAKE_SOURCE_DIR}/board/${BOARD}/board.cmake)

configure_file(include/tinymm/board_config.h.in ${CMAKE_BINARY_DIR}/gen/tinymm/board_config.h @ONLY)
configure_file(linker/kernel.ld.in ${CMAKE_BINARY_DIR}/kernel.ld @ONLY)

file(GLOB TINYMM_ARCH_SRCS CONFIGURE_DEPENDS arch/${TINYMM_ARCH}/*.c arch/${TINYMM_ARCH}/*.S)
if(NOT TINYMM_MSTART)
  list(FILTER TINYMM_ARCH_SRCS EXCLUDE REGEX "mstart\\.S$")
endif()
file(GLOB TINYMM_KTEST_SRCS CONFIGURE_DEPENDS tests/ktest/*.c)

# The version string is regenerated on every build, written only when it changes.
add_custom_target(version_c
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR} -DOUT=${CMAKE_BINARY_DIR}/gen/version.c
          -P ${CMAKE_SOURCE_DIR}/cmake/version.cmake
  BYPRODUCTS ${CMAKE_BINARY_DIR}/gen/version.c)

add_executable(tinymm.elf boot/main.c ${TINYMM_PORTABLE_SRCS} ${TINYMM_ARCH_SRCS}
  ${TINYMM_KTEST_SRCS} ${CMAKE_BINARY_DIR}/gen/version.c)
add_dependencies(tinymm.elf version_c)
target_include_directories(tinymm.elf PRIVATE include ${CMAKE_BINARY_DIR}/gen)
if(TINYMM_MSTART)
  target_compile_definitions(tinymm.elf PRIVATE TINYMM_MSTART=1)
endif()
target_compile_options(tinymm.elf PRIVATE ${TINYMM_CPU_FLAGS}
  -ffreestanding -fno-common -fno-stack-protector -fno-omit-frame-pointer
  -ffunction-sections -fdata-sections -O2 -g
  -Wall -Wextra -Werror -Wno-unused-parameter -D_POSIX_C_SOURCE=200809L)
target_link_options(tinymm.elf PRIVATE ${TINYMM_CPU_FLAGS} -nostartfiles
  -T ${CMAKE_BINARY_DIR}/kernel.ld -Wl,--gc-sections -Wl,-Map=${CMAKE_BINARY_DIR}/tinymm.map
  -Wl,--no-warn-rwx-segments)
set_target_properties(tinymm.elf PROPERTIES LINK_DEPENDS ${CMAKE_BINARY_DIR}/kernel.ld)
target_link_libraries(tinymm.elf PRIVATE gcc)
add_custom_command(TARGET tinymm.elf POST_BUILD
  COMMAND ${CMAKE_SIZE} tinymm.elf
  COMMENT "${BOARD}: image size")
