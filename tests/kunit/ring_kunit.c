// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the nslogger record ring (src/ring.c), through the API in
 * src/ring.h.
 *
 * Every case gets a fresh ring of NSLOG_RING_MIN_SIZE bytes with storage
 * attached (nslog_ring_test_init()); the suite's exit releases it, so the pid
 * references of records a failed case left behind are given back.  Records
 * carry NULL pids except in the refcount case.  The test chooses every
 * timestamp: the ring never reads a clock and no case sleeps.
 *
 * Payloads are made from the record's sequence number, so a record read
 * back can be checked on its own: ts_ns, len and each payload byte follow
 * from the sequence number the reader sees.  A case writes records in order
 * and knows which sequence number each one gets (the ring starts at 0).
 *
 * Some cases look at @head, @tail and @tail_seq of struct nslog_ring, which
 * ring.h documents, to state invariants the API alone cannot show.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <uapi/linux/nslogger.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>

#include "ring.h"

#define RING_SIZE	NSLOG_RING_MIN_SIZE
#define HDR_SIZE	((u32)sizeof(struct nslog_rec))
#define MAX_PAYLOAD	LOGGER_ENTRY_MAX_PAYLOAD
#define MIN_REC		nslog_ring_rec_size(1)
#define MAX_REC		nslog_ring_rec_size(MAX_PAYLOAD)

/* Bytes past the payload in the reader's buffer that peek must not touch. */
#define OUT_GUARD	16
#define POISON		0xe5

#define UID_A		1000
#define UID_B		2000
#define UID_C		3000

/* 2023-11-14T22:13:20Z, plus a few nanoseconds per sequence number. */
#define TS_BASE		1700000000000000000LL

struct nslog_ring_test {
	struct nslog_ring ring;
	atomic64_t order;	/* the ring's order numbers, its own here */
	u8 *buf;	/* the ring's storage */
	u8 *in;		/* payload being written */
	u8 *out;	/* payload read back, MAX_PAYLOAD + OUT_GUARD bytes */
};

static const struct nslog_ring_filter see_all = { .all = true };

static const struct nslog_ring_filter only_a = {
	.all = false,
	.euid = KUIDT_INIT(UID_A),
};

/* The payload byte @i of the record with sequence number @seq. */
static u8 pattern(u64 seq, u32 i)
{
	return (u8)(seq * 37 + i * 11 + (i >> 8)) ^ 0x5a;
}

static s64 ts_of(u64 seq)
{
	return TS_BASE + (s64)seq * 1000 + 7;
}

static int nslog_ring_test_init(struct kunit *test)
{
	struct nslog_ring_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->buf = kunit_kmalloc(test, RING_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->buf);
	t->in = kunit_kmalloc(test, MAX_PAYLOAD, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->in);
	t->out = kunit_kmalloc(test, MAX_PAYLOAD + OUT_GUARD, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->out);

	/* Stale bytes in the storage must never show up in a record. */
	memset(t->buf, POISON, RING_SIZE);
	nslog_ring_init(&t->ring, RING_SIZE, &t->order);
	test->priv = t;
	KUNIT_ASSERT_TRUE(test, nslog_ring_attach(&t->ring, t->buf));
	return 0;
}

static void nslog_ring_test_exit(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;

	/* Gives back the pid references of records still stored. */
	if (t)
		nslog_ring_release(&t->ring);
}

/* Write a record that is checkable by its sequence number; returns it. */
static u64 put_rec(struct nslog_ring_test *t, u64 seq, u16 len, u32 euid,
		   u16 flags, struct pid *tgid, struct pid *tid)
{
	struct nslog_rec rec = {
		.order = U64_MAX,
		.ts_ns = ts_of(seq),
		.tgid = tgid,
		.tid = tid,
		.euid = KUIDT_INIT(euid),
		.len = len,
		.flags = flags,
	};
	u32 i;

	for (i = 0; i < len; i++)
		t->in[i] = pattern(seq, i);
	nslog_ring_write(&t->ring, &rec, t->in);
	/* The ring's own counter: the order number is the sequence number. */
	return rec.order;
}

static u64 put(struct nslog_ring_test *t, u64 seq, u16 len)
{
	return put_rec(t, seq, len, UID_A, 0, NULL, NULL);
}

/* Write @n records of @len bytes with sequence numbers from @seq on. */
static u64 put_n(struct nslog_ring_test *t, u64 seq, u32 n, u16 len)
{
	while (n--)
		put(t, seq++, len);
	return seq;
}

/* Peek into a poisoned buffer; returns peek's result. */
static int peek(struct nslog_ring_test *t, const struct nslog_ring_cursor *cur,
		const struct nslog_ring_filter *filter,
		struct nslog_rec_view *view, struct nslog_ring_cursor *next)
{
	struct nslog_ring_cursor c = *cur;

	memset(view, 0, sizeof(*view));
	memset(t->out, POISON, MAX_PAYLOAD + OUT_GUARD);
	return nslog_ring_peek(&t->ring, &c, filter, view, t->out, next);
}

/* Peek and consume what was found, as a reader that delivered it would. */
static int get(struct nslog_ring_test *t, struct nslog_ring_cursor *cur,
	       const struct nslog_ring_filter *filter,
	       struct nslog_rec_view *view)
{
	struct nslog_ring_cursor next;
	int err;

	err = peek(t, cur, filter, view, &next);
	if (!err)
		*cur = next;
	return err;
}

/*
 * Check a record read into t->out against what put() wrote for sequence
 * number @seq with @len bytes; true if it matches.
 */
static bool check_rec(struct kunit *test, struct nslog_ring_test *t,
		      const struct nslog_rec_view *view, u64 seq, u16 len)
{
	bool ok = true;
	u32 i;

	KUNIT_EXPECT_EQ(test, view->seq, seq);
	KUNIT_EXPECT_EQ(test, view->len, len);
	KUNIT_EXPECT_EQ(test, view->ts_ns, ts_of(seq));
	if (view->seq != seq || view->len != len || view->ts_ns != ts_of(seq))
		return false;
	for (i = 0; i < len; i++) {
		if (t->out[i] != pattern(seq, i)) {
			KUNIT_FAIL(test, "seq %llu len %u: payload byte %u is %#x, not %#x",
				   seq, len, i, t->out[i], pattern(seq, i));
			ok = false;
			break;
		}
	}
	for (i = len; i < len + OUT_GUARD; i++) {
		if (t->out[i] != POISON) {
			KUNIT_FAIL(test, "seq %llu len %u: peek wrote past the payload, at byte %u",
				   seq, len, i);
			ok = false;
			break;
		}
	}
	return ok;
}

/* Stored bytes, from the head and tail positions. */
static u64 stored(const struct nslog_ring_test *t)
{
	return t->ring.head - t->ring.tail;
}

/* ----------------------------------------------------------------------- */

static void nslog_ring_test_empty_ring_peek_is_eagain(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {}, next = { .pos = 1, .seq = 1 };
	struct nslog_rec_view view;

	KUNIT_EXPECT_EQ(test, peek(t, &cur, &see_all, &view, &next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, next.pos, 0ULL);
	KUNIT_EXPECT_EQ(test, next.seq, 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &cur), 0ULL);
	KUNIT_EXPECT_FALSE(test, nslog_ring_has_new(&t->ring, cur.pos));
	KUNIT_EXPECT_EQ(test, peek(t, &cur, &only_a, &view, &next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, next.pos, 0ULL);
	KUNIT_EXPECT_EQ(test, next.seq, 0ULL);
}

static void nslog_ring_test_drained_reader_peek_is_eagain_at_cursor(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {}, next;
	struct nslog_rec_view view;
	u64 seq;

	put_n(t, 0, 3, 10);
	for (seq = 0; seq < 3; seq++) {
		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
		check_rec(test, t, &view, seq, 10);
	}
	KUNIT_EXPECT_EQ(test, peek(t, &cur, &see_all, &view, &next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, next.pos, cur.pos);
	KUNIT_EXPECT_EQ(test, next.seq, cur.seq);
	KUNIT_EXPECT_EQ(test, cur.pos, 3ULL * nslog_ring_rec_size(10));
	KUNIT_EXPECT_EQ(test, cur.seq, 3ULL);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &cur), 0ULL);
	KUNIT_EXPECT_FALSE(test, nslog_ring_has_new(&t->ring, cur.pos));
}

