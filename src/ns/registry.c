// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: the namespace registry.
 */

/**
 * DOC: the namespace registry
 *
 * Every IPC namespace gets its own four logs, reached through the same
 * device nodes.  open() looks the opener's IPC namespace up here and the
 * file keeps a reference to that log set; after that nothing on the write
 * or read path looks at the registry again, so their cost does not depend
 * on how many namespaces exist.  The initial namespace's set is static
 * (see src/logset.c) and is never in the registry, so no container can
 * take it away or make it fail.
 *
 * Data structure: a hash table keyed by the namespace's address.  Lookups
 * run under RCU and take a reference with refcount_inc_not_zero(); inserts,
 * removals, reaping and the counts below take @lock, which is never held
 * across an allocation: a new entry is made and its namespace held first,
 * then the lock is taken, the lookup repeated and the limits checked, and
 * the loser of a race throws its entry away after unlocking.  So an opener
 * stalled at its memory cgroup's limit holds nobody else up.
 *
 * Keys and reuse: an entry holds its namespace (nslog_ns_hold()), so
 * a namespace cannot be freed, and its address or inode number reused,
 * while an entry names it.  An entry is unhashed first, then
 * synchronize_rcu() waits out every lookup that could still see it, and
 * only then is the hold given back.  So a lookup that finds a key equal to
 * the opener's namespace has found that namespace's own set, never the set
 * of an earlier namespace that happened to live at the same address.
 *
 * Lifetime: nobody tells a module that a namespace died.  A reaping pass
 * (a delayed work item, run every second while the registry is not empty
 * and shortly after a registry set's last file closes) asks of every entry
 * whether anything but its own hold keeps the namespace alive.  Once it is
 * not, nothing can bring it back: that takes a task in the namespace or an
 * nsfs file of it, and either would be seen.  Even so an entry is reaped
 * only by a later pass than the one that first saw it dead, so a reading
 * taken while a task was joining cannot reap a live namespace's set.  The
 * entry then waits out the grace period (so a host collector can still
 * read a dead container's last records), is unhashed, and the registry
 * drops its reference on the set.  Files still open, a collector's say,
 * keep the set itself alive until they are closed; its memory goes with
 * the last of them.
 *
 * Limits: at most @max sets exist, counted from their making to the release
 * of their last reference, so a set that was reaped while a file still
 * holds it counts too: closing nothing, a tenant cannot pin more than its
 * share.  The last @reserve of them only go to namespaces owned by the
 * initial user namespace (made by the host's root).  The rest are shared by
 * owners, each held to @per_owner sets: see nslog_ns_owner_of() for who the
 * owner of a namespace is, and why nesting user namespaces does not
 * multiply a share.  Set memory is charged to the opener's memory cgroup,
 * ring memory to the first writer's.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/ipc_namespace.h>
#include <linux/jiffies.h>
#include <linux/magic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/nsproxy.h>
#include <linux/proc_ns.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/user_namespace.h>
#include <linux/workqueue.h>

#include "registry.h"
#include "stream.h"

/**
 * nslog_ns_owner_of() - the owner a namespace's set counts against
 * @user_ns: the user namespace that owns the namespace
 * @owner: filled in
 *
 * Owners are found the way the kernel's own ucounts charge a namespace: to
 * the host uid at the top of the chain of user namespaces, so that nesting
 * user namespaces, or switching to another uid inside one, does not make a
 * new owner.  From @user_ns, walk up to the user namespace just below the
 * initial one.  If a host uid other than 0 made it, that uid is the owner:
 * every user namespace it ever made, and every one below them, share one
 * quota.  If the host's root made it (LXC, Incus, rootful Podman with
 * --userns, Docker's userns-remap), that user namespace is its own owner,
 * so that one such container cannot use up another's share.  A namespace
 * owned by the initial user namespace is the host's.
 *
 * Processes running as the host's uid 0 can make as many such user
 * namespaces as the kernel lets them: they count as the host
 * (docs/security.md).
 *
 * Context: any; @user_ns is kept alive by the caller.
 */
void nslog_ns_owner_of(const struct user_namespace *user_ns,
		       struct nslog_ns_owner *owner)
{
	const struct user_namespace *top = user_ns;

