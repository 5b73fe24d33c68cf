// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the rate limits (src/ratelimit/): the token bucket
 * arithmetic of bucket.c, the rules' take and give (rule.c), the charging
 * walk of walk.h, the notices and their interval (notice.c), the overflow
 * bucket, and the limit parser (admin.c).
 *
 * No case touches the module's own rule table.  Rules are made here, with a
 * fake cgroup each: a struct cgroup that is zeroed but for the reference
 * count of its css, a percpu_ref in atomic mode, so the references a notice
 * takes and gives back can be counted.  It starts at 1, the reference a
 * real rule holds.  The charging walk gets a fake path: a table of the rule
 * at each level, which also records the levels it was asked for.
 *
 * The clock is whatever @now a case passes: no case sleeps.  A bucket's
 * credit is read as whole units with nslog_rl_tb_units().
 */

#include <kunit/test.h>
#include <linux/cgroup.h>
#include <linux/fault-inject.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/sched.h>
#include <linux/uio.h>
#include <linux/user_namespace.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/percpu-refcount.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <uapi/linux/nslogger.h>

#include "logset.h"
#include "ratelimit/bucket.h"
#include "ratelimit/ratelimit.h"
#include "ratelimit/parse.h"
#include "ratelimit/table.h"
#include "ratelimit/rule.h"
#include "ratelimit/walk.h"

#define SEC		NSEC_PER_SEC
#define MSEC		NSEC_PER_MSEC
#define MINUTE		(60 * SEC)
#define HOUR		(3600 * SEC)
#define DAY		(86400 * SEC)
#define YEAR		(365 * DAY)
/* Some time after boot. */
#define T0		(1000 * SEC)
#define MAX_PAYLOAD	LOGGER_ENTRY_MAX_PAYLOAD

#define MAX_FAKES	32
/* A limit's records dimension, as the parser fills it in. */
#define REC_LIMIT(n, p, b) \
	.records = (n), .records_period_ns = (p), .records_burst = (b)
#define PATH_LEVELS	(NSLOG_RL_MAX_PATH + 8)

struct nslog_rl_fake_cg {
	struct cgroup cgrp;
	unsigned int released;
};

struct nslog_rl_test {
	struct nslog_rl_fake_cg *cgs[MAX_FAKES];
	struct nslog_rl_rule *rules[MAX_FAKES];
	int n;
	/* notice_interval_ms as the case found it, put back at exit */
	unsigned int interval_ms;
};

/*
 * A writer's cgroups as the test lays them out: the bucket at each level,
 * and the levels the walk asked about.
 */
struct nslog_rl_tpath {
	struct nslog_rl_rule *at[PATH_LEVELS];
	int asked[PATH_LEVELS];
	int nasked;
};

/*
 * The charging walk of nslog_rl_charge_walk() on the test's levels: ask
 * from @own up to the root, gather into a real &struct nslog_rl_path with
 * nslog_rl_path_add() until it says the path is full, then charge it.
 */
static int nslog_rl_walk(struct nslog_rl_tpath *tp, int own, u64 now,
			 u64 log, size_t len, struct nslog_rl_notice *notice)
{
	struct nslog_rl_path path = { };
	int level;

	tp->nasked = 0;
	for (level = own; level >= 0; level--) {
		if (tp->nasked < PATH_LEVELS)
			tp->asked[tp->nasked++] = level;
		if (!nslog_rl_path_add(&path, tp->at[level]))
			break;
	}
	return nslog_rl_path_charge(&path, now, log, len, notice);
}

static void nslog_rl_fake_release(struct percpu_ref *ref)
{
	struct nslog_rl_fake_cg *cg =
		container_of(ref, struct nslog_rl_fake_cg, cgrp.self.refcnt);

	cg->released++;
}

static long nslog_rl_cg_refs(struct cgroup *cgrp)
{
	return atomic_long_read(&cgrp->self.refcnt.data->count);
}

static int nslog_rl_test_init(struct kunit *test)
{
	struct nslog_rl_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->interval_ms = nslog_rl_notice_interval_ms;
	/* Every case runs with the default, whatever the module had. */
	nslog_rl_notice_interval_ms = 1000;
	test->priv = t;
	return 0;
}

static void nslog_rl_test_exit(struct kunit *test)
{
	struct nslog_rl_test *t = test->priv;
	int i;

	/*
	 * Nothing queued may outlive a case: on 6.1 the suites run before
	 * the module's init, and a load then refused for a bad parameter
	 * frees the module without its exit (see nslog_rl_gc_stop()).
	 */
	KUNIT_EXPECT_FALSE_MSG(test, nslog_rl_gc_queued(),
			       "the case left the rules' collector queued");
	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		kfree(t->rules[i]);
		percpu_ref_exit(&t->cgs[i]->cgrp.self.refcnt);
		kfree(t->cgs[i]);
	}
	nslog_rl_notice_interval_ms = t->interval_ms;
}

/*
 * A rule "records=@rec per @rec_p, burst @rec_b; bytes=@by per @by_p,
 * burst @by_b" (a count of 0: that dimension unlimited), full, last
 * refilled at T0.
 */
static struct nslog_rl_rule *nslog_rl_rule(struct kunit *test, u64 rec,
					   u64 rec_p, u64 rec_b, u64 by,
					   u64 by_p, u64 by_b)
{
	struct nslog_rl_test *t = test->priv;
	struct nslog_rl_fake_cg *cg;
	struct nslog_rl_rule *r;

	KUNIT_ASSERT_LT(test, t->n, MAX_FAKES);
	cg = kzalloc(sizeof(*cg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cg);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		kfree(cg);
	KUNIT_ASSERT_NOT_NULL(test, r);
	if (percpu_ref_init(&cg->cgrp.self.refcnt, nslog_rl_fake_release,
			    PERCPU_REF_INIT_ATOMIC, GFP_KERNEL)) {
		kfree(r);
		kfree(cg);
		KUNIT_ASSERT_FAILURE(test, "percpu_ref_init failed");
	}
	t->cgs[t->n] = cg;
	t->rules[t->n] = r;
	t->n++;

	spin_lock_init(&r->lock);
	r->cgrp = &cg->cgrp;
	r->last_ns = T0;
	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&r->rec, rec, rec_p, rec_b), 0);
	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&r->bytes, by, by_p, by_b), 0);
	return r;
}

/* A records-only rule, N per P with burst N. */
static struct nslog_rl_rule *nslog_rl_rec_rule(struct kunit *test, u64 n,
					       u64 period)
{
	return nslog_rl_rule(test, n, period, n, 0, 0, 0);
}

/* The fake cgroup of a rule made by nslog_rl_rule(). */
static struct nslog_rl_fake_cg *nslog_rl_cg(struct nslog_rl_rule *r)
{
	return container_of(r->cgrp, struct nslog_rl_fake_cg, cgrp);
}

/*
 * The slot of @r's pending drops (&nslog_rl_rule.pending) for the log
 * with key @log, read from the rule itself, or an empty one.
 */
static struct nslog_rl_pending nslog_rl_slot(struct nslog_rl_rule *r, u64 log)
{
	struct nslog_rl_pending p = { };
	unsigned int i;

	/* The first slot with that key, as the rule's own lookup finds it. */
	spin_lock(&r->lock);
	for (i = 0; i < NSLOG_RL_PENDING; i++) {
		if (r->pending[i].log == log) {
			p = r->pending[i];
			break;
		}
	}
	spin_unlock(&r->lock);
	return p;
}

/* Records and bytes @r has to report in the log with key @log. */
static u64 nslog_rl_pend_recs(struct nslog_rl_rule *r, u64 log)
{
	return nslog_rl_slot(r, log).records;
}

static u64 nslog_rl_pend_bytes(struct nslog_rl_rule *r, u64 log)
{
	return nslog_rl_slot(r, log).bytes;
}

/* Take a record of @len bytes in the main log, with no notice wanted. */
static bool nslog_rl_take(struct nslog_rl_rule *r, u64 now, size_t len)
{
	struct nslog_rl_notice notice = { };
	bool pass = nslog_rl_rule_take(r, now, len, NSLOG_LOG_MAIN, &notice);

	nslog_rl_notice_done(&notice);
	return pass;
}