static void nslog_ring_test_record_round_trips(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_filter in_ns = {
		.pid_ns = task_active_pid_ns(current),
		.all = true,
	};
	struct nslog_ring_cursor cur = {}, next;
	struct nslog_rec_view view;

	KUNIT_EXPECT_EQ(test, put_rec(t, 0, 5, 1234, NSLOG_REC_KERNEL,
				      NULL, NULL), 0ULL);
	KUNIT_EXPECT_EQ(test, put_rec(t, 1, 77, 0, 0, NULL, NULL), 1ULL);
	KUNIT_EXPECT_TRUE(test, nslog_ring_has_new(&t->ring, cur.pos));

	KUNIT_ASSERT_EQ(test, peek(t, &cur, &see_all, &view, &next), 0);
	check_rec(test, t, &view, 0, 5);
	KUNIT_EXPECT_TRUE(test, uid_eq(view.euid, KUIDT_INIT(1234)));
	KUNIT_EXPECT_EQ(test, view.flags, (u16)NSLOG_REC_KERNEL);
	KUNIT_EXPECT_EQ(test, view.lost, 0ULL);
	KUNIT_EXPECT_EQ(test, view.pid, 0);
	KUNIT_EXPECT_EQ(test, view.tid, 0);
	KUNIT_EXPECT_EQ(test, next.pos, (u64)nslog_ring_rec_size(5));
	KUNIT_EXPECT_EQ(test, next.seq, 1ULL);
	cur = next;

	/* NULL pids show as 0 in a pid namespace too. */
	KUNIT_ASSERT_EQ(test, peek(t, &cur, &in_ns, &view, &next), 0);
	check_rec(test, t, &view, 1, 77);
	KUNIT_EXPECT_TRUE(test, uid_eq(view.euid, GLOBAL_ROOT_UID));
	KUNIT_EXPECT_EQ(test, view.flags, (u16)0);
	KUNIT_EXPECT_EQ(test, view.pid, 0);
	KUNIT_EXPECT_EQ(test, view.tid, 0);
	KUNIT_EXPECT_EQ(test, next.pos,
			(u64)nslog_ring_rec_size(5) + nslog_ring_rec_size(77));
	KUNIT_EXPECT_EQ(test, next.seq, 2ULL);
}

static void nslog_ring_test_rec_size_is_aligned_header_plus_payload(struct kunit *test)
{
	u32 len;

	for (len = 0; len <= MAX_PAYLOAD; len++) {
		u32 size = nslog_ring_rec_size(len);

		KUNIT_ASSERT_EQ(test, size % 8, 0U);
		KUNIT_ASSERT_GE(test, size, HDR_SIZE + len);
		KUNIT_ASSERT_LT(test, size, HDR_SIZE + len + 8);
	}
	/* The biggest record must leave room for another in the smallest ring. */
	KUNIT_EXPECT_LT(test, MAX_REC + MIN_REC, RING_SIZE);
}

/*
 * Write filler records until the head is at @target, a multiple of 8 at
 * least MIN_REC ahead of it; returns the next sequence number.
 */
static u64 advance_to(struct nslog_ring_test *t, u64 target, u64 seq)
{
	while (t->ring.head < target) {
		u64 gap = target - t->ring.head;
		u32 size;

		if (gap <= MAX_REC)
			size = gap;
		else if (gap - MAX_REC >= MIN_REC)
			size = MAX_REC;
		else
			size = gap - MIN_REC;
		/* nslog_ring_rec_size(size - HDR_SIZE - 7) == size */
		put(t, seq++, size - HDR_SIZE - 7);
	}
	return seq;
}

static const u16 nslog_ring_wrap_lens[] = {
	1, 2, 7, 8, 9, 100, 1000, MAX_PAYLOAD - 1, MAX_PAYLOAD,
};

static void nslog_ring_len_desc(const u16 *len, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "len %u", *len);
}

KUNIT_ARRAY_PARAM(nslog_ring_wrap, nslog_ring_wrap_lens, nslog_ring_len_desc);

/*
 * For every 8-byte aligned offset of the ring, a record of the given length
 * starts there (so near the end its header, its payload or both straddle the
 * end of the buffer), and it and the small record after it read back intact.
 */
static void nslog_ring_test_wrap_at_every_offset_round_trips(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	const u16 len = *(const u16 *)test->param_value;
	struct nslog_ring_cursor cur;
	struct nslog_rec_view view;
	u64 seq = 0;
	u32 off;

	for (off = 0; off < RING_SIZE; off += 8) {
		u64 start = t->ring.head + MIN_REC;
		u64 target = start + ((off - start) & (RING_SIZE - 1));
		bool ok;

		seq = advance_to(t, target, seq);
		KUNIT_ASSERT_EQ(test, t->ring.head, target);
		cur = (struct nslog_ring_cursor){ .pos = target, .seq = seq };
		KUNIT_ASSERT_EQ(test, put(t, seq, len), seq);
		KUNIT_ASSERT_EQ(test, put(t, seq + 1, 3), seq + 1);
		KUNIT_ASSERT_LE(test, stored(t), (u64)RING_SIZE);

		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
		ok = check_rec(test, t, &view, seq, len);
		ok &= view.lost == 0;
		ok &= cur.pos == target + nslog_ring_rec_size(len);
		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
		ok &= check_rec(test, t, &view, seq + 1, 3);
		ok &= cur.seq == seq + 2 && cur.pos == t->ring.head;
		KUNIT_ASSERT_TRUE_MSG(test, ok, "record of %u bytes at offset %u",
				      len, off);
		seq += 2;
	}
}

static const u16 nslog_ring_fill_lens[] = { 1, 100, 1000, MAX_PAYLOAD };

KUNIT_ARRAY_PARAM(nslog_ring_fill, nslog_ring_fill_lens, nslog_ring_len_desc);

/*
 * Writing far past the capacity drops the oldest records one by one and
 * keeps exactly the newest that fit.
 */
static void nslog_ring_test_fill_past_capacity_keeps_newest(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	const u16 len = *(const u16 *)test->param_value;
	const u32 fit = RING_SIZE / nslog_ring_rec_size(len);
	const u32 total = 3 * fit + 5;
	struct nslog_ring_cursor zero = {}, cur = {}, next;
	struct nslog_rec_view view;
	u64 seq, oldest;

	for (seq = 0; seq < total; seq++) {
		KUNIT_ASSERT_EQ(test, put(t, seq, len), seq);
		KUNIT_ASSERT_LE(test, stored(t), (u64)RING_SIZE);
		oldest = seq + 1 > fit ? seq + 1 - fit : 0;
		KUNIT_ASSERT_EQ(test, stored(t),
				(seq + 1 - oldest) * nslog_ring_rec_size(len));
		/* The oldest record still there moves on one at a time. */
		KUNIT_ASSERT_EQ(test, peek(t, &zero, &see_all, &view, &next), 0);
		KUNIT_ASSERT_EQ(test, view.seq, oldest);
	}

	for (seq = total - fit; seq < total; seq++) {
		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
		KUNIT_ASSERT_TRUE(test, check_rec(test, t, &view, seq, len));
	}
	KUNIT_EXPECT_EQ(test, get(t, &cur, &see_all, &view), -EAGAIN);
}

struct nslog_ring_lap_case {
	const char *name;
	u32 read_first;	/* records the reader read before it fell behind */
	u32 written;	/* records written in all */
};

/* With 100-byte payloads, 56 records fit in the smallest ring. */
#define LAP_LEN		100
#define LAP_FIT		(RING_SIZE / ALIGN(HDR_SIZE + LAP_LEN, 8))

