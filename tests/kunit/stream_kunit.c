// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the stream table (src/stream.c), through src/stream.h, on
 * a set of the case's own.
 *
 * The set's owner is a fake (&nslog_logset.charge) with limits of its own,
 * so that what is counted against the owner is seen exactly; the registry's
 * real charge is tested in ns_kunit.c.  Streams a case holds are dropped by
 * the case; the exit then frees the set, whose destroy warns (and fails the
 * run) if anything is still counted.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <linux/user_namespace.h>

#include "logset.h"
#include "stream.h"

#define LOG_SIZE	NSLOG_RING_MIN_SIZE
#define MAX_SIZE	(64U << 10)

struct nslog_stream_test {
	struct nslog_logset set;
	u32 max_size;
	/* the fake owner: what it allows and what it was charged */
	unsigned int owner_max_streams;
	u64 owner_max_bytes;
	unsigned int owner_streams;
	s64 owner_bytes;
};

static int nslog_stream_fake_charge(struct nslog_logset *set, int streams,
				    s64 bytes)
{
	struct nslog_stream_test *t =
		container_of(set, struct nslog_stream_test, set);

	if ((streams > 0 && t->owner_streams + streams > t->owner_max_streams) ||
	    (bytes > 0 && t->owner_bytes + bytes > t->owner_max_bytes))
		return -EDQUOT;
	t->owner_streams += streams;
	t->owner_bytes += bytes;
	return 0;
}

static int nslog_stream_test_init(struct kunit *test)
{
	static const u32 sizes[NSLOG_NR_LOGS] = {
		LOG_SIZE, LOG_SIZE, LOG_SIZE, LOG_SIZE,
	};
	struct nslog_stream_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->max_size = MAX_SIZE;
	t->owner_max_streams = 100;
	t->owner_max_bytes = U64_MAX >> 1;
	nslog_logset_init(&t->set, &init_user_ns, 1, sizes, &t->max_size);
	t->set.charge = nslog_stream_fake_charge;
	test->priv = t;
	return 0;
}

static void nslog_stream_test_exit(struct kunit *test)
{
	struct nslog_stream_test *t = test->priv;

	nslog_logset_put(&t->set);
	/* Every stream, listed or not, gave back what it took. */
	KUNIT_EXPECT_EQ(test, t->owner_streams, 0);
	KUNIT_EXPECT_EQ(test, t->owner_bytes, 0);
}

static const struct nslog_stream_limits nslog_stream_roomy = {
	.streams = 100,
	.bytes = 1 << 30,
};

static struct nslog_stream *nslog_stream_make(struct nslog_stream_test *t,
					      const char *name, u32 size,
					      const struct nslog_stream_limits *lim)
{
	return nslog_stream_create(&t->set, name, size, lim ?: &nslog_stream_roomy,
				   GLOBAL_ROOT_UID, GLOBAL_ROOT_GID, 0620);
}

/* Make, remove and drop the caller's reference: gone for good. */
static void nslog_stream_drop(struct kunit *test, struct nslog_stream *s)
{
	KUNIT_EXPECT_EQ(test, nslog_stream_remove(s), 0);
	nslog_stream_put(s);
}

static u64 nslog_stream_written(struct nslog_stream *s)
{
	struct nslog_ring_stats st;

	nslog_ring_stats(&s->log.ring, &st);
	return st.written;
}

static void nslog_stream_write(struct kunit *test, struct nslog_stream *s)
{
	static const char msg[] = "\4tag\0hello";
	struct kvec kv = { .iov_base = (void *)msg, .iov_len = sizeof(msg) };
	struct iov_iter from;

	iov_iter_kvec(&from, ITER_SOURCE, &kv, 1, sizeof(msg));
	KUNIT_ASSERT_EQ(test, nslog_log_write(&s->log, &from, sizeof(msg)),
			(ssize_t)sizeof(msg));
}

/*
 * A stream made is found by name, with log ids from
 * NSLOG_STREAM_LOG_ID_MIN on in the order made, and its size rounded up to
 * a power of two is what the set and the owner count.
 */