/* Empty @r's record bucket at @now. */
static void nslog_rl_drain(struct kunit *test, struct nslog_rl_rule *r,
			   u64 now)
{
	u64 n = nslog_rl_tb_units(&r->rec);

	KUNIT_ASSERT_LT(test, n, 100000ULL);
	while (n--)
		KUNIT_ASSERT_TRUE(test, nslog_rl_take(r, now, 1));
	KUNIT_ASSERT_FALSE(test, nslog_rl_take(r, now, 1));
}

/* --- token buckets ------------------------------------------------------ */

/* A bucket starts full: B units, B * P of credit, growing by N per ns. */
static void nslog_rl_test_tb_set_starts_full(struct kunit *test)
{
	struct nslog_rl_tb tb;

	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, 10, SEC, 20), 0);
	KUNIT_EXPECT_EQ(test, tb.rate, 10ULL);
	KUNIT_EXPECT_EQ(test, tb.period_ns, SEC);
	KUNIT_EXPECT_EQ(test, tb.cap, 20 * SEC);
	KUNIT_EXPECT_EQ(test, tb.tokens, tb.cap);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), 20ULL);
	KUNIT_EXPECT_TRUE(test, nslog_rl_tb_can(&tb, 20));
	KUNIT_EXPECT_FALSE(test, nslog_rl_tb_can(&tb, 21));
}

struct nslog_rl_set_case {
	const char *name;
	u64 count, period_ns, burst;
	int err;
};

static const struct nslog_rl_set_case nslog_rl_set_cases[] = {
	{ "count 0 is unlimited",	0, 0, 0, 0 },
	{ "largest count, shortest period", 1000000000, MSEC, 1000000000, 0 },
	{ "count above 10^9",		1000000001, SEC, 1, -EINVAL },
	{ "burst 0",			1, SEC, 0, -EINVAL },
	{ "burst above 10^9",		1, MSEC, 1000000001, -EINVAL },
	{ "period 1 ms",		1, MSEC, 1, 0 },
	{ "period under 1 ms",		1, MSEC - 1, 1, -EINVAL },
	{ "period 1 day, largest burst", 1, DAY, 53375, 0 },
	{ "period over 1 day",		1, DAY + 1, 1, -EINVAL },
	{ "burst * period over 2^62",	1, DAY, 53376, -EINVAL },
};

static void nslog_rl_set_desc(const struct nslog_rl_set_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(nslog_rl_set, nslog_rl_set_cases, nslog_rl_set_desc);

/* Limits are set within the bounds that keep the arithmetic in 64 bits. */
static void nslog_rl_test_tb_set_bounds(struct kunit *test)
{
	const struct nslog_rl_set_case *c = test->param_value;
	struct nslog_rl_tb tb, before;

	memset(&tb, 0x5a, sizeof(tb));
	before = tb;
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_set(&tb, c->count, c->period_ns,
					      c->burst), c->err);
	if (c->err) {
		/* A refused limit leaves the bucket as it was. */
		KUNIT_EXPECT_EQ(test, memcmp(&tb, &before, sizeof(tb)), 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, tb.rate, c->count);
	KUNIT_EXPECT_EQ(test, tb.cap, c->burst * c->period_ns);
	KUNIT_EXPECT_EQ(test, tb.tokens, tb.cap);
	KUNIT_EXPECT_LE(test, tb.cap, NSLOG_RL_MAX_CREDIT);
}

/*
 * Credit grows by N per nanosecond and a unit costs P: at 10 per second
 * the next unit is there exactly 100 ms after the bucket ran dry.
 */
static void nslog_rl_test_refill_adds_rate_per_ns(struct kunit *test)
{
	struct nslog_rl_tb tb;

	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, 10, SEC, 10), 0);
	nslog_rl_tb_take(&tb, 10);
	KUNIT_EXPECT_EQ(test, tb.tokens, 0ULL);
	KUNIT_EXPECT_FALSE(test, nslog_rl_tb_can(&tb, 1));

	nslog_rl_tb_refill(&tb, 100 * MSEC - 1);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), 0ULL);
	KUNIT_EXPECT_FALSE(test, nslog_rl_tb_can(&tb, 1));
	nslog_rl_tb_refill(&tb, 1);
	KUNIT_EXPECT_EQ(test, tb.tokens, SEC);
	KUNIT_EXPECT_TRUE(test, nslog_rl_tb_can(&tb, 1));
	KUNIT_EXPECT_FALSE(test, nslog_rl_tb_can(&tb, 2));

	nslog_rl_tb_refill(&tb, 450 * MSEC);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), 5ULL);
	KUNIT_EXPECT_EQ(test, tb.tokens, 5 * SEC + 500 * MSEC);
	nslog_rl_tb_refill(&tb, 0);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), 5ULL);
}

/* However long the wait, a bucket holds at most B units. */
static void nslog_rl_test_refill_capped_at_burst(struct kunit *test)
{
	struct nslog_rl_tb tb;

	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, 10, SEC, 10), 0);
	nslog_rl_tb_take(&tb, 3);
	nslog_rl_tb_refill(&tb, 200 * MSEC);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), 9ULL);
	nslog_rl_tb_refill(&tb, 500 * MSEC);
	KUNIT_EXPECT_EQ(test, tb.tokens, tb.cap);
	nslog_rl_tb_take(&tb, 10);
	nslog_rl_tb_refill(&tb, 10 * SEC);
	KUNIT_EXPECT_EQ(test, tb.tokens, tb.cap);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), 10ULL);
}

struct nslog_rl_bucket_case {
	const char *name;
	u64 count, period_ns, burst;
};

static const struct nslog_rl_bucket_case nslog_rl_bucket_cases[] = {
	{ "1 per day, burst 53375", 1, DAY, 53375 },
	{ "10^9 per ms, burst 10^9", 1000000000, MSEC, 1000000000 },
	{ "4076 bytes per min", MAX_PAYLOAD, MINUTE, MAX_PAYLOAD },
	{ "7 per 3 s, burst 11", 7, 3 * SEC, 11 },
};

static void nslog_rl_bucket_desc(const struct nslog_rl_bucket_case *c,
				 char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(nslog_rl_bucket, nslog_rl_bucket_cases, nslog_rl_bucket_desc);

/*
 * An empty bucket is full after exactly the time it needs to fill up, and
 * after any longer idle, years or 2^64 - 1 ns, without overflowing: never
 * above B * P, and never wrapped to little.
 */
static void nslog_rl_test_refill_long_idle_is_full(struct kunit *test)
{
	const struct nslog_rl_bucket_case *c = test->param_value;
	static const u64 idles[] = {
		100 * YEAR, 1ULL << 62, 1ULL << 63, U64_MAX - 1, U64_MAX,
	};
	struct nslog_rl_tb tb;
	u64 to_full;
	int i;

	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, c->count, c->period_ns,
					      c->burst), 0);
	/* The first nanosecond at which N * d reaches B * P. */
	to_full = DIV64_U64_ROUND_UP(tb.cap, tb.rate);

	tb.tokens = 0;
	nslog_rl_tb_refill(&tb, to_full - 1);
	KUNIT_EXPECT_LT(test, tb.tokens, tb.cap);
	KUNIT_EXPECT_EQ(test, tb.tokens, (to_full - 1) * tb.rate);
	tb.tokens = 0;
	nslog_rl_tb_refill(&tb, to_full);
	KUNIT_EXPECT_EQ(test, tb.tokens, tb.cap);

	for (i = 0; i < ARRAY_SIZE(idles); i++) {
		/* Shorter than filling up takes: seen above. */
		if (idles[i] < to_full)
			continue;
		tb.tokens = 0;
		nslog_rl_tb_refill(&tb, idles[i]);
		KUNIT_EXPECT_EQ_MSG(test, tb.tokens, tb.cap, "idle %llu ns",
				    idles[i]);
		/* And from almost full. */
		tb.tokens = tb.cap - 1;
		nslog_rl_tb_refill(&tb, idles[i]);
		KUNIT_EXPECT_EQ_MSG(test, tb.tokens, tb.cap, "idle %llu ns",
				    idles[i]);
	}
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), c->burst);
}