static const struct nslog_ring_lap_case nslog_ring_lap_cases[] = {
	{ "at the tail, not lapped", 3, 3 + LAP_FIT },
	{ "lapped by one record", 3, 4 + LAP_FIT },
	{ "lapped by many records", 3, 100 },
	{ "lapped by several rings", 3, 3 + 7 * LAP_FIT + 11 },
	{ "lapped before its first read", 0, 1 + LAP_FIT },
};

static void nslog_ring_lap_desc(const struct nslog_ring_lap_case *c,
				char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(nslog_ring_lap, nslog_ring_lap_cases, nslog_ring_lap_desc);

/*
 * A reader whose records were overwritten continues at the oldest record
 * still stored, and view->lost says how many it missed.
 */
static void nslog_ring_test_reader_lapped_skips_to_oldest(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	const struct nslog_ring_lap_case *c = test->param_value;
	u64 first = max_t(u64, c->read_first, c->written - LAP_FIT);
	struct nslog_ring_cursor cur = {};
	struct nslog_rec_view view;
	u64 seq;

	KUNIT_ASSERT_EQ(test, LAP_FIT, RING_SIZE / nslog_ring_rec_size(LAP_LEN));
	put_n(t, 0, c->read_first, LAP_LEN);
	for (seq = 0; seq < c->read_first; seq++)
		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	put_n(t, c->read_first, c->written - c->read_first, LAP_LEN);
	KUNIT_EXPECT_TRUE(test, nslog_ring_has_new(&t->ring, cur.pos));

	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, first, LAP_LEN);
	KUNIT_EXPECT_EQ(test, view.lost, first - c->read_first);
	for (seq = first + 1; seq < c->written; seq++) {
		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
		KUNIT_ASSERT_TRUE(test, check_rec(test, t, &view, seq, LAP_LEN));
		KUNIT_EXPECT_EQ(test, view.lost, 0ULL);
	}
	KUNIT_EXPECT_EQ(test, get(t, &cur, &see_all, &view), -EAGAIN);
}

/*
 * A reader that opens after records were dropped starts with a zeroed
 * cursor at the oldest record still stored.  Its first view->lost counts
 * every record dropped since the ring was made: a zeroed cursor cannot tell
 * a reader that opened late from one that was open all along.
 */
static void nslog_ring_test_zeroed_cursor_starts_at_oldest(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {};
	struct nslog_rec_view view;
	u64 seq;

	put_n(t, 0, 100, LAP_LEN);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, 100 - LAP_FIT, LAP_LEN);
	KUNIT_EXPECT_EQ(test, view.lost, 100ULL - LAP_FIT);
	KUNIT_EXPECT_EQ(test, cur.pos,
			t->ring.tail + nslog_ring_rec_size(LAP_LEN));
	for (seq = 100 - LAP_FIT + 1; seq < 100; seq++) {
		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
		KUNIT_ASSERT_TRUE(test, check_rec(test, t, &view, seq, LAP_LEN));
	}
	KUNIT_EXPECT_EQ(test, get(t, &cur, &see_all, &view), -EAGAIN);
}

/*
 * Sequence numbers go up by one per write and never restart, whatever is
 * dropped or flushed; a reader that keeps up sees each one, and one that
 * is lapped sees the gap as view->lost.
 */
static void nslog_ring_test_seq_increments_across_drops_and_flushes(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor eager = {}, lazy = {}, next;
	struct nslog_rec_view view;
	u64 seq = 0, last = 0;
	int round, i;

	for (round = 0; round < 4; round++) {
		/* 150 records of 100 bytes: drops about 100 of them. */
		for (i = 0; i < 150; i++, seq++) {
			KUNIT_ASSERT_EQ(test, put(t, seq, LAP_LEN), seq);
			KUNIT_ASSERT_EQ(test, get(t, &eager, &see_all, &view), 0);
			KUNIT_ASSERT_EQ(test, view.seq, seq);
			KUNIT_ASSERT_EQ(test, view.lost, 0ULL);
		}
		/* The lazy reader reads a few now and then. */
		for (i = 0; i < 5; i++) {
			KUNIT_ASSERT_EQ(test, get(t, &lazy, &see_all, &view), 0);
			if (round || i)
				KUNIT_EXPECT_EQ(test, view.seq,
						last + 1 + view.lost);
			last = view.seq;
		}
		nslog_ring_flush(&t->ring);
		if (round & 1)
			nslog_ring_flush(&t->ring);
		KUNIT_ASSERT_EQ(test, peek(t, &lazy, &see_all, &view, &next),
				-EAGAIN);
	}
	KUNIT_ASSERT_EQ(test, put(t, seq, 1), seq);
	KUNIT_ASSERT_EQ(test, get(t, &lazy, &see_all, &view), 0);
	KUNIT_EXPECT_EQ(test, view.seq, seq);
	KUNIT_EXPECT_EQ(test, view.seq, last + 1 + view.lost);
}

/* A flush drops every record, including a run longer than its batch. */
static void nslog_ring_test_flush_drops_every_record(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor zero = {}, next;
	struct nslog_rec_view view;
	u32 n = RING_SIZE / MIN_REC;

	put_n(t, 0, n, 1);
	KUNIT_ASSERT_EQ(test, nslog_ring_unread(&t->ring, &zero),
			(u64)n * MIN_REC);
	nslog_ring_flush(&t->ring);
	KUNIT_EXPECT_EQ(test, t->ring.tail, t->ring.head);
	KUNIT_EXPECT_EQ(test, t->ring.tail_seq, (u64)n);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &zero), 0ULL);
	KUNIT_EXPECT_EQ(test, peek(t, &zero, &see_all, &view, &next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, next.pos, t->ring.head);
	KUNIT_EXPECT_EQ(test, next.seq, (u64)n);
	KUNIT_EXPECT_FALSE(test, nslog_ring_has_new(&t->ring, next.pos));
}

/*
 * Readers behind the head find nothing after a flush; when the next record
 * comes, one that was behind learns how many it lost, one that had read
 * everything lost nothing.
 */
static void nslog_ring_test_flush_reader_behind_counts_lost(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor behind = {}, caught_up = {}, next;
	struct nslog_rec_view view;
	int i;

	put_n(t, 0, 10, 20);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, get(t, &behind, &see_all, &view), 0);
	for (i = 0; i < 10; i++)
		KUNIT_ASSERT_EQ(test, get(t, &caught_up, &see_all, &view), 0);

	nslog_ring_flush(&t->ring);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &behind), 0ULL);
	KUNIT_EXPECT_EQ(test, peek(t, &behind, &see_all, &view, &next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, next.pos, t->ring.head);
	KUNIT_EXPECT_EQ(test, peek(t, &caught_up, &see_all, &view, &next),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, next.pos, caught_up.pos);

	KUNIT_ASSERT_EQ(test, put(t, 10, 20), 10ULL);
	KUNIT_ASSERT_EQ(test, get(t, &behind, &see_all, &view), 0);
	check_rec(test, t, &view, 10, 20);
	KUNIT_EXPECT_EQ(test, view.lost, 7ULL);
	KUNIT_ASSERT_EQ(test, get(t, &caught_up, &see_all, &view), 0);
	check_rec(test, t, &view, 10, 20);
	KUNIT_EXPECT_EQ(test, view.lost, 0ULL);
}

/*
 * peek() says that copying @next into the cursor after -EAGAIN is always
 * safe.  A reader that does so after a flush (or after being lapped while
 * everything left was invisible to it) must still be told what it lost.
 */
static void nslog_ring_test_lost_kept_when_eagain_next_consumed(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {}, next;
	struct nslog_rec_view view;
	int i;

	put_n(t, 0, 10, 20);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	nslog_ring_flush(&t->ring);
	KUNIT_ASSERT_EQ(test, peek(t, &cur, &see_all, &view, &next), -EAGAIN);
	cur = next;

	KUNIT_ASSERT_EQ(test, put(t, 10, 20), 10ULL);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, 10, 20);
	KUNIT_EXPECT_EQ_MSG(test, view.lost, 7ULL,
			    "records 3..9 were flushed before this reader saw them");
}

