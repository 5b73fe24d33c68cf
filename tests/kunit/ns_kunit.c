// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the namespace registry (src/ns/registry.c), through the
 * API in src/ns/registry.h, on IPC namespaces the suite builds itself.
 *
 * Every case gets a registry of its own, and its namespaces are real
 * struct ipc_namespace objects (in struct nslog_ns_fake), with the fields
 * the registry uses: the reference count, which the registry takes and
 * reads, and operations whose put gives the registry's reference back, as
 * nsfs does.  @alive stands for "a task or an nsfs file keeps it alive":
 * while it is set the case holds one reference of its own, so the
 * registry's holds are the count less that one.  The clock is the case's
 * @now, handed to nslog_ns_reap(): no case sleeps.
 *
 * The suite keeps the rule the real holds give: a namespace the registry
 * holds is never freed, so its address and id are not reused while an
 * entry names it.  A case that "reuses" a key first checks that nothing
 * holds the old namespace any more, as the kernel would only then free
 * it.  The put checks that no lookup finds the entry by then.
 *
 * The suites build in linux-source-6.1 only, so the count is 6.1's
 * ns_common.count.
 *
 * Open files are references on sets, taken by nslog_ns_get() and given back
 * with nslog_logset_put().  Each case tracks them in @files, so the exit
 * closes what a failed case left open.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/ipc_namespace.h>
#include <linux/kernel.h>
#include <linux/proc_ns.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/uio.h>
#include <linux/user_namespace.h>

#include "logset.h"
#include "ns/registry.h"
#include "stream.h"

#define NS_SIZE		NSLOG_RING_MIN_SIZE
#define NR_FAKES	40
#define MAX_FILES	64
#define GRACE_MS	5000U
#define GRACE_NS	((u64)GRACE_MS * NSEC_PER_MSEC)
/* Some time after boot: the fake clock starts here. */
#define T0		(1000 * NSEC_PER_SEC)
#define ID_BASE		4026532000U
/* Host uids that made the fake containers' user namespaces. */
#define TENANT_A	1000U
#define TENANT_B	1001U

struct nslog_ns_fake {
	struct ipc_namespace ipc;
	bool alive;
	unsigned int id;
	struct user_namespace *owner;
	/* the host uid its set counts against; 0 with the host's owner */
	unsigned int tenant;
};

struct nslog_ns_test {
	struct kunit *test;
	struct nslog_ns_registry *reg;
	u64 now;
	unsigned int unholds;
	struct nslog_ns_fake ns[NR_FAKES];
	/* Owns the "container" namespaces; only its address matters. */
	struct user_namespace *userns;
	struct nslog_logset *files[MAX_FILES];
};

/* The put has no argument to find its case by: only one runs at a time. */
static struct nslog_ns_test *nslog_ns_cur;

static struct nslog_ns_owner nslog_ns_owner_uid(unsigned int uid)
{
	return (struct nslog_ns_owner){
		.kind = NSLOG_NS_OWNER_UID, .id = uid, .key = uid,
	};
}

static struct nslog_ns_key nslog_ns_key_of(struct nslog_ns_fake *f)
{
	struct nslog_ns_key key = {
		.ns = &f->ipc,
		.id = f->id,
		.user_ns = f->owner,
		.owner = { .kind = NSLOG_NS_OWNER_HOST },
	};

	if (f->owner != &init_user_ns)
		key.owner = nslog_ns_owner_uid(f->tenant);
	return key;
}

/*
 * Drop one reference on @f.  The last one frees nothing: the case owns the
 * object, and may bring it back as a new namespace at the same address.
 */
static void nslog_ns_ref_drop(struct nslog_ns_fake *f)
{
	if (!refcount_dec_not_one(&f->ipc.ns.count))
		refcount_set(&f->ipc.ns.count, 0);
}

/* The registry's holds on @f: its count, less the case's own reference. */
static unsigned int nslog_ns_holds(struct nslog_ns_fake *f)
{
	return refcount_read(&f->ipc.ns.count) - f->alive;
}

/*
 * A task or an nsfs file starts or stops keeping @f alive: the case takes
 * or drops a reference of its own.  A namespace nothing held any more
 * (count 0) comes back as a new one at the same address.
 */
static void nslog_ns_set_alive(struct nslog_ns_fake *f, bool alive)
{
	if (alive == f->alive)
		return;
	f->alive = alive;
	if (!alive)
		nslog_ns_ref_drop(f);
	else if (!refcount_inc_not_zero(&f->ipc.ns.count))
		refcount_set(&f->ipc.ns.count, 1);
}

/*
 * The namespace's put operation, which the registry calls to give its hold
 * back (nsfs calls it when an inode goes).  Once it is given back the
 * namespace may be freed and its address reused: no lookup may find the
 * entry any more.
 */
static void nslog_ns_fake_put(struct ns_common *ns)
{
	struct nslog_ns_test *t = nslog_ns_cur;
	struct nslog_ns_fake *f = container_of(ns, struct nslog_ns_fake, ipc.ns);
	struct nslog_ns_key key = nslog_ns_key_of(f);
	struct nslog_logset *set;

	set = nslog_ns_get(t->reg, &key, false);
	KUNIT_EXPECT_EQ(t->test, PTR_ERR_OR_ZERO(set), -ENOENT);
	if (!IS_ERR(set))
		nslog_logset_put(set);

	KUNIT_EXPECT_GT(t->test, nslog_ns_holds(f), 0U);
	nslog_ns_ref_drop(f);
	t->unholds++;
}

