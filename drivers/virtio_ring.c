/*
 * virtio_ring.c - split virtqueues (virtio 1.2 §2.7), the driver's side, trusting nothing the
 * device writes (include/tinymm/virtio.h).
 *
 * Invariants (checked where the device could break them, kept by construction elsewhere):
 *   - num is a power of two; desc, avail and used live in one zeroed block of pages that stays
 *     allocated while the device may use it.
 *   - Free descriptors form a list through next[] (kernel memory, never read back from the
 *     descriptor table, which the device could rewrite); num_free counts them.
 *   - chain[head].data != NULL exactly while the chain starting at head is in flight; in_flight
 *     counts those chains; in_flight chains hold num - num_free descriptors.
 *   - (uint16_t)(avail_idx - last_used) == in_flight whenever the device behaves.
 *   - Every used entry is read once into locals, then checked: used->idx no more than num past
 *     last_used, id < num and in flight, len <= the device-writable bytes of that chain.  A
 *     violation breaks the queue (broken, err) and nothing the entry named is touched.
 * Ordering: descriptors and the avail entry are written before avail->idx (smp_wmb), avail->idx
 * before the notify (mb: normal memory before the transport's device write); used->idx is read before
 * the entries it covers (smp_rmb).
 */
#include <string.h>
#include "tinymm/barrier.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/virtio.h"

/* Ring memory for @num entries: desc (16-byte aligned), avail (2), used (4; we align it to 8
 * as the legacy layout did, harmless).  Returns the page order of the whole block. */
unsigned int vring_size(unsigned int num, size_t *avail_off, size_t *used_off)
{
	size_t desc = (size_t)num * sizeof(struct vring_desc);
	size_t avail = sizeof(struct vring_avail) + (size_t)num * 2 + 2;
	size_t used = sizeof(struct vring_used) + (size_t)num * sizeof(struct vring_used_elem) + 2;
	size_t total, pages;
	unsigned int order = 0;

	*avail_off = desc;
	*used_off = ALIGN(desc + avail, 8);
	total = *used_off + used;
	pages = (total + PAGE_SIZE - 1) >> PAGE_SHIFT;
	while ((1UL << order) < pages)
		order++;
	return order;
}

static void vq_break(struct virtqueue *vq, const char *fmt, unsigned int a, unsigned int b,
		     unsigned int c)
{
	if (vq->broken)
		return;
	vq->broken = true;
	ksnprintf(vq->err, sizeof(vq->err), fmt, a, b, c);
}

int virtqueue_add(struct virtqueue *vq, unsigned int n, void *data,
		  void (*get)(void *data, unsigned int i, struct vq_buf *buf))
{
	uint16_t head, d;
	uint32_t in_len = 0;
	bool seen_write = false;

	if (vq->broken)
		return -EIO;
	if (!n || !data || n > vq->num)
		return -EINVAL;
	if (n > vq->num_free)
		return -ENOSPC;
	head = d = vq->free_head;
	for (unsigned int i = 0; i < n; i++) {
		struct vq_buf b;

		get(data, i, &b);
		/* The device reads readable buffers first, then writes the rest (§2.7.4.2). */
		if ((seen_write && !b.write) || !b.len || in_len + b.len < in_len)
			return -EINVAL;		/* only free descriptors written: no undo needed */
		seen_write |= b.write;
		if (b.write)
			in_len += b.len;
		vq->desc[d].addr = b.addr;
		vq->desc[d].len = b.len;
		vq->desc[d].flags = (b.write ? VRING_DESC_F_WRITE : 0) |
				    (i + 1 < n ? VRING_DESC_F_NEXT : 0);
		vq->desc[d].next = i + 1 < n ? vq->next[d] : 0;
		d = vq->next[d];
	}
	vq->free_head = d;
	vq->num_free -= n;
	vq->chain[head].data = data;
	vq->chain[head].ndescs = (uint16_t)n;
	vq->chain[head].in_len = in_len;
	vq->in_flight++;
	vq->avail->ring[vq->avail_idx & (vq->num - 1)] = head;
	smp_wmb();		/* the chain and its slot before the index that publishes them */
	vq->avail_idx++;
	WRITE_ONCE(vq->avail->idx, vq->avail_idx);
	return 0;
}