static void nslog_ring_test_write_after_flush_is_readable(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor fresh = {}, old = {};
	struct nslog_rec_view view;
	u64 seq;

	put_n(t, 0, 30, 200);
	nslog_ring_flush(&t->ring);
	put_n(t, 30, 3, 200);
	for (seq = 30; seq < 33; seq++) {
		KUNIT_ASSERT_EQ(test, get(t, &fresh, &see_all, &view), 0);
		check_rec(test, t, &view, seq, 200);
	}
	KUNIT_EXPECT_EQ(test, get(t, &fresh, &see_all, &view), -EAGAIN);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &old),
			3ULL * nslog_ring_rec_size(200));
}

static void nslog_ring_test_flush_empty_ring_is_harmless(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {}, next;
	struct nslog_rec_view view;

	nslog_ring_flush(&t->ring);
	nslog_ring_flush(&t->ring);
	KUNIT_EXPECT_EQ(test, t->ring.head, 0ULL);
	KUNIT_EXPECT_EQ(test, t->ring.tail, 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &cur), 0ULL);
	KUNIT_EXPECT_EQ(test, peek(t, &cur, &see_all, &view, &next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, next.pos, 0ULL);
	KUNIT_EXPECT_EQ(test, next.seq, 0ULL);

	KUNIT_ASSERT_EQ(test, put(t, 0, 9), 0ULL);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, 0, 9);
	KUNIT_EXPECT_EQ(test, view.lost, 0ULL);

	/* And a flush of a ring that was already flushed. */
	nslog_ring_flush(&t->ring);
	nslog_ring_flush(&t->ring);
	KUNIT_EXPECT_EQ(test, t->ring.tail, t->ring.head);
	KUNIT_EXPECT_EQ(test, peek(t, &cur, &see_all, &view, &next), -EAGAIN);
}

/*
 * Records of three writers interleaved: a reader limited to one euid sees
 * exactly that writer's records, in order; a reader that may see all sees
 * every record.
 */
/* Which of the three writers wrote record @seq: short runs, mixed. */
static unsigned int writer_of(u64 seq)
{
	return (seq * 7 + seq / 5) % 3;
}

static void nslog_ring_test_filter_shows_only_own_euid(struct kunit *test)
{
	static const u32 uids[] = { UID_A, UID_B, UID_C };
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur[ARRAY_SIZE(uids)] = {}, all = {};
	struct nslog_rec_view view;
	unsigned int i;
	u64 seq;

	for (seq = 0; seq < 60; seq++)
		put_rec(t, seq, 1 + seq % 30, uids[writer_of(seq)], 0, NULL, NULL);

	for (i = 0; i < ARRAY_SIZE(uids); i++) {
		struct nslog_ring_filter f = { .euid = KUIDT_INIT(uids[i]) };

		for (seq = 0; seq < 60; seq++) {
			if (writer_of(seq) != i)
				continue;
			KUNIT_ASSERT_EQ(test, get(t, &cur[i], &f, &view), 0);
			KUNIT_ASSERT_TRUE(test, check_rec(test, t, &view, seq,
							  1 + seq % 30));
			KUNIT_EXPECT_TRUE(test, uid_eq(view.euid, f.euid));
			KUNIT_EXPECT_EQ(test, view.lost, 0ULL);
		}
		KUNIT_EXPECT_EQ(test, get(t, &cur[i], &f, &view), -EAGAIN);
	}
	for (seq = 0; seq < 60; seq++) {
		KUNIT_ASSERT_EQ(test, get(t, &all, &see_all, &view), 0);
		KUNIT_ASSERT_EQ(test, view.seq, seq);
	}
}

/* Runs of invisible records around the reader's scan budget of 64. */
static const u16 nslog_ring_skip_runs[] = { 0, 1, 63, 64, 65, 128, 129, 150 };

static void nslog_ring_run_desc(const u16 *run, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u invisible", *run);
}

KUNIT_ARRAY_PARAM(nslog_ring_skip, nslog_ring_skip_runs, nslog_ring_run_desc);

/*
 * A filtered reader skips a run of records it may not see, however long,
 * without counting them as lost; when only invisible records are left,
 * peek() says -EAGAIN and @next lands on the head, past all of them.
 */
static void nslog_ring_test_filter_skips_long_invisible_runs(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	const u16 run = *(const u16 *)test->param_value;
	struct nslog_ring_cursor cur = {}, next;
	struct nslog_rec_view view;
	u64 seq = 0;
	int i;

	put_rec(t, seq++, 1, UID_A, 0, NULL, NULL);
	for (i = 0; i < run; i++)
		put_rec(t, seq++, 1, UID_B, 0, NULL, NULL);
	put_rec(t, seq++, 1, UID_A, 0, NULL, NULL);
	KUNIT_ASSERT_LE(test, stored(t), (u64)RING_SIZE - MIN_REC);

	KUNIT_ASSERT_EQ(test, get(t, &cur, &only_a, &view), 0);
	check_rec(test, t, &view, 0, 1);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &only_a, &view), 0);
	check_rec(test, t, &view, run + 1, 1);
	KUNIT_EXPECT_EQ(test, view.lost, 0ULL);

	/* Then only records of someone else. */
	for (i = 0; i < run; i++)
		put_rec(t, seq++, 1, UID_B, 0, NULL, NULL);
	KUNIT_ASSERT_EQ(test, peek(t, &cur, &only_a, &view, &next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, next.pos, t->ring.head);
	KUNIT_EXPECT_EQ(test, next.seq, seq);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &next), 0ULL);
	cur = next;
	KUNIT_EXPECT_EQ(test, peek(t, &cur, &only_a, &view, &next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, next.pos, cur.pos);

	KUNIT_ASSERT_EQ(test, put_rec(t, seq, 1, UID_A, 0, NULL, NULL), seq);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &only_a, &view), 0);
	check_rec(test, t, &view, seq, 1);
	KUNIT_EXPECT_EQ(test, view.lost, 0ULL);
}

/* peek() leaves the cursor alone; only copying @next into it consumes. */
static void nslog_ring_test_peek_does_not_consume(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {}, before, next1, next2;
	struct nslog_rec_view view1, view2;

	put_n(t, 0, 2, 33);
	before = cur;
	KUNIT_ASSERT_EQ(test, nslog_ring_peek(&t->ring, &cur, &see_all, &view1,
					      t->out, &next1), 0);
	KUNIT_ASSERT_EQ(test, peek(t, &cur, &see_all, &view2, &next2), 0);
	check_rec(test, t, &view2, 0, 33);
	KUNIT_EXPECT_EQ(test, memcmp(&cur, &before, sizeof(cur)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&view1, &view2, sizeof(view1)), 0);
	KUNIT_EXPECT_EQ(test, next1.pos, next2.pos);
	KUNIT_EXPECT_EQ(test, next1.seq, next2.seq);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &cur),
			2ULL * nslog_ring_rec_size(33));

	cur = next2;
	KUNIT_ASSERT_EQ(test, peek(t, &cur, &see_all, &view1, &next1), 0);
	check_rec(test, t, &view1, 1, 33);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &cur),
			(u64)nslog_ring_rec_size(33));

	/* Also when nothing is found. */
	cur = next1;
	before = cur;
	KUNIT_ASSERT_EQ(test, peek(t, &cur, &see_all, &view1, &next1), -EAGAIN);
	KUNIT_EXPECT_EQ(test, memcmp(&cur, &before, sizeof(cur)), 0);
}

/*
 * nslog_ring_unread() counts the ring bytes of every record after the
 * cursor, and never more than what is stored when the reader was lapped.
 */
