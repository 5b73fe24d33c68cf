/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's headers for src/ring.c to build, unchanged,
 * as user space (bench/kbench/uring.c), so that the append path can be
 * timed on the host's own CPU rather than under QEMU's emulation.  The
 * stand-ins cost what the kernel's do on x86: a spinlock is one locked
 * exchange and a plain release store, a pid reference one locked add, an
 * atomic64_fetch_inc() one locked xadd.
 */
#ifndef _NSLOG_SHIM_H
#define _NSLOG_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

typedef struct { unsigned int val; } kuid_t;
#define uid_eq(a, b)	((a).val == (b).val)

#define ALIGN(x, a)	(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min3(a, b, c)	min(min(a, b), c)
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __acquires(x)
#define __releases(x)
#define READ_ONCE(x)	(*(volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

typedef struct { int locked; } spinlock_t;
#define spin_lock_init(l)	((l)->locked = 0)
static inline void spin_lock(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		;
}
static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}
#define lockdep_assert_held(l)	((void)(l))
#define cond_resched()		do { } while (0)

/* A locked xadd, as the kernel's atomic64_fetch_inc() on x86. */
typedef struct { s64 counter; } atomic64_t;
static inline s64 atomic64_fetch_inc(atomic64_t *v)
{
	return __atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST);
}

struct pid { int count; };
struct pid_namespace;
static inline struct pid *get_pid(struct pid *p)
{
	if (p)
		__atomic_add_fetch(&p->count, 1, __ATOMIC_RELAXED);
	return p;
}
static inline void put_pid(struct pid *p)
{
	if (p)
		__atomic_sub_fetch(&p->count, 1, __ATOMIC_ACQ_REL);
}
static inline int pid_nr_ns(struct pid *p, struct pid_namespace *ns)
{
	(void)p;
	(void)ns;
	return 0;
}
static inline struct pid_namespace *ns_of_pid(struct pid *p)
{
	(void)p;
	return NULL;
}

#endif
