# Cross toolchain for ARMv7-A boards: Debian's gcc-arm-none-eabi with picolibc.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy CACHE FILEPATH "")
set(CMAKE_SIZE arm-none-eabi-size CACHE FILEPATH "")
set(CMAKE_NM arm-none-eabi-nm CACHE FILEPATH "")
# The specs file goes in the C flags only: they reach the link step, and a second --specs is fatal.
set(CMAKE_C_FLAGS_INIT "--specs=picolibc.specs")
set(CMAKE_ASM_FLAGS_INIT "--specs=picolibc.specs")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
