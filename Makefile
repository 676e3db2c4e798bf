# tinymm - the thin front door.  The build is CMake (CMakePresets.json); this file only drives it.
#   make run [BOARD=b] [MEM=m] [ARGS='...'] [QEMUFLAGS='...'] [DISK=img[,img]] [IRQSOFF=1]
#            [SDIMG=card.img]   (orangepi-pc: boot another card image, ARGS in its boot script;
#                               raspi2b, hifive-unleashed: a private copy as the card in the
#                               slot, mmcblk0)
#            [ROOTFS=1]   (build/<b>/rootfs.img, the user programs, as the root: vda on a virt
#                          board, the built-in RAM disk ram1 on the others: docs/user.md)
#   make image [BOARD=b]   build only the board's artifact (build/<b>/sdcard.img on the Orange
#                    Pi PC, the folder build/<b>/boot on the Raspberry Pi, build/<b>/tinymm.bin
#                    on the HiFive Unleashed, build/<b>/tinymm.elf on the virt boards)
#   make test        build everything, run every test through CTest
#   make gdb [BOARD=b]
BOARD ?= qemu-virt-arm
# MEM: the board's own RAM unless given (tools/run: qemu.conf's QEMU_MEM_DEFAULT, else 256M).
MEM ?=
ARGS ?=
QEMUFLAGS ?=
DISK ?=
SDIMG ?=
# ROOTFS=1: a private copy of build/<board>/rootfs.img as the first disk, tinymm.root=vda; on a
# board without virtio disks, tinymm.root=ram1 (the kernel's built-in copy, docs/brd.md).
ROOTFS ?=
# IRQSOFF=1: the irqsoff-tracer build (preset <board>-irqsoff, build/<board>-irqsoff), booted under
# -icount with tinymm.irqsoff=1 (docs/irqsoff.md).
IRQSOFF ?=
BOARDS := qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32 hifive-unleashed orangepi-pc raspi2b
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Passed through the environment so quotes inside ARGS survive; QEMUFLAGS is split by the shell.
export ARGS QEMUFLAGS

.PHONY: all run image test test-long test-all gdb deps clean $(BOARDS) $(BOARDS:%=%-irqsoff) host check-board bench

all: $(BOARDS) host

# An unknown board is one line and nothing else, decided before any recipe runs.
ifneq ($(filter-out $(BOARDS),$(BOARD)),)
$(error unknown BOARD '$(BOARD)' (boards: $(BOARDS)))
endif
check-board: ;

# Install missing tools only when one is missing (tools/install-deps needs root or prints the command).
deps:
	@tools/install-deps --check >/dev/null 2>&1 || tools/install-deps

$(BOARDS) $(BOARDS:%=%-irqsoff): deps
	@cmake --preset $@ >/dev/null
	@cmake --build --preset $@ -j $(JOBS)

host: deps
	@cmake --preset host >/dev/null
	@cmake --build --preset host -j $(JOBS)

run: check-board
	@$(MAKE) --no-print-directory $(BOARD)$(if $(filter 1,$(IRQSOFF)),-irqsoff)
	@tools/run --board $(BOARD) $(if $(MEM),--mem $(MEM)) --append "$$ARGS" $(if $(DISK),--disk $(DISK)) \
		$(if $(SDIMG),--sdimg $(SDIMG)) $(if $(filter 1,$(ROOTFS)),--rootfs) \
		$(if $(filter 1,$(IRQSOFF)),--irqsoff) -- $$QEMUFLAGS

image: check-board
	@$(MAKE) --no-print-directory $(BOARD)
	@. board/$(BOARD)/qemu.conf && echo "$(BOARD): build/$(BOARD)/$${QEMU_ARTIFACT:-tinymm.elf}"

gdb: check-board
	@$(MAKE) --no-print-directory $(BOARD)
	@tools/gdb $(BOARD)

# `make test`: every test but those labelled long (each a repeat of a default test on another
# board, at another CPU count or size: docs/shell-and-tests.md), so it stays near 15 minutes on
# two cores; `make test-long` runs those, `make test-all` everything.
test: all
	@ctest --preset host -j $(JOBS) -LE long

test-long: all
	@ctest --preset host -j $(JOBS) -L long

test-all: all
	@ctest --preset host -j $(JOBS)

# Instruction counts of the page allocator (tools/bench builds what it boots): rows on stdout,
# then the per-CPU lists' batch/scale rows on RV32 at 1 GiB (docs/benchmarks.md).
bench: deps
	@tools/bench && tools/bench --batch-table --no-build

clean:
	rm -rf build