static void nslog_stream_test_create_find_next(struct kunit *test)
{
	struct nslog_stream_test *t = test->priv;
	struct nslog_stream *a, *b, *f;

	a = nslog_stream_make(t, "app", 10000, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = nslog_stream_make(t, "b.2_x-y", LOG_SIZE, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));

	KUNIT_EXPECT_EQ(test, a->log_id, NSLOG_STREAM_LOG_ID_MIN);
	KUNIT_EXPECT_EQ(test, b->log_id, NSLOG_STREAM_LOG_ID_MIN + 1);
	KUNIT_EXPECT_EQ(test, nslog_log_android_id(&a->log),
			NSLOG_STREAM_LOG_ID_MIN);
	KUNIT_EXPECT_PTR_EQ(test, nslog_log_stream(&a->log), a);
	KUNIT_EXPECT_NULL(test, nslog_log_stream(&t->set.logs[NSLOG_LOG_MAIN]));
	KUNIT_EXPECT_EQ(test, a->size, 16384U);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->log.ring.size), 16384U);
	KUNIT_EXPECT_EQ(test, t->set.nr_streams, 2U);
	KUNIT_EXPECT_EQ(test, t->set.stream_bytes, 16384ULL + LOG_SIZE);
	KUNIT_EXPECT_EQ(test, t->owner_streams, 2U);
	KUNIT_EXPECT_EQ(test, t->owner_bytes, 16384LL + LOG_SIZE);

	f = nslog_stream_find(&t->set, "app");
	KUNIT_EXPECT_PTR_EQ(test, f, a);
	if (f)
		nslog_stream_put(f);
	KUNIT_EXPECT_NULL(test, nslog_stream_find(&t->set, "ap"));
	KUNIT_EXPECT_NULL(test, nslog_stream_find(&t->set, "main"));

	f = nslog_stream_next(&t->set, 0);
	KUNIT_EXPECT_PTR_EQ(test, f, a);
	if (f)
		nslog_stream_put(f);
	f = nslog_stream_next(&t->set, a->log_id + 1);
	KUNIT_EXPECT_PTR_EQ(test, f, b);
	if (f)
		nslog_stream_put(f);
	KUNIT_EXPECT_NULL(test, nslog_stream_next(&t->set, b->log_id + 1));

	nslog_stream_drop(test, a);
	nslog_stream_drop(test, b);
	KUNIT_EXPECT_EQ(test, t->set.nr_streams, 0U);
	KUNIT_EXPECT_EQ(test, t->set.stream_bytes, 0ULL);
}

struct nslog_stream_name_case {
	const char *name;
	bool ok;
};

static const struct nslog_stream_name_case nslog_stream_name_cases[] = {
	{ "a", true },
	{ "app.log_2-b", true },
	{ "0123456789012345678901234567890", true },	/* 31 */
	{ "01234567890123456789012345678901", false },	/* 32 */
	{ "", false },
	{ ".hidden", false },
	{ "-x", false },
	{ "a b", false },
	{ "a/b", false },
	{ "a\nb", false },
	{ "main", false },
	{ "events", false },
	{ "radio", false },
	{ "system", false },
	{ "mainx", true },
};

static void nslog_stream_name_desc(const struct nslog_stream_name_case *c,
				   char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\" %s", c->name,
		 c->ok ? "ok" : "refused");
}

KUNIT_ARRAY_PARAM(nslog_stream_name, nslog_stream_name_cases,
		  nslog_stream_name_desc);

/* Names: what may be one, and a refused one counts nothing. */
static void nslog_stream_test_names(struct kunit *test)
{
	const struct nslog_stream_name_case *c = test->param_value;
	struct nslog_stream_test *t = test->priv;
	struct nslog_stream *s;

	KUNIT_EXPECT_EQ(test, nslog_stream_name_ok(c->name), c->ok);
	s = nslog_stream_make(t, c->name, LOG_SIZE, NULL);
	if (c->ok) {
		KUNIT_ASSERT_FALSE(test, IS_ERR(s));
		nslog_stream_drop(test, s);
	} else {
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(s), -EINVAL);
		KUNIT_EXPECT_EQ(test, t->owner_streams, 0U);
	}
}

