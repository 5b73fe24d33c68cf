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
 * on how many namespaces exist.  The initial namespace's set is static (see
 * src/log.c) and is never in the registry, so no container can take it away
 * or make it fail.
 *
 * Data structure: a hash table keyed by the namespace's address.  Lookups
 * run under RCU and take a reference with refcount_inc_not_zero(); inserts,
 * removals and reaping take @lock.
 *
 * Keys and reuse: an entry holds its namespace (src/compat.h explains how
 * on each kernel), so a namespace cannot be freed, and its address or inode
 * number reused, while an entry names it.  An entry is unhashed first, then
 * synchronize_rcu() waits out every lookup that could still see it, and only
 * then is the hold given back.  So a lookup that finds a key equal to the
 * opener's namespace has found that namespace's own set, never the set of
 * an earlier namespace that happened to live at the same address.
 *
 * Lifetime: nobody tells a module that a namespace died.  A reaping pass
 * (a delayed work item, run every second while the registry is not empty
 * and shortly after a registry set's last file closes) asks of every entry
 * whether anything but its own hold keeps the namespace alive.  Once it is
 * not, nothing can bring it back: that takes a task in the namespace or an
 * nsfs file of it, and either would be seen.  The entry then waits out the
 * grace period (so a host collector can still read a dead container's last
 * records), is unhashed, and the registry drops its reference on the set.
 * Files still open, a collector's say, keep the set itself alive until they
 * are closed; its memory goes with the last of them.
 *
 * Limits: at most @max entries.  The last @reserve of them only go to
 * namespaces owned by the initial user namespace (made by the host's root),
 * so unprivileged containers cannot use up what rootful ones need.  Set
 * memory is charged to the opener's memory cgroup, ring memory to the first
 * writer's.
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
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/user_namespace.h>
#include <linux/workqueue.h>

#include "registry.h"

static void nslog_ns_entry_release(struct nslog_logset *set)
{
	struct nslog_ns_entry *e = container_of(set, struct nslog_ns_entry, set);

	/* Lookups may still be looking at the entry: free it after them. */
	kfree_rcu(e, rcu);
}

/**
 * nslog_ns_registry_init() - set up an empty registry
 * @reg: the registry; @max, @reserve, @size and @grace_ms are set by the
 *	caller, before or after
 * @ops: how namespaces are held and watched
 *
 * Context: process context.
 */
void nslog_ns_registry_init(struct nslog_ns_registry *reg,
			    const struct nslog_ns_ops *ops)
{
	mutex_init(&reg->lock);
	hash_init(reg->table);
	reg->count = 0;
	reg->ops = ops;
}

static struct nslog_ns_entry *nslog_ns_lookup(struct nslog_ns_registry *reg,
					      void *ns)
{
	struct nslog_ns_entry *e;

	hash_for_each_possible_rcu(reg->table, e, node, (unsigned long)ns)
		if (e->ns == ns && refcount_inc_not_zero(&e->set.ref))
			return e;
	return NULL;
}

static bool nslog_ns_may_create(struct nslog_ns_registry *reg,
				const struct nslog_ns_key *key)
{
	unsigned int max = READ_ONCE(reg->max);
	unsigned int reserve = min(READ_ONCE(reg->reserve), max);

	if (reg->count >= max)
		return false;
	return key->user_ns == &init_user_ns || reg->count < max - reserve;
}

static struct nslog_ns_entry *nslog_ns_create(struct nslog_ns_registry *reg,
					      const struct nslog_ns_key *key)
{
	u32 sizes[NSLOG_NR_LOGS];
	struct nslog_ns_entry *e;
	int i, err;

	lockdep_assert_held(&reg->lock);
	if (!nslog_ns_may_create(reg, key))
		return ERR_PTR(-ENOSPC);

	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return ERR_PTR(-ENOMEM);
	err = reg->ops->hold(e, key->ns);
	if (err)
		goto err_free;

	for (i = 0; i < NSLOG_NR_LOGS; i++)
		sizes[i] = READ_ONCE(reg->size);
	nslog_logset_init(&e->set, key->user_ns, sizes);
	e->set.release = nslog_ns_entry_release;
	e->ns = key->ns;
	e->id = key->id;
	/* One reference for the registry, one for the caller. */
	refcount_inc(&e->set.ref);
	hash_add_rcu(reg->table, &e->node, (unsigned long)e->ns);
	WRITE_ONCE(reg->count, reg->count + 1);
	return e;

err_free:
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
 * not @create), -ENOSPC (the registry is full for this namespace's owner),
 * -ENOMEM, or an error holding the namespace.
 */
struct nslog_logset *nslog_ns_get(struct nslog_ns_registry *reg,
				  const struct nslog_ns_key *key, bool create)
{
	struct nslog_ns_entry *e;

	rcu_read_lock();
	e = nslog_ns_lookup(reg, key->ns);
	rcu_read_unlock();
	if (e)
		return &e->set;
	if (!create)
		return ERR_PTR(-ENOENT);

	mutex_lock(&reg->lock);
	/* Another opener of the same namespace may have won the race. */
	rcu_read_lock();
	e = nslog_ns_lookup(reg, key->ns);
	rcu_read_unlock();
	if (!e)
		e = nslog_ns_create(reg, key);
	mutex_unlock(&reg->lock);
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
		reg->ops->unhold(e);
		nslog_logset_put(&e->set);
		n++;
	}
	return n;
}

/**
 * nslog_ns_reap() - one pass over the registry: drop dead namespaces' sets
 * @reg: the registry
 *
 * An entry whose namespace nothing else keeps alive is marked dead; once it
 * has been dead for the grace period it is unhashed and the registry's
 * reference on its set is dropped.
 *
 * Context: process context, may sleep.
 * Return: how many entries were removed.
 */
unsigned int nslog_ns_reap(struct nslog_ns_registry *reg)
{
	u64 grace = (u64)READ_ONCE(reg->grace_ms) * NSEC_PER_MSEC;
	u64 now = reg->ops->now_ns();
	struct nslog_ns_entry *e;
	struct hlist_node *tmp;
	LIST_HEAD(reap);
	int bkt;

	mutex_lock(&reg->lock);
	hash_for_each_safe(reg->table, bkt, tmp, e, node) {
		if (reg->ops->alive(e)) {
			e->dead_since = 0;
			continue;
		}
		/* 0 means alive: a death seen at time 0 is dated 1. */
		if (!e->dead_since)
			e->dead_since = now ?: 1;
		if (now < e->dead_since || now - e->dead_since < grace)
			continue;
		hash_del_rcu(&e->node);
		WRITE_ONCE(reg->count, reg->count - 1);
		list_add(&e->reap, &reap);
	}
	mutex_unlock(&reg->lock);
	return nslog_ns_finish(reg, &reap);
}

/**
 * nslog_ns_registry_destroy() - remove every entry
 * @reg: the registry; nobody may look it up any more
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
	hash_for_each_safe(reg->table, bkt, tmp, e, node) {
		hash_del_rcu(&e->node);
		WRITE_ONCE(reg->count, reg->count - 1);
		list_add(&e->reap, &reap);
	}
	mutex_unlock(&reg->lock);
	nslog_ns_finish(reg, &reap);
}

/*
 * The registry of IPC namespaces.
 */

static int nslog_ipc_ops_hold(struct nslog_ns_entry *e, void *ns)
{
	return nslog_ipc_hold(&e->hold, ns);
}

static void nslog_ipc_ops_unhold(struct nslog_ns_entry *e)
{
	nslog_ipc_unhold(&e->hold);
}

static bool nslog_ipc_ops_alive(struct nslog_ns_entry *e)
{
	return !nslog_ipc_held_by_us_only(&e->hold);
}

static const struct nslog_ns_ops nslog_ipc_ops = {
	.hold	= nslog_ipc_ops_hold,
	.unhold	= nslog_ipc_ops_unhold,
	.alive	= nslog_ipc_ops_alive,
	.now_ns	= ktime_get_ns,
};

static struct nslog_ns_registry nslog_ns_ipc = {
	.max		= 4096,
	.reserve	= 64,
	.size		= 64 << 10,
	.grace_ms	= 5000,
};

module_param_named(max_namespaces, nslog_ns_ipc.max, uint, 0644);
MODULE_PARM_DESC(max_namespaces,
		 "most IPC namespaces with log sets besides the initial one (default 4096)");
module_param_named(ns_reserve, nslog_ns_ipc.reserve, uint, 0644);
MODULE_PARM_DESC(ns_reserve,
		 "of max_namespaces, how many only namespaces owned by the initial user namespace may take (default 64)");
module_param_cb(ns_size, &nslog_log_size_ops, &nslog_ns_ipc.size, 0644);
MODULE_PARM_DESC(ns_size,
		 "ring size of each log of a new namespace's set (power of two, default 64K)");
module_param_named(ns_grace_ms, nslog_ns_ipc.grace_ms, uint, 0644);
MODULE_PARM_DESC(ns_grace_ms,
		 "how long a dead namespace's logs stay readable by host collectors (default 5000)");

static unsigned int gc_interval_ms = 1000;
module_param(gc_interval_ms, uint, 0644);
MODULE_PARM_DESC(gc_interval_ms,
		 "how often dead namespaces are looked for (default 1000)");

static void nslog_ns_gc_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(nslog_ns_gc_work, nslog_ns_gc_fn);
static bool nslog_ns_exiting;

static unsigned long nslog_ns_gc_delay(void)
{
	return msecs_to_jiffies(clamp(READ_ONCE(gc_interval_ms), 10U, 60000U));
}

static void nslog_ns_gc_fn(struct work_struct *work)
{
	nslog_ns_reap(&nslog_ns_ipc);
	/* Keep looking while there is anything to look at. */
	if (READ_ONCE(nslog_ns_ipc.count) && !READ_ONCE(nslog_ns_exiting))
		queue_delayed_work(system_wq, &nslog_ns_gc_work,
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
	set = nslog_ns_get(&nslog_ns_ipc, &key, create);
	if (!IS_ERR(set))
		queue_delayed_work(system_wq, &nslog_ns_gc_work,
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
	if (!ns || ns->ops->type != CLONE_NEWIPC)
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
 * is going away, so the reaper is asked to look soon: within 50 ms, or
 * when it was due anyway if that is sooner.  Only ever sooner: if each
 * close set the timer 50 ms from now, containers closing files more often
 * than that would put the reaper off for good.
 *
 * Context: process context, may sleep.
 */
void nslog_ns_put_set(struct nslog_logset *set)
{
	struct delayed_work *dw = &nslog_ns_gc_work;
	unsigned long soon = jiffies + msecs_to_jiffies(50);
	bool in_registry = set->release;

	nslog_logset_put(set);
	if (!in_registry || READ_ONCE(nslog_ns_exiting))
		return;
	/*
	 * Unlocked, so a racing reaper or close may make this move a due time
	 * by up to 50 ms once, never again and again.
	 */
	if (!delayed_work_pending(dw) ||
	    time_after(READ_ONCE(dw->timer.expires), soon))
		mod_delayed_work(system_wq, dw, msecs_to_jiffies(50));
}

static void nslog_ns_show_set(struct seq_file *m, unsigned int id,
			      const char *state, struct nslog_logset *set,
			      unsigned int files)
{
	struct nslog_ring_stats st;
	int i;

	for (i = 0; i < NSLOG_NR_LOGS; i++) {
		nslog_ring_stats(&set->logs[i].ring, &st);
		seq_printf(m, "%u %u %s %u %s %u %llu %llu %llu\n", id,
			   set->user_ns->ns.inum, state,
			   files, nslog_log_names[i],
			   st.allocated ? st.size : 0, st.used, st.written,
			   st.stored);
	}
}

/**
 * nslog_ns_show() - list every log set, for /proc/nslogger/namespaces
 * @m: the seq_file
 * @v: unused
 *
 * One line per log: namespace id, owning user namespace id, live or dead,
 * open files, log name, bytes allocated, bytes used, records written,
 * records stored.
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int nslog_ns_show(struct seq_file *m, void *v)
{
	struct nslog_logset *init = nslog_logset_get_init();
	struct nslog_ns_entry *e;
	int bkt;

	seq_puts(m, "# ns_id user_ns_id state files log allocated used written stored\n");
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
 * nslog_ns_init() - set up the IPC namespace registry
 *
 * Context: module init.
 * Return: 0.
 */
int nslog_ns_init(void)
{
	nslog_ns_registry_init(&nslog_ns_ipc, &nslog_ipc_ops);
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
