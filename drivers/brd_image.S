/*
 * brd_image.S - the built-in sample filesystem, ram0's first contents (drivers/brd.c): the
 * file tools/mkramdisk wrote at build time, named by BRD_SAMPLE_IMAGE (cmake/kernel.cmake).
 */
	.section .rodata.brd_sample_image, "a"
	.balign 8
	.globl brd_sample_image
brd_sample_image:
	.incbin BRD_SAMPLE_IMAGE
	.globl brd_sample_image_end
brd_sample_image_end:
#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack, "", %progbits	/* the host build: no executable stack */
#endif