/* Credit given back never takes a bucket past its cap. */
static void nslog_rl_test_give_never_exceeds_cap(struct kunit *test)
{
	struct nslog_rl_tb tb;

	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, 100, SEC, 5000), 0);
	nslog_rl_tb_give(&tb, MAX_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tb.tokens, tb.cap);
	nslog_rl_tb_take(&tb, 2000);
	nslog_rl_tb_give(&tb, 1000);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), 4000ULL);
	nslog_rl_tb_give(&tb, 4000);
	KUNIT_EXPECT_EQ(test, tb.tokens, tb.cap);
}

/*
 * A changed limit starts with the units the old one would let through, not
 * its raw credit (a unit costs one period of credit): 1000 records per ms,
 * full, become 1000 records per second with 1000 ready, not 1.  Capped at
 * the new burst, with no overflow of units * period; a limit that had no
 * limit before, or has none now, starts as nslog_rl_tb_set() made it.
 */
static void nslog_rl_test_carry_keeps_units_not_credit(struct kunit *test)
{
	struct nslog_rl_tb old, tb;

	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&old, 1000, MSEC, 1000), 0);
	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, 1000, SEC, 5000), 0);
	nslog_rl_tb_carry(&tb, &old);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), 1000ULL);

	/* 300 left of a burst of 1000 per hour, now 10 per ms: 10. */
	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&old, 1000, HOUR, 1000), 0);
	nslog_rl_tb_take(&old, 700);
	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, 10, MSEC, 10), 0);
	nslog_rl_tb_carry(&tb, &old);
	KUNIT_EXPECT_EQ(test, tb.tokens, tb.cap);
	/* ... and back to a day's period: 10 of a burst of 1000. */
	old = tb;
	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, 1000, 24 * HOUR, 1000), 0);
	nslog_rl_tb_carry(&tb, &old);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), 10ULL);

	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&old, 0, SEC, 0), 0);
	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, 5, SEC, 5), 0);
	nslog_rl_tb_carry(&tb, &old);
	KUNIT_EXPECT_EQ(test, tb.tokens, tb.cap);
}

/* A dimension with no limit lets everything through and keeps no count. */
static void nslog_rl_test_unlimited_passes_everything(struct kunit *test)
{
	struct nslog_rl_tb tb;

	KUNIT_ASSERT_EQ(test, nslog_rl_tb_set(&tb, 0, SEC, 10), 0);
	KUNIT_EXPECT_EQ(test, tb.rate, 0ULL);
	KUNIT_EXPECT_TRUE(test, nslog_rl_tb_can(&tb, MAX_PAYLOAD));
	nslog_rl_tb_take(&tb, MAX_PAYLOAD);
	nslog_rl_tb_refill(&tb, U64_MAX);
	nslog_rl_tb_give(&tb, MAX_PAYLOAD);
	KUNIT_EXPECT_EQ(test, tb.tokens, 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&tb), U64_MAX);
}

/*
 * Elapsed time on a clock that wraps at 2^64: forward across the wrap is
 * counted, backwards (or a jump of 2^63 or more) is nothing.
 */
static void nslog_rl_test_elapsed_wraps_and_ignores_backwards(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, nslog_rl_elapsed(T0, T0), 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_elapsed(T0, T0 + 5), 5ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_elapsed(T0, T0 - 1), 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_elapsed(T0 + SEC, T0), 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_elapsed(U64_MAX - 5, 10), 16ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_elapsed(10, U64_MAX - 5), 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_elapsed(0, (1ULL << 63) - 1),
			(1ULL << 63) - 1);
	KUNIT_EXPECT_EQ(test, nslog_rl_elapsed(0, 1ULL << 63), 0ULL);
}

/* --- one rule ------------------------------------------------------------ */

/* A rule refills from its last refill to @now: 2 per second, 1 per 500 ms. */
static void nslog_rl_test_take_refills_from_last_ns(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rec_rule(test, 2, SEC);

	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, 1));
	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, 1));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, 1));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0 + 500 * MSEC - 1, 1));
	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0 + 500 * MSEC, 1));
	KUNIT_EXPECT_EQ(test, r->last_ns, T0 + 500 * MSEC);
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0 + 500 * MSEC, 1));
	KUNIT_EXPECT_EQ(test, r->accepted, 3ULL);
	KUNIT_EXPECT_EQ(test, r->dropped, 3ULL);
}

/*
 * A reading earlier than the last refill adds nothing and does not move
 * the last refill back, so that stretch is not counted twice later.
 */
static void nslog_rl_test_clock_backwards_adds_nothing(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rec_rule(test, 1, SEC);

	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, 1));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0 - 10 * SEC, 1));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, 0, 1));
	KUNIT_EXPECT_EQ(test, r->last_ns, T0);
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0 + SEC - 1, 1));
	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0 + SEC, 1));
	KUNIT_EXPECT_EQ(test, r->last_ns, T0 + SEC);
}

/* Time that runs across the clock's wrap at 2^64 counts as it should. */
static void nslog_rl_test_clock_wrap_refills_across(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rec_rule(test, 1, SEC);
	u64 before = U64_MAX - 250 * MSEC;
	u64 after = before + SEC;	/* wraps */

	r->last_ns = before;
	nslog_rl_drain(test, r, before);
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, after - 1, 1));
	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, after, 1));
	KUNIT_EXPECT_EQ(test, r->last_ns, after);
	KUNIT_EXPECT_LT(test, r->last_ns, before);
}

/* After years of silence a writer gets the burst, and only the burst. */
static void nslog_rl_test_idle_for_years_caps_at_burst(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rule(test, 1, SEC, 5, 8192, SEC,
						8192);
	u64 later = T0 + 100 * YEAR;
	int i;

	nslog_rl_drain(test, r, T0);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, later, 1));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, later, 1));
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&r->bytes), 8192ULL - 5);
	KUNIT_EXPECT_EQ(test, r->last_ns, later);
}

/*
 * A record passes only if both dimensions have room; a refusal in bytes
 * takes no record token, and one in records takes no bytes.
 */
static void nslog_rl_test_passes_only_if_both_allow(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rule(test, 10, SEC, 10, 8192, SEC,
						8192);

	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, MAX_PAYLOAD));
	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, MAX_PAYLOAD));
	/* 40 bytes left: refused in bytes, records untouched. */
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, MAX_PAYLOAD));
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&r->rec), 8ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&r->bytes), 40ULL);
	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, 40));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, 1));
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&r->rec), 7ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&r->bytes), 0ULL);

	KUNIT_EXPECT_EQ(test, r->accepted, 3ULL);
	KUNIT_EXPECT_EQ(test, r->accepted_bytes, 2ULL * MAX_PAYLOAD + 40);
	KUNIT_EXPECT_EQ(test, r->dropped, 2ULL);
	KUNIT_EXPECT_EQ(test, r->dropped_bytes, (u64)MAX_PAYLOAD + 1);
}

static void nslog_rl_test_record_refusal_takes_no_bytes(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rule(test, 1, SEC, 1, 8192, SEC,
						8192);

	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, 100));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, 100));
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&r->bytes), 8092ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&r->rec), 0ULL);
}

/* Refusals are counted per log, records and bytes, as pending notices. */
static void nslog_rl_test_refusal_counts_pending_per_log(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rec_rule(test, 1, SEC);
	struct nslog_rl_notice notice = { };
	int i;

	nslog_rl_drain(test, r, T0);
	KUNIT_EXPECT_FALSE(test, nslog_rl_rule_take(r, T0, 10, NSLOG_LOG_MAIN,
						    &notice));
	KUNIT_EXPECT_FALSE(test, nslog_rl_rule_take(r, T0, 20, NSLOG_LOG_MAIN,
						    &notice));
	KUNIT_EXPECT_FALSE(test, nslog_rl_rule_take(r, T0, 5, NSLOG_LOG_RADIO,
						    &notice));
	KUNIT_EXPECT_NULL(test, notice.cgrp);

	/* nslog_rl_drain() dropped one 1-byte record in main. */
	for (i = 0; i < NSLOG_NR_LOGS; i++) {
		u64 recs = i == NSLOG_LOG_MAIN ? 3 : i == NSLOG_LOG_RADIO;
		u64 bytes = i == NSLOG_LOG_MAIN ? 31 : i == NSLOG_LOG_RADIO ? 5 : 0;

		KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, i), recs);
		KUNIT_EXPECT_EQ(test, nslog_rl_pend_bytes(r, i), bytes);
	}
	KUNIT_EXPECT_EQ(test, r->dropped, 4ULL);
	KUNIT_EXPECT_EQ(test, r->dropped_bytes, 36ULL);
}

