# `make run BOARD=nosuch` must fail with one line that lists the boards.
execute_process(COMMAND make -s -C ${TOP} run BOARD=nosuch RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "make run BOARD=nosuch succeeded")
endif()
if(NOT err MATCHES "unknown BOARD 'nosuch' \\(boards: qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32\\)")
  message(FATAL_ERROR "unexpected error text: ${err}")
endif()