static void nslog_ring_test_unread_sums_rec_sizes(struct kunit *test)
{
	static const u16 lens[] = { 1, 8, 9, 40, 100, 333, 1000, 7, 2048, 64 };
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {}, lapped;
	struct nslog_rec_view view;
	unsigned int i;
	u64 sum = 0;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		put(t, i, lens[i]);
		sum += nslog_ring_rec_size(lens[i]);
		KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &cur), sum);
	}
	KUNIT_ASSERT_LE(test, sum, (u64)RING_SIZE);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
		sum -= nslog_ring_rec_size(lens[i]);
		KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &cur), sum);
	}
	KUNIT_EXPECT_EQ(test, sum, 0ULL);

	/* Lapped: capped by what is stored, which is never above the size. */
	lapped = cur;
	put_n(t, ARRAY_SIZE(lens), 40, 1000);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &lapped),
			(u64)(RING_SIZE / nslog_ring_rec_size(1000)) *
			nslog_ring_rec_size(1000));
	KUNIT_EXPECT_LE(test, nslog_ring_unread(&t->ring, &lapped),
			(u64)RING_SIZE);
}

/* A ring takes one buffer; a second attach leaves the first one in place. */
static void nslog_ring_test_second_attach_is_refused(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {};
	struct nslog_rec_view view;
	u8 *other;
	u32 i;

	other = kunit_kmalloc(test, RING_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, other);
	memset(other, POISON, RING_SIZE);

	KUNIT_EXPECT_FALSE(test, nslog_ring_attach(&t->ring, other));
	KUNIT_EXPECT_PTR_EQ(test, t->ring.buf, t->buf);
	put(t, 0, 500);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, 0, 500);
	for (i = 0; i < RING_SIZE; i++) {
		if (other[i] != POISON)
			break;
	}
	KUNIT_EXPECT_EQ_MSG(test, i, RING_SIZE, "refused buffer was written");
}

/*
 * Release hands the buffer back and leaves an empty ring without storage,
 * which takes a new buffer and goes on numbering where it stopped.
 */
static void nslog_ring_test_release_returns_buffer_and_empties(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor zero = {}, cur = {}, next;
	struct nslog_rec_view view;
	u8 *other;

	put_n(t, 0, 5, 300);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);

	KUNIT_EXPECT_PTR_EQ(test, nslog_ring_release(&t->ring), t->buf);
	KUNIT_EXPECT_NULL(test, t->ring.buf);
	KUNIT_EXPECT_EQ(test, t->ring.tail, t->ring.head);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &zero), 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_ring_unread(&t->ring, &cur), 0ULL);
	KUNIT_EXPECT_EQ(test, peek(t, &zero, &see_all, &view, &next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, peek(t, &cur, &see_all, &view, &next), -EAGAIN);
	KUNIT_EXPECT_NULL(test, nslog_ring_release(&t->ring));

	other = kunit_kmalloc(test, RING_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_ASSERT_TRUE(test, nslog_ring_attach(&t->ring, other));
	KUNIT_EXPECT_EQ(test, put(t, 5, 300), 5ULL);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, 5, 300);
	KUNIT_EXPECT_EQ(test, view.lost, 4ULL);
}

static void nslog_ring_test_release_without_storage_returns_null(struct kunit *test)
{
	struct nslog_ring ring;
	atomic64_t order = ATOMIC64_INIT(0);
	u8 *buf;

	nslog_ring_init(&ring, RING_SIZE, &order);
	KUNIT_EXPECT_NULL(test, nslog_ring_release(&ring));

	buf = kunit_kmalloc(test, RING_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_TRUE(test, nslog_ring_attach(&ring, buf));
	KUNIT_EXPECT_PTR_EQ(test, nslog_ring_release(&ring), buf);
}

/* With no payload buffer, peek() fills in the header and nothing else. */
static void nslog_ring_test_peek_null_payload_gives_header_only(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {}, next, next2;
	struct nslog_rec_view view;

	put_rec(t, 0, 50, UID_B, NSLOG_REC_KERNEL, NULL, NULL);
	memset(&view, 0, sizeof(view));
	KUNIT_ASSERT_EQ(test, nslog_ring_peek(&t->ring, &cur, &see_all, &view,
					      NULL, &next), 0);
	KUNIT_EXPECT_EQ(test, view.seq, 0ULL);
	KUNIT_EXPECT_EQ(test, view.len, (u16)50);
	KUNIT_EXPECT_EQ(test, view.ts_ns, ts_of(0));
	KUNIT_EXPECT_TRUE(test, uid_eq(view.euid, KUIDT_INIT(UID_B)));
	KUNIT_EXPECT_EQ(test, view.flags, (u16)NSLOG_REC_KERNEL);
	KUNIT_EXPECT_EQ(test, next.pos, (u64)nslog_ring_rec_size(50));
	KUNIT_EXPECT_EQ(test, next.seq, 1ULL);

	/* The same record, payload and all, is still there. */
	KUNIT_ASSERT_EQ(test, peek(t, &cur, &see_all, &view, &next2), 0);
	check_rec(test, t, &view, 0, 50);
	KUNIT_EXPECT_EQ(test, next2.pos, next.pos);
}

/*
 * Records own counted references on the writer's struct pid: a reader is
 * shown the writer's number in its pid namespace, and the references come
 * back when records drop off the tail, are flushed, or the ring is released.
 */
static void nslog_ring_test_pid_refs_dropped_with_records(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct nslog_ring_filter in_ns = { .pid_ns = ns, .all = true };
	struct pid *pid = task_tgid(current);
	struct nslog_ring_cursor cur = {};
	struct nslog_rec_view view;
	unsigned int base;
	u64 seq = 0;
	int i;

	base = refcount_read(&pid->count);
	for (i = 0; i < 3; i++, seq++)
		put_rec(t, seq, 100, UID_A, 0, get_pid(pid), get_pid(pid));
	KUNIT_EXPECT_EQ(test, refcount_read(&pid->count), base + 6);

	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, get(t, &cur, &in_ns, &view), 0);
		KUNIT_EXPECT_EQ(test, view.pid, pid_nr_ns(pid, ns));
		KUNIT_EXPECT_EQ(test, view.tid, pid_nr_ns(pid, ns));
		KUNIT_EXPECT_NE(test, view.pid, 0);
	}
	/* Reading does not take or drop references. */
	KUNIT_EXPECT_EQ(test, refcount_read(&pid->count), base + 6);

	/* Dropped off the tail by newer records without pids. */
	seq = put_n(t, seq, RING_SIZE / nslog_ring_rec_size(100), 100);
	KUNIT_EXPECT_EQ(test, refcount_read(&pid->count), base);

	for (i = 0; i < 2; i++, seq++)
		put_rec(t, seq, 100, UID_A, 0, get_pid(pid), get_pid(pid));
	KUNIT_EXPECT_EQ(test, refcount_read(&pid->count), base + 4);
	nslog_ring_flush(&t->ring);
	KUNIT_EXPECT_EQ(test, refcount_read(&pid->count), base);

	for (i = 0; i < 2; i++, seq++)
		put_rec(t, seq, 100, UID_A, 0, get_pid(pid), NULL);
	KUNIT_EXPECT_EQ(test, refcount_read(&pid->count), base + 2);
	KUNIT_EXPECT_PTR_EQ(test, nslog_ring_release(&t->ring), t->buf);
	KUNIT_EXPECT_EQ(test, refcount_read(&pid->count), base);
}

/*
 * A record without a tid reference is from a thread group's leader: the
 * reader is shown its tgid as the tid too, and only one reference is held.
 */
