/* SPDX-License-Identifier: BSD-2-Clause */
/* container_of.h - from a member's address to its enclosing struct. */
#ifndef RDMAD_CONTAINER_OF_H
#define RDMAD_CONTAINER_OF_H

#include <stddef.h>

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

#endif /* RDMAD_CONTAINER_OF_H */
