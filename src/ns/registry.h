/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_NS_REGISTRY_H
#define _NSLOG_NS_REGISTRY_H

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include "log.h"

struct file;
struct seq_file;
struct nslog_ns_entry;

/**
 * struct nslog_ns_ops - how a registry holds and watches its namespaces
 * @hold: take a hold on @ns for @e; @ns is alive for the call
 * @unhold: give the hold of @e back
 * @alive: whether anything but the hold of @e keeps its namespace alive
 * @now_ns: a monotonic clock, in nanoseconds
 *
 * The real ones work on IPC namespaces (src/compat.h); KUnit fakes them.
 */
struct nslog_ns_ops {
	int (*hold)(struct nslog_ns_entry *e, void *ns);
	void (*unhold)(struct nslog_ns_entry *e);
	bool (*alive)(struct nslog_ns_entry *e);
	u64 (*now_ns)(void);
};

/**
 * struct nslog_ns_key - the namespace an opener is in
 * @ns: the namespace object; compared, and given to &nslog_ns_ops.hold
 * @id: its nsfs inode number, the id users see (ipc:[id])
 * @user_ns: the user namespace that owns it
 */
struct nslog_ns_key {
	void *ns;
	unsigned int id;
	struct user_namespace *user_ns;
};

/**
 * struct nslog_ns_entry - one namespace's log set in a registry
 * @set: the log set; the registry holds one reference while hashed
 * @node: in &nslog_ns_registry.table, keyed by @ns
 * @reap: on a reaping pass's private list once unhashed
 * @ns: the namespace, held through @hold (or a fake's own means)
 * @id: as in &struct nslog_ns_key
 * @dead_since: when the namespace was first seen otherwise unused, or 0
 * @hold: the hold on an IPC namespace, for the real ops
 * @priv: for fake ops
 * @rcu: frees the entry after lockless lookups are done with it
 */
struct nslog_ns_entry {
	struct nslog_logset set;
	struct hlist_node node;
	struct list_head reap;
	void *ns;
	unsigned int id;
	u64 dead_since;
	struct nslog_ipc_hold hold;
	void *priv;
	struct rcu_head rcu;
};

#define NSLOG_NS_HASH_BITS	10

/**
 * struct nslog_ns_registry - the log sets of every namespace but the first
 * @lock: serialises inserts, removals and reaping
 * @table: entries by namespace; RCU for lookups
 * @count: entries hashed
 * @ops: see &struct nslog_ns_ops
 * @max: most entries; runtime-tunable, read with READ_ONCE()
 * @reserve: of @max, how many only namespaces owned by the initial user
 *	namespace may take; runtime-tunable
 * @size: ring size of each log of a new set; runtime-tunable
 * @grace_ms: how long a dead namespace's set is kept for collectors
 */
struct nslog_ns_registry {
	/* inserts, removals, reaping */
	struct mutex lock;
	DECLARE_HASHTABLE(table, NSLOG_NS_HASH_BITS);
	unsigned int count;
	const struct nslog_ns_ops *ops;
	unsigned int max;
	unsigned int reserve;
	u32 size;
	unsigned int grace_ms;
};

void nslog_ns_registry_init(struct nslog_ns_registry *reg,
			    const struct nslog_ns_ops *ops);
void nslog_ns_registry_destroy(struct nslog_ns_registry *reg);
struct nslog_logset *nslog_ns_get(struct nslog_ns_registry *reg,
				  const struct nslog_ns_key *key, bool create);
struct nslog_logset *nslog_ns_find_id(struct nslog_ns_registry *reg,
				      unsigned int id);
unsigned int nslog_ns_reap(struct nslog_ns_registry *reg);

struct nslog_logset *nslog_ns_current_set(void);
struct nslog_logset *nslog_ns_nsfs_set(struct file *nsfs);
struct nslog_logset *nslog_ns_id_set(u64 id);
void nslog_ns_put_set(struct nslog_logset *set);
int nslog_ns_show(struct seq_file *m, void *v);

int nslog_ns_init(void);
void nslog_ns_exit(void);

#endif /* _NSLOG_NS_REGISTRY_H */
