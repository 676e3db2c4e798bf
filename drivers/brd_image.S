/*
 * brd_image.S - the RAM disks' built-in images (drivers/brd.c), each a file tools/mkramdisk wrote
 * at build time: ram0's sample filesystem, named by BRD_SAMPLE_IMAGE, and ram1's root filesystem
 * (the board's rootfs.img), named by BRD_ROOTFS_IMAGE (cmake/kernel.cmake).  A build without
 * BRD_ROOTFS_IMAGE (the host's: it has no user programs) links an empty one: ram1 starts as zeros.
 */
	.section .rodata.brd_sample_image, "a"
	.balign 8
	.globl brd_sample_image
brd_sample_image:
	.incbin BRD_SAMPLE_IMAGE
	.globl brd_sample_image_end
brd_sample_image_end:

	.section .rodata.brd_rootfs_image, "a"
	.balign 8
	.globl brd_rootfs_image
brd_rootfs_image:
#ifdef BRD_ROOTFS_IMAGE
	.incbin BRD_ROOTFS_IMAGE
#endif
	.globl brd_rootfs_image_end
brd_rootfs_image_end:
#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack, "", %progbits	/* the host build: no executable stack */
#endif