	if (user_ns == &init_user_ns) {
		*owner = (struct nslog_ns_owner){ .kind = NSLOG_NS_OWNER_HOST };
		return;
	}
	while (top->parent != &init_user_ns)
		top = top->parent;
	if (uid_eq(top->owner, GLOBAL_ROOT_UID)) {
		*owner = (struct nslog_ns_owner){
			.kind = NSLOG_NS_OWNER_USERNS,
			.id = top->ns.inum,
			.key = (unsigned long)top,
		};
	} else {
		*owner = (struct nslog_ns_owner){
			.kind = NSLOG_NS_OWNER_UID,
			.id = from_kuid(&init_user_ns, top->owner),
			.key = __kuid_val(top->owner),
		};
	}
}

static bool nslog_ns_owner_eq(const struct nslog_ns_owner *a,
			      const struct nslog_ns_owner *b)
{
	return a->kind == b->kind && a->key == b->key;
}

static struct nslog_ns_tenant *
nslog_ns_tenant_find(struct nslog_ns_registry *reg,
		     const struct nslog_ns_owner *owner)
{
	struct nslog_ns_tenant *t;

	lockdep_assert_held(&reg->lock);
	hash_for_each_possible(reg->owners, t, node, owner->key)
		if (nslog_ns_owner_eq(&t->owner, owner))
			return t;
	return NULL;
}

/*
 * The last reference on an entry's set is gone: it stops counting against
 * the registry and its owner.  Lookups may still be looking at the entry
 * (if it is still hashed, they failed to take a reference): free it after
 * them.
 */
static void nslog_ns_entry_release(struct nslog_logset *set)
{
	struct nslog_ns_entry *e = container_of(set, struct nslog_ns_entry, set);
	struct nslog_ns_registry *reg = e->reg;
	struct nslog_ns_tenant *t = e->tenant;

	mutex_lock(&reg->lock);
	WRITE_ONCE(reg->count, reg->count - 1);
	if (t && !--t->sets) {
		hash_del(&t->node);
		kfree(t);
	}
	mutex_unlock(&reg->lock);
	kfree_rcu(e, rcu);
}

/*
 * The hold on an IPC namespace is a counted reference, the same as a
 * task's nsproxy or an nsfs inode has: get_ipc_ns() takes it, and the
 * namespace's own put operation gives it back, as nsfs does when one of its
 * inodes goes.  Neither is an exported symbol (get_ipc_ns() is inline, the
 * put is reached through the namespace), so this is the same on every
 * kernel, whether it exports put_ipc_ns() or not.
 */
static void nslog_ns_hold(struct ipc_namespace *ns)
{
	get_ipc_ns(ns);
}

static void nslog_ns_unhold(struct ipc_namespace *ns)
{
	ns->ns.ops->put(&ns->ns);
}

/*
 * The namespace is ours alone when the count is 1: no task's nsproxy and
 * no nsfs inode (so no open ns file and no bind mount of one) holds it.
 * Nothing can take a new reference then: that needs a task in the
 * namespace or an nsfs file of it.  docs/design.md has the argument, and
 * says why the count is polled and what would break it.
 */
static bool nslog_ns_alive(struct ipc_namespace *ns)
{
	return ns_ref_read(ns) > 1;
}

/**
 * nslog_ns_registry_init() - set up an empty registry
 * @reg: the registry; @max, @reserve, @per_owner, @size, @max_size and
 *	@grace_ms are set by the caller, before or after
 *
 * Context: process context.
 */
void nslog_ns_registry_init(struct nslog_ns_registry *reg)
{
	mutex_init(&reg->lock);
	hash_init(reg->table);
	hash_init(reg->owners);
	reg->hashed = 0;
	reg->count = 0;
	reg->changes = 0;
	init_waitqueue_head(&reg->watch);
	spin_lock_init(&reg->charge_lock);
}

/* Something a listing shows changed.  Called with @reg's lock held. */
static void nslog_ns_changed(struct nslog_ns_registry *reg)
{
	lockdep_assert_held(&reg->lock);
	/* Paired with READ_ONCE() in nslog_ns_changes(). */
	WRITE_ONCE(reg->changes, reg->changes + 1);
	wake_up_interruptible_poll(&reg->watch, EPOLLPRI);
}

static struct nslog_ns_entry *nslog_ns_lookup(struct nslog_ns_registry *reg,
					      struct ipc_namespace *ns)
{
	struct nslog_ns_entry *e;

	hash_for_each_possible_rcu(reg->table, e, node, (unsigned long)ns)
		if (e->ns == ns && refcount_inc_not_zero(&e->set.ref))
			return e;
	return NULL;
}

