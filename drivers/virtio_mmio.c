/*
 * virtio_mmio.c - the virtio-mmio transport (virtio 1.2 §4.2), modern interface (Version 2)
 * only, found through the device tree (include/tinymm/virtio.h).
 *
 * Every "virtio,mmio" node is a transport slot; QEMU's virt boards list 32 (ARM) or 8 (RISC-V)
 * whether or not a device sits behind them (DeviceID 0: skipped, silently).  QEMU fills the
 * slots from the highest address down, so the first -device on its command line is at the
 * highest address: probing from the highest address down makes registration order, and so the
 * disk names vda, vdb, ..., the command line's order (`make run DISK=a.img,b.img`: a is vda).
 *
 * A legacy (Version 1) device is refused in one line: its register layout differs (page-based
 * queue addresses, no FEATURES_OK), and QEMU gives Version 2 with
 * -global virtio-mmio.force-legacy=false, which tools/run always passes.
 * Register accesses are readl/writel (32 bits; config space too, as §4.2.2.2 allows for
 * 32-bit fields).  Locking: probing is single-threaded at boot; afterwards only the driver
 * touches its transport, under its own lock.
 */
#include <string.h>
#include "tinymm/io.h"
#include "tinymm/arch.h"
#include "tinymm/delay.h"
#include "tinymm/devicetree.h"
#include "tinymm/errno.h"
#include "tinymm/irq.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/virtio.h"

#define VIRTIO_MMIO_MAGIC_VALUE		0x000
#define VIRTIO_MMIO_VERSION		0x004
#define VIRTIO_MMIO_DEVICE_ID		0x008
#define VIRTIO_MMIO_VENDOR_ID		0x00c
#define VIRTIO_MMIO_DEVICE_FEATURES	0x010
#define VIRTIO_MMIO_DEVICE_FEATURES_SEL	0x014
#define VIRTIO_MMIO_DRIVER_FEATURES	0x020
#define VIRTIO_MMIO_DRIVER_FEATURES_SEL	0x024
#define VIRTIO_MMIO_QUEUE_SEL		0x030
#define VIRTIO_MMIO_QUEUE_NUM_MAX	0x034
#define VIRTIO_MMIO_QUEUE_NUM		0x038
#define VIRTIO_MMIO_QUEUE_READY		0x044
#define VIRTIO_MMIO_QUEUE_NOTIFY	0x050
#define VIRTIO_MMIO_INTERRUPT_STATUS	0x060
#define VIRTIO_MMIO_INTERRUPT_ACK	0x064
#define VIRTIO_MMIO_STATUS		0x070
#define VIRTIO_MMIO_QUEUE_DESC_LOW	0x080
#define VIRTIO_MMIO_QUEUE_DESC_HIGH	0x084
#define VIRTIO_MMIO_QUEUE_AVAIL_LOW	0x090
#define VIRTIO_MMIO_QUEUE_AVAIL_HIGH	0x094
#define VIRTIO_MMIO_QUEUE_USED_LOW	0x0a0
#define VIRTIO_MMIO_QUEUE_USED_HIGH	0x0a4
#define VIRTIO_MMIO_CONFIG_GENERATION	0x0fc
#define VIRTIO_MMIO_CONFIG		0x100

#define VIRTIO_MMIO_INT_VRING		1
#define VIRTIO_MMIO_INT_CONFIG		2
#define VIRTIO_MAGIC			0x74726976	/* "virt" */
#define MAX_TRANSPORTS			64

static inline uint32_t vm_read(struct virtio_device *vdev, unsigned int off)
{
	return readl(vdev->base + off);
}

static inline void vm_write(struct virtio_device *vdev, unsigned int off, uint32_t v)
{
	writel(v, vdev->base + off);
}

static void add_status(struct virtio_device *vdev, uint32_t bits)
{
	vm_write(vdev, VIRTIO_MMIO_STATUS, vm_read(vdev, VIRTIO_MMIO_STATUS) | bits);
}

bool virtio_reset(struct virtio_device *vdev)
{
	vm_write(vdev, VIRTIO_MMIO_STATUS, 0);
	/* §4.2.3.1: the reset is done when Status reads 0.  QEMU's is immediate; a device that
	 * never finishes does not hang us: after 100 ms we give up and say so (false): the caller
	 * must then assume the device may still use every buffer it was given. */
	for (int i = 0; i < 1000 && vm_read(vdev, VIRTIO_MMIO_STATUS); i++)
		udelay(100);
	return vm_read(vdev, VIRTIO_MMIO_STATUS) == 0;
}

