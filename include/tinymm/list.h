/*
 * list.h - Linux's circular doubly linked list (struct list_head), for the kernel core's queues
 * (run queues, wait queues, timers, work items).  mm/ keeps its own page_list (mm/internal.h),
 * threaded through struct page's lru words, because a struct page has no room for a second list.
 * An empty list is a head pointing at itself; list_del_init() leaves an entry in that state so
 * list_empty(&entry) says "not queued".  Locking: the owner of the list provides it.
 */
#ifndef TINYMM_LIST_H
#define TINYMM_LIST_H

#include "kernel.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}

/* tinymm has no list poisoning: list_del is list_del_init, so a stale entry is "not queued". */
#define list_del(e)	list_del_init(e)

static inline bool list_empty(const struct list_head *l)
{
	return l->next == l;
}

static inline bool list_is_singular(const struct list_head *l)
{
	return !list_empty(l) && l->next == l->prev;
}

static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	list_del_init(e);
	list_add_tail(e, head);
}

#define list_entry(ptr, type, member)		container_of(ptr, type, member)
#define list_first_entry(head, type, member)	list_entry((head)->next, type, member)
#define list_first_entry_or_null(head, type, member)					\
	(list_empty(head) ? NULL : list_first_entry(head, type, member))
#define list_next_entry(pos, member)	list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_for_each_entry(pos, head, member)						\
	for (pos = list_first_entry(head, __typeof__(*pos), member);			\
	     &pos->member != (head); pos = list_next_entry(pos, member))

#define list_for_each_entry_safe(pos, n, head, member)					\
	for (pos = list_first_entry(head, __typeof__(*pos), member),			\
	     n = list_next_entry(pos, member);						\
	     &pos->member != (head); pos = n, n = list_next_entry(n, member))

#endif