/*
 * Whether a set for @key may be made now, and the owner's record to count
 * it in (*@tenant, NULL for the host).  @spare is a record to use if the
 * owner has none yet.
 */
static int nslog_ns_may_create(struct nslog_ns_registry *reg,
			       const struct nslog_ns_key *key,
			       struct nslog_ns_tenant *spare,
			       struct nslog_ns_tenant **tenant)
{
	unsigned int max = READ_ONCE(reg->max);
	unsigned int reserve = min(READ_ONCE(reg->reserve), max);
	struct nslog_ns_tenant *t;

	lockdep_assert_held(&reg->lock);
	*tenant = NULL;
	if (reg->count >= max)
		return -ENOSPC;
	if (key->owner.kind == NSLOG_NS_OWNER_HOST)
		return 0;
	if (reg->count >= max - reserve)
		return -ENOSPC;
	t = nslog_ns_tenant_find(reg, &key->owner);
	if (!t) {
		if (!spare)
			return -ENOMEM;
		t = spare;
		t->owner = key->owner;
		t->sets = 0;
		t->streams = 0;
		t->stream_bytes = 0;
		hash_add(reg->owners, &t->node, t->owner.key);
	}
	if (t->sets >= READ_ONCE(reg->per_owner)) {
		if (t == spare)
			hash_del(&t->node);
		return -ENOSPC;
	}
	*tenant = t;
	return 0;
}

/*
 * &nslog_logset.charge of a registry set: its streams count against its
 * owner too (src/stream.c).  The owner record lives as long as the set, so
 * the registry's lock is not needed, and the set's streams_lock, held here,
 * nests inside it.
 */
static int nslog_ns_charge_streams(struct nslog_logset *set, int streams,
				   s64 bytes)
{
	struct nslog_ns_entry *e = container_of(set, struct nslog_ns_entry, set);
	struct nslog_ns_registry *reg = e->reg;
	struct nslog_ns_tenant *t = e->tenant;
	int err = 0;

	if (!t)
		return 0;
	spin_lock(&reg->charge_lock);
	if ((streams > 0 &&
	     t->streams + streams > READ_ONCE(reg->owner_streams)) ||
	    (bytes > 0 &&
	     t->stream_bytes + bytes > READ_ONCE(reg->owner_stream_bytes))) {
		err = -EDQUOT;
	} else {
		t->streams += streams;
		t->stream_bytes += bytes;
	}
	spin_unlock(&reg->charge_lock);
	return err;
}

/* Hash a held, unhashed @e for @key; 0, or -ENOSPC past a limit. */
static int nslog_ns_insert(struct nslog_ns_registry *reg,
			   struct nslog_ns_entry *e,
			   const struct nslog_ns_key *key,
			   struct nslog_ns_tenant *spare)
{
	u32 sizes[NSLOG_NR_LOGS];
	int i, err;

	lockdep_assert_held(&reg->lock);
	err = nslog_ns_may_create(reg, key, spare, &e->tenant);
	if (err)
		return err;
	if (e->tenant)
		e->tenant->sets++;
	WRITE_ONCE(reg->count, reg->count + 1);

	for (i = 0; i < NSLOG_NR_LOGS; i++)
		sizes[i] = READ_ONCE(reg->size);
	nslog_logset_init(&e->set, key->user_ns, key->id, sizes,
			  &reg->max_size);
	e->set.release = nslog_ns_entry_release;
	e->set.charge = nslog_ns_charge_streams;
	e->reg = reg;
	e->id = key->id;
	/* One reference for the registry, one for the caller. */
	refcount_inc(&e->set.ref);
	hash_add_rcu(reg->table, &e->node, (unsigned long)e->ns);
	WRITE_ONCE(reg->hashed, reg->hashed + 1);
	nslog_ns_changed(reg);
	return 0;
}

/*
 * Make the set of @key, unless another opener of the same namespace just
 * did: allocate and hold first, then lock, look again and insert.
 */
