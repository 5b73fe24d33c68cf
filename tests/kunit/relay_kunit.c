// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for relayed records (src/relay.c): the argument checks of
 * NSLOG_IOC_RELAY, the header and claims a relay stamps, and how the ring
 * shows a relayed record to readers.  The charge to the writer's cgroups
 * needs tasks in different cgroups, which UML's KUnit run does not have:
 * tests/containers/relay.sh checks it on a real kernel.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/uio.h>

#include <uapi/linux/nslogger.h>

#include "log.h"
#include "relay.h"
#include "ring.h"

/* 2024-01-01T00:00:00Z and a few nanoseconds: the writer's claimed time. */
#define CLAIM_NS	1704067200000000123LL
#define CLAIM_TID	4242
#define GONE_PID	31337
#define WRITER_UID	10057

/* A well-formed argument; each case changes one thing. */
static struct nslog_relay good_arg(void)
{
	return (struct nslog_relay){
		.pid = 1,
		.uid = WRITER_UID,
		.tid = CLAIM_TID,
		.log_id = 0,
		.time_ns = CLAIM_NS,
		.flags = 0,
		.len = 5,
		.payload = 0,
	};
}

struct nslog_relay_check_case {
	const char *name;
	void (*change)(struct nslog_relay *arg);
	int err;
};

static void nothing(struct nslog_relay *a) { }
static void flag_keep(struct nslog_relay *a) { a->flags = NSLOG_RELAY_KEEP_EXITED; }
static void flag_both(struct nslog_relay *a)
{
	a->flags = NSLOG_RELAY_KEEP_EXITED | NSLOG_RELAY_WRITER_SET;
}

static void flag_file(struct nslog_relay *a) { a->flags = NSLOG_RELAY_FILE_LOG; }
static void flag_file_keep(struct nslog_relay *a)
{
	a->flags = NSLOG_RELAY_FILE_LOG | NSLOG_RELAY_KEEP_EXITED;
}

static void flag_file_log_id(struct nslog_relay *a)
{
	a->flags = NSLOG_RELAY_FILE_LOG;
	a->log_id = 3;
}

static void flag_file_writer_set(struct nslog_relay *a)
{
	a->flags = NSLOG_RELAY_FILE_LOG | NSLOG_RELAY_WRITER_SET;
}

static void flag_unknown(struct nslog_relay *a) { a->flags = 0x8; }
static void flag_high(struct nslog_relay *a) { a->flags = 0x80000000; }
static void reserved0(struct nslog_relay *a) { a->__reserved[0] = 1; }
static void reserved1(struct nslog_relay *a) { a->__reserved[1] = 1ULL << 63; }
static void log_system(struct nslog_relay *a) { a->log_id = 3; }
static void log_stats(struct nslog_relay *a) { a->log_id = 5; }
static void log_kernel(struct nslog_relay *a) { a->log_id = 7; }
static void log_huge(struct nslog_relay *a) { a->log_id = 0xffffffff; }
static void pid_zero(struct nslog_relay *a)
{
	a->pid = 0;
}

static void pid_neg(struct nslog_relay *a) { a->pid = -1; }
static void tid_zero(struct nslog_relay *a)
{
	a->tid = 0;
}

static void tid_neg(struct nslog_relay *a) { a->tid = -5; }
static void time_zero(struct nslog_relay *a)
{
	a->time_ns = 0;
}

static void time_neg(struct nslog_relay *a) { a->time_ns = -1; }
static void len_zero(struct nslog_relay *a)
{
	a->len = 0;
}

static void len_one(struct nslog_relay *a) { a->len = 1; }
static void len_max(struct nslog_relay *a) { a->len = LOGGER_ENTRY_MAX_PAYLOAD; }
static void len_over(struct nslog_relay *a) { a->len = LOGGER_ENTRY_MAX_PAYLOAD + 1; }
static void len_huge(struct nslog_relay *a) { a->len = 0xffffffff; }