/* A second stream of one name is refused and counts nothing. */
static void nslog_stream_test_duplicate_eexist(struct kunit *test)
{
	struct nslog_stream_test *t = test->priv;
	struct nslog_stream *a, *b;

	a = nslog_stream_make(t, "x", LOG_SIZE, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = nslog_stream_make(t, "x", LOG_SIZE, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EEXIST);
	KUNIT_EXPECT_EQ(test, t->set.nr_streams, 1U);
	KUNIT_EXPECT_EQ(test, t->owner_streams, 1U);
	KUNIT_EXPECT_EQ(test, t->owner_bytes, (s64)LOG_SIZE);
	nslog_stream_drop(test, a);
	/* Removed, the name is free again. */
	b = nslog_stream_make(t, "x", LOG_SIZE, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_EQ(test, b->log_id, NSLOG_STREAM_LOG_ID_MIN + 1);
	nslog_stream_drop(test, b);
}

/* Sizes: below the ring's least, above the set's most, and rounding up. */
static void nslog_stream_test_size_limits(struct kunit *test)
{
	struct nslog_stream_test *t = test->priv;
	struct nslog_stream *s;

	s = nslog_stream_make(t, "s", LOG_SIZE - 1, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(s), -EINVAL);
	s = nslog_stream_make(t, "s", MAX_SIZE + 1, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(s), -EFBIG);
	/* The host lowers the set's limit: it holds for the next one. */
	t->max_size = 2 * LOG_SIZE;
	s = nslog_stream_make(t, "s", 2 * LOG_SIZE + 1, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(s), -EFBIG);
	KUNIT_EXPECT_EQ(test, t->owner_streams, 0U);
	s = nslog_stream_make(t, "s", 2 * LOG_SIZE, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_EQ(test, nslog_stream_resize(s, 4 * LOG_SIZE, NULL),
			-EFBIG);
	KUNIT_EXPECT_EQ(test, s->size, 2 * LOG_SIZE);
	nslog_stream_drop(test, s);
}

/*
 * A mount's limits count the set's streams, whoever made them, and a
 * removed stream that is still held counts until its last reference goes:
 * removing while holding gains nothing.
 */
static void nslog_stream_test_mount_limits_enospc(struct kunit *test)
{
	const struct nslog_stream_limits two = { .streams = 2, .bytes = 1 << 30 };
	const struct nslog_stream_limits small = {
		.streams = 100, .bytes = 3 * LOG_SIZE,
	};
	struct nslog_stream_test *t = test->priv;
	struct nslog_stream *a, *b, *c;

	a = nslog_stream_make(t, "a", LOG_SIZE, &two);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = nslog_stream_make(t, "b", LOG_SIZE, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	c = nslog_stream_make(t, "c", LOG_SIZE, &two);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(c), -ENOSPC);

	/* Removed but held: still counted. */
	KUNIT_EXPECT_EQ(test, nslog_stream_remove(b), 0);
	KUNIT_EXPECT_EQ(test, nslog_stream_remove(b), -ENOENT);
	c = nslog_stream_make(t, "c", LOG_SIZE, &two);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(c), -ENOSPC);
	nslog_stream_put(b);
	c = nslog_stream_make(t, "c", LOG_SIZE, &two);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));

	/* Bytes: 2 streams of LOG_SIZE, room for one more of it, not two. */
	b = nslog_stream_make(t, "b", 2 * LOG_SIZE, &small);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -ENOSPC);
	b = nslog_stream_make(t, "b", LOG_SIZE, &small);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_EQ(test, t->set.stream_bytes, 3ULL * LOG_SIZE);
	nslog_stream_drop(test, a);
	nslog_stream_drop(test, b);
	nslog_stream_drop(test, c);
}

/* The owner's limits: -EDQUOT, and nothing counted by the refusal. */
static void nslog_stream_test_owner_limits_edquot(struct kunit *test)
{
	struct nslog_stream_test *t = test->priv;
	struct nslog_stream *a, *b;

	t->owner_max_streams = 1;
	t->owner_max_bytes = 2 * LOG_SIZE;
	a = nslog_stream_make(t, "a", LOG_SIZE, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = nslog_stream_make(t, "b", LOG_SIZE, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EDQUOT);
	KUNIT_EXPECT_EQ(test, t->set.nr_streams, 1U);

	KUNIT_EXPECT_EQ(test, nslog_stream_resize(a, 4 * LOG_SIZE, NULL),
			-EDQUOT);
	KUNIT_EXPECT_EQ(test, a->size, LOG_SIZE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->log.ring.size), LOG_SIZE);
	KUNIT_EXPECT_EQ(test, nslog_stream_resize(a, 2 * LOG_SIZE, NULL), 0);
	KUNIT_EXPECT_EQ(test, t->owner_bytes, 2LL * LOG_SIZE);
	nslog_stream_drop(test, a);
	KUNIT_EXPECT_EQ(test, t->owner_streams, 0U);
	KUNIT_EXPECT_EQ(test, t->owner_bytes, 0LL);
}