static struct nslog_ns_entry *nslog_ns_create(struct nslog_ns_registry *reg,
					      const struct nslog_ns_key *key)
{
	struct nslog_ns_tenant *spare = NULL;
	struct nslog_ns_entry *e, *found;
	int err;

	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return ERR_PTR(-ENOMEM);
	if (key->owner.kind != NSLOG_NS_OWNER_HOST) {
		spare = kzalloc(sizeof(*spare), GFP_KERNEL_ACCOUNT);
		if (!spare) {
			err = -ENOMEM;
			goto err_free_entry;
		}
	}
	e->ns = key->ns;
	nslog_ns_hold(e->ns);

	mutex_lock(&reg->lock);
	rcu_read_lock();
	found = nslog_ns_lookup(reg, key->ns);
	rcu_read_unlock();
	err = found ? 0 : nslog_ns_insert(reg, e, key, spare);
	if (!found && !err && e->tenant == spare)
		spare = NULL;
	mutex_unlock(&reg->lock);
	if (!found && !err)
		goto out_free_spare;

	/* Lost the race, or over a limit: the entry was never seen. */
	nslog_ns_unhold(e->ns);
	kfree(e);
	e = found ?: ERR_PTR(err);
out_free_spare:
	kfree(spare);
	return e;

err_free_entry:
	kfree(e);
	return ERR_PTR(err);
}

/**
 * nslog_ns_get() - the log set of a namespace, made on first use
 * @reg: the registry
 * @key: the namespace, alive for the call
 * @create: make a set if there is none
 *
 * Context: process context, may sleep.
 * Return: a counted reference on the set, or ERR_PTR(): -ENOENT (none and
 * not @create), -ENOSPC (the registry or the owner's quota is full for
 * this namespace), -ENOMEM, or an error holding the namespace.
 */
struct nslog_logset *nslog_ns_get(struct nslog_ns_registry *reg,
				  const struct nslog_ns_key *key, bool create)
{
	struct nslog_ns_entry *e;

	rcu_read_lock();
	e = nslog_ns_lookup(reg, key->ns);
	rcu_read_unlock();
	if (!e) {
		if (!create)
			return ERR_PTR(-ENOENT);
		e = nslog_ns_create(reg, key);
	}
	return IS_ERR(e) ? ERR_CAST(e) : &e->set;
}

/**
 * nslog_ns_find_id() - the log set of a namespace named by its id
 * @reg: the registry
 * @id: the namespace's nsfs inode number
 *
 * Finds sets of dead namespaces still in their grace period too, which is
 * how a collector reads a crashed container's last records.  Ids are unique
 * among the entries, as each entry keeps its namespace and so its inode
 * number from being reused.
 *
 * Context: process context, may sleep.
 * Return: a counted reference on the set, or ERR_PTR(-ENOENT).
 */
struct nslog_logset *nslog_ns_find_id(struct nslog_ns_registry *reg,
				      unsigned int id)
{
	struct nslog_logset *set = ERR_PTR(-ENOENT);
	struct nslog_ns_entry *e;
	int bkt;

	mutex_lock(&reg->lock);
	hash_for_each(reg->table, bkt, e, node) {
		if (e->id == id && refcount_inc_not_zero(&e->set.ref)) {
			set = &e->set;
			break;
		}
	}
	mutex_unlock(&reg->lock);
	return set;
}

/**
 * nslog_ns_owner_sets() - how many sets an owner has
 * @reg: the registry
 * @owner: the owner
 *
 * Context: process context, may sleep.
 * Return: its sets that exist, reaped ones still open included.
 */
unsigned int nslog_ns_owner_sets(struct nslog_ns_registry *reg,
				 const struct nslog_ns_owner *owner)
{
	struct nslog_ns_tenant *t;
	unsigned int n;

	mutex_lock(&reg->lock);
	t = nslog_ns_tenant_find(reg, owner);
	n = t ? t->sets : 0;
	mutex_unlock(&reg->lock);
	return n;
}

/* Give back the holds and references of entries already unhashed. */
static unsigned int nslog_ns_finish(struct nslog_ns_registry *reg,
				    struct list_head *reap)
{
	struct nslog_ns_entry *e, *tmp;
	unsigned int n = 0;

	if (list_empty(reap))
		return 0;
	/* No lookup can still find them once this returns. */
	synchronize_rcu();
	list_for_each_entry_safe(e, tmp, reap, reap) {
		list_del(&e->reap);
		nslog_ns_unhold(e->ns);
		/* Its readers get end of file once they have read it all. */
		nslog_logset_kill(&e->set);
		nslog_logset_put(&e->set);
		n++;
	}
	return n;
}

static void nslog_ns_unhash(struct nslog_ns_registry *reg,
			    struct nslog_ns_entry *e, struct list_head *reap)
{
	lockdep_assert_held(&reg->lock);
	hash_del_rcu(&e->node);
	WRITE_ONCE(reg->hashed, reg->hashed - 1);
	list_add(&e->reap, reap);
	nslog_ns_changed(reg);
}