static const struct proc_ns_operations nslog_ns_fake_ops = {
	.name	= "ipc",
	.type	= CLONE_NEWIPC,
	.put	= nslog_ns_fake_put,
};

static int nslog_ns_test_init(struct kunit *test)
{
	struct nslog_ns_test *t;
	int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->reg = kunit_kzalloc(test, sizeof(*t->reg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->reg);
	t->userns = kunit_kzalloc(test, sizeof(*t->userns), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->userns);
	/* Ours: the sets' references never free it. */
	refcount_set(&t->userns->ns.count, 1);

	t->test = test;
	t->now = T0;
	for (i = 0; i < NR_FAKES; i++) {
		t->ns[i].ipc.ns.ops = &nslog_ns_fake_ops;
		t->ns[i].ipc.ns.inum = ID_BASE + i;
		t->ns[i].ipc.user_ns = t->userns;
		/* Alive: the case's own reference, the only one. */
		nslog_ns_set_alive(&t->ns[i], true);
		t->ns[i].id = ID_BASE + i;
		t->ns[i].owner = t->userns;
		t->ns[i].tenant = TENANT_A;
	}
	t->reg->max = 16;
	t->reg->reserve = 4;
	t->reg->per_owner = 100;
	t->reg->size = NS_SIZE;
	t->reg->max_size = NS_SIZE;
	t->reg->grace_ms = GRACE_MS;
	nslog_ns_registry_init(t->reg);
	nslog_ns_cur = t;
	test->priv = t;
	return 0;
}

static void nslog_ns_test_exit(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	int i;

	if (!t)
		return;
	nslog_ns_registry_destroy(t->reg);
	for (i = 0; i < MAX_FILES; i++)
		if (t->files[i])
			nslog_logset_put(t->files[i]);
	nslog_ns_cur = NULL;
}

/* Remember a reference the case holds, as an open file would. */
static struct nslog_logset *nslog_ns_keep(struct nslog_ns_test *t,
					  struct nslog_logset *set)
{
	int i;

	if (IS_ERR(set))
		return set;
	for (i = 0; i < MAX_FILES; i++) {
		if (!t->files[i]) {
			t->files[i] = set;
			return set;
		}
	}
	KUNIT_FAIL(t->test, "more than %d open files", MAX_FILES);
	nslog_logset_put(set);
	return ERR_PTR(-EMFILE);
}

/* Open: nslog_ns_get() with @create, the reference kept. */
static struct nslog_logset *nslog_ns_open(struct nslog_ns_test *t,
					  struct nslog_ns_fake *f, bool create)
{
	struct nslog_ns_key key = nslog_ns_key_of(f);

	return nslog_ns_keep(t, nslog_ns_get(t->reg, &key, create));
}

static struct nslog_logset *nslog_ns_open_id(struct nslog_ns_test *t,
					     unsigned int id)
{
	return nslog_ns_keep(t, nslog_ns_find_id(t->reg, id));
}

/* Close one reference on @set that the case holds. */
static void nslog_ns_close(struct nslog_ns_test *t, struct nslog_logset *set)
{
	int i;

	for (i = 0; i < MAX_FILES; i++) {
		if (t->files[i] == set) {
			t->files[i] = NULL;
			nslog_logset_put(set);
			return;
		}
	}
	KUNIT_FAIL(t->test, "closing a set that is not open");
}

static void nslog_ns_close_all(struct nslog_ns_test *t)
{
	int i;

	for (i = 0; i < MAX_FILES; i++) {
		if (t->files[i]) {
			nslog_logset_put(t->files[i]);
			t->files[i] = NULL;
		}
	}
}

/* Whether nslog_ns_get() without create finds a set for @f. */
static bool nslog_ns_has_set(struct nslog_ns_test *t, struct nslog_ns_fake *f)
{
	struct nslog_ns_key key = nslog_ns_key_of(f);
	struct nslog_logset *set = nslog_ns_get(t->reg, &key, false);

	if (IS_ERR(set))
		return false;
	nslog_logset_put(set);
	return true;
}

/*
 * A reaping pass, after an RCU grace period: the reaper removes an entry
 * only if a grace period separates the reading that first saw it dead from
 * a later one (as the delayed work's passes always are in practice).
 */
static unsigned int nslog_ns_pass(struct nslog_ns_test *t)
{
	synchronize_rcu();
	return nslog_ns_reap(t->reg, t->now);
}

static u64 nslog_ns_written(struct nslog_logset *set)
{
	struct nslog_ring_stats st;

	nslog_ring_stats(&set->logs[NSLOG_LOG_MAIN].ring, &st);
	return st.written;
}

static void nslog_ns_write(struct kunit *test, struct nslog_logset *set)
{
	static const char msg[] = "\4tag\0hello";
	struct kvec kv = { .iov_base = (void *)msg, .iov_len = sizeof(msg) };
	struct iov_iter from;

	iov_iter_kvec(&from, ITER_SOURCE, &kv, 1, sizeof(msg));
	KUNIT_ASSERT_EQ(test, nslog_log_write(&set->logs[NSLOG_LOG_MAIN], &from,
					      sizeof(msg)),
			(ssize_t)sizeof(msg));
}

/*
 * The first lookup of a namespace makes its set (holding the namespace
 * once); later lookups return the same set, each with a reference of its
 * own, and take no further hold.
 */
static void nslog_ns_test_first_get_creates_second_returns_same(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_fake *a = &t->ns[0];
	struct nslog_logset *s1, *s2;
	int i;

	s1 = nslog_ns_open(t, a, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s1));
	KUNIT_EXPECT_EQ(test, t->reg->count, 1U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 1U);
	/* The registry's reference and ours. */
	KUNIT_EXPECT_EQ(test, refcount_read(&s1->ref), 2U);
	/* A new set: empty logs of the registry's size, no storage yet. */
	for (i = 0; i < NSLOG_NR_LOGS; i++) {
		struct nslog_ring_stats st;

		nslog_ring_stats(&s1->logs[i].ring, &st);
		KUNIT_EXPECT_EQ(test, st.size, NS_SIZE);
		KUNIT_EXPECT_FALSE(test, st.allocated);
		KUNIT_EXPECT_EQ(test, st.written, 0ULL);
	}

	s2 = nslog_ns_open(t, a, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s2));
	KUNIT_EXPECT_PTR_EQ(test, s2, s1);
	KUNIT_EXPECT_EQ(test, t->reg->count, 1U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 1U);
	KUNIT_EXPECT_EQ(test, refcount_read(&s1->ref), 3U);

	/* Without create it is found too. */
	KUNIT_EXPECT_TRUE(test, nslog_ns_has_set(t, a));
	KUNIT_EXPECT_EQ(test, refcount_read(&s1->ref), 3U);

	nslog_ns_close(t, s2);
	nslog_ns_close(t, s1);
	KUNIT_EXPECT_EQ(test, refcount_read(&s1->ref), 1U);
	KUNIT_EXPECT_EQ(test, t->reg->count, 1U);
}

