// SPDX-License-Identifier: GPL-2.0
/*
 * nslog_kbench - the ring's append path alone, against a plain memcpy of
 * the same bytes, timed in the kernel when the module is loaded.
 *
 * It builds src/ring.c into itself (see Kbuild), so it measures the very
 * code nslogger.ko runs, without the syscall, the copy from user space or
 * the rate limits.  Three ways of putting N records of each payload size
 * into a 256 KiB buffer, repeated NSLOG_KBENCH_REPS times, the median kept:
 *
 *   memcpy  header and payload copied to the next 8-byte aligned offset,
 *           wrapping to 0: the physical floor;
 *   ring    nslog_ring_write() with no pid references (NULL);
 *   store   what nslog_log_store() does: clock, two pid references, euid,
 *           then nslog_ring_write(); dropped records put their pids back.
 *
 * The results go to the kernel log as "nslog_kbench: csv,WHAT,PAYLOAD,N,NS"
 * with NS the ns per record to one decimal.  Loading fails with -ENOMEM
 * only; there is nothing to unload but the module.
 */

#include <linux/cred.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include "ring.h"

#define NSLOG_KBENCH_SIZE	(256U << 10)
#define NSLOG_KBENCH_RECORDS	20000
#define NSLOG_KBENCH_REPS	7

enum nslog_kbench_what { KB_MEMCPY, KB_RING, KB_STORE };

static const char *const nslog_kbench_names[] = { "memcpy", "ring", "store" };

static u8 nslog_kbench_payload[4076];

static u64 nslog_kbench_memcpy(u8 *buf, u32 len)
{
	struct nslog_rec rec = { .len = len };
	u32 need = nslog_ring_rec_size(len), off = 0;
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < NSLOG_KBENCH_RECORDS; i++) {
		if (off + need > NSLOG_KBENCH_SIZE)
			off = 0;
		memcpy(buf + off, &rec, sizeof(rec));
		memcpy(buf + off + sizeof(rec), nslog_kbench_payload, len);
		off += need;
	}
	/* Keep the compiler from dropping the stores. */
	barrier_data(buf);
	return ktime_get_ns() - t0;
}

static u64 nslog_kbench_ring(struct nslog_ring *ring, u32 len, bool store)
{
	struct nslog_rec rec = { .len = len };
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < NSLOG_KBENCH_RECORDS; i++) {
		if (store) {
			rec.ts_ns = ktime_get_real_ns();
			rec.tgid = get_pid(task_tgid(current));
			rec.tid = get_pid(task_pid(current));
			rec.euid = current_euid();
		}
		rec.len = len;
		nslog_ring_write(ring, &rec, nslog_kbench_payload);
	}
	return ktime_get_ns() - t0;
}

static int nslog_kbench_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int __init nslog_kbench_init(void)
{
	static const u32 payloads[] = { 20, 100, 1000, 4076 };
	struct nslog_ring ring;
	atomic64_t order = ATOMIC64_INIT(0);
	u64 t[NSLOG_KBENCH_REPS], med;
	u8 *buf, *rbuf;
	int p, w, k;

	buf = vmalloc(NSLOG_KBENCH_SIZE);
	rbuf = vmalloc(NSLOG_KBENCH_SIZE);
	if (!buf || !rbuf) {
		vfree(buf);
		vfree(rbuf);
		return -ENOMEM;
	}
	memset(nslog_kbench_payload, 'm', sizeof(nslog_kbench_payload));
	nslog_ring_init(&ring, NSLOG_KBENCH_SIZE, &order);
	nslog_ring_attach(&ring, rbuf);

	for (p = 0; p < ARRAY_SIZE(payloads); p++) {
		for (w = KB_MEMCPY; w <= KB_STORE; w++) {
			/* Interleaved: one rep of each way, then the next. */
			for (k = 0; k < NSLOG_KBENCH_REPS; k++) {
				if (w == KB_MEMCPY)
					t[k] = nslog_kbench_memcpy(buf, payloads[p]);
				else
					t[k] = nslog_kbench_ring(&ring, payloads[p],
								 w == KB_STORE);
				cond_resched();
			}
			sort(t, NSLOG_KBENCH_REPS, sizeof(*t), nslog_kbench_cmp,
			     NULL);
			med = t[NSLOG_KBENCH_REPS / 2] * 10 / NSLOG_KBENCH_RECORDS;
			pr_info("nslog_kbench: csv,%s,%u,%u,%llu.%llu\n",
				nslog_kbench_names[w], payloads[p],
				NSLOG_KBENCH_RECORDS, med / 10, med % 10);
		}
	}

	vfree(nslog_ring_release(&ring));
	vfree(buf);
	return 0;
}

static void __exit nslog_kbench_exit(void)
{
}

module_init(nslog_kbench_init);
module_exit(nslog_kbench_exit);
MODULE_DESCRIPTION("nslogger: in-kernel benchmark of the ring append path");
MODULE_LICENSE("GPL");