static const struct nslog_relay_check_case nslog_relay_check_cases[] = {
	{ "well-formed", nothing, 0 },
	{ "keep-exited flag", flag_keep, 0 },
	{ "keep-exited and writer-set", flag_both, 0 },
	{ "file-log flag, log id 0", flag_file, 0 },
	{ "file-log and keep-exited", flag_file_keep, 0 },
	{ "file-log with a log id", flag_file_log_id, -EINVAL },
	{ "file-log with writer-set", flag_file_writer_set, -EINVAL },
	{ "unknown flag", flag_unknown, -EINVAL },
	{ "top flag bit", flag_high, -EINVAL },
	{ "first reserved word", reserved0, -EINVAL },
	{ "second reserved word", reserved1, -EINVAL },
	{ "log id system (3)", log_system, 0 },
	{ "log id stats (5)", log_stats, -EINVAL },
	{ "log id kernel (7)", log_kernel, -EINVAL },
	{ "log id ~0", log_huge, -EINVAL },
	{ "pid 0", pid_zero, -EINVAL },
	{ "pid -1", pid_neg, -EINVAL },
	{ "tid 0", tid_zero, 0 },
	{ "negative tid", tid_neg, -EINVAL },
	{ "time 0", time_zero, 0 },
	{ "negative time", time_neg, -EINVAL },
	{ "empty payload", len_zero, -EINVAL },
	{ "one byte", len_one, 0 },
	{ "largest payload", len_max, 0 },
	{ "one byte too many", len_over, -EMSGSIZE },
	{ "length ~0", len_huge, -EMSGSIZE },
};