/* Without create, an unknown namespace is -ENOENT and nothing is made. */
static void nslog_ns_test_get_without_create_is_enoent(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_fake *a = &t->ns[0];
	struct nslog_logset *set;

	set = nslog_ns_open(t, a, false);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(set), -ENOENT);
	KUNIT_EXPECT_EQ(test, t->reg->count, 0U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 0U);
	set = nslog_ns_open_id(t, a->id);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(set), -ENOENT);
}

/*
 * Distinct namespaces get distinct sets, each found again by its namespace
 * and by its id, and a record in one is in no other.
 */
static void nslog_ns_test_distinct_ns_get_distinct_sets(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_logset *sets[NR_FAKES];
	int i, j;

	t->reg->max = NR_FAKES;
	t->reg->reserve = 0;
	for (i = 0; i < NR_FAKES; i++) {
		sets[i] = nslog_ns_open(t, &t->ns[i], true);
		KUNIT_ASSERT_FALSE(test, IS_ERR(sets[i]));
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_PTR_NE(test, sets[i], sets[j]);
	}
	KUNIT_EXPECT_EQ(test, t->reg->count, (unsigned int)NR_FAKES);
	nslog_ns_write(test, sets[7]);

	for (i = 0; i < NR_FAKES; i++) {
		struct nslog_logset *again = nslog_ns_open(t, &t->ns[i], true);
		struct nslog_logset *by_id = nslog_ns_open_id(t, t->ns[i].id);

		KUNIT_EXPECT_PTR_EQ(test, again, sets[i]);
		KUNIT_EXPECT_PTR_EQ(test, by_id, sets[i]);
		KUNIT_EXPECT_EQ(test, nslog_ns_holds(&t->ns[i]), 1U);
		KUNIT_EXPECT_EQ(test, nslog_ns_written(sets[i]),
				i == 7 ? 1ULL : 0ULL);
		nslog_ns_close_all(t);
	}
}

/* A namespace something keeps alive is never reaped, however long. */
static void nslog_ns_test_live_ns_is_never_reaped(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;

	KUNIT_ASSERT_FALSE(test, IS_ERR(nslog_ns_open(t, &t->ns[0], true)));
	nslog_ns_close_all(t);

	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += 100ULL * 365 * 24 * 3600 * NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	KUNIT_EXPECT_EQ(test, t->reg->count, 1U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(&t->ns[0]), 1U);
	KUNIT_EXPECT_TRUE(test, nslog_ns_has_set(t, &t->ns[0]));
}

static const unsigned int nslog_ns_graces[] = { 0, 1, GRACE_MS, 600000 };

static void nslog_ns_grace_desc(const unsigned int *ms, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "grace %u ms", *ms);
}

KUNIT_ARRAY_PARAM(nslog_ns_grace, nslog_ns_graces, nslog_ns_grace_desc);

/*
 * A dead namespace's entry stays through the grace period, counted from
 * the first pass that saw it dead, and goes at the first later pass after
 * it (with no grace, the very next pass); the hold is given back with it.
 */
static void nslog_ns_test_dead_ns_reaped_only_after_grace(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	const unsigned int *ms = test->param_value;
	u64 grace = (u64)*ms * NSEC_PER_MSEC;
	struct nslog_ns_fake *a = &t->ns[0];
	u64 dead_at;

	t->reg->grace_ms = *ms;
	KUNIT_ASSERT_FALSE(test, IS_ERR(nslog_ns_open(t, a, true)));
	nslog_ns_close_all(t);

	nslog_ns_set_alive(a, false);
	/*
	 * The pass that first sees it dead keeps it, whatever the grace; so
	 * do later passes before the grace period ends, however many.
	 */
	t->now += NSEC_PER_SEC;
	dead_at = t->now;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 1U);
	if (grace) {
		t->now = dead_at + grace / 2;
		KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
		t->now = dead_at + grace - 1;
		KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
		KUNIT_EXPECT_EQ(test, t->reg->count, 1U);
		KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 1U);
		KUNIT_EXPECT_TRUE(test, nslog_ns_has_set(t, a));
		t->now = dead_at + grace;
	}
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 1U);
	KUNIT_EXPECT_EQ(test, t->reg->count, 0U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 0U);
	KUNIT_EXPECT_EQ(test, t->unholds, 1U);
	KUNIT_EXPECT_FALSE(test, nslog_ns_has_set(t, a));
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
}