static void nslog_ring_test_null_tid_shows_tgid(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct nslog_ring_filter in_ns = { .pid_ns = ns, .all = true };
	struct nslog_ring_filter no_ns = { .all = true };
	struct pid *pid = task_tgid(current);
	struct nslog_ring_cursor cur = {}, next;
	struct nslog_rec_view view;
	unsigned int base;

	base = refcount_read(&pid->count);
	put_rec(t, 0, 30, UID_A, 0, get_pid(pid), NULL);
	KUNIT_EXPECT_EQ(test, refcount_read(&pid->count), base + 1);

	KUNIT_ASSERT_EQ(test, peek(t, &cur, &in_ns, &view, &next), 0);
	check_rec(test, t, &view, 0, 30);
	KUNIT_EXPECT_NE(test, view.pid, 0);
	KUNIT_EXPECT_EQ(test, view.pid, pid_nr_ns(pid, ns));
	KUNIT_EXPECT_EQ(test, view.tid, view.pid);

	/* With no pid namespace to show them in, both are 0. */
	KUNIT_ASSERT_EQ(test, peek(t, &cur, &no_ns, &view, &next), 0);
	KUNIT_EXPECT_EQ(test, view.pid, 0);
	KUNIT_EXPECT_EQ(test, view.tid, 0);

	nslog_ring_flush(&t->ring);
	KUNIT_EXPECT_EQ(test, refcount_read(&pid->count), base);
}

/* Fill a reserved record's span with put()'s pattern for @seq. */
static void fill_span(const struct nslog_ring_span *span, u64 seq)
{
	u32 i;

	for (i = 0; i < span->len[0]; i++)
		span->buf[0][i] = pattern(seq, i);
	for (i = 0; i < span->len[1]; i++)
		span->buf[1][i] = pattern(seq, span->len[0] + i);
}

/*
 * A reserved record that is aborted is never seen: the head and the
 * sequence numbers are as they were, and the records dropped to make room
 * for it are reported lost to a reader that was at the tail, once.
 */
static void nslog_ring_test_abort_publishes_nothing(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur;
	struct nslog_ring_span span;
	struct nslog_rec_view view;
	u64 head, seq, lost, n;

	/* A full ring, wrapped at least once, and a reader at its tail. */
	seq = put_n(t, 0, 2 * RING_SIZE / nslog_ring_rec_size(LAP_LEN), LAP_LEN);
	head = t->ring.head;
	cur.pos = t->ring.tail;
	cur.seq = t->ring.tail_seq;
	cur.lost = 0;

	nslog_ring_reserve(&t->ring, MAX_PAYLOAD, &span);
	KUNIT_EXPECT_EQ(test, span.len[0] + span.len[1], (u32)MAX_PAYLOAD);
	memset(span.buf[0], POISON, span.len[0]);
	memset(span.buf[1], POISON, span.len[1]);
	nslog_ring_abort(&t->ring);

	KUNIT_EXPECT_EQ(test, t->ring.head, head);
	KUNIT_EXPECT_EQ(test, t->ring.head_seq, seq);
	KUNIT_EXPECT_LE(test, stored(t) + MAX_REC, (u64)RING_SIZE);
	KUNIT_ASSERT_GT(test, t->ring.tail_seq, cur.seq);
	lost = t->ring.tail_seq - cur.seq;

	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	KUNIT_EXPECT_EQ(test, view.lost, lost);
	check_rec(test, t, &view, t->ring.tail_seq, LAP_LEN);
	for (n = t->ring.tail_seq + 1; n < seq; n++) {
		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
		KUNIT_EXPECT_EQ(test, view.lost, 0ULL);
		if (!check_rec(test, t, &view, n, LAP_LEN))
			return;
	}
	KUNIT_EXPECT_EQ(test, get(t, &cur, &see_all, &view), -EAGAIN);

	/* The next record takes the room and is read whole. */
	put(t, seq, 200);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	KUNIT_EXPECT_EQ(test, view.lost, 0ULL);
	check_rec(test, t, &view, seq, 200);
}

/*
 * Reserve and commit by hand with the record's header at every 8-byte
 * position near the end of the ring: the span splits where the ring ends,
 * and what the caller put in it is what a reader gets.
 */
static void nslog_ring_test_reserve_span_splits_at_ring_end(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	const u32 mask = RING_SIZE - 1;
	const u16 len = 100;
	u64 seq = 0;
	u32 k;

	for (k = 0; k * 8 <= HDR_SIZE + len + 8; k++) {
		u32 want = (RING_SIZE - 8 * k) & mask;
		u32 gap = (want - (u32)t->ring.head) & mask;
		struct nslog_rec rec = {
			.euid = KUIDT_INIT(UID_A),
			.len = len,
		};
		struct nslog_ring_cursor cur;
		struct nslog_ring_span span;
		struct nslog_rec_view view;
		u32 at;

		/* Filler records bring the head to @want. */
		if (gap && gap < MIN_REC)
			gap += RING_SIZE;
		while (gap) {
			u32 r = gap >= 2 * MIN_REC ? MIN_REC : gap;

			seq = put_n(t, seq, 1, r - HDR_SIZE);
			gap -= r;
		}
		KUNIT_ASSERT_EQ(test, (u32)t->ring.head & mask, want);

		cur.pos = t->ring.head;
		cur.seq = t->ring.head_seq;
		cur.lost = 0;
		at = (want + HDR_SIZE) & mask;
		rec.ts_ns = ts_of(seq);
		nslog_ring_reserve(&t->ring, len, &span);
		KUNIT_EXPECT_PTR_EQ(test, span.buf[0], t->buf + at);
		KUNIT_EXPECT_EQ(test, span.len[0], min_t(u32, len, RING_SIZE - at));
		KUNIT_EXPECT_EQ(test, span.len[0] + span.len[1], (u32)len);
		KUNIT_EXPECT_PTR_EQ(test, span.buf[1], t->buf);
		fill_span(&span, seq);
		nslog_ring_commit(&t->ring, &rec);
		KUNIT_EXPECT_EQ(test, rec.order, seq);

		KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
		KUNIT_EXPECT_EQ(test, view.lost, 0ULL);
		if (!check_rec(test, t, &view, seq, len))
			return;
		seq++;
	}
}

/* nslog_ring_stats() counts what was written, what is stored and its bytes. */
static void nslog_ring_test_stats_count_written_and_stored(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_stats st;
	struct nslog_ring bare;

	nslog_ring_stats(&t->ring, &st);
	KUNIT_EXPECT_EQ(test, st.size, RING_SIZE);
	KUNIT_EXPECT_TRUE(test, st.allocated);
	KUNIT_EXPECT_EQ(test, st.used, 0ULL);
	KUNIT_EXPECT_EQ(test, st.written, 0ULL);
	KUNIT_EXPECT_EQ(test, st.stored, 0ULL);

	put_n(t, 0, 100, LAP_LEN);
	nslog_ring_stats(&t->ring, &st);
	KUNIT_EXPECT_EQ(test, st.used,
			(u64)LAP_FIT * nslog_ring_rec_size(LAP_LEN));
	KUNIT_EXPECT_EQ(test, st.written, 100ULL);
	KUNIT_EXPECT_EQ(test, st.stored, (u64)LAP_FIT);

	nslog_ring_flush(&t->ring);
	nslog_ring_stats(&t->ring, &st);
	KUNIT_EXPECT_EQ(test, st.used, 0ULL);
	KUNIT_EXPECT_EQ(test, st.written, 100ULL);
	KUNIT_EXPECT_EQ(test, st.stored, 0ULL);

	put(t, 100, 1);
	nslog_ring_stats(&t->ring, &st);
	KUNIT_EXPECT_EQ(test, st.used, (u64)MIN_REC);
	KUNIT_EXPECT_EQ(test, st.written, 101ULL);
	KUNIT_EXPECT_EQ(test, st.stored, 1ULL);

	nslog_ring_release(&t->ring);
	nslog_ring_stats(&t->ring, &st);
	KUNIT_EXPECT_FALSE(test, st.allocated);
	KUNIT_EXPECT_EQ(test, st.stored, 0ULL);

	nslog_ring_init(&bare, 2 * RING_SIZE, &t->order);
	nslog_ring_stats(&bare, &st);
	KUNIT_EXPECT_EQ(test, st.size, 2 * RING_SIZE);
	KUNIT_EXPECT_FALSE(test, st.allocated);
	KUNIT_EXPECT_EQ(test, st.written, 0ULL);
}

/* A small deterministic generator, so that a failure can be replayed. */
static u32 lcg_next(u32 *state)
{
	*state = *state * 1664525 + 1013904223;
	return *state >> 8;
}