/* --- notices ------------------------------------------------------------ */

/*
 * The first record to pass after drops carries a notice of them, with a
 * reference on the cgroup; the pending counts start again from zero, so
 * the next record carries none.
 */
static void nslog_rl_test_notice_handed_out_once(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rec_rule(test, 1, SEC);
	struct nslog_rl_notice notice = { };

	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, 1));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, 10));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, 20));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, 30));
	KUNIT_EXPECT_EQ(test, nslog_rl_cg_refs(r->cgrp), 1L);

	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + SEC, 7,
						   NSLOG_LOG_MAIN, &notice));
	KUNIT_EXPECT_PTR_EQ(test, notice.cgrp, r->cgrp);
	KUNIT_EXPECT_EQ(test, notice.records, 3ULL);
	KUNIT_EXPECT_EQ(test, notice.bytes, 60ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_cg_refs(r->cgrp), 2L);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, NSLOG_LOG_MAIN), 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_bytes(r, NSLOG_LOG_MAIN), 0ULL);

	nslog_rl_notice_done(&notice);
	KUNIT_EXPECT_NULL(test, notice.cgrp);
	KUNIT_EXPECT_EQ(test, nslog_rl_cg_refs(r->cgrp), 1L);

	notice = (struct nslog_rl_notice){ };
	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + 2 * SEC, 7,
						   NSLOG_LOG_MAIN, &notice));
	KUNIT_EXPECT_NULL(test, notice.cgrp);
	KUNIT_EXPECT_EQ(test, notice.records, 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_cg_refs(r->cgrp), 1L);
	KUNIT_EXPECT_EQ(test, nslog_rl_cg(r)->released, 0U);
}

/*
 * Writers of two IPC namespaces in one cgroup share its bucket, but each
 * set's drops are reported in that set's log only (here main of set A, key
 * 10, and main of set B, key 20): a record of B that passes carries B's
 * drops and leaves A's pending until a record of A passes.
 */
static void nslog_rl_test_notice_only_in_its_set(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rec_rule(test, 1, SEC);
	struct nslog_rl_notice notice = { };

	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0, 1, 10, &notice));
	KUNIT_EXPECT_FALSE(test, nslog_rl_rule_take(r, T0, 100, 10, &notice));
	KUNIT_EXPECT_FALSE(test, nslog_rl_rule_take(r, T0, 200, 10, &notice));
	KUNIT_EXPECT_FALSE(test, nslog_rl_rule_take(r, T0, 3, 20, &notice));
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, 10), 2ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_bytes(r, 10), 300ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, 20), 1ULL);

	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + SEC, 4, 20,
						   &notice));
	KUNIT_EXPECT_PTR_EQ(test, notice.cgrp, r->cgrp);
	KUNIT_EXPECT_EQ(test, notice.records, 1ULL);
	KUNIT_EXPECT_EQ(test, notice.bytes, 3ULL);
	nslog_rl_notice_done(&notice);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, 10), 2ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, 20), 0ULL);

	notice = (struct nslog_rl_notice){ };
	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + 2 * SEC, 5, 10,
						   &notice));
	KUNIT_EXPECT_PTR_EQ(test, notice.cgrp, r->cgrp);
	KUNIT_EXPECT_EQ(test, notice.records, 2ULL);
	KUNIT_EXPECT_EQ(test, notice.bytes, 300ULL);
	nslog_rl_notice_done(&notice);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, 10), 0ULL);
}

/*
 * A bucket keeps drops to report for NSLOG_RL_PENDING logs at once: with
 * drops in one log more, the oldest slot's are given up, still counted in
 * the bucket's totals, and the others are reported as before.
 */
static void nslog_rl_test_pending_slots_full_give_up_oldest(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rec_rule(test, 1, SEC);
	struct nslog_rl_notice notice = { };
	u64 log;

	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0, 1, 100, &notice));
	for (log = 100; log <= 100 + NSLOG_RL_PENDING; log++)
		KUNIT_EXPECT_FALSE(test, nslog_rl_rule_take(r, T0, 2, log,
							    &notice));
	KUNIT_EXPECT_EQ(test, r->dropped, NSLOG_RL_PENDING + 1ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, 100), 0ULL);
	for (log = 101; log <= 100 + NSLOG_RL_PENDING; log++)
		KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, log), 1ULL);

	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + SEC, 1, 100,
						   &notice));
	KUNIT_EXPECT_NULL(test, notice.cgrp);
	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + 2 * SEC, 1,
						   100 + NSLOG_RL_PENDING,
						   &notice));
	KUNIT_EXPECT_EQ(test, notice.records, 1ULL);
	KUNIT_EXPECT_EQ(test, notice.bytes, 2ULL);
	nslog_rl_notice_done(&notice);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, 100 + NSLOG_RL_PENDING),
			0ULL);
}

/* Drops are reported in the log they happened in, and only there. */
static void nslog_rl_test_notice_only_in_its_log(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rec_rule(test, 1, SEC);
	struct nslog_rl_notice notice = { };

	nslog_rl_drain(test, r, T0);
	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + SEC, 3,
						   NSLOG_LOG_EVENTS, &notice));
	KUNIT_EXPECT_NULL(test, notice.cgrp);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, NSLOG_LOG_MAIN), 1ULL);

	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + 2 * SEC, 3,
						   NSLOG_LOG_MAIN, &notice));
	KUNIT_EXPECT_PTR_EQ(test, notice.cgrp, r->cgrp);
	KUNIT_EXPECT_EQ(test, notice.records, 1ULL);
	KUNIT_EXPECT_EQ(test, notice.bytes, 1ULL);
	nslog_rl_notice_done(&notice);
}

struct nslog_rl_text_case {
	u64 records, bytes;
	const char *text;
};

static const struct nslog_rl_text_case nslog_rl_text_cases[] = {
	{ 3, 60, "nslogger: suppressed 3 records (60 bytes) from /" },
	{ 1, 1, "nslogger: suppressed 1 records (1 bytes) from /" },
	{ U64_MAX, U64_MAX,
	  "nslogger: suppressed 18446744073709551615 records (18446744073709551615 bytes) from /" },
};

static void nslog_rl_text_desc(const struct nslog_rl_text_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%llu records", c->records);
}

KUNIT_ARRAY_PARAM(nslog_rl_text, nslog_rl_text_cases, nslog_rl_text_desc);

/*
 * The notice's text, for the root cgroup (the only real cgroup a test can
 * name without making one): exact, and its length returned; a short
 * buffer gets a terminated prefix.
 */
static void nslog_rl_test_format_notice_text(struct kunit *test)
{
	const struct nslog_rl_text_case *c = test->param_value;
	struct nslog_rl_notice notice = {
		.cgrp = &cgrp_dfl_root.cgrp,
		.records = c->records,
		.bytes = c->bytes,
	};
	char buf[160], small[21];
	int len;

	memset(buf, 'x', sizeof(buf));
	len = nslog_rl_format_notice(&notice, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, c->text);
	KUNIT_EXPECT_EQ(test, len, (int)strlen(c->text));

	memset(small, 'x', sizeof(small));
	len = nslog_rl_format_notice(&notice, small, sizeof(small));
	KUNIT_EXPECT_EQ(test, len, (int)sizeof(small) - 1);
	KUNIT_EXPECT_EQ(test, small[sizeof(small) - 1], '\0');
	KUNIT_EXPECT_EQ(test, strncmp(small, c->text, sizeof(small) - 1), 0);
}

/* --- the charging walk ---------------------------------------------------- */

/*
 * Two children under one parent share the parent's limit: once it is spent
 * both are refused, the drop is the parent's, and the child gets back what
 * it took.  The next record through the parent, from either child, reports
 * the parent's drops.
 */