/*
 * A namespace seen alive again (the fakes allow it; the real ones cannot
 * come back) starts its grace period over when it dies again.
 */
static void nslog_ns_test_alive_again_restarts_grace(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_fake *a = &t->ns[0];

	KUNIT_ASSERT_FALSE(test, IS_ERR(nslog_ns_open(t, a, true)));
	nslog_ns_close_all(t);

	nslog_ns_set_alive(a, false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += GRACE_NS / 2;
	nslog_ns_set_alive(a, true);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += GRACE_NS / 2;
	nslog_ns_set_alive(a, false);
	/* A grace period after the first death, but dead only since now. */
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += GRACE_NS - 1;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += 1;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 1U);
}

/*
 * Regression: the clock may read 0 (it is any monotonic clock).  The first
 * pass that sees the namespace dead then must not reap it at once: the
 * entry used to record 1 for "dead since 0", and 0 - 1 wrapped to more
 * than any grace period.
 */
static void nslog_ns_test_dead_at_clock_zero_waits_grace(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_fake *a = &t->ns[0];

	t->now = 0;
	KUNIT_ASSERT_FALSE(test, IS_ERR(nslog_ns_open(t, a, true)));
	nslog_ns_close_all(t);

	nslog_ns_set_alive(a, false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	KUNIT_EXPECT_EQ(test, t->reg->count, 1U);
	t->now = GRACE_NS / 2;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now = GRACE_NS + 1;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 1U);
}

/* A pass reaps exactly the dead entries whose grace period is over. */
static void nslog_ns_test_reap_takes_only_expired_dead(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	int i;

	for (i = 0; i < 6; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR(nslog_ns_open(t, &t->ns[i], true)));
	nslog_ns_close_all(t);

	/* 0, 1: dead early; 2: dead later; 3, 4, 5: alive. */
	nslog_ns_set_alive(&t->ns[0], false);
	nslog_ns_set_alive(&t->ns[1], false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += GRACE_NS / 2;
	nslog_ns_set_alive(&t->ns[2], false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += GRACE_NS / 2;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 2U);
	KUNIT_EXPECT_EQ(test, t->reg->count, 4U);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, nslog_ns_has_set(t, &t->ns[i]), i >= 2);
	t->now += GRACE_NS / 2;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 1U);
	KUNIT_EXPECT_EQ(test, t->reg->count, 3U);
}

/*
 * A collector finds a dead namespace's set by its id, records and all,
 * until the grace period is over; after that the id finds nothing.
 */
static void nslog_ns_test_dead_set_found_by_id_during_grace(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_fake *a = &t->ns[0];
	struct nslog_logset *set, *found;

	set = nslog_ns_open(t, a, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	nslog_ns_write(test, set);
	nslog_ns_close(t, set);

	nslog_ns_set_alive(a, false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += GRACE_NS - 1;
	found = nslog_ns_open_id(t, a->id);
	KUNIT_ASSERT_FALSE(test, IS_ERR(found));
	KUNIT_EXPECT_PTR_EQ(test, found, set);
	KUNIT_EXPECT_EQ(test, nslog_ns_written(found), 1ULL);
	nslog_ns_close(t, found);

	t->now += 1;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 1U);
	found = nslog_ns_open_id(t, a->id);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(found), -ENOENT);
}

/*
 * A stale key: a new namespace at the old one's address, with its inode
 * number, after the old one died.  The registry holds the old namespace
 * until its entry is unhashed, so the reuse can only come after that; the
 * new namespace then gets a new, empty set, by key and by id, while a file
 * still open on the old set keeps the old records to itself.
 */
static void nslog_ns_test_reused_key_never_gets_old_set(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_fake *a = &t->ns[0];
	struct nslog_logset *old, *new, *by_id;

	old = nslog_ns_open(t, a, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(old));
	nslog_ns_write(test, old);

	nslog_ns_set_alive(a, false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	/* Through the grace period the namespace cannot be freed. */
	t->now += GRACE_NS - 1;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 1U);
	t->now += 1;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 1U);

	/* Now the kernel may free it and make a new namespace in its place. */
	KUNIT_ASSERT_EQ(test, nslog_ns_holds(a), 0U);
	nslog_ns_set_alive(a, true);

	new = nslog_ns_open(t, a, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(new));
	KUNIT_EXPECT_PTR_NE(test, new, old);
	KUNIT_EXPECT_EQ(test, nslog_ns_written(new), 0ULL);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 1U);
	by_id = nslog_ns_open_id(t, a->id);
	KUNIT_EXPECT_PTR_EQ(test, by_id, new);

	/* The old set is still the old file's, with its record. */
	KUNIT_EXPECT_EQ(test, refcount_read(&old->ref), 1U);
	KUNIT_EXPECT_EQ(test, nslog_ns_written(old), 1ULL);
	nslog_ns_write(test, new);
	KUNIT_EXPECT_EQ(test, nslog_ns_written(old), 1ULL);
	KUNIT_EXPECT_EQ(test, nslog_ns_written(new), 1ULL);
}

/*
 * A file open on a set keeps the set when its entry is reaped: the entry
 * goes (and with it the hold and the registry's reference), the set stays
 * usable until the file closes.  An open file does not delay reaping.
 */