/**
 * nslog_ns_reap() - one pass over the registry: drop dead namespaces' sets
 * @reg: the registry
 * @now: a monotonic clock, in nanoseconds (ktime_get_ns())
 *
 * An entry whose namespace nothing else keeps alive is marked dead; once a
 * later pass still finds it dead, an RCU grace period after the first, and
 * it has been dead for the grace period, it is unhashed and the registry's
 * reference on its set is dropped.
 *
 * Why two readings, a grace period apart: a lookup that checked, under
 * RCU, that the namespace was still in use (6.18's nsfs file handles and
 * listns() do) may take its reference just after the last task left.  Any
 * such lookup began before the first reading and has ended by the end of
 * the grace period, so if the namespace still has nothing but our hold
 * then, nothing can bring it back.
 *
 * Context: process context, may sleep.
 * Return: how many entries were removed.
 */
unsigned int nslog_ns_reap(struct nslog_ns_registry *reg, u64 now)
{
	u64 grace = (u64)READ_ONCE(reg->grace_ms) * NSEC_PER_MSEC;
	struct nslog_ns_entry *e;
	struct hlist_node *tmp;
	LIST_HEAD(reap);
	int bkt;

	mutex_lock(&reg->lock);
	hash_for_each_safe(reg->table, bkt, tmp, e, node) {
		if (nslog_ns_alive(e->ns)) {
			if (e->dead_since)
				nslog_ns_changed(reg);
			e->dead_since = 0;
			continue;
		}
		/*
		 * The first pass that sees it dead only notes the time, and
		 * an RCU grace period that must end before a later pass may
		 * reap: see nslog_ns_reap().  0 means alive: a death seen at
		 * time 0 is dated 1.
		 */
		if (!e->dead_since) {
			e->dead_since = now ?: 1;
			e->dead_gp = start_poll_synchronize_rcu();
			nslog_ns_changed(reg);
			continue;
		}
		if (now < e->dead_since || now - e->dead_since < grace ||
		    !poll_state_synchronize_rcu(e->dead_gp))
			continue;
		nslog_ns_unhash(reg, e, &reap);
	}
	mutex_unlock(&reg->lock);
	return nslog_ns_finish(reg, &reap);
}

/**
 * nslog_ns_registry_destroy() - remove every entry
 * @reg: the registry; nobody may look it up any more
 *
 * Sets still open stay with their files, and counted, until closed.
 *
 * Context: process context, may sleep.
 */
void nslog_ns_registry_destroy(struct nslog_ns_registry *reg)
{
	struct nslog_ns_entry *e;
	struct hlist_node *tmp;
	LIST_HEAD(reap);
	int bkt;

	mutex_lock(&reg->lock);
	hash_for_each_safe(reg->table, bkt, tmp, e, node)
		nslog_ns_unhash(reg, e, &reap);
	mutex_unlock(&reg->lock);
	nslog_ns_finish(reg, &reap);
}

/*
 * The registry of IPC namespaces.
 */

static struct nslog_ns_registry nslog_ns_ipc = {
	.max		= 4096,
	.reserve	= 64,
	.per_owner	= 128,
	.size		= 64 << 10,
	.max_size	= 64 << 10,
	.grace_ms	= 5000,
	.owner_streams	= 64,
	.owner_stream_bytes = 4 << 20,
};

module_param_named(max_namespaces, nslog_ns_ipc.max, uint, 0644);
MODULE_PARM_DESC(max_namespaces,
		 "most IPC namespaces with log sets besides the initial one (default 4096)");
module_param_named(ns_reserve, nslog_ns_ipc.reserve, uint, 0644);
MODULE_PARM_DESC(ns_reserve,
		 "of max_namespaces, how many only namespaces owned by the initial user namespace may take (default 64)");
module_param_named(ns_per_owner, nslog_ns_ipc.per_owner, uint, 0644);
MODULE_PARM_DESC(ns_per_owner,
		 "most log sets one owner (a host uid, or a user namespace made by root) may have (default 128)");
module_param_cb(ns_size, &nslog_log_size_ops, &nslog_ns_ipc.size, 0644);
MODULE_PARM_DESC(ns_size,
		 "ring size of each log of a new namespace's set (power of two, default 64K)");
module_param_cb(ns_max_size, &nslog_log_size_ops, &nslog_ns_ipc.max_size,
		0644);
MODULE_PARM_DESC(ns_max_size,
		 "largest ring size a namespace may give its own logs at run time (power of two, default 64K)");
