# The host build (no BOARD): portable code under cmocka with ASan and UBSan, and the CTest
# entries that boot each board's image in QEMU (the images come from the board presets, which
# `make test` builds first).
enable_testing()
find_library(CMOCKA cmocka REQUIRED)
find_library(LIBFDT fdt REQUIRED)
find_program(DTC dtc REQUIRED)

set(SAN -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_compile_options(-Wall -Wextra -Werror -Wno-unused-parameter -g -O1 ${SAN}
  -D_POSIX_C_SOURCE=200809L -DTINYMM_HOST=1)
add_link_options(${SAN})
# tests/host/include/asm/ is the host's "architecture": the compiler's atomics.
include_directories(include tests/host/include tests/host)

# The portable kernel code as one library; tests/host/shim.c stands in for arch/ and the UART.
set(HOST_KERNEL_SRCS ${TINYMM_PORTABLE_SRCS})
list(REMOVE_ITEM HOST_KERNEL_SRCS drivers/uart.c)
add_library(host_kernel STATIC ${HOST_KERNEL_SRCS} tests/host/shim.c)

# One cmocka executable per portable file (or close group), each a CTest entry.
foreach(t vsprintf memblock cmdline shell ktest dt_memory printk time power meminfo devicetree panic atomic spinlock)
  add_executable(${t}_test tests/host/${t}_test.c)
  target_link_libraries(${t}_test host_kernel ${CMOCKA} ${LIBFDT})
endforeach()
add_executable(uart_test tests/host/uart_test.c drivers/uart.c)
target_link_libraries(uart_test ${CMOCKA})
add_executable(kallsyms_test tests/host/kallsyms_test.c kernel/kallsyms.c lib/vsprintf.c)
target_link_libraries(kallsyms_test ${CMOCKA})
add_executable(fdt_test tests/host/fdt_test.c lib/fdt.c)
target_link_libraries(fdt_test ${CMOCKA} ${LIBFDT})

include(${CMAKE_SOURCE_DIR}/tests/host/tests.cmake)
include(${CMAKE_SOURCE_DIR}/tests/qemu/tests.cmake)
include(${CMAKE_SOURCE_DIR}/tests/fuzz/tests.cmake OPTIONAL)