static void nslog_ns_test_open_file_keeps_set_after_reap(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_fake *a = &t->ns[0];
	struct nslog_logset *set;

	set = nslog_ns_open(t, a, true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	nslog_ns_write(test, set);
	KUNIT_EXPECT_EQ(test, refcount_read(&set->ref), 2U);

	nslog_ns_set_alive(a, false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += GRACE_NS;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 1U);
	KUNIT_EXPECT_EQ(test, t->reg->hashed, 0U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 0U);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(nslog_ns_open_id(t, a->id)),
			-ENOENT);

	/* Only the file's reference is left, and the set still works. */
	KUNIT_EXPECT_EQ(test, refcount_read(&set->ref), 1U);
	KUNIT_EXPECT_EQ(test, nslog_ns_written(set), 1ULL);
	nslog_ns_write(test, set);
	KUNIT_EXPECT_EQ(test, nslog_ns_written(set), 2ULL);
	/* It still counts, until the last close frees it (KASAN would see
	 * any use after).
	 */
	KUNIT_EXPECT_EQ(test, t->reg->count, 1U);
	nslog_ns_close(t, set);
	KUNIT_EXPECT_EQ(test, t->reg->count, 0U);
}

struct nslog_ns_cap_case {
	const char *name;
	unsigned int max;
	unsigned int reserve;
	unsigned int containers;	/* sets the container owner gets */
	unsigned int total;		/* with the host's too */
};

static const struct nslog_ns_cap_case nslog_ns_cap_cases[] = {
	{ "no reserve",		 8, 0, 8, 8 },
	{ "reserve 2 of 6",	 6, 2, 4, 6 },
	{ "reserve 1 of 1",	 1, 1, 0, 1 },
	{ "reserve above max",	 3, 10, 0, 3 },
	{ "max 0",		 0, 0, 0, 0 },
	{ "max 0, reserve 5",	 0, 5, 0, 0 },
};

static void nslog_ns_cap_desc(const struct nslog_ns_cap_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(nslog_ns_cap, nslog_ns_cap_cases, nslog_ns_cap_desc);

/*
 * At most max_namespaces sets; the last ns_reserve of them only for
 * namespaces owned by the initial user namespace.  A refusal is -ENOSPC,
 * gives back the hold it took and keeps nothing; namespaces that have a set still find
 * it when the registry is full.
 */
static void nslog_ns_test_cap_and_reserve(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	const struct nslog_ns_cap_case *c = test->param_value;
	struct nslog_ns_fake *made = NULL;
	struct nslog_logset *set;
	unsigned int i = 0, n;

	KUNIT_ASSERT_LT(test, c->total + 2, (unsigned int)NR_FAKES);
	t->reg->max = c->max;
	t->reg->reserve = c->reserve;

	/* Containers first, until refused. */
	for (n = 0; n <= c->max; n++, i++) {
		set = nslog_ns_open(t, &t->ns[i], true);
		if (IS_ERR(set))
			break;
		made = &t->ns[i];
	}
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(set), -ENOSPC);
	KUNIT_EXPECT_EQ(test, n, c->containers);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(&t->ns[i]), 0U);
	KUNIT_EXPECT_EQ(test, t->reg->count, c->containers);
	i++;

	/* Then the host's, into the reserve, until refused. */
	for (n = 0; n <= c->max; n++, i++) {
		t->ns[i].owner = &init_user_ns;
		set = nslog_ns_open(t, &t->ns[i], true);
		if (IS_ERR(set))
			break;
		made = &t->ns[i];
	}
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(set), -ENOSPC);
	KUNIT_EXPECT_EQ(test, c->containers + n, c->total);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(&t->ns[i]), 0U);
	KUNIT_EXPECT_EQ(test, t->reg->count, c->total);
	/* Each refusal gave back the hold it took before it was refused. */
	KUNIT_EXPECT_EQ(test, t->unholds, 2U);

	/* Full: nothing new, whoever owns it; the existing ones still work. */
	set = nslog_ns_open(t, &t->ns[NR_FAKES - 1], true);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(set), -ENOSPC);
	if (made) {
		set = nslog_ns_open(t, made, true);
		KUNIT_EXPECT_FALSE(test, IS_ERR(set));
	}
	KUNIT_EXPECT_EQ(test, t->reg->count, c->total);
}

/*
 * Reaping frees a slot: a full registry takes a new namespace once a dead
 * one's entry is gone, and not before (its grace period counts against
 * the cap).
 */
static void nslog_ns_test_reap_frees_slot_for_new_ns(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_fake *c = &t->ns[3];
	int i;

	t->reg->max = 3;
	t->reg->reserve = 0;
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR(nslog_ns_open(t, &t->ns[i], true)));
	nslog_ns_close_all(t);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(nslog_ns_open(t, c, true)),
			-ENOSPC);

	nslog_ns_set_alive(&t->ns[1], false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(nslog_ns_open(t, c, true)),
			-ENOSPC);
	t->now += GRACE_NS;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 1U);
	KUNIT_EXPECT_FALSE(test, IS_ERR(nslog_ns_open(t, c, true)));
	KUNIT_EXPECT_EQ(test, t->reg->count, 3U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(c), 1U);
}

/*
 * Destroying the registry removes every entry, alive or not, and gives
 * every hold back; sets still open stay with their files.
 */