static void nslog_rl_test_path_parent_shared_by_two_children(struct kunit *test)
{
	struct nslog_rl_rule *p = nslog_rl_rec_rule(test, 3, SEC);
	struct nslog_rl_rule *a = nslog_rl_rec_rule(test, 100, SEC);
	struct nslog_rl_rule *b = nslog_rl_rec_rule(test, 100, SEC);
	struct nslog_rl_tpath pa = { .at = { NULL, p, a } };
	struct nslog_rl_tpath pb = { .at = { NULL, p, b } };
	struct nslog_rl_notice n = { };

	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&pa, 2, T0, 0, 8, &n), 0);
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&pb, 2, T0, 0, 8, &n), 0);
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&pa, 2, T0, 0, 8, &n), 0);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&p->rec), 0ULL);

	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&pb, 2, T0, 0, 8, &n), -EAGAIN);
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&pa, 2, T0, 0, 8, &n), -EAGAIN);
	KUNIT_EXPECT_NULL(test, n.cgrp);
	KUNIT_EXPECT_EQ(test, p->dropped, 2ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(p, 0), 2ULL);
	KUNIT_EXPECT_EQ(test, p->accepted, 3ULL);
	/* The children keep no trace of the refused records. */
	KUNIT_EXPECT_EQ(test, a->accepted, 2ULL);
	KUNIT_EXPECT_EQ(test, b->accepted, 1ULL);
	KUNIT_EXPECT_EQ(test, a->dropped + b->dropped, 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&a->rec), 98ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&b->rec), 99ULL);

	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&pb, 2, T0 + SEC, 0, 8, &n), 0);
	KUNIT_EXPECT_PTR_EQ(test, n.cgrp, p->cgrp);
	KUNIT_EXPECT_EQ(test, n.records, 2ULL);
	KUNIT_EXPECT_EQ(test, n.bytes, 16ULL);
	nslog_rl_notice_done(&n);
}

/*
 * A child tighter than its parent refuses first: the drop is the child's,
 * and the parent, looked up but never charged, neither takes nor drops.
 */
static void nslog_rl_test_path_child_tighter_than_parent(struct kunit *test)
{
	struct nslog_rl_rule *p = nslog_rl_rec_rule(test, 10, SEC);
	struct nslog_rl_rule *c = nslog_rl_rec_rule(test, 1, SEC);
	struct nslog_rl_tpath path = { .at = { NULL, p, c } };
	struct nslog_rl_notice n = { };

	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 2, T0, 0, 8, &n), 0);
	KUNIT_EXPECT_EQ(test, path.nasked, 3);
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 2, T0, 0, 8, &n), -EAGAIN);
	/* Every level was looked up; the charge stopped at the child. */
	KUNIT_EXPECT_EQ(test, path.nasked, 3);
	KUNIT_EXPECT_EQ(test, p->accepted, 1ULL);

	KUNIT_EXPECT_EQ(test, c->dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(c, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, p->dropped, 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(p, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, p->accepted, 1ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&p->rec), 9ULL);
}

/*
 * A refusal high up gives back, to each bucket below, exactly what it took
 * in both dimensions; levels without a rule are asked and skipped, deepest
 * first.
 */
static void nslog_rl_test_path_refusal_gives_back_lower_takes(struct kunit *test)
{
	struct nslog_rl_rule *root = nslog_rl_rec_rule(test, 1, HOUR);
	struct nslog_rl_rule *mid = nslog_rl_rule(test, 100, SEC, 100, 1 << 20,
						  SEC, 1 << 20);
	struct nslog_rl_rule *leaf = nslog_rl_rule(test, 100, SEC, 100,
						   1 << 20, SEC, 1 << 20);
	struct nslog_rl_tpath path = { .at = { root, mid, NULL, leaf } };
	u64 mid_rec, mid_bytes, leaf_rec, leaf_bytes;
	struct nslog_rl_notice n = { };
	int i;

	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 3, T0, 0, 1000, &n), 0);
	KUNIT_EXPECT_EQ(test, root->accepted, 1ULL);
	mid_rec = mid->rec.tokens;
	mid_bytes = mid->bytes.tokens;
	leaf_rec = leaf->rec.tokens;
	leaf_bytes = leaf->bytes.tokens;

	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 3, T0, 0, 1000, &n),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, path.nasked, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, path.asked[i], 3 - i);
	KUNIT_EXPECT_NULL(test, n.cgrp);

	KUNIT_EXPECT_EQ(test, root->dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, root->dropped_bytes, 1000ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(root, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_bytes(root, 0), 1000ULL);
	KUNIT_EXPECT_EQ(test, mid->rec.tokens, mid_rec);
	KUNIT_EXPECT_EQ(test, mid->bytes.tokens, mid_bytes);
	KUNIT_EXPECT_EQ(test, mid->accepted, 1ULL);
	KUNIT_EXPECT_EQ(test, mid->accepted_bytes, 1000ULL);
	KUNIT_EXPECT_EQ(test, mid->dropped, 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(mid, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, leaf->rec.tokens, leaf_rec);
	KUNIT_EXPECT_EQ(test, leaf->bytes.tokens, leaf_bytes);
	KUNIT_EXPECT_EQ(test, leaf->accepted, 1ULL);
	KUNIT_EXPECT_EQ(test, leaf->accepted_bytes, 1000ULL);
	KUNIT_EXPECT_EQ(test, leaf->dropped, 0ULL);
}

/*
 * A notice a lower bucket handed out for a record that a higher one then
 * refused goes back to that bucket, counts and cgroup reference; the next
 * record that passes reports it, and the higher bucket's drops after it.
 */
static void nslog_rl_test_path_refusal_gives_back_notice(struct kunit *test)
{
	struct nslog_rl_rule *root = nslog_rl_rec_rule(test, 1, HOUR);
	struct nslog_rl_rule *leaf = nslog_rl_rec_rule(test, 1, SEC);
	struct nslog_rl_tpath path = { .at = { root, leaf } };
	struct nslog_rl_notice n = { };

	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0, 0, 5, &n), 0);
	/* Two drops at the leaf, none at the root. */
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0, 0, 6, &n), -EAGAIN);
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0, 0, 7, &n), -EAGAIN);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(leaf, 0), 2ULL);
	KUNIT_EXPECT_EQ(test, root->dropped, 0ULL);

	/* The leaf has room again and hands its notice out; the root refuses. */
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0 + SEC, 0, 8, &n),
			-EAGAIN);
	KUNIT_EXPECT_NULL(test, n.cgrp);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(leaf, 0), 2ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_bytes(leaf, 0), 13ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_cg_refs(leaf->cgrp), 1L);
	KUNIT_EXPECT_EQ(test, nslog_rl_tb_units(&leaf->rec), 1ULL);
	KUNIT_EXPECT_EQ(test, leaf->accepted, 1ULL);
	KUNIT_EXPECT_EQ(test, root->dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(root, 0), 1ULL);

	/* An hour on both have room: the deepest notice goes first. */
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0 + HOUR, 0, 9, &n),
			0);
	KUNIT_EXPECT_PTR_EQ(test, n.cgrp, leaf->cgrp);
	KUNIT_EXPECT_EQ(test, n.records, 2ULL);
	KUNIT_EXPECT_EQ(test, n.bytes, 13ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(root, 0), 1ULL);
	nslog_rl_notice_done(&n);

	n = (struct nslog_rl_notice){ };
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0 + 2 * HOUR, 0, 9,
					    &n), 0);
	KUNIT_EXPECT_PTR_EQ(test, n.cgrp, root->cgrp);
	KUNIT_EXPECT_EQ(test, n.records, 1ULL);
	KUNIT_EXPECT_EQ(test, n.bytes, 8ULL);
	nslog_rl_notice_done(&n);
	KUNIT_EXPECT_EQ(test, nslog_rl_cg_refs(root->cgrp), 1L);
	KUNIT_EXPECT_EQ(test, nslog_rl_cg_refs(leaf->cgrp), 1L);
}

/*
 * Only the NSLOG_RL_MAX_PATH deepest buckets are charged: with a rule at
 * every level of a deeper path, the walk stops after that many and a
 * spent bucket above them does not refuse.  Levels without a rule do not
 * count.
 */