static void nslog_relay_check_desc(const struct nslog_relay_check_case *c,
				   char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(nslog_relay_check, nslog_relay_check_cases,
		  nslog_relay_check_desc);

static void nslog_relay_test_check_validates_each_field(struct kunit *test)
{
	const struct nslog_relay_check_case *c = test->param_value;
	struct nslog_relay arg = good_arg();

	c->change(&arg);
	KUNIT_EXPECT_EQ(test, nslog_relay_check(&arg), c->err);
}

static void nslog_relay_test_log_ids_are_androids(struct kunit *test)
{
	struct nslog_relay arg = good_arg();
	static const unsigned int want[] = {
		NSLOG_LOG_MAIN, NSLOG_LOG_RADIO, NSLOG_LOG_EVENTS,
		NSLOG_LOG_SYSTEM,
	};
	u32 id;

	for (id = 0; id < ARRAY_SIZE(want); id++) {
		arg.log_id = id;
		KUNIT_ASSERT_EQ(test, nslog_relay_check(&arg), 0);
		KUNIT_EXPECT_EQ(test, nslog_relay_log(&arg), want[id]);
		/* What a reader's header then says. */
		KUNIT_EXPECT_EQ(test, nslog_log_android_ids[want[id]], id);
	}
}

/* A ring of its own, with storage, for stamping and reading back. */
struct nslog_relay_test {
	struct nslog_ring ring;
	atomic64_t order;
	u8 *buf;
	u8 *out;
};

static int nslog_relay_test_init(struct kunit *test)
{
	struct nslog_relay_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->buf = kunit_kzalloc(test, NSLOG_RING_MIN_SIZE, GFP_KERNEL);
	t->out = kunit_kzalloc(test, LOGGER_ENTRY_MAX_PAYLOAD, GFP_KERNEL);
	if (!t->buf || !t->out)
		return -ENOMEM;
	atomic64_set(&t->order, 0);
	nslog_ring_init(&t->ring, NSLOG_RING_MIN_SIZE, &t->order);
	if (!nslog_ring_attach(&t->ring, t->buf))
		return -EINVAL;
	test->priv = t;
	return 0;
}

static void nslog_relay_test_exit(struct kunit *test)
{
	struct nslog_relay_test *t = test->priv;

	/* Gives back every record's pid references. */
	if (t)
		nslog_ring_flush(&t->ring);
}

/* Stamp and store one relayed record of @payload; @writer is taken over. */
static void relay_one(struct nslog_relay_test *t, const struct nslog_relay *arg,
		      struct pid *writer, kuid_t euid, const char *payload,
		      struct nslog_rec *rec)
{
	struct {
		struct nslog_rec_relay rel;
		char payload[32];
	} stage;

	nslog_relay_stamp(rec, &stage.rel, arg, writer, euid);
	memcpy(stage.payload, payload, arg->len);
	nslog_ring_write(&t->ring, rec, &stage);
}

static void nslog_relay_test_stamp_names_writer_and_relay(struct kunit *test)
{
	struct nslog_relay_test *t = test->priv;
	struct nslog_relay arg = good_arg();
	struct pid *me = task_tgid(current);
	struct nslog_ring_filter all = {
		.pid_ns = task_active_pid_ns(current),
		.all = true,
	};
	struct nslog_ring_cursor cur = { }, next;
	struct nslog_rec_view view;
	struct nslog_rec rec;

	arg.len = 6;
	relay_one(t, &arg, get_pid(me), KUIDT_INIT(WRITER_UID), "hello", &rec);

	/* The header: the writer's identity, the relay in the tid slot. */
	KUNIT_EXPECT_PTR_EQ(test, rec.tgid, me);
	KUNIT_EXPECT_PTR_EQ(test, rec.tid, me);
	KUNIT_EXPECT_EQ(test, rec.flags, (u16)NSLOG_REC_RELAY);
	KUNIT_EXPECT_EQ(test, rec.len,
			(u16)(sizeof(struct nslog_rec_relay) + arg.len));
	KUNIT_EXPECT_NE(test, rec.ts_ns, (s64)CLAIM_NS);

	KUNIT_ASSERT_EQ(test, nslog_ring_peek(&t->ring, &cur, &all, &view,
					      t->out, &next), 0);
	KUNIT_EXPECT_EQ(test, view.pid, task_tgid_nr(current));
	KUNIT_EXPECT_EQ(test, view.relay_pid, task_tgid_nr(current));
	KUNIT_EXPECT_EQ(test, view.tid, CLAIM_TID);
	KUNIT_EXPECT_EQ(test, view.ts_ns, (s64)CLAIM_NS);
	KUNIT_EXPECT_EQ(test, view.stored_ns, rec.ts_ns);
	KUNIT_EXPECT_TRUE(test, uid_eq(view.euid, KUIDT_INIT(WRITER_UID)));
	KUNIT_EXPECT_EQ(test, view.len, (u16)arg.len);
	KUNIT_EXPECT_EQ(test, view.flags, (u16)NSLOG_REC_RELAY);
	KUNIT_EXPECT_EQ(test, memcmp(t->out, "hello", 6), 0);
}

static void nslog_relay_test_gone_writer_is_unverified(struct kunit *test)
{
	struct nslog_relay_test *t = test->priv;
	struct nslog_relay arg = good_arg();
	struct nslog_ring_filter mine = {
		.pid_ns = task_active_pid_ns(current),
		.all = true,
	};
	struct nslog_ring_filter nowhere = { .all = true };
	struct nslog_ring_cursor cur = { }, next;
	struct nslog_rec_view view;
	struct nslog_rec rec;

	arg.pid = GONE_PID;
	arg.len = 3;
	relay_one(t, &arg, NULL, KUIDT_INIT(WRITER_UID), "ab", &rec);
	KUNIT_EXPECT_NULL(test, rec.tgid);
	KUNIT_EXPECT_EQ(test, rec.flags,
			(u16)(NSLOG_REC_RELAY | NSLOG_REC_UNVERIFIED));

	/* The relay's pid namespace is shown the pid it named ... */
	KUNIT_ASSERT_EQ(test, nslog_ring_peek(&t->ring, &cur, &mine, &view,
					      t->out, &next), 0);
	KUNIT_EXPECT_EQ(test, view.pid, GONE_PID);
	KUNIT_EXPECT_EQ(test, view.relay_pid, task_tgid_nr(current));
	KUNIT_EXPECT_EQ(test, view.tid, CLAIM_TID);
	KUNIT_EXPECT_TRUE(test, uid_eq(view.euid, KUIDT_INIT(WRITER_UID)));
	KUNIT_EXPECT_EQ(test, memcmp(t->out, "ab", 3), 0);

	/* ... a reader elsewhere sees neither the writer nor the relay. */
	KUNIT_ASSERT_EQ(test, nslog_ring_peek(&t->ring, &cur, &nowhere, &view,
					      t->out, &next), 0);
	KUNIT_EXPECT_EQ(test, view.pid, 0);
	KUNIT_EXPECT_EQ(test, view.relay_pid, 0);
	KUNIT_EXPECT_EQ(test, view.tid, CLAIM_TID);
}

static void nslog_relay_test_uid_filter_sees_writers_records(struct kunit *test)
{
	struct nslog_relay_test *t = test->priv;
	struct nslog_relay arg = good_arg();
	struct nslog_ring_filter writer = {
		.pid_ns = task_active_pid_ns(current),
		.euid = KUIDT_INIT(WRITER_UID),
	};
	struct nslog_ring_filter relay = {
		.pid_ns = task_active_pid_ns(current),
		.euid = current_euid(),
	};
	struct nslog_ring_cursor cur = { }, next;
	struct nslog_rec_view view;
	struct nslog_rec rec;

	arg.len = 2;
	relay_one(t, &arg, get_pid(task_tgid(current)),
		  KUIDT_INIT(WRITER_UID), "x", &rec);
	/* An unprivileged reader with the writer's uid sees it ... */
	KUNIT_EXPECT_EQ(test, nslog_ring_peek(&t->ring, &cur, &writer, &view,
					      t->out, &next), 0);
	/* ... one with only the relay's does not. */
	KUNIT_EXPECT_EQ(test, nslog_ring_peek(&t->ring, &cur, &relay, &view,
					      t->out, &next), -EAGAIN);
}

static void nslog_relay_test_refs_dropped_with_records(struct kunit *test)
{
	struct nslog_relay_test *t = test->priv;
	struct nslog_relay arg = good_arg();
	struct pid *me = task_tgid(current);
	unsigned int before = refcount_read(&me->count);
	struct nslog_rec rec;
	int i;

	arg.len = 5;
	/* Enough to lap the ring several times: the tail drops records. */
	for (i = 0; i < 1000; i++)
		relay_one(t, &arg, i & 1 ? NULL : get_pid(me),
			  KUIDT_INIT(WRITER_UID), "lap!", &rec);
	KUNIT_EXPECT_GT(test, refcount_read(&me->count), before);
	nslog_ring_flush(&t->ring);
	KUNIT_EXPECT_EQ(test, refcount_read(&me->count), before);
}

static void nslog_relay_test_adds_sixteen_bytes(struct kunit *test)
{
	struct nslog_relay_test *t = test->priv;
	struct nslog_relay arg = good_arg();
	struct nslog_ring_stats st;
	struct nslog_rec rec;

	arg.len = 5;
	relay_one(t, &arg, NULL, KUIDT_INIT(WRITER_UID), "abcd", &rec);
	nslog_ring_stats(&t->ring, &st);
	KUNIT_EXPECT_EQ(test, sizeof(struct nslog_rec_relay), (size_t)16);
	KUNIT_EXPECT_EQ(test, st.used, (u64)nslog_ring_rec_size(16 + 5));
	KUNIT_EXPECT_LE(test, st.used, (u64)nslog_ring_rec_size(5) + 16);
}

/*
 * Move @ring's head to offset @off (a multiple of 8) with plain records of
 * the current task: pieces of at most one 2 KiB record, none shorter than
 * the shortest record.
 */
static void relay_fill_to(struct nslog_ring *ring, u32 off)
{
	static const u8 zeros[2048];
	struct nslog_rec rec = { .euid = GLOBAL_ROOT_UID };
	u32 least = nslog_ring_rec_size(8), most = nslog_ring_rec_size(2048);
	u32 gap, piece;

	gap = (off - (u32)ring->head) & (ring->size - 1);
	if (gap && gap < least)
		gap += ring->size;
	while (gap) {
		piece = min(gap, most);
		if (gap - piece && gap - piece < least)
			piece = gap - least;
		rec.tgid = get_pid(task_tgid(current));
		rec.len = piece - nslog_ring_rec_size(0);
		nslog_ring_write(ring, &rec, zeros);
		gap -= piece;
	}
}

/*
 * nslog_log_store_for() copies the claims and then the payload straight
 * into the ring: the record is read back whole wherever the end of the ring
 * cuts it, in the claims, between them and the payload, or in the payload.
 */
static void nslog_relay_test_store_wraps_anywhere(struct kunit *test)
{
	struct nslog_relay_test *t = test->priv;
	struct nslog_ring_filter all = {
		.pid_ns = task_active_pid_ns(current),
		.all = true,
	};
	struct nslog_relay arg = good_arg();
	struct nslog_ring_cursor cur, next;
	struct nslog_rec_relay rel;
	struct nslog_rec_view view;
	struct nslog_log *log;
	struct iov_iter from;
	struct nslog_rec rec;
	struct kvec kv;
	u32 hdr = nslog_ring_rec_size(0);
	u8 payload[61], *buf;
	int k, i;

	log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);
	buf = kunit_kzalloc(test, NSLOG_RING_MIN_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, log);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	nslog_log_setup(log, NULL, &t->order, NSLOG_LOG_MAIN,
			NSLOG_RING_MIN_SIZE);
	KUNIT_ASSERT_TRUE(test, nslog_ring_attach(&log->ring, buf));
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = 'a' + i % 26;
	arg.len = sizeof(payload);

	/*
	 * The claims and payload (77 bytes) start 80 bytes before the end of
	 * the ring, 72, ..., 8, at its start, and 8 bytes after it.
	 */
	for (k = -10; k <= 1; k++) {
		u32 start = (NSLOG_RING_MIN_SIZE + 8 * k) &
			    (NSLOG_RING_MIN_SIZE - 1);

		relay_fill_to(&log->ring, start - hdr);
		nslog_relay_stamp(&rec, &rel, &arg, get_pid(task_tgid(current)),
				  KUIDT_INIT(WRITER_UID));
		kv.iov_base = payload;
		kv.iov_len = sizeof(payload);
		iov_iter_kvec(&from, ITER_SOURCE, &kv, 1, sizeof(payload));
		KUNIT_ASSERT_EQ(test, nslog_log_store_for(log, current, &rec,
							  &rel, &from), 0);
		KUNIT_EXPECT_EQ(test, iov_iter_count(&from), (size_t)0);

		/* The newest record is the one just stored. */
		cur = (struct nslog_ring_cursor){ .pos = log->ring.head -
				nslog_ring_rec_size(rec.len),
			.seq = log->ring.head_seq - 1 };
		memset(t->out, 0, sizeof(payload));
		KUNIT_ASSERT_EQ(test, nslog_ring_peek(&log->ring, &cur, &all,
						      &view, t->out, &next), 0);
		KUNIT_EXPECT_EQ_MSG(test, view.len, (u16)sizeof(payload),
				    "claims at ring end %+d", 8 * k);
		KUNIT_EXPECT_EQ_MSG(test, view.ts_ns, (s64)CLAIM_NS,
				    "claims at ring end %+d", 8 * k);
		KUNIT_EXPECT_EQ_MSG(test, view.tid, CLAIM_TID,
				    "claims at ring end %+d", 8 * k);
		KUNIT_EXPECT_EQ_MSG(test, view.flags, (u16)NSLOG_REC_RELAY,
				    "claims at ring end %+d", 8 * k);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(t->out, payload,
						 sizeof(payload)), 0,
				    "claims at ring end %+d", 8 * k);
	}
	nslog_ring_flush(&log->ring);
}

static struct kunit_case nslog_relay_test_cases[] = {
	KUNIT_CASE_PARAM(nslog_relay_test_check_validates_each_field,
			 nslog_relay_check_gen_params),
	KUNIT_CASE(nslog_relay_test_log_ids_are_androids),
	KUNIT_CASE(nslog_relay_test_stamp_names_writer_and_relay),
	KUNIT_CASE(nslog_relay_test_gone_writer_is_unverified),
	KUNIT_CASE(nslog_relay_test_uid_filter_sees_writers_records),
	KUNIT_CASE(nslog_relay_test_refs_dropped_with_records),
	KUNIT_CASE(nslog_relay_test_adds_sixteen_bytes),
	KUNIT_CASE(nslog_relay_test_store_wraps_anywhere),
	{}
};

static struct kunit_suite nslog_relay_test_suite = {
	.name = "nslog_relay",
	.init = nslog_relay_test_init,
	.exit = nslog_relay_test_exit,
	.test_cases = nslog_relay_test_cases,
};

kunit_test_suite(nslog_relay_test_suite);