static void nslog_ns_test_destroy_drops_every_entry(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_logset *kept;
	int i;

	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR(nslog_ns_open(t, &t->ns[i], true)));
	nslog_ns_close_all(t);
	kept = nslog_ns_open(t, &t->ns[2], false);
	KUNIT_ASSERT_FALSE(test, IS_ERR(kept));
	nslog_ns_set_alive(&t->ns[4], false);

	nslog_ns_registry_destroy(t->reg);
	KUNIT_EXPECT_EQ(test, t->reg->hashed, 0U);
	KUNIT_EXPECT_EQ(test, t->reg->count, 1U);
	KUNIT_EXPECT_EQ(test, t->unholds, 5U);
	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_EQ(test, nslog_ns_holds(&t->ns[i]), 0U);
		KUNIT_EXPECT_FALSE(test, nslog_ns_has_set(t, &t->ns[i]));
	}
	KUNIT_EXPECT_EQ(test, refcount_read(&kept->ref), 1U);
	nslog_ns_close(t, kept);
	KUNIT_EXPECT_EQ(test, t->reg->count, 0U);
}

/*
 * One reading never reaps: with no grace at all, the pass that first sees
 * a namespace dead keeps it, and a namespace seen alive by the next pass
 * (a reading taken while a task joined it) starts over.
 */
static void nslog_ns_test_one_dead_reading_never_reaps(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_fake *a = &t->ns[0];

	t->reg->grace_ms = 0;
	KUNIT_ASSERT_FALSE(test, IS_ERR(nslog_ns_open(t, a, true)));
	nslog_ns_close_all(t);

	nslog_ns_set_alive(a, false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	nslog_ns_set_alive(a, true);
	t->now += NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	nslog_ns_set_alive(a, false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 1U);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 1U);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(a), 0U);
}

/*
 * An owner at its quota gets -ENOSPC and keeps what it has; another owner
 * and the host still get theirs, and the refusal takes no hold and leaves
 * no owner record behind.
 */
static void nslog_ns_test_owner_quota_leaves_others_room(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_owner a = nslog_ns_owner_uid(TENANT_A);
	struct nslog_ns_owner b = nslog_ns_owner_uid(TENANT_B);
	int i;

	t->reg->max = 20;
	t->reg->reserve = 4;
	t->reg->per_owner = 5;
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR(nslog_ns_open(t, &t->ns[i], true)));
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(nslog_ns_open(t, &t->ns[5], true)),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, nslog_ns_holds(&t->ns[5]), 0U);
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &a), 5U);

	/* Another owner has its own five. */
	for (i = 6; i < 12; i++)
		t->ns[i].tenant = TENANT_B;
	for (i = 6; i < 11; i++)
		KUNIT_EXPECT_FALSE(test, IS_ERR(nslog_ns_open(t, &t->ns[i], true)));
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(nslog_ns_open(t, &t->ns[11], true)),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &b), 5U);

	/* The host has no quota. */
	for (i = 12; i < 20; i++) {
		t->ns[i].owner = &init_user_ns;
		KUNIT_EXPECT_FALSE(test, IS_ERR(nslog_ns_open(t, &t->ns[i], true)));
	}
	KUNIT_EXPECT_EQ(test, t->reg->count, 18U);

	/* Existing sets are found at the quota; lowering it keeps them. */
	KUNIT_EXPECT_FALSE(test, IS_ERR(nslog_ns_open(t, &t->ns[0], false)));
	t->reg->per_owner = 1;
	KUNIT_EXPECT_TRUE(test, nslog_ns_has_set(t, &t->ns[4]));
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &a), 5U);
}

/*
 * A set's streams (src/stream.c) count against its owner across all its
 * sets: -EDQUOT at the owner's limits on number and bytes, another owner
 * and the host unaffected, and the charge given back when the set goes.
 */
static void nslog_ns_test_owner_streams_edquot(struct kunit *test)
{
	const struct nslog_stream_limits lim = { .streams = 100, .bytes = 1 << 30 };
	struct nslog_ns_test *t = test->priv;
	struct nslog_logset *a1, *a2, *b, *host;
	struct nslog_stream *s[4], *no;

	t->reg->owner_streams = 2;
	t->reg->owner_stream_bytes = 3 * NS_SIZE;
	t->ns[2].tenant = TENANT_B;
	t->ns[3].owner = &init_user_ns;
	a1 = nslog_ns_open(t, &t->ns[0], true);
	a2 = nslog_ns_open(t, &t->ns[1], true);
	b = nslog_ns_open(t, &t->ns[2], true);
	host = nslog_ns_open(t, &t->ns[3], true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a1) || IS_ERR(a2) || IS_ERR(b) ||
			   IS_ERR(host));

	s[0] = nslog_stream_create(a1, "x", NS_SIZE, &lim, GLOBAL_ROOT_UID,
				   GLOBAL_ROOT_GID, 0600);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s[0]));
	s[1] = nslog_stream_create(a2, "x", NS_SIZE, &lim, GLOBAL_ROOT_UID,
				   GLOBAL_ROOT_GID, 0600);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s[1]));
	/* Two streams in two sets: the owner's number is reached. */
	no = nslog_stream_create(a1, "y", NS_SIZE, &lim, GLOBAL_ROOT_UID,
				 GLOBAL_ROOT_GID, 0600);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(no), -EDQUOT);
	/* Its bytes: 2 of 3 taken, doubling one is refused. */
	KUNIT_EXPECT_EQ(test, nslog_stream_resize(s[0], 2 * NS_SIZE, &lim),
			-EFBIG);
	t->reg->max_size = 4 * NS_SIZE;
	KUNIT_EXPECT_EQ(test, nslog_stream_resize(s[0], 4 * NS_SIZE, &lim),
			-EDQUOT);
	KUNIT_EXPECT_EQ(test, nslog_stream_resize(s[0], 2 * NS_SIZE, &lim), 0);

	/* Another owner and the host are not held by it. */
	s[2] = nslog_stream_create(b, "x", NS_SIZE, &lim, GLOBAL_ROOT_UID,
				   GLOBAL_ROOT_GID, 0600);
	KUNIT_EXPECT_FALSE(test, IS_ERR(s[2]));
	s[3] = nslog_stream_create(host, "x", 4 * NS_SIZE, &lim,
				   GLOBAL_ROOT_UID, GLOBAL_ROOT_GID, 0600);
	KUNIT_EXPECT_FALSE(test, IS_ERR(s[3]));
	if (!IS_ERR(s[2]))
		nslog_stream_put(s[2]);
	if (!IS_ERR(s[3]))
		nslog_stream_put(s[3]);

	/* The second set goes, with its stream listed: room again. */
	nslog_stream_put(s[1]);
	nslog_ns_close(t, a2);
	nslog_ns_set_alive(&t->ns[1], false);
	t->reg->grace_ms = 0;
	t->now += 1;
	nslog_ns_pass(t);
	nslog_ns_pass(t);
	KUNIT_EXPECT_FALSE(test, nslog_ns_has_set(t, &t->ns[1]));
	no = nslog_stream_create(a1, "y", NS_SIZE, &lim, GLOBAL_ROOT_UID,
				 GLOBAL_ROOT_GID, 0600);
	KUNIT_EXPECT_FALSE(test, IS_ERR(no));
	if (!IS_ERR(no))
		nslog_stream_put(no);
	nslog_stream_put(s[0]);
}