/*
 * Resizing keeps the records that fit and moves the counts by the
 * difference; a refused resize changes nothing.
 */
static void nslog_stream_test_resize_counts(struct kunit *test)
{
	const struct nslog_stream_limits lim = {
		.streams = 100, .bytes = 4 * LOG_SIZE,
	};
	struct nslog_stream_test *t = test->priv;
	struct nslog_stream *s;
	int i;

	s = nslog_stream_make(t, "s", LOG_SIZE, &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	for (i = 0; i < 3; i++)
		nslog_stream_write(test, s);
	KUNIT_EXPECT_EQ(test, nslog_stream_resize(s, 8 * LOG_SIZE, &lim),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, s->size, LOG_SIZE);
	KUNIT_EXPECT_EQ(test, nslog_stream_resize(s, 3 * LOG_SIZE, &lim), 0);
	KUNIT_EXPECT_EQ(test, s->size, 4 * LOG_SIZE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->log.ring.size), 4 * LOG_SIZE);
	KUNIT_EXPECT_EQ(test, t->set.stream_bytes, 4ULL * LOG_SIZE);
	KUNIT_EXPECT_EQ(test, t->owner_bytes, 4LL * LOG_SIZE);
	KUNIT_EXPECT_EQ(test, nslog_stream_written(s), 3ULL);
	KUNIT_EXPECT_EQ(test, nslog_stream_resize(s, LOG_SIZE, &lim), 0);
	KUNIT_EXPECT_EQ(test, t->set.stream_bytes, (u64)LOG_SIZE);
	KUNIT_EXPECT_EQ(test, t->owner_bytes, (s64)LOG_SIZE);
	nslog_stream_drop(test, s);
}

/*
 * A removed stream is not found, its log is marked gone for its readers,
 * and it still takes writes while held, as an unlinked file does.
 */
static void nslog_stream_test_remove(struct kunit *test)
{
	struct nslog_stream_test *t = test->priv;
	struct nslog_stream *s;

	s = nslog_stream_make(t, "s", LOG_SIZE, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(s->log.gone));
	KUNIT_EXPECT_EQ(test, nslog_stream_remove(s), 0);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(s->log.gone));
	KUNIT_EXPECT_NULL(test, nslog_stream_find(&t->set, "s"));
	KUNIT_EXPECT_NULL(test, nslog_stream_next(&t->set, 0));
	nslog_stream_write(test, s);
	KUNIT_EXPECT_EQ(test, nslog_stream_written(s), 1ULL);
	KUNIT_EXPECT_EQ(test, t->owner_streams, 1U);
	nslog_stream_put(s);
	KUNIT_EXPECT_EQ(test, t->owner_streams, 0U);
}

/*
 * Streams still listed when the set goes are freed with it and give back
 * what they counted (checked by the exit).
 */
static void nslog_stream_test_set_frees_listed(struct kunit *test)
{
	struct nslog_stream_test *t = test->priv;
	struct nslog_stream *s;

	s = nslog_stream_make(t, "kept", LOG_SIZE, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	nslog_stream_write(test, s);
	/* Only the table's reference is left. */
	nslog_stream_put(s);
	KUNIT_EXPECT_EQ(test, t->owner_streams, 1U);
}

static struct kunit_case nslog_stream_test_cases[] = {
	KUNIT_CASE(nslog_stream_test_create_find_next),
	KUNIT_CASE_PARAM(nslog_stream_test_names, nslog_stream_name_gen_params),
	KUNIT_CASE(nslog_stream_test_duplicate_eexist),
	KUNIT_CASE(nslog_stream_test_size_limits),
	KUNIT_CASE(nslog_stream_test_mount_limits_enospc),
	KUNIT_CASE(nslog_stream_test_owner_limits_edquot),
	KUNIT_CASE(nslog_stream_test_resize_counts),
	KUNIT_CASE(nslog_stream_test_remove),
	KUNIT_CASE(nslog_stream_test_set_frees_listed),
	{}
};

static struct kunit_suite nslog_stream_test_suite = {
	.name = "nslog_stream",
	.init = nslog_stream_test_init,
	.exit = nslog_stream_test_exit,
	.test_cases = nslog_stream_test_cases,
};

kunit_test_suite(nslog_stream_test_suite);