static void nslog_rl_test_path_charges_only_deepest_buckets(struct kunit *test)
{
	const int own = PATH_LEVELS - 1;
	struct nslog_rl_tpath path = { };
	struct nslog_rl_notice n = { };
	struct nslog_rl_rule *top;
	int i;

	top = nslog_rl_rec_rule(test, 1, HOUR);
	nslog_rl_drain(test, top, T0);
	path.at[0] = top;
	for (i = 1; i <= own; i++)
		path.at[i] = nslog_rl_rec_rule(test, 10, SEC);

	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, own, T0, 0, 1, &n), 0);
	KUNIT_EXPECT_EQ(test, path.nasked, NSLOG_RL_MAX_PATH);
	KUNIT_EXPECT_EQ(test, top->accepted, 1ULL);	/* the drain's */
	for (i = 1; i <= own; i++)
		KUNIT_EXPECT_EQ_MSG(test, path.at[i]->accepted,
				    i > own - NSLOG_RL_MAX_PATH ? 1ULL : 0ULL,
				    "level %d", i);
	KUNIT_EXPECT_EQ(test, top->dropped, 1ULL);	/* the drain's */

	/* With every other level empty, all rules fit and the top refuses. */
	for (i = 1; i <= own; i += 2)
		path.at[i] = NULL;
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, own, T0, 0, 1, &n),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, path.nasked, own + 1);
	KUNIT_EXPECT_EQ(test, top->dropped, 2ULL);
	for (i = 2; i <= own; i += 2)
		KUNIT_EXPECT_EQ_MSG(test, path.at[i]->accepted,
				    i > own - NSLOG_RL_MAX_PATH ? 1ULL : 0ULL,
				    "level %d", i);
}

/*
 * A rule removed after it handed out a notice (as a rule is freed once its
 * cgroup goes, or by "clear"): the notice holds its own cgroup reference
 * and nothing of the rule, so it stays valid, and releasing it drops the
 * last reference.
 */
static void nslog_rl_test_removed_rule_leaves_no_dangling_notice(struct kunit *test)
{
	struct nslog_rl_test *t = test->priv;
	struct nslog_rl_rule *r = nslog_rl_rec_rule(test, 1, SEC);
	struct nslog_rl_fake_cg *cg = nslog_rl_cg(r);
	struct nslog_rl_notice n = { };
	int i;

	nslog_rl_drain(test, r, T0);
	KUNIT_ASSERT_TRUE(test, nslog_rl_rule_take(r, T0 + SEC, 4,
						   NSLOG_LOG_MAIN, &n));
	KUNIT_ASSERT_PTR_EQ(test, n.cgrp, &cg->cgrp);

	/* What nslog_rl_free_list() does, after readers are done. */
	cgroup_put(r->cgrp);
	for (i = 0; i < t->n; i++)
		if (t->rules[i] == r)
			t->rules[i] = NULL;
	kfree(r);

	KUNIT_EXPECT_EQ(test, nslog_rl_cg_refs(&cg->cgrp), 1L);
	KUNIT_EXPECT_EQ(test, cg->released, 0U);
	KUNIT_EXPECT_EQ(test, n.records, 1ULL);
	KUNIT_EXPECT_EQ(test, n.bytes, 1ULL);
	nslog_rl_notice_done(&n);
	KUNIT_EXPECT_NULL(test, n.cgrp);
	KUNIT_EXPECT_EQ(test, cg->released, 1U);
}

/* --- the notice interval -------------------------------------------------- */

/*
 * A bucket that lets a record through every 500 ms, flooded: each record
 * that passes could carry a notice, but one goes out per second at most,
 * each with every drop since the one before, and together they report
 * every drop exactly once.
 */
static void nslog_rl_test_notice_at_most_one_per_interval(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rule(test, 2, SEC, 1, 0, 0, 0);
	struct nslog_rl_notice n = { };
	u64 reported = 0, bytes = 0;

	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, 1));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, 10));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, 10));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0, 10));

	/* The first notice goes out at once. */
	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + 500 * MSEC, 1,
						   NSLOG_LOG_MAIN, &n));
	KUNIT_EXPECT_EQ(test, n.records, 3ULL);
	reported += n.records;
	bytes += n.bytes;
	nslog_rl_notice_done(&n);
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0 + 500 * MSEC, 20));
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0 + 500 * MSEC, 20));

	/* Half an interval later a record passes, without a notice. */
	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + SEC, 1,
						   NSLOG_LOG_MAIN, &n));
	KUNIT_EXPECT_EQ(test, n.records, 0ULL);
	KUNIT_EXPECT_NULL(test, n.cgrp);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, NSLOG_LOG_MAIN), 2ULL);
	KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0 + SEC, 30));

	/* An interval after the first notice, the next carries all three. */
	KUNIT_EXPECT_TRUE(test, nslog_rl_rule_take(r, T0 + 1500 * MSEC, 1,
						   NSLOG_LOG_MAIN, &n));
	KUNIT_EXPECT_EQ(test, n.records, 3ULL);
	KUNIT_EXPECT_EQ(test, n.bytes, 70ULL);
	reported += n.records;
	bytes += n.bytes;
	nslog_rl_notice_done(&n);

	KUNIT_EXPECT_EQ(test, reported, r->dropped);
	KUNIT_EXPECT_EQ(test, bytes, r->dropped_bytes);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(r, NSLOG_LOG_MAIN), 0ULL);
}

/* With notice_interval_ms 0, every record that passes after drops reports. */
static void nslog_rl_test_notice_interval_zero_reports_each_pass(struct kunit *test)
{
	struct nslog_rl_rule *r = nslog_rl_rule(test, 2, SEC, 1, 0, 0, 0);
	struct nslog_rl_notice n = { };
	int i;

	nslog_rl_notice_interval_ms = 0;
	KUNIT_EXPECT_TRUE(test, nslog_rl_take(r, T0, 1));
	for (i = 1; i <= 3; i++) {
		KUNIT_EXPECT_FALSE(test, nslog_rl_take(r, T0 + i * 500 * MSEC - 1,
						       5));
		KUNIT_EXPECT_TRUE(test,
				  nslog_rl_rule_take(r, T0 + i * 500 * MSEC, 1,
						     NSLOG_LOG_MAIN, &n));
		KUNIT_EXPECT_EQ(test, n.records, 1ULL);
		nslog_rl_notice_done(&n);
	}
}

/*
 * A notice handed out for a record that a higher bucket refused never went
 * out: the interval still counts from the notice before it, so the next
 * record that passes both carries it, whatever the time of the refusal.
 */
static void nslog_rl_test_returned_notice_keeps_interval(struct kunit *test)
{
	struct nslog_rl_rule *root = nslog_rl_rule(test, 10, SEC, 1, 0, 0, 0);
	struct nslog_rl_rule *leaf = nslog_rl_rule(test, 2, SEC, 1, 0, 0, 0);
	struct nslog_rl_tpath path = { .at = { root, leaf } };
	struct nslog_rl_notice n = { };

	/* A notice goes out at T0 + 500 ms. */
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0, 0, 1, &n), 0);
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0, 0, 1, &n), -EAGAIN);
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0 + 500 * MSEC, 0, 1,
					    &n), 0);
	KUNIT_EXPECT_EQ(test, n.records, 1ULL);
	nslog_rl_notice_done(&n);

	/* New drops; at T0 + 1600 ms the leaf hands them out, the root refuses. */
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0 + 500 * MSEC, 0, 1,
					    &n), -EAGAIN);
	KUNIT_EXPECT_TRUE(test, nslog_rl_take(root, T0 + 1600 * MSEC, 1));
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0 + 1600 * MSEC, 0, 1,
					    &n), -EAGAIN);
	KUNIT_EXPECT_EQ(test, n.records, 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_pend_recs(leaf, 0), 1ULL);
	KUNIT_EXPECT_EQ(test, nslog_rl_cg_refs(leaf->cgrp), 1L);

	/* 100 ms on, 1200 ms after the last real notice: this one goes out. */
	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&path, 1, T0 + 1700 * MSEC, 0, 1,
					    &n), 0);
	KUNIT_EXPECT_PTR_EQ(test, n.cgrp, leaf->cgrp);
	KUNIT_EXPECT_EQ(test, n.records, 1ULL);
	nslog_rl_notice_done(&n);
}

/* --- the overflow bucket -------------------------------------------------- */

/*
 * The overflow bucket, which has no cgroup: writers whose default bucket
 * could not be made are all charged to it at their default level, so
 * together they get its rate and no more, and its notices take no cgroup
 * reference and name it "(overflow)".
 */