/*
 * A set reaped while a file holds it still counts, against the registry's
 * cap and its owner's quota, until the last file closes: a loop of new
 * namespaces that keeps one file per set cannot go past the quota.
 */
static void nslog_ns_test_orphan_counts_until_last_close(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_owner a = nslog_ns_owner_uid(TENANT_A);
	struct nslog_logset *set;
	int i;

	t->reg->per_owner = 3;
	t->reg->grace_ms = 0;
	for (i = 0; i < 6; i++) {
		set = nslog_ns_open(t, &t->ns[i], true);
		if (IS_ERR(set))
			break;
		/* The namespace dies at once; the file stays open. */
		nslog_ns_set_alive(&t->ns[i], false);
		nslog_ns_pass(t);
		nslog_ns_pass(t);
	}
	KUNIT_EXPECT_EQ(test, i, 3);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(set), -ENOSPC);
	KUNIT_EXPECT_EQ(test, t->reg->hashed, 0U);
	KUNIT_EXPECT_EQ(test, t->reg->count, 3U);
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &a), 3U);
	/* Three reaped, and the refused one's hold given back. */
	KUNIT_EXPECT_EQ(test, t->unholds, 4U);

	/* Closing one orphan gives its slot back. */
	nslog_ns_close(t, t->files[1]);
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &a), 2U);
	KUNIT_EXPECT_FALSE(test, IS_ERR(nslog_ns_open(t, &t->ns[3], true)));
	KUNIT_EXPECT_EQ(test, t->reg->count, 3U);
}

/*
 * An owner's count goes down with each of its sets' last reference, in
 * whatever order they go (reaped then closed, closed then reaped, or at
 * destroy), and its record goes with its last set.
 */
static void nslog_ns_test_owner_released_in_any_order(struct kunit *test)
{
	struct nslog_ns_test *t = test->priv;
	struct nslog_ns_owner a = nslog_ns_owner_uid(TENANT_A);
	struct nslog_logset *s0, *s1, *s2;

	s0 = nslog_ns_open(t, &t->ns[0], true);
	s1 = nslog_ns_open(t, &t->ns[1], true);
	s2 = nslog_ns_open(t, &t->ns[2], true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s0) || IS_ERR(s1) || IS_ERR(s2));
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &a), 3U);

	/* 1: closed, then reaped; 0: reaped while open, then closed. */
	nslog_ns_close(t, s1);
	nslog_ns_set_alive(&t->ns[1], false);
	nslog_ns_set_alive(&t->ns[0], false);
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 0U);
	t->now += GRACE_NS;
	KUNIT_EXPECT_EQ(test, nslog_ns_pass(t), 2U);
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &a), 2U);
	nslog_ns_close(t, s0);
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &a), 1U);

	/* 2: still open at destroy; counted until its file closes. */
	nslog_ns_registry_destroy(t->reg);
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &a), 1U);
	nslog_ns_close(t, s2);
	KUNIT_EXPECT_EQ(test, nslog_ns_owner_sets(t->reg, &a), 0U);
	KUNIT_EXPECT_TRUE(test, hash_empty(t->reg->owners));
	KUNIT_EXPECT_EQ(test, t->reg->count, 0U);
}

/*
 * Who owns a namespace: a chain of fake user namespaces below the initial
 * one, each with the host uid that made it.  @chain[0] is made from the
 * initial namespace, each next one inside the one before; the set's
 * namespace is owned by the last.
 */
struct nslog_ns_owner_case {
	const char *name;
	unsigned int depth;
	unsigned int makers[4];		/* host uid that made each level */
	enum nslog_ns_owner_kind kind;
	unsigned int uid;		/* for NSLOG_NS_OWNER_UID */
};