#define MODEL_WRITES	3000

/*
 * Mixed record sizes against a model of the ring (a queue of record sizes
 * whose sum never passes the ring size): after every write the stored bytes
 * and the oldest record match the model; a reader that reads a few records
 * now and then gets each intact, with view->lost matching the records the
 * model dropped before it read them.
 */
static void nslog_ring_test_mixed_sizes_match_model(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor zero = {}, cur = {}, next;
	struct nslog_rec_view view;
	u64 model_tail = 0, model_bytes = 0, seq;
	u32 state = 0x6e736c67;
	u16 *lens;
	int i;

	lens = kunit_kmalloc_array(test, MODEL_WRITES, sizeof(*lens),
				   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lens);

	for (seq = 0; seq < MODEL_WRITES; seq++) {
		u32 r = lcg_next(&state);
		u32 need;

		lens[seq] = r % 8 ? 1 + r % 300 : 1 + r % MAX_PAYLOAD;
		need = nslog_ring_rec_size(lens[seq]);
		while (model_bytes + need > RING_SIZE)
			model_bytes -= nslog_ring_rec_size(lens[model_tail++]);
		model_bytes += need;

		KUNIT_ASSERT_EQ(test, put(t, seq, lens[seq]), seq);
		KUNIT_ASSERT_EQ(test, stored(t), model_bytes);
		KUNIT_ASSERT_EQ(test, nslog_ring_unread(&t->ring, &zero),
				model_bytes);
		KUNIT_ASSERT_EQ(test, nslog_ring_peek(&t->ring, &zero, &see_all,
						      &view, NULL, &next), 0);
		KUNIT_ASSERT_EQ(test, view.seq, model_tail);

		if (lcg_next(&state) % 5)
			continue;
		for (i = lcg_next(&state) % 4; i >= 0 && cur.seq <= seq; i--) {
			u64 want = max(cur.seq, model_tail);
			u64 lost = want - cur.seq;

			KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
			KUNIT_ASSERT_TRUE(test, check_rec(test, t, &view, want,
							  lens[want]));
			KUNIT_ASSERT_EQ(test, view.lost, lost);
		}
	}
}

/*
 * A reader placed at a sequence number still stored reads that record next,
 * however far from the tail it is, and has lost nothing.
 */
static void nslog_ring_test_seek_to_stored_record_loses_nothing(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur;
	struct nslog_rec_view view;
	/* More than the 64 headers a lock hold may walk, and none lapped. */
	u64 n = 100;

	put_n(t, 0, n, 1);
	KUNIT_ASSERT_EQ(test, t->ring.tail_seq, 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_ring_seek(&t->ring, &cur, n - 5), 0ULL);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, n - 5, 1);
	KUNIT_EXPECT_EQ(test, view.lost, 0ULL);

	/* And the first record, at the tail. */
	KUNIT_EXPECT_EQ(test, nslog_ring_seek(&t->ring, &cur, 0), 0ULL);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, 0, 1);
}

/*
 * Placed at a sequence number that was overwritten, or flushed, a reader
 * continues at the oldest record left and is told exactly how many it
 * lost from that number on: by the seek, and again with the next record.
 */
static void nslog_ring_test_seek_to_gone_record_reports_exact_loss(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur;
	struct nslog_rec_view view;
	u64 seq, oldest;

	/* Lap the ring with 1000-byte records. */
	seq = put_n(t, 0, 40, 1000);
	oldest = t->ring.tail_seq;
	KUNIT_ASSERT_GT(test, oldest, 10ULL);
	KUNIT_EXPECT_EQ(test, nslog_ring_seek(&t->ring, &cur, 10), oldest - 10);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, oldest, 1000);
	KUNIT_EXPECT_EQ(test, view.lost, oldest - 10);

	/* Flushed: every record from the number asked for is lost. */
	nslog_ring_flush(&t->ring);
	KUNIT_EXPECT_EQ(test, nslog_ring_seek(&t->ring, &cur, seq - 3), 3ULL);
	KUNIT_EXPECT_EQ(test, get(t, &cur, &see_all, &view), -EAGAIN);
	put(t, seq, 20);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, seq, 20);
	KUNIT_EXPECT_EQ(test, view.lost, 3ULL);
}

/* A number not written yet places the reader at the head, losing nothing. */
static void nslog_ring_test_seek_past_head_waits_at_head(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur;
	struct nslog_rec_view view;

	put_n(t, 0, 5, 30);
	KUNIT_EXPECT_EQ(test, nslog_ring_seek(&t->ring, &cur, 1000), 0ULL);
	KUNIT_EXPECT_EQ(test, cur.pos, t->ring.head);
	KUNIT_EXPECT_EQ(test, cur.seq, 5ULL);
	KUNIT_EXPECT_EQ(test, get(t, &cur, &see_all, &view), -EAGAIN);
	put(t, 5, 30);
	KUNIT_ASSERT_EQ(test, get(t, &cur, &see_all, &view), 0);
	check_rec(test, t, &view, 5, 30);
	KUNIT_EXPECT_EQ(test, view.lost, 0ULL);
}

/*
 * Rings that share an order counter (the logs of one set) number their
 * records in the order they were written, across the rings; each ring's own
 * sequence numbers stay consecutive.
 */
static void nslog_ring_test_order_is_shared_across_rings(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor ca = { }, cb = { };
	struct nslog_rec_view view;
	struct nslog_ring other;
	u8 *buf;
	int i;

	buf = kunit_kmalloc(test, RING_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	nslog_ring_init(&other, RING_SIZE, &t->order);
	KUNIT_ASSERT_TRUE(test, nslog_ring_attach(&other, buf));

	/* a, b, b, a, b: orders 0 to 4. */
	put(t, 0, 8);
	for (i = 0; i < 2; i++) {
		struct nslog_rec rec = { .len = 8, .euid = KUIDT_INIT(UID_A) };

		nslog_ring_write(&other, &rec, t->in);
	}
	put(t, 1, 8);
	{
		struct nslog_rec rec = { .len = 8, .euid = KUIDT_INIT(UID_A) };

		nslog_ring_write(&other, &rec, t->in);
	}

	KUNIT_ASSERT_EQ(test, get(t, &ca, &see_all, &view), 0);
	KUNIT_EXPECT_EQ(test, view.seq, 0ULL);
	KUNIT_EXPECT_EQ(test, view.order, 0ULL);
	KUNIT_ASSERT_EQ(test, get(t, &ca, &see_all, &view), 0);
	KUNIT_EXPECT_EQ(test, view.seq, 1ULL);
	KUNIT_EXPECT_EQ(test, view.order, 3ULL);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, nslog_ring_peek(&other, &cb, &see_all,
						      &view, NULL, &cb), 0);
		KUNIT_EXPECT_EQ(test, view.seq, (u64)i);
		KUNIT_EXPECT_EQ(test, view.order, i < 2 ? 1ULL + i : 4ULL);
	}
	nslog_ring_release(&other);
}

/* Read every record from @cur on and check it is @seq, @seq + 1, ... */
static u64 drain_check(struct kunit *test, struct nslog_ring_test *t,
		       struct nslog_ring_cursor *cur, u64 seq, u16 len,
		       u64 first_lost)
{
	struct nslog_rec_view view;

	while (get(t, cur, &see_all, &view) == 0) {
		if (!check_rec(test, t, &view, seq, len))
			break;
		KUNIT_EXPECT_EQ(test, view.lost, first_lost);
		first_lost = 0;
		seq++;
	}
	return seq;
}

/*
 * Growing keeps every record, also those that wrapped the end of the old
 * storage, and readers anywhere in the ring go on where they were.
 */