/* Give the descriptors of the chain at @head back to the free list (walked through our private
 * next[], so the device cannot steer it). */
static void *detach_chain(struct virtqueue *vq, uint16_t head)
{
	void *data = vq->chain[head].data;
	uint16_t d = head;

	for (unsigned int i = 1; i < vq->chain[head].ndescs; i++)
		d = vq->next[d];
	vq->next[d] = vq->free_head;
	vq->free_head = head;
	vq->num_free += vq->chain[head].ndescs;
	vq->chain[head].data = NULL;
	vq->in_flight--;
	return data;
}

void *virtqueue_get_buf(struct virtqueue *vq, uint32_t *len)
{
	uint16_t idx, slot;
	uint32_t id, ulen;

	if (vq->broken)
		return NULL;
	idx = READ_ONCE(vq->used->idx);
	if (idx == vq->last_used)
		return NULL;
	if (vq->inject == VQ_INJECT_BAD_IDX) {
		vq->inject = VQ_INJECT_NONE;
		idx = (uint16_t)(vq->last_used + vq->num + 1);
	}
	/* The device may only have used what we made available. */
	if ((uint16_t)(idx - vq->last_used) > vq->num ||
	    (uint16_t)(idx - vq->last_used) > vq->in_flight) {
		vq_break(vq, "used ring idx %u is %u entries past the last seen, more than the %u in flight",
			 idx, (uint16_t)(idx - vq->last_used), vq->in_flight);
		return NULL;
	}
	smp_rmb();		/* the index before the entries it covers */
	slot = vq->last_used & (vq->num - 1);
	id = READ_ONCE(vq->used->ring[slot].id);
	ulen = READ_ONCE(vq->used->ring[slot].len);
	if (vq->inject == VQ_INJECT_BAD_ID) {
		vq->inject = VQ_INJECT_NONE;
		id = vq->num + 44;	/* 300 for QEMU's 256 entries */
	} else if (vq->inject == VQ_INJECT_BAD_LEN && id < vq->num && vq->chain[id].data) {
		vq->inject = VQ_INJECT_NONE;
		ulen = vq->chain[id].in_len + 4096;
	}
	if (id >= vq->num) {
		vq_break(vq, "used ring id %u out of range (queue size %u)", (unsigned int)id, vq->num, 0);
		return NULL;
	}
	if (!vq->chain[id].data) {
		vq_break(vq, "used ring id %u is not in flight (queue size %u)", (unsigned int)id, vq->num, 0);
		return NULL;
	}
	if (ulen > vq->chain[id].in_len) {
		vq_break(vq, "used ring len %u for id %u exceeds the %u device-writable bytes offered",
			 (unsigned int)ulen, (unsigned int)id, (unsigned int)vq->chain[id].in_len);
		return NULL;
	}
	vq->last_used++;
	*len = ulen;
	return detach_chain(vq, (uint16_t)id);
}

void *virtqueue_detach_unused_buf(struct virtqueue *vq)
{
	for (unsigned int i = 0; i < vq->num; i++)
		if (vq->chain[i].data)
			return detach_chain(vq, (uint16_t)i);
	return NULL;
}

void virtqueue_kick(struct virtqueue *vq)
{
	mb();			/* avail->idx (normal memory) before the notify (a device write) */
	/* Through the transport's hook, as Linux's virtqueue_notify(): the ring knows no transport,
	 * so another one (PCI, a real board's) needs no change here. */
	if (!vq->notify(vq))
		vq_break(vq, "the transport could not notify queue %u", vq->index, 0, 0);
}

int virtqueue_inject(struct virtqueue *vq, const char *what)
{
	if (!strcmp(what, "bad-used-id"))
		vq->inject = VQ_INJECT_BAD_ID;
	else if (!strcmp(what, "bad-used-len"))
		vq->inject = VQ_INJECT_BAD_LEN;
	else if (!strcmp(what, "bad-used-idx"))
		vq->inject = VQ_INJECT_BAD_IDX;
	else
		return -EINVAL;
	return 0;
}