static void nslog_rl_test_overflow_shared_and_named(struct kunit *test)
{
	struct nslog_rl_limit l = { REC_LIMIT(5, SEC, 5) };
	struct nslog_rl_tpath a = { }, b = { };
	struct nslog_rl_notice n = { };
	struct nslog_rl_rule *of;
	char text[128];
	int i, passed = 0;

	of = kunit_kzalloc(test, sizeof(*of), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, of);
	nslog_rl_rule_init(of, NULL, NSLOG_RL_OVERFLOW);
	KUNIT_ASSERT_EQ(test, nslog_rl_rule_apply(of, &l, T0), 0);
	/* Writer a at level 4 and b at level 3, both charged at level 2. */
	a.at[2] = of;
	b.at[2] = of;

	for (i = 0; i < 10; i++) {
		passed += !nslog_rl_walk(&a, 4, T0, 0, 1, &n);
		passed += !nslog_rl_walk(&b, 3, T0, 0, 1, &n);
	}
	KUNIT_EXPECT_EQ(test, passed, 5);
	KUNIT_EXPECT_EQ(test, of->dropped, 15ULL);
	KUNIT_EXPECT_EQ(test, n.records, 0ULL);

	KUNIT_EXPECT_EQ(test, nslog_rl_walk(&b, 3, T0 + SEC, 0, 1, &n), 0);
	KUNIT_EXPECT_PTR_EQ(test, n.from, (const void *)of);
	KUNIT_EXPECT_NULL(test, n.cgrp);
	KUNIT_EXPECT_EQ(test, n.records, 15ULL);
	nslog_rl_format_notice(&n, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text,
			   "nslogger: suppressed 15 records (15 bytes) from (overflow)");
	nslog_rl_notice_done(&n);
	KUNIT_EXPECT_EQ(test, n.records, 0ULL);
}

/* --- the parser ------------------------------------------------------------ */

struct nslog_rl_parse_case {
	const char *text;
	struct nslog_rl_limit want;
};

#define REC(n, p, b)	.records = (n), .records_period_ns = (p), .records_burst = (b)
#define BYTES(n, p, b)	.bytes = (n), .bytes_period_ns = (p), .bytes_burst = (b)

static const struct nslog_rl_parse_case nslog_rl_parse_good[] = {
	{ "records=100/s",		{ REC(100, SEC, 100) } },
	{ "records=10000/30s",		{ REC(10000, 30 * SEC, 10000) } },
	{ "records=5/250ms records_burst=20", { REC(5, 250 * MSEC, 20) } },
	{ "records=1/min",		{ REC(1, MINUTE, 1) } },
	{ "records=2/h",		{ REC(2, HOUR, 2) } },
	{ "records=1/ms",		{ REC(1, MSEC, 1) } },
	{ "records=1/1ms",		{ REC(1, MSEC, 1) } },
	{ "records=1/24h",		{ REC(1, DAY, 1) } },
	{ "records=1/1440min",		{ REC(1, DAY, 1) } },
	{ "records=1/86400s",		{ REC(1, DAY, 1) } },
	{ "records=1/86400000ms",	{ REC(1, DAY, 1) } },
	{ "records=1/24h records_burst=53375", { REC(1, DAY, 53375) } },
	{ "records=1000000000/s",	{ REC(1000000000, SEC, 1000000000) } },
	{ "records=010/s",		{ REC(10, SEC, 10) } },
	{ "records=1k/s records_burst=2K", { REC(1024, SEC, 2048) } },
	{ "records=953M/s",		{ REC(953ULL << 20, SEC, 953ULL << 20) } },
	{ "records=976562K/s",		{ REC(976562ULL << 10, SEC, 976562ULL << 10) } },
	{ "bytes=64K/1min",		{ BYTES(65536, MINUTE, 65536) } },
	{ "bytes=4076/s",		{ BYTES(4076, SEC, 4076) } },
	{ "bytes=1/s bytes_burst=4076",	{ BYTES(1, SEC, 4076) } },
	{ "bytes=1M/500ms bytes_burst=4M", { BYTES(1 << 20, 500 * MSEC, 4 << 20) } },
	{ "records=10/s bytes=8K/s",	{ REC(10, SEC, 10), BYTES(8192, SEC, 8192) } },
	{ " records=10/s\t\tbytes=8K/s  ", { REC(10, SEC, 10), BYTES(8192, SEC, 8192) } },
	{ "bytes_burst=16K bytes=8K/2s records_burst=3 records=1/s",
	  { REC(1, SEC, 3), BYTES(8192, 2 * SEC, 16384) } },
};

static void nslog_rl_parse_desc(const struct nslog_rl_parse_case *c,
				char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->text);
}

KUNIT_ARRAY_PARAM(nslog_rl_parse_good, nslog_rl_parse_good,
		  nslog_rl_parse_desc);

/* Every documented form parses to the limit it says, bursts filled in. */
static void nslog_rl_test_parse_accepts(struct kunit *test)
{
	const struct nslog_rl_parse_case *c = test->param_value;
	const struct nslog_rl_limit *w = &c->want;
	struct nslog_rl_limit l;
	char buf[128];

	KUNIT_ASSERT_GE(test, strscpy(buf, c->text, sizeof(buf)), (ssize_t)0);
	memset(&l, 0x5a, sizeof(l));
	KUNIT_ASSERT_EQ(test, nslog_rl_parse_limit(buf, &l), 0);
	KUNIT_EXPECT_EQ(test, l.records, w->records);
	KUNIT_EXPECT_EQ(test, l.records_period_ns, w->records_period_ns);
	KUNIT_EXPECT_EQ(test, l.records_burst, w->records_burst);
	KUNIT_EXPECT_EQ(test, l.bytes, w->bytes);
	KUNIT_EXPECT_EQ(test, l.bytes_period_ns, w->bytes_period_ns);
	KUNIT_EXPECT_EQ(test, l.bytes_burst, w->bytes_burst);
}

static const char *const nslog_rl_parse_bad[] = {
	"",
	"   ",
	"records",
	"records=",
	"records=10",
	"records=10/",
	"records=/s",
	"records=0/s",
	"records=00/s",
	"records=10/0s",
	"records=10/0ms",
	"records=10/2d",
	"records=10/sec",
	"records=10/S",
	"records=10/ s",
	"records=10/s/",
	"records=10/1.5s",
	"records=10/-1s",
	"records=10/25h",
	"records=10/86401s",
	"records=10/1441min",
	"records=10/999999999999s",
	"records=1000000001/s",
	"records=954M/s",
	"records=976563K/s",
	"records=1G/s",
	"records=18446744073709551617/s",
	"records=99999999999999999999999999/s",
	"records=-1/s",
	"records=+1/s",
	"records=1.5/s",
	"records=0x10/s",
	"records=1e3/s",
	"records=1kk/s",
	"records=k/s",
	"records=10/s records_burst=0",
	"records=10/s records_burst=",
	"records=10/s records_burst=1000000001",
	"records=1/24h records_burst=53376",
	"records_burst=5",
	"records=1/s bytes_burst=8K",
	"bytes=4075/s",
	"bytes=1M/s bytes_burst=4075",
	"bytes=0/s",
	"limit=1/s",
	"Records=10/s",
	"records=10/s junk",
	"records=10/s =",
};

static void nslog_rl_bad_desc(const char *const *text, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", *text);
}

KUNIT_ARRAY_PARAM(nslog_rl_parse_bad, nslog_rl_parse_bad, nslog_rl_bad_desc);

/* Malformed text, zero and absurd values are -EINVAL. */
static void nslog_rl_test_parse_rejects(struct kunit *test)
{
	const char *const *text = test->param_value;
	struct nslog_rl_limit l;
	char buf[128];

	KUNIT_ASSERT_GE(test, strscpy(buf, *text, sizeof(buf)), (ssize_t)0);
	KUNIT_EXPECT_EQ(test, nslog_rl_parse_limit(buf, &l), -EINVAL);
}

/* --- a write's notice, through the real write path --------------------- */