static const struct nslog_ns_owner_case nslog_ns_owner_cases[] = {
	{ "the host", 0, { }, NSLOG_NS_OWNER_HOST, 0 },
	{ "made by uid 1000", 1, { 1000 }, NSLOG_NS_OWNER_UID, 1000 },
	{ "nested by the same uid", 3, { 1000, 1000, 1000 },
	  NSLOG_NS_OWNER_UID, 1000 },
	{ "nested by another uid inside", 3, { 1000, 100000, 100001 },
	  NSLOG_NS_OWNER_UID, 1000 },
	{ "made by root", 1, { 0 }, NSLOG_NS_OWNER_USERNS, 0 },
	{ "nested inside one made by root", 3, { 0, 100000, 0 },
	  NSLOG_NS_OWNER_USERNS, 0 },
};

static void nslog_ns_owner_desc(const struct nslog_ns_owner_case *c,
				char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(nslog_ns_owner, nslog_ns_owner_cases, nslog_ns_owner_desc);

/* A chain as @c says, in @chain; returns the last (or the initial one). */
static struct user_namespace *
nslog_ns_fake_chain(struct kunit *test, const struct nslog_ns_owner_case *c,
		    unsigned int inum_base, struct user_namespace **chain)
{
	struct user_namespace *parent = &init_user_ns;
	unsigned int i;

	for (i = 0; i < c->depth; i++) {
		chain[i] = kunit_kzalloc(test, sizeof(*chain[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, chain[i]);
		chain[i]->parent = parent;
		chain[i]->level = parent->level + 1;
		chain[i]->owner = KUIDT_INIT(c->makers[i]);
		chain[i]->ns.inum = inum_base + i;
		parent = chain[i];
	}
	return parent;
}

/*
 * The owner is the top of the chain: the host uid that made the first user
 * namespace below the initial one, whatever uids made the ones inside it;
 * or that user namespace itself when the host's root made it, so that two
 * of root's containers are two owners.
 */
static void nslog_ns_test_owner_is_top_of_user_ns_chain(struct kunit *test)
{
	const struct nslog_ns_owner_case *c = test->param_value;
	struct user_namespace *chain[4], *other[4];
	struct nslog_ns_owner o, o2;

	nslog_ns_owner_of(nslog_ns_fake_chain(test, c, 100, chain), &o);
	KUNIT_EXPECT_EQ(test, o.kind, c->kind);
	switch (c->kind) {
	case NSLOG_NS_OWNER_HOST:
		KUNIT_EXPECT_EQ(test, o.key, 0UL);
		return;
	case NSLOG_NS_OWNER_UID:
		KUNIT_EXPECT_EQ(test, o.id, c->uid);
		break;
	case NSLOG_NS_OWNER_USERNS:
		KUNIT_EXPECT_EQ(test, o.id, chain[0]->ns.inum);
		break;
	}

	/*
	 * A second chain of the same shape: the same owner for a uid, which
	 * can make as many as it likes; another one for root's.
	 */
	nslog_ns_owner_of(nslog_ns_fake_chain(test, c, 200, other), &o2);
	KUNIT_EXPECT_EQ(test, o2.kind, o.kind);
	if (c->kind == NSLOG_NS_OWNER_UID)
		KUNIT_EXPECT_EQ(test, o2.key, o.key);
	else
		KUNIT_EXPECT_NE(test, o2.key, o.key);
}

static struct kunit_case nslog_ns_test_cases[] = {
	KUNIT_CASE(nslog_ns_test_first_get_creates_second_returns_same),
	KUNIT_CASE(nslog_ns_test_get_without_create_is_enoent),
	KUNIT_CASE(nslog_ns_test_distinct_ns_get_distinct_sets),
	KUNIT_CASE(nslog_ns_test_live_ns_is_never_reaped),
	KUNIT_CASE_PARAM(nslog_ns_test_dead_ns_reaped_only_after_grace,
			 nslog_ns_grace_gen_params),
	KUNIT_CASE(nslog_ns_test_alive_again_restarts_grace),
	KUNIT_CASE(nslog_ns_test_dead_at_clock_zero_waits_grace),
	KUNIT_CASE(nslog_ns_test_reap_takes_only_expired_dead),
	KUNIT_CASE(nslog_ns_test_dead_set_found_by_id_during_grace),
	KUNIT_CASE(nslog_ns_test_reused_key_never_gets_old_set),
	KUNIT_CASE(nslog_ns_test_open_file_keeps_set_after_reap),
	KUNIT_CASE_PARAM(nslog_ns_test_cap_and_reserve, nslog_ns_cap_gen_params),
	KUNIT_CASE(nslog_ns_test_reap_frees_slot_for_new_ns),
	KUNIT_CASE(nslog_ns_test_destroy_drops_every_entry),
	KUNIT_CASE(nslog_ns_test_one_dead_reading_never_reaps),
	KUNIT_CASE(nslog_ns_test_owner_quota_leaves_others_room),
	KUNIT_CASE(nslog_ns_test_owner_streams_edquot),
	KUNIT_CASE(nslog_ns_test_orphan_counts_until_last_close),
	KUNIT_CASE(nslog_ns_test_owner_released_in_any_order),
	KUNIT_CASE_PARAM(nslog_ns_test_owner_is_top_of_user_ns_chain,
			 nslog_ns_owner_gen_params),
	{}
};

static struct kunit_suite nslog_ns_test_suite = {
	.name = "nslog_ns",
	.init = nslog_ns_test_init,
	.exit = nslog_ns_test_exit,
	.test_cases = nslog_ns_test_cases,
};

kunit_test_suite(nslog_ns_test_suite);