static void nslog_ring_test_grow_keeps_records_and_cursors(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor oldest = {}, mid = {};
	struct nslog_rec_view view;
	u8 *big = kunit_kmalloc(test, 4 * RING_SIZE, GFP_KERNEL);
	u64 first, end;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, POISON, 4 * RING_SIZE);
	/* 3.5 rings' worth of 100-byte records: the stored ones wrap. */
	end = put_n(t, 0, 7 * RING_SIZE / 2 / nslog_ring_rec_size(100), 100);
	first = t->ring.tail_seq;
	KUNIT_ASSERT_GT(test, first, 0ULL);
	nslog_ring_cursor_init(&t->ring, &oldest);
	nslog_ring_cursor_init(&t->ring, &mid);
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, get(t, &mid, &see_all, &view), 0);

	KUNIT_EXPECT_PTR_EQ(test, nslog_ring_resize(&t->ring, big,
						    4 * RING_SIZE), t->buf);
	KUNIT_EXPECT_EQ(test, t->ring.size, 4 * RING_SIZE);
	KUNIT_EXPECT_EQ(test, t->ring.tail_seq, first);
	KUNIT_EXPECT_EQ(test, drain_check(test, t, &oldest, first, 100, 0), end);
	KUNIT_EXPECT_EQ(test, drain_check(test, t, &mid, first + 5, 100, 0),
			end);
	/* And the larger ring now keeps four times as much. */
	end = put_n(t, end, 4 * RING_SIZE / nslog_ring_rec_size(100), 100);
	KUNIT_EXPECT_EQ(test, drain_check(test, t, &mid, end - 4 * RING_SIZE /
					  nslog_ring_rec_size(100), 100, 0),
			end);
}

/*
 * Shrinking drops the oldest records, as writes would: a reader behind
 * them is told exactly how many it lost, one that had read them loses
 * nothing, and the newest that fit read back whole.
 */
static void nslog_ring_test_shrink_drops_oldest_counts_lost(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor behind = {}, ahead = {};
	struct nslog_rec_view view;
	u32 rec = nslog_ring_rec_size(200);
	u8 *big = kunit_kmalloc(test, 4 * RING_SIZE, GFP_KERNEL);
	u8 *small = kunit_kmalloc(test, RING_SIZE, GFP_KERNEL);
	u64 n, end, keep, i;

	KUNIT_ASSERT_NOT_NULL(test, big);
	KUNIT_ASSERT_NOT_NULL(test, small);
	nslog_ring_resize(&t->ring, big, 4 * RING_SIZE);
	n = 4 * RING_SIZE / rec;
	end = put_n(t, 0, n, 200);
	KUNIT_ASSERT_EQ(test, t->ring.tail_seq, 0ULL);
	keep = RING_SIZE / rec;
	for (i = 0; i < end - keep + 2; i++)
		KUNIT_ASSERT_EQ(test, get(t, &ahead, &see_all, &view), 0);

	KUNIT_EXPECT_PTR_EQ(test, nslog_ring_resize(&t->ring, small, RING_SIZE),
			    big);
	KUNIT_EXPECT_LE(test, stored(t), (u64)RING_SIZE);
	KUNIT_EXPECT_EQ(test, t->ring.tail_seq, end - keep);
	KUNIT_EXPECT_EQ(test, drain_check(test, t, &behind, end - keep, 200,
					  end - keep), end);
	KUNIT_EXPECT_EQ(test, drain_check(test, t, &ahead, end - keep + 2, 200,
					  0), end);
}

/* A ring that was never written takes the new storage as it is. */
static void nslog_ring_test_resize_without_storage_attaches(struct kunit *test)
{
	struct nslog_ring_test *t = test->priv;
	struct nslog_ring_cursor cur = {};
	u8 *big = kunit_kmalloc(test, 2 * RING_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, big);
	nslog_ring_release(&t->ring);
	KUNIT_ASSERT_NULL(test, t->ring.buf);
	KUNIT_EXPECT_NULL(test, nslog_ring_resize(&t->ring, big,
						  2 * RING_SIZE));
	KUNIT_EXPECT_PTR_EQ(test, t->ring.buf, big);
	KUNIT_EXPECT_EQ(test, t->ring.size, 2 * RING_SIZE);
	/* A first writer's attach now loses the race, as it must. */
	KUNIT_EXPECT_FALSE(test, nslog_ring_attach(&t->ring, t->buf));
	put_n(t, 0, 3, 50);
	KUNIT_EXPECT_EQ(test, drain_check(test, t, &cur, 0, 50, 0), 3ULL);
}

/* ----------------------------------------------------------------------- */

static struct kunit_case nslog_ring_test_cases[] = {
	KUNIT_CASE(nslog_ring_test_grow_keeps_records_and_cursors),
	KUNIT_CASE(nslog_ring_test_shrink_drops_oldest_counts_lost),
	KUNIT_CASE(nslog_ring_test_resize_without_storage_attaches),
	KUNIT_CASE(nslog_ring_test_seek_to_stored_record_loses_nothing),
	KUNIT_CASE(nslog_ring_test_seek_to_gone_record_reports_exact_loss),
	KUNIT_CASE(nslog_ring_test_seek_past_head_waits_at_head),
	KUNIT_CASE(nslog_ring_test_order_is_shared_across_rings),
	KUNIT_CASE(nslog_ring_test_empty_ring_peek_is_eagain),
	KUNIT_CASE(nslog_ring_test_drained_reader_peek_is_eagain_at_cursor),
	KUNIT_CASE(nslog_ring_test_record_round_trips),
	KUNIT_CASE(nslog_ring_test_rec_size_is_aligned_header_plus_payload),
	KUNIT_CASE_PARAM(nslog_ring_test_wrap_at_every_offset_round_trips,
			 nslog_ring_wrap_gen_params),
	KUNIT_CASE_PARAM(nslog_ring_test_fill_past_capacity_keeps_newest,
			 nslog_ring_fill_gen_params),
	KUNIT_CASE_PARAM(nslog_ring_test_reader_lapped_skips_to_oldest,
			 nslog_ring_lap_gen_params),
	KUNIT_CASE(nslog_ring_test_zeroed_cursor_starts_at_oldest),
	KUNIT_CASE(nslog_ring_test_seq_increments_across_drops_and_flushes),
	KUNIT_CASE(nslog_ring_test_flush_drops_every_record),
	KUNIT_CASE(nslog_ring_test_flush_reader_behind_counts_lost),
	KUNIT_CASE(nslog_ring_test_lost_kept_when_eagain_next_consumed),
	KUNIT_CASE(nslog_ring_test_write_after_flush_is_readable),
	KUNIT_CASE(nslog_ring_test_flush_empty_ring_is_harmless),
	KUNIT_CASE(nslog_ring_test_filter_shows_only_own_euid),
	KUNIT_CASE_PARAM(nslog_ring_test_filter_skips_long_invisible_runs,
			 nslog_ring_skip_gen_params),
	KUNIT_CASE(nslog_ring_test_peek_does_not_consume),
	KUNIT_CASE(nslog_ring_test_unread_sums_rec_sizes),
	KUNIT_CASE(nslog_ring_test_second_attach_is_refused),
	KUNIT_CASE(nslog_ring_test_release_returns_buffer_and_empties),
	KUNIT_CASE(nslog_ring_test_release_without_storage_returns_null),
	KUNIT_CASE(nslog_ring_test_peek_null_payload_gives_header_only),
	KUNIT_CASE(nslog_ring_test_pid_refs_dropped_with_records),
	KUNIT_CASE(nslog_ring_test_null_tid_shows_tgid),
	KUNIT_CASE(nslog_ring_test_abort_publishes_nothing),
	KUNIT_CASE(nslog_ring_test_reserve_span_splits_at_ring_end),
	KUNIT_CASE(nslog_ring_test_stats_count_written_and_stored),
	KUNIT_CASE(nslog_ring_test_mixed_sizes_match_model),
	{}
};

static struct kunit_suite nslog_ring_test_suite = {
	.name = "nslog_ring",
	.init = nslog_ring_test_init,
	.exit = nslog_ring_test_exit,
	.test_cases = nslog_ring_test_cases,
};

kunit_test_suite(nslog_ring_test_suite);