#if IS_ENABLED(CONFIG_FAILSLAB) && IS_ENABLED(CONFIG_FAULT_INJECTION_DEBUG_FS)
/*
 * Failing a slab allocation of the current task on purpose, with the
 * kernel's own fault injection (Documentation/fault-injection).  failslab's
 * knobs are only in debugfs, whose files take no kernel_write(): the
 * values behind them (each file's i_private) are set instead, found
 * through a kernel mount of debugfs.  The task filter keeps every other
 * task's allocations alone.
 */
static void *nslog_rl_failslab_knob(struct vfsmount *mnt, const char *knob)
{
	char name[64];
	struct file *f;
	void *data;

	snprintf(name, sizeof(name), "failslab/%s", knob);
	f = file_open_root_mnt(mnt, name, O_RDONLY, 0);
	if (IS_ERR(f))
		return NULL;
	data = file_inode(f)->i_private;
	fput(f);
	return data;
}

/* Fail this task's next @times slab allocations, sleeping ones too; 0: none. */
static int nslog_rl_failslab(struct vfsmount *mnt, int times)
{
	bool *task_filter = nslog_rl_failslab_knob(mnt, "task-filter");
	bool *ignore_sleeping = nslog_rl_failslab_knob(mnt, "ignore-gfp-wait");
	struct fault_attr *attr;

	if (!task_filter || !ignore_sleeping)
		return -ENOENT;
	attr = container_of(task_filter, struct fault_attr, task_filter);
	attr->task_filter = true;
	attr->verbose = 0;
	attr->interval = 1;
	atomic_set(&attr->space, 0);
	attr->probability = times ? 100 : 0;
	/* failslab's default, put back when disarmed. */
	*ignore_sleeping = !times;
	atomic_set(&attr->times, times);
	return 0;
}

static void nslog_rl_write_rec(struct kunit *test, struct nslog_log *log,
			       const u8 *buf, u16 len)
{
	struct kvec kv = { .iov_base = (void *)buf, .iov_len = len };
	struct iov_iter from;

	iov_iter_kvec(&from, ITER_SOURCE, &kv, 1, len);
	KUNIT_ASSERT_EQ(test, nslog_log_write(log, &from, len), (ssize_t)len);
}

/*
 * A notice whose record cannot be allocated must not take its drops with
 * it: with the writer's next allocation failing, the record that passes
 * after a drop still comes with its notice.  A byte limit of 5000 an hour
 * on the root cgroup (the test's own, set through the admin file's
 * parser): a 4000-byte record passes, the next is dropped, a 10-byte one
 * passes and reports it.
 */
static void nslog_rl_test_notice_survives_failed_allocation(struct kunit *test)
{
	static const u32 sizes[NSLOG_NR_LOGS] = {
		64 << 10, 64 << 10, 64 << 10, 64 << 10,
	};
	static const u32 max_size = 64 << 10;
	struct file_system_type *debugfs;
	struct nslog_ring_stats st;
	struct nslog_logset *set;
	struct nslog_log *log;
	struct vfsmount *mnt;
	u8 *buf;
	int err;

	debugfs = get_fs_type("debugfs");
	KUNIT_ASSERT_NOT_NULL(test, debugfs);
	mnt = kern_mount(debugfs);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mnt));
	buf = kunit_kzalloc(test, 4000, GFP_KERNEL);
	set = kunit_kzalloc(test, sizeof(*set), GFP_KERNEL);
	if (!buf || !set)
		kern_unmount(mnt);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, set);
	memcpy(buf, "\4tag\0", 5);
	nslog_logset_init(set, &init_user_ns, 1, sizes, &max_size);
	log = &set->logs[NSLOG_LOG_MAIN];

	KUNIT_ASSERT_EQ(test, nslog_rl_write("set / bytes=5000/h\n"), 0L);
	nslog_rl_write_rec(test, log, buf, 4000);	/* passes */
	nslog_rl_write_rec(test, log, buf, 4000);	/* dropped */
	err = nslog_rl_failslab(mnt, 1);
	if (!err) {
		current->make_it_fail = 1;
		nslog_rl_write_rec(test, log, buf, 10);	/* passes, reports */
		current->make_it_fail = 0;
		err = nslog_rl_failslab(mnt, 0);
	}
	KUNIT_EXPECT_EQ(test, nslog_rl_write("clear /\n"), 0L);
	/* The insert queued the collector: see nslog_rl_test_exit(). */
	KUNIT_EXPECT_TRUE(test, nslog_rl_gc_stop());
	kern_unmount(mnt);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "failslab's debugfs knobs");

	nslog_ring_stats(&log->ring, &st);
	/* The two records that passed, and the notice of the dropped one. */
	KUNIT_EXPECT_EQ(test, st.written, 3ULL);
	nslog_logset_put(set);
}
#else
static void nslog_rl_test_notice_survives_failed_allocation(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB and its debugfs knobs");
}
#endif

static struct kunit_case nslog_rl_test_cases[] = {
	KUNIT_CASE(nslog_rl_test_tb_set_starts_full),
	KUNIT_CASE_PARAM(nslog_rl_test_tb_set_bounds, nslog_rl_set_gen_params),
	KUNIT_CASE(nslog_rl_test_refill_adds_rate_per_ns),
	KUNIT_CASE(nslog_rl_test_refill_capped_at_burst),
	KUNIT_CASE_PARAM(nslog_rl_test_refill_long_idle_is_full,
			 nslog_rl_bucket_gen_params),
	KUNIT_CASE(nslog_rl_test_give_never_exceeds_cap),
	KUNIT_CASE(nslog_rl_test_carry_keeps_units_not_credit),
	KUNIT_CASE(nslog_rl_test_unlimited_passes_everything),
	KUNIT_CASE(nslog_rl_test_elapsed_wraps_and_ignores_backwards),
	KUNIT_CASE(nslog_rl_test_take_refills_from_last_ns),
	KUNIT_CASE(nslog_rl_test_clock_backwards_adds_nothing),
	KUNIT_CASE(nslog_rl_test_clock_wrap_refills_across),
	KUNIT_CASE(nslog_rl_test_idle_for_years_caps_at_burst),
	KUNIT_CASE(nslog_rl_test_passes_only_if_both_allow),
	KUNIT_CASE(nslog_rl_test_record_refusal_takes_no_bytes),
	KUNIT_CASE(nslog_rl_test_refusal_counts_pending_per_log),
	KUNIT_CASE(nslog_rl_test_notice_handed_out_once),
	KUNIT_CASE(nslog_rl_test_notice_only_in_its_log),
	KUNIT_CASE(nslog_rl_test_notice_only_in_its_set),
	KUNIT_CASE(nslog_rl_test_pending_slots_full_give_up_oldest),
	KUNIT_CASE_PARAM(nslog_rl_test_format_notice_text,
			 nslog_rl_text_gen_params),
	KUNIT_CASE(nslog_rl_test_path_parent_shared_by_two_children),
	KUNIT_CASE(nslog_rl_test_path_child_tighter_than_parent),
	KUNIT_CASE(nslog_rl_test_path_refusal_gives_back_lower_takes),
	KUNIT_CASE(nslog_rl_test_path_refusal_gives_back_notice),
	KUNIT_CASE(nslog_rl_test_path_charges_only_deepest_buckets),
	KUNIT_CASE(nslog_rl_test_removed_rule_leaves_no_dangling_notice),
	KUNIT_CASE(nslog_rl_test_notice_at_most_one_per_interval),
	KUNIT_CASE(nslog_rl_test_notice_interval_zero_reports_each_pass),
	KUNIT_CASE(nslog_rl_test_returned_notice_keeps_interval),
	KUNIT_CASE(nslog_rl_test_overflow_shared_and_named),
	KUNIT_CASE(nslog_rl_test_notice_survives_failed_allocation),
	KUNIT_CASE_PARAM(nslog_rl_test_parse_accepts,
			 nslog_rl_parse_good_gen_params),
	KUNIT_CASE_PARAM(nslog_rl_test_parse_rejects,
			 nslog_rl_parse_bad_gen_params),
	{}
};

static struct kunit_suite nslog_rl_test_suite = {
	.name = "nslog_rl",
	.init = nslog_rl_test_init,
	.exit = nslog_rl_test_exit,
	.test_cases = nslog_rl_test_cases,
};

kunit_test_suite(nslog_rl_test_suite);
