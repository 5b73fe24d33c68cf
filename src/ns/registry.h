/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_NS_REGISTRY_H
#define _NSLOG_NS_REGISTRY_H

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/wait.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "logset.h"

struct file;
struct ipc_namespace;
struct seq_file;
struct task_struct;
struct user_namespace;
struct nslog_ns_entry;

/**
 * enum nslog_ns_owner_kind - what a log set counts against
 * @NSLOG_NS_OWNER_HOST: the host (the set's IPC namespace is owned by the
 *	initial user namespace): no owner's quota, and the reserve is open
 * @NSLOG_NS_OWNER_UID: a host uid, for every user namespace it made and
 *	every one below those
 * @NSLOG_NS_OWNER_USERNS: one user namespace made by the host's root, and
 *	every one below it
 */
enum nslog_ns_owner_kind {
	NSLOG_NS_OWNER_HOST,
	NSLOG_NS_OWNER_UID,
	NSLOG_NS_OWNER_USERNS,
};

/**
 * struct nslog_ns_owner - the tenant a log set is charged to
 * @kind: see &enum nslog_ns_owner_kind
 * @id: the uid (in the initial user namespace) or the user namespace's
 *	inode number, for listings
 * @key: compared: the kuid's value or the user namespace's address; 0 for
 *	the host
 */
struct nslog_ns_owner {
	enum nslog_ns_owner_kind kind;
	unsigned int id;
	unsigned long key;
};

/**
 * struct nslog_ns_key - the namespace an opener is in
 * @ns: the namespace; compared, and held for its entry (a counted
 *	reference, see nslog_ns_hold())
 * @id: its nsfs inode number, the id users see (ipc:[id])
 * @user_ns: the user namespace that owns it
 * @owner: who its set counts against, from @user_ns (nslog_ns_owner_of())
 */
struct nslog_ns_key {
	struct ipc_namespace *ns;
	unsigned int id;
	struct user_namespace *user_ns;
	struct nslog_ns_owner owner;
};

/**
 * struct nslog_ns_tenant - the sets one owner has
 * @node: in &nslog_ns_registry.owners
 * @owner: who
 * @sets: its sets that still exist, reaped ones still open included
 * @streams: the streams of those sets (src/stream.c); under
 *	&nslog_ns_registry.charge_lock
 * @stream_bytes: their ring sizes, summed; likewise
 */
struct nslog_ns_tenant {
	struct hlist_node node;
	struct nslog_ns_owner owner;
	unsigned int sets;
	unsigned int streams;
	u64 stream_bytes;
};

struct nslog_ns_registry;

/**
 * struct nslog_ns_entry - one namespace's log set in a registry
 * @set: the log set; the registry holds one reference while hashed
 * @node: in &nslog_ns_registry.table, keyed by @ns
 * @reap: on a reaping pass's private list once unhashed
 * @reg: the registry, which counts the set until it is freed
 * @tenant: the owner it counts against, or NULL for the host
 * @ns: the namespace, held (a counted reference) until unhashed
 * @id: as in &struct nslog_ns_key
 * @dead_since: when the namespace was first seen otherwise unused, or 0
 * @dead_gp: an RCU grace period begun at @dead_since, for the reaper
 * @rcu: frees the entry after lockless lookups are done with it
 */
struct nslog_ns_entry {
	struct nslog_logset set;
	struct hlist_node node;
	struct list_head reap;
	struct nslog_ns_registry *reg;
	struct nslog_ns_tenant *tenant;
	struct ipc_namespace *ns;
	unsigned int id;
	u64 dead_since;
	unsigned long dead_gp;
	struct rcu_head rcu;
};

#define NSLOG_NS_HASH_BITS	10
#define NSLOG_NS_OWNER_BITS	6

/**
 * struct nslog_ns_registry - the log sets of every namespace but the first
 * @lock: serialises inserts, removals, reaping and the counts below
 * @table: entries by namespace; RCU for lookups
 * @owners: &struct nslog_ns_tenant by owner, those with sets only
 * @hashed: entries in @table
 * @count: sets that exist, hashed or reaped but still open
 * @max: most sets (@count); runtime-tunable, read with READ_ONCE()
 * @reserve: of @max, how many only namespaces owned by the initial user
 *	namespace may take; runtime-tunable
 * @per_owner: most sets one owner may have; runtime-tunable
 * @size: ring size of each log of a new set; runtime-tunable
 * @max_size: the largest ring size a set's owner may give its logs with
 *	NSLOG_IOC_SET_SIZE; runtime-tunable, applies to sets that exist
 * @grace_ms: how long a dead namespace's set is kept for collectors
 * @changes: how many times a set was made, found dead or let go; written
 *	under @lock, read locklessly
 * @watch: woken at each change, for pollers of the listing
 * @charge_lock: guards the owners' stream counts (&nslog_ns_tenant)
 * @owner_streams: most streams one owner may have; runtime-tunable
 * @owner_stream_bytes: most bytes of ring its streams may have together;
 *	runtime-tunable
 */
struct nslog_ns_registry {
	/* the table, the owners and the counts */
	struct mutex lock;
	DECLARE_HASHTABLE(table, NSLOG_NS_HASH_BITS);
	DECLARE_HASHTABLE(owners, NSLOG_NS_OWNER_BITS);
	unsigned int hashed;
	unsigned int count;
	unsigned int max;
	unsigned int reserve;
	unsigned int per_owner;
	u32 size;
	u32 max_size;
	unsigned int grace_ms;
	u64 changes;
	wait_queue_head_t watch;
	/* the owners' streams */
	spinlock_t charge_lock;
	unsigned int owner_streams;
	unsigned long owner_stream_bytes;
};

void nslog_ns_registry_init(struct nslog_ns_registry *reg);
void nslog_ns_registry_destroy(struct nslog_ns_registry *reg);
struct nslog_logset *nslog_ns_get(struct nslog_ns_registry *reg,
				  const struct nslog_ns_key *key, bool create);
struct nslog_logset *nslog_ns_find_id(struct nslog_ns_registry *reg,
				      unsigned int id);
unsigned int nslog_ns_reap(struct nslog_ns_registry *reg, u64 now);
unsigned int nslog_ns_owner_sets(struct nslog_ns_registry *reg,
				 const struct nslog_ns_owner *owner);
void nslog_ns_owner_of(const struct user_namespace *user_ns,
		       struct nslog_ns_owner *owner);

struct nslog_logset *nslog_ns_current_set(void);
struct nslog_logset *nslog_ns_task_set(struct task_struct *task, bool create);
struct nslog_logset *nslog_ns_nsfs_set(struct file *nsfs);
struct nslog_logset *nslog_ns_id_set(u64 id);
void nslog_ns_put_set(struct nslog_logset *set);
int nslog_ns_show(struct seq_file *m, void *v);
int nslog_ns_show_owners(struct seq_file *m, void *v);
u64 nslog_ns_changes(void);
void nslog_ns_note_change(void);
__poll_t nslog_ns_poll(struct file *file, poll_table *wait, u64 seen);

int nslog_ns_init(void);
void nslog_ns_exit(void);

#endif /* _NSLOG_NS_REGISTRY_H */