void virtio_set_failed(struct virtio_device *vdev)
{
	add_status(vdev, VIRTIO_STATUS_FAILED);
}

uint64_t virtio_get_features(struct virtio_device *vdev)
{
	uint64_t f;

	vm_write(vdev, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 1);
	f = (uint64_t)vm_read(vdev, VIRTIO_MMIO_DEVICE_FEATURES) << 32;
	vm_write(vdev, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
	f |= vm_read(vdev, VIRTIO_MMIO_DEVICE_FEATURES);
	vdev->features = f;
	return f;
}

int virtio_finalize_features(struct virtio_device *vdev, uint64_t want, char *err, size_t errlen)
{
	uint64_t f = want & vdev->features;

	/* §6.1: a modern driver must accept VERSION_1, and a device without it is legacy-only. */
	if (!((f >> VIRTIO_F_VERSION_1) & 1)) {
		ksnprintf(err, errlen, "device does not offer VIRTIO_F_VERSION_1");
		return -EIO;
	}
	vm_write(vdev, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
	vm_write(vdev, VIRTIO_MMIO_DRIVER_FEATURES, (uint32_t)(f >> 32));
	vm_write(vdev, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 0);
	vm_write(vdev, VIRTIO_MMIO_DRIVER_FEATURES, (uint32_t)f);
	add_status(vdev, VIRTIO_STATUS_FEATURES_OK);
	/* §3.1.1 step 6: the device clears FEATURES_OK if it cannot live with our subset. */
	if (!(vm_read(vdev, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_FEATURES_OK)) {
		ksnprintf(err, errlen, "device refused features 0x%016llx (FEATURES_OK not kept)",
			  (unsigned long long)f);
		return -EIO;
	}
	vdev->negotiated = f;
	return 0;
}

static irqreturn_t vm_interrupt(int irq, void *dev_id)
{
	struct virtio_device *vdev = dev_id;
	uint32_t status = vm_read(vdev, VIRTIO_MMIO_INTERRUPT_STATUS);

	if (!status)
		return IRQ_NONE;
	vm_write(vdev, VIRTIO_MMIO_INTERRUPT_ACK, status);
	/* Config changes go to the driver that asked for them (the balloon's target); others
	 * (a disk's capacity resize) are acknowledged and ignored: the disk keeps the size it was
	 * registered with, which is always the safe side of a check. */
	if ((status & VIRTIO_MMIO_INT_CONFIG) && vdev->config_changed)
		vdev->config_changed(vdev);
	/* One interrupt for every queue: each callback looks at its own used ring (its waiter
	 * does), so calling one whose ring did not move costs a wake-up, nothing more. */
	if (status & VIRTIO_MMIO_INT_VRING)
		for (unsigned int i = 0; i < vdev->nvqs; i++)
			if (vdev->vqs[i]->callback)
				vdev->vqs[i]->callback(vdev->vqs[i]);
	return IRQ_HANDLED;
}

static void write_addr(struct virtio_device *vdev, unsigned int low, phys_addr_t pa)
{
	vm_write(vdev, low, (uint32_t)pa);
	vm_write(vdev, low + 4, (uint32_t)((uint64_t)pa >> 32));
}

/* QueueNotify for @vq: the ring's vq->notify (virtqueue_kick() orders the ring writes first). */
static bool vm_notify(struct virtqueue *vq)
{
	vm_write(vq->vdev, VIRTIO_MMIO_QUEUE_NOTIFY, vq->index);
	return true;
}

struct virtqueue *virtio_find_vq(struct virtio_device *vdev, unsigned int index,
				 unsigned int max_num, void (*callback)(struct virtqueue *vq),
				 char *err, size_t errlen)
{
	struct virtqueue *vq;
	unsigned int num, dev_max, order;
	size_t avail_off, used_off;
	char *ring;

	if (vdev->nvqs == VIRTIO_MAX_VQS) {
		ksnprintf(err, errlen, "queue %u: a driver sets up at most %u queues", index,
			  VIRTIO_MAX_VQS);
		return NULL;
	}
	vm_write(vdev, VIRTIO_MMIO_QUEUE_SEL, index);
	if (vm_read(vdev, VIRTIO_MMIO_QUEUE_READY)) {
		ksnprintf(err, errlen, "queue %u already in use after reset", index);
		return NULL;
	}
	dev_max = vm_read(vdev, VIRTIO_MMIO_QUEUE_NUM_MAX);
	if (!dev_max) {
		ksnprintf(err, errlen, "queue %u does not exist (QueueNumMax 0)", index);
		return NULL;
	}
	/* A split ring's size is a power of two (§2.7): the largest one both sides accept. */
	for (num = 1; num * 2 <= dev_max && num * 2 <= max_num && num * 2 <= 32768; num *= 2)
		;
	vq = kzalloc(sizeof(*vq), GFP_KERNEL);
	if (vq) {
		vq->next = kcalloc(num, sizeof(*vq->next), GFP_KERNEL);
		vq->chain = kcalloc(num, sizeof(*vq->chain), GFP_KERNEL);
	}
	order = vring_size(num, &avail_off, &used_off);
	/* Physically contiguous and zeroed: the device reads avail->idx 0 and flags 0. */
	if (vq && vq->next && vq->chain)
		vq->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, order);
	if (!vq || !vq->pages) {
		if (vq) {
			kfree(vq->next);
			kfree(vq->chain);
		}
		kfree(vq);
		ksnprintf(err, errlen, "no memory for a %u-entry queue", num);
		return NULL;
	}
	ring = page_address(vq->pages);
	memset(ring, 0, PAGE_SIZE << order);
	vq->vdev = vdev;
	vq->index = index;
	vq->num = num;
	vq->order = order;
	vq->desc = (struct vring_desc *)ring;
	vq->avail = (struct vring_avail *)(ring + avail_off);
	vq->used = (struct vring_used *)(ring + used_off);
	for (unsigned int i = 0; i < num; i++)
		vq->next[i] = (uint16_t)((i + 1) & (num - 1));
	vq->free_head = 0;
	vq->num_free = (uint16_t)(num > 65535 ? 65535 : num);
	vq->callback = callback;
	vq->notify = vm_notify;

	vm_write(vdev, VIRTIO_MMIO_QUEUE_NUM, num);
	write_addr(vdev, VIRTIO_MMIO_QUEUE_DESC_LOW, __pa(vq->desc));
	write_addr(vdev, VIRTIO_MMIO_QUEUE_AVAIL_LOW, __pa(vq->avail));
	write_addr(vdev, VIRTIO_MMIO_QUEUE_USED_LOW, __pa(vq->used));
	vm_write(vdev, VIRTIO_MMIO_QUEUE_READY, 1);
	if (!vdev->vq)
		vdev->vq = vq;
	vdev->vqs[vdev->nvqs++] = vq;
	return vq;
}

void virtio_device_ready(struct virtio_device *vdev)
{
	add_status(vdev, VIRTIO_STATUS_DRIVER_OK);
}


uint32_t virtio_cread32(struct virtio_device *vdev, unsigned int off)
{
	return vm_read(vdev, VIRTIO_MMIO_CONFIG + off);
}

/* A 32-bit config field the driver writes (the balloon's `actual`). */
void virtio_cwrite32(struct virtio_device *vdev, unsigned int off, uint32_t val)
{
	vm_write(vdev, VIRTIO_MMIO_CONFIG + off, val);
}

int virtio_cread64(struct virtio_device *vdev, unsigned int off, uint64_t *val)
{
	/* §2.5.1: a field wider than 32 bits is read in pieces; ConfigGeneration tells whether the
	 * device changed it in between.  Bounded: a device that never settles fails the read. */
	for (int tries = 0; tries < 8; tries++) {
		uint32_t gen = vm_read(vdev, VIRTIO_MMIO_CONFIG_GENERATION);
		uint64_t v = vm_read(vdev, VIRTIO_MMIO_CONFIG + off) |
			     (uint64_t)vm_read(vdev, VIRTIO_MMIO_CONFIG + off + 4) << 32;

		if (vm_read(vdev, VIRTIO_MMIO_CONFIG_GENERATION) == gen) {
			*val = v;
			return 0;
		}
	}
	return -EIO;
}

static const struct {
	uint32_t device_id;
	int (*probe)(struct virtio_device *vdev);
} virtio_drivers[] = {
	{ VIRTIO_ID_BLOCK, virtio_blk_probe },
	{ VIRTIO_ID_BALLOON, virtio_balloon_probe },
};

static int vm_probe_mapped(const struct dt *dt, int node, uint64_t addr, uintptr_t base)
{
	struct virtio_device *vdev;
	uint32_t magic = readl(base + VIRTIO_MMIO_MAGIC_VALUE), version, id;
	unsigned int d;

	if (magic != VIRTIO_MAGIC) {
		pr_warn("virtio-mmio 0x%08llx: bad magic 0x%08x, ignored\n", (unsigned long long)addr, (unsigned int)magic);
		return -1;
	}
	id = readl(base + VIRTIO_MMIO_DEVICE_ID);
	if (!id)
		return -1;	/* an empty slot */
	version = readl(base + VIRTIO_MMIO_VERSION);
	if (version == 1) {
		pr_err("virtio-mmio 0x%08llx: legacy (version 1) device %u refused: tinymm drives only modern devices; use -global virtio-mmio.force-legacy=false\n",
		       (unsigned long long)addr, (unsigned int)id);
		return -1;
	}
	if (version != 2) {
		pr_err("virtio-mmio 0x%08llx: unknown version %u, device %u refused\n",
		       (unsigned long long)addr, (unsigned int)version, (unsigned int)id);
		return -1;
	}
	for (d = 0; d < ARRAY_SIZE(virtio_drivers) && virtio_drivers[d].device_id != id; d++)
		;
	if (d == ARRAY_SIZE(virtio_drivers)) {
		pr_info("virtio-mmio 0x%08llx: device %u has no driver, left alone\n",
			(unsigned long long)addr, (unsigned int)id);
		return -1;
	}
	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	if (!vdev) {
		pr_err("virtio-mmio 0x%08llx: no memory\n", (unsigned long long)addr);
		return -1;
	}
	vdev->base = base;
	vdev->phys = addr;
	vdev->device_id = id;
	vdev->vendor_id = readl(base + VIRTIO_MMIO_VENDOR_ID);
	ksnprintf(vdev->name, sizeof(vdev->name), "virtio-mmio@0x%08llx", (unsigned long long)addr);
	/* §3.1.1 steps 1-3. */
	virtio_reset(vdev);
	add_status(vdev, VIRTIO_STATUS_ACKNOWLEDGE);
	add_status(vdev, VIRTIO_STATUS_DRIVER);
	vdev->irq = irq_of_parse_and_map(dt, node, 0);
	if (virtio_drivers[d].probe(vdev)) {
		/* The driver said why; the device is told it will not be driven. */
		virtio_set_failed(vdev);
		return 0;	/* vdev stays: a failed disk may still point at it */
	}
	return 0;
}

/* Map the transport at @addr; it stays mapped only if a driver takes the device. */
static void vm_probe(const struct dt *dt, int node, uint64_t addr, uint64_t size)
{
	uintptr_t base = (uintptr_t)ioremap(addr, (size_t)size);

	if (!base) {
		pr_err("virtio-mmio 0x%08llx: cannot map the registers\n", (unsigned long long)addr);
		return;
	}
	if (vm_probe_mapped(dt, node, addr, base))
		iounmap((void *)base);
}

int virtio_request_irq(struct virtio_device *vdev, const char *name)
{
	if (!vdev->irq)
		return -ENXIO;
	return request_irq(vdev->irq, vm_interrupt, 0, name, vdev) ? -EBUSY : 0;
}

void virtio_mmio_init(const struct dt *dt)
{
	struct { uint64_t addr, size; int node; } slot[MAX_TRANSPORTS];
	int n = 0;

	for (int node = dt_find_compatible(dt, -1, "virtio,mmio"); node >= 0;
	     node = dt_find_compatible(dt, node, "virtio,mmio")) {
		uint64_t addr, size;

		if (dt_address(dt, node, 0, &addr, &size) || size < VIRTIO_MMIO_CONFIG)
			continue;
		if (n == MAX_TRANSPORTS) {
			pr_warn("virtio-mmio: more than %d transports, the rest ignored\n", MAX_TRANSPORTS);
			break;
		}
		/* Insertion sort, highest address first (see the top of this file). */
		int i = n++;
		for (; i > 0 && slot[i - 1].addr < addr; i--)
			slot[i] = slot[i - 1];
		slot[i].addr = addr;
		slot[i].size = size;
		slot[i].node = node;
	}
	for (int i = 0; i < n; i++)
		vm_probe(dt, slot[i].node, slot[i].addr, slot[i].size);
}
