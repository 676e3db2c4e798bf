/*
 * err.h - errors inside pointers, Linux's: a function returning a pointer returns ERR_PTR(-E...)
 * on failure; the last page of the address space is never a valid object.
 */
#ifndef TINYMM_ERR_H
#define TINYMM_ERR_H

#include "kernel.h"

#define MAX_ERRNO	4095

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}
static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}
static inline bool IS_ERR(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO;
}
static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

#endif