module_param_named(ns_grace_ms, nslog_ns_ipc.grace_ms, uint, 0644);
MODULE_PARM_DESC(ns_grace_ms,
		 "how long a dead namespace's logs stay readable by host collectors (default 5000)");

module_param_named(owner_streams, nslog_ns_ipc.owner_streams, uint, 0644);
MODULE_PARM_DESC(owner_streams,
		 "most nslogfs streams one owner may have in all its sets (default 64)");
module_param_named(owner_stream_bytes, nslog_ns_ipc.owner_stream_bytes, ulong,
		   0644);
MODULE_PARM_DESC(owner_stream_bytes,
		 "most bytes of ring one owner's nslogfs streams may have together (default 4194304)");

static unsigned int gc_interval_ms = 1000;
module_param(gc_interval_ms, uint, 0644);
MODULE_PARM_DESC(gc_interval_ms,
		 "how often dead namespaces are looked for (default 1000)");

static void nslog_ns_gc_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(nslog_ns_gc_work, nslog_ns_gc_fn);
static bool nslog_ns_exiting;
/* A close asked for a pass within 50 ms, and that pass has not begun. */
static atomic_t nslog_ns_gc_soon = ATOMIC_INIT(0);

static unsigned long nslog_ns_gc_delay(void)
{
	return msecs_to_jiffies(clamp(READ_ONCE(gc_interval_ms), 10U, 60000U));
}

static void nslog_ns_gc_fn(struct work_struct *work)
{
	/*
	 * Before the pass, and fully ordered (a value-returning atomic): a
	 * close from here on asks for the next one.  Paired with the
	 * atomic_xchg() in nslog_ns_put_set().
	 */
	atomic_xchg(&nslog_ns_gc_soon, 0);
	nslog_ns_reap(&nslog_ns_ipc, ktime_get_ns());
	/* Keep looking while there is anything to look at. */
	if (READ_ONCE(nslog_ns_ipc.hashed) && !READ_ONCE(nslog_ns_exiting))
		queue_delayed_work(system_dfl_wq, &nslog_ns_gc_work,
				   nslog_ns_gc_delay());
}

static struct nslog_logset *nslog_ns_ipc_set(struct ipc_namespace *ipc,
					     bool create)
{
	struct nslog_ns_key key = {
		.ns = ipc,
		.id = ipc->ns.inum,
		.user_ns = ipc->user_ns,
	};
	struct nslog_logset *set;

	if (ipc->ns.inum == PROC_IPC_INIT_INO)
		return nslog_logset_get_init();
	nslog_ns_owner_of(key.user_ns, &key.owner);
	set = nslog_ns_get(&nslog_ns_ipc, &key, create);
	if (!IS_ERR(set))
		queue_delayed_work(system_dfl_wq, &nslog_ns_gc_work,
				   nslog_ns_gc_delay());
	return set;
}

/**
 * nslog_ns_current_set() - the log set of the current task's IPC namespace
 *
 * Context: process context, may sleep.
 * Return: a counted reference, for nslog_ns_put_set(), or ERR_PTR() as for
 * nslog_ns_get().
 */
struct nslog_logset *nslog_ns_current_set(void)
{
	/* Only the task itself changes its nsproxy. */
	return nslog_ns_ipc_set(current->nsproxy->ipc_ns, true);
}

/**
 * nslog_ns_task_set() - the log set of another task's IPC namespace
 * @task: the task, held by the caller
 * @create: make the set if the namespace has none yet
 *
 * For relays (src/relay.c).  The namespace is held while it is looked up,
 * taken from the task's nsproxy under task_lock(), as setns() changes it.
 *
 * Context: process context, may sleep.
 * Return: a counted reference, for nslog_ns_put_set(); ERR_PTR(-ESRCH) if
 * the task has exited (no nsproxy), or as for nslog_ns_get().
 */
struct nslog_logset *nslog_ns_task_set(struct task_struct *task, bool create)
{
	struct ipc_namespace *ipc = NULL;
	struct nslog_logset *set;

	task_lock(task);
	if (task->nsproxy) {
		ipc = task->nsproxy->ipc_ns;
		nslog_ns_hold(ipc);
	}
	task_unlock(task);
	if (!ipc)
		return ERR_PTR(-ESRCH);
	set = nslog_ns_ipc_set(ipc, create);
	/* The put nsfs uses, as every kernel has it: see nslog_ns_hold(). */
	nslog_ns_unhold(ipc);
	return set;
}

