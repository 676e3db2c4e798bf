# Cross toolchain for RISC-V boards (RV64 and RV32 through the ilp32 multilib): Debian's
# gcc-riscv64-unknown-elf with picolibc.  The board picks -march/-mabi.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy CACHE FILEPATH "")
set(CMAKE_SIZE riscv64-unknown-elf-size CACHE FILEPATH "")
set(CMAKE_NM riscv64-unknown-elf-nm CACHE FILEPATH "")
set(CMAKE_C_FLAGS_INIT "--specs=picolibc.specs")
set(CMAKE_ASM_FLAGS_INIT "--specs=picolibc.specs")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
