// SPDX-License-Identifier: GPL-2.0
/*
 * uring - src/ring.c's append path on the host's own CPU, against memcpy.
 *
 *   uring              CSV like the kernel module's: what,payload,records,ns
 *
 * The same three ways as kbench.c: memcpy (the floor), ring
 * (nslog_ring_write() without pid references) and store (with the clock
 * and two pid references, as nslog_log_store() adds them).  ring.c is
 * built unchanged against the stand-ins in shim/; the numbers are what
 * the code costs on real hardware, the syscall and the copy from user
 * space aside.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ring.h"

#define SIZE	(256U << 10)
#define RECORDS	200000
#define REPS	9

static u8 payload[4076];
static struct pid me = { 1 };

static u64 now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static u64 run_memcpy(u8 *buf, u32 len)
{
	struct nslog_rec rec = { .len = len };
	u32 need = nslog_ring_rec_size(len), off = 0;
	u64 t0 = now(CLOCK_MONOTONIC);
	int i;

	for (i = 0; i < RECORDS; i++) {
		if (off + need > SIZE)
			off = 0;
		memcpy(buf + off, &rec, sizeof(rec));
		memcpy(buf + off + sizeof(rec), payload, len);
		/* Keep the stores. */
		__asm__ volatile("" : : "r"(buf) : "memory");
		off += need;
	}
	return now(CLOCK_MONOTONIC) - t0;
}

static u64 run_ring(struct nslog_ring *ring, u32 len, int store)
{
	struct nslog_rec rec = { .len = len };
	u64 t0 = now(CLOCK_MONOTONIC);
	int i;

	for (i = 0; i < RECORDS; i++) {
		if (store) {
			rec.ts_ns = now(CLOCK_REALTIME);
			rec.tgid = get_pid(&me);
			rec.tid = get_pid(&me);
		}
		rec.len = len;
		nslog_ring_write(ring, &rec, payload);
	}
	return now(CLOCK_MONOTONIC) - t0;
}

static int cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	static const u32 sizes[] = { 20, 100, 1000, 4076 };
	static const char *const names[] = { "memcpy", "ring", "store" };
	struct nslog_ring ring;
	atomic64_t order = { 0 };
	u8 *buf = aligned_alloc(4096, SIZE), *rbuf = aligned_alloc(4096, SIZE);
	u64 t[REPS];
	unsigned int p, w, k;

	if (!buf || !rbuf)
		return 1;
	memset(buf, 0, SIZE);
	memset(rbuf, 0, SIZE);
	memset(payload, 'm', sizeof(payload));
	nslog_ring_init(&ring, SIZE, &order);
	nslog_ring_attach(&ring, rbuf);
	printf("what,payload,records,ns_per_record\n");
	for (p = 0; p < 4; p++) {
		for (w = 0; w < 3; w++) {
			for (k = 0; k < REPS; k++)
				t[k] = w ? run_ring(&ring, sizes[p], w == 2) :
					   run_memcpy(buf, sizes[p]);
			qsort(t, REPS, sizeof(*t), cmp);
			printf("%s,%u,%u,%.1f\n", names[w], sizes[p], RECORDS,
			       (double)t[REPS / 2] / RECORDS);
		}
	}
	return 0;
}