/**
 * nslog_ns_nsfs_set() - the log set of the IPC namespace of an nsfs file
 * @nsfs: a file from open("/proc/PID/ns/ipc"), which keeps it alive
 *
 * Makes the set if the namespace has none yet, so a collector can follow a
 * container from before its first record.
 *
 * Context: process context, may sleep.
 * Return: a counted reference, or ERR_PTR(-EINVAL) if @nsfs is not an
 * IPC namespace's nsfs file, or as for nslog_ns_get().
 */
struct nslog_logset *nslog_ns_nsfs_set(struct file *nsfs)
{
	struct inode *inode = file_inode(nsfs);
	struct ns_common *ns;

	if (inode->i_sb->s_magic != NSFS_MAGIC)
		return ERR_PTR(-EINVAL);
	ns = inode->i_private;
	if (!ns || nslog_ns_type(ns) != CLONE_NEWIPC)
		return ERR_PTR(-EINVAL);
	return nslog_ns_ipc_set(container_of(ns, struct ipc_namespace, ns),
				true);
}

/**
 * nslog_ns_id_set() - the log set of an IPC namespace named by its id
 * @id: the inode number, as in ipc:[id] and /proc/nslogger/namespaces
 *
 * Context: process context, may sleep.
 * Return: a counted reference, or ERR_PTR(-ENOENT).
 */
struct nslog_logset *nslog_ns_id_set(u64 id)
{
	if (id == PROC_IPC_INIT_INO)
		return nslog_logset_get_init();
	if (id > UINT_MAX)
		return ERR_PTR(-ENOENT);
	return nslog_ns_find_id(&nslog_ns_ipc, id);
}

/**
 * nslog_ns_put_set() - drop a file's reference on its log set
 * @set: the set
 *
 * A registry set's last file closing is the usual sign that its namespace
 * is going away, so the reaper is asked to look soon: within 50 ms.  Only
 * the first close after a pass moves the pass; later ones find
 * nslog_ns_gc_soon set and leave it, so containers closing files more
 * often than every 50 ms cannot put the reaper off for good.  A pass that
 * was due sooner than that is put off once, by at most 50 ms.
 *
 * Context: process context, may sleep.
 */
void nslog_ns_put_set(struct nslog_logset *set)
{
	bool in_registry = set->release;

	nslog_logset_put(set);
	if (!in_registry || READ_ONCE(nslog_ns_exiting))
		return;
	/* Paired with the atomic_xchg() in nslog_ns_gc_fn(). */
	if (!atomic_xchg(&nslog_ns_gc_soon, 1))
		mod_delayed_work(system_dfl_wq, &nslog_ns_gc_work,
				 msecs_to_jiffies(50));
}

/* What the lines of one set have in common. */
struct nslog_ns_show_ctx {
	unsigned int id;
	const char *state;
	struct nslog_logset *set;
	unsigned int files;
};

static void nslog_ns_show_log(struct seq_file *m, void *arg,
			      struct nslog_log *log, const char *name)
{
	const struct nslog_ns_show_ctx *c = arg;
	struct nslog_ring_stats st;

	nslog_ring_stats(&log->ring, &st);
	seq_printf(m, "%u %u %s %u %s %u %llu %llu %llu %llu\n", c->id,
		   c->set->user_ns->ns.inum, c->state, c->files, name,
		   st.allocated ? st.size : 0, st.used, st.written, st.stored,
		   c->set->id);
}

static void nslog_ns_show_set(struct seq_file *m, unsigned int id,
			      const char *state, struct nslog_logset *set,
			      unsigned int files)
{
	struct nslog_ns_show_ctx c = {
		.id = id, .state = state, .set = set, .files = files,
	};
	int i;

	for (i = 0; i < NSLOG_NR_LOGS; i++)
		nslog_ns_show_log(m, &c, &set->logs[i], nslog_log_names[i]);
	nslog_streams_show(m, set, nslog_ns_show_log, &c);
}

/**
 * nslog_ns_show() - list every log set, for /proc/nslogger/namespaces
 * @m: the seq_file
 * @v: unused
 *
 * One line per log, the set's four and then its streams (src/stream.c):
 * namespace id, owning user namespace id, live or dead, open files (of the
 * whole set, and the mounts of it), log name, bytes allocated, bytes used, records written,
 * records stored, and the set's id (&nslog_logset.id).
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int nslog_ns_show(struct seq_file *m, void *v)
{
	struct nslog_logset *init = nslog_logset_get_init();
	struct nslog_ns_entry *e;
	int bkt;

	seq_puts(m, "# ns_id user_ns_id state files log allocated used written stored set_id\n");
	/* Neither its owner's reference nor ours is an open file. */
	nslog_ns_show_set(m, PROC_IPC_INIT_INO, "live", init,
			  refcount_read(&init->ref) - 2);
	nslog_logset_put(init);

	mutex_lock(&nslog_ns_ipc.lock);
	hash_for_each(nslog_ns_ipc.table, bkt, e, node)
		nslog_ns_show_set(m, e->id, e->dead_since ? "dead" : "live",
				  &e->set, refcount_read(&e->set.ref) - 1);
	mutex_unlock(&nslog_ns_ipc.lock);
	return 0;
}

/**
 * nslog_ns_note_change() - say that a set's listing changed
 *
 * For a stream made or removed: pollers of the listing learn of it as of a
 * set made or let go.
 *
 * Context: process context, may sleep.
 */
void nslog_ns_note_change(void)
{
	mutex_lock(&nslog_ns_ipc.lock);
	nslog_ns_changed(&nslog_ns_ipc);
	mutex_unlock(&nslog_ns_ipc.lock);
}

/**
 * nslog_ns_changes() - how often the listing of log sets has changed
 *
 * A set was made, found dead (or alive again), or let go: each is one
 * change.
 *
 * Context: any.
 * Return: the count of changes since the module was loaded.
 */
u64 nslog_ns_changes(void)
{
	return READ_ONCE(nslog_ns_ipc.changes);
}

/**
 * nslog_ns_poll() - poll() of the listing of log sets
 * @file: the listing's open file
 * @wait: the poll table
 * @seen: nslog_ns_changes() when the file was last read from the start
 *
 * As /proc/self/mounts does: always readable, and EPOLLPRI | EPOLLERR
 * once the listing has changed since @seen.
 *
 * Context: process context.
 * Return: the poll mask.
 */
__poll_t nslog_ns_poll(struct file *file, poll_table *wait, u64 seen)
{
	__poll_t mask = EPOLLIN | EPOLLRDNORM;

	poll_wait(file, &nslog_ns_ipc.watch, wait);
	if (nslog_ns_changes() != seen)
		mask |= EPOLLPRI | EPOLLERR;
	return mask;
}

static const char *const nslog_ns_owner_kinds[] = {
	[NSLOG_NS_OWNER_UID]	= "uid",
	[NSLOG_NS_OWNER_USERNS]	= "userns",
};

/**
 * nslog_ns_show_owners() - the sets of each owner, for /proc/nslogger/owners
 * @m: the seq_file
 * @v: unused
 *
 * One line per owner that has sets: "uid:N" for a host uid, "userns:ID"
 * for a user namespace made by the host's root, then its sets, its
 * streams and their ring bytes (src/stream.c).  Sets reaped but still
 * open, and streams removed but still open, are counted.
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int nslog_ns_show_owners(struct seq_file *m, void *v)
{
	struct nslog_ns_tenant *t;
	int bkt;

	seq_puts(m, "# owner sets streams stream_bytes\n");
	mutex_lock(&nslog_ns_ipc.lock);
	hash_for_each(nslog_ns_ipc.owners, bkt, t, node) {
		unsigned int streams;
		u64 bytes;

		spin_lock(&nslog_ns_ipc.charge_lock);
		streams = t->streams;
		bytes = t->stream_bytes;
		spin_unlock(&nslog_ns_ipc.charge_lock);
		seq_printf(m, "%s:%u %u %u %llu\n",
			   nslog_ns_owner_kinds[t->owner.kind], t->owner.id,
			   t->sets, streams, bytes);
	}
	mutex_unlock(&nslog_ns_ipc.lock);
	return 0;
}

/**
 * nslog_ns_init() - set up the IPC namespace registry
 *
 * Context: module init.
 * Return: 0.
 */
int nslog_ns_init(void)
{
	nslog_ns_registry_init(&nslog_ns_ipc);
	return 0;
}

/**
 * nslog_ns_exit() - free every namespace's logs
 *
 * Context: module exit; no file is open any more.
 */
void nslog_ns_exit(void)
{
	WRITE_ONCE(nslog_ns_exiting, true);
	cancel_delayed_work_sync(&nslog_ns_gc_work);
	nslog_ns_registry_destroy(&nslog_ns_ipc);
}
