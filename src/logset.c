// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: log sets.
 *
 * A log set is the four logs of one IPC namespace and the streams made in it
 * at run time: the initial namespace's is static and sized by the
 * parameters below, the others belong to the registry (src/ns/).  The set
 * sits above its logs (log.c) and its streams (stream.c), which never call
 * back into it.
 */

#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/poll.h>
#include <linux/proc_ns.h>
#include <linux/random.h>
#include <linux/user_namespace.h>

#include "logset.h"
#include "stream.h"

/* Ring sizes of the initial namespace's logs; set at load time only. */
static u32 nslog_log_sizes[NSLOG_NR_LOGS] = {
	[NSLOG_LOG_MAIN]	= 256 << 10,
	[NSLOG_LOG_EVENTS]	= 256 << 10,
	[NSLOG_LOG_RADIO]	= 256 << 10,
	[NSLOG_LOG_SYSTEM]	= 256 << 10,
};

module_param_cb(main_size, &nslog_log_size_ops,
		&nslog_log_sizes[NSLOG_LOG_MAIN], 0444);
MODULE_PARM_DESC(main_size, "ring size of log_main (power of two, default 256K)");
module_param_cb(events_size, &nslog_log_size_ops,
		&nslog_log_sizes[NSLOG_LOG_EVENTS], 0444);
MODULE_PARM_DESC(events_size, "ring size of log_events (power of two, default 256K)");
module_param_cb(radio_size, &nslog_log_size_ops,
		&nslog_log_sizes[NSLOG_LOG_RADIO], 0444);
MODULE_PARM_DESC(radio_size, "ring size of log_radio (power of two, default 256K)");
module_param_cb(system_size, &nslog_log_size_ops,
		&nslog_log_sizes[NSLOG_LOG_SYSTEM], 0444);
MODULE_PARM_DESC(system_size, "ring size of log_system (power of two, default 256K)");

static struct nslog_logset nslog_init_set;

/* The initial namespace's logs may be resized up to the ring's maximum. */
static const u32 nslog_logset_init_max_size = NSLOG_RING_MAX_SIZE;

/* Set ids: a random start at load, so that a reload does not repeat ids. */
static atomic64_t nslog_set_ids;

/**
 * nslog_logset_init() - set up a log set with no storage yet
 * @set: the set
 * @user_ns: the user namespace whose CAP_SYSLOG governs it; a reference is
 *	taken
 * @ns_id: its IPC namespace's id
 * @sizes: ring size of each log
 * @max_size: the largest size its logs may be given at run time; read
 *	with READ_ONCE() at each resize, so it may be a tunable
 *
 * The set starts with one reference, its owner's, and a new id.
 *
 * Context: process context.
 */
void nslog_logset_init(struct nslog_logset *set,
		       struct user_namespace *user_ns, u32 ns_id,
		       const u32 sizes[NSLOG_NR_LOGS], const u32 *max_size)
{
	int i;

	refcount_set(&set->ref, 1);
	set->user_ns = get_user_ns(user_ns);
	set->release = NULL;
	set->id = atomic64_inc_return(&nslog_set_ids);
	set->ns_id = ns_id;
	set->max_size = max_size;
	atomic64_set(&set->order, 0);
	set->dead = false;
	for (i = 0; i < NSLOG_NR_LOGS; i++)
		nslog_log_setup(&set->logs[i], set, &set->order, i, sizes[i]);
	nslog_streams_init(set);
}

/**
 * nslog_logset_kill() - tell a set's readers that it is gone
 * @set: a registry set whose namespace died and that was let go
 *
 * Readers that have read everything then get end of file, and poll()
 * reports a hang-up; those asleep in read() or poll() are woken for it.
 *
 * Context: process context.
 */
void nslog_logset_kill(struct nslog_logset *set)
{
	int i;

	/* Paired with READ_ONCE() in the readers' wait conditions. */
	WRITE_ONCE(set->dead, true);
	for (i = 0; i < NSLOG_NR_LOGS; i++)
		wake_up_interruptible_poll(&set->logs[i].wait,
					   EPOLLIN | EPOLLHUP);
	nslog_streams_kill(set);
}

/**
 * nslog_logset_destroy() - free a set's records and storage
 * @set: the set, with no reference left
 *
 * Context: process context, may sleep.
 */
void nslog_logset_destroy(struct nslog_logset *set)
{
	int i;

	nslog_streams_destroy(set);
	for (i = 0; i < NSLOG_NR_LOGS; i++)
		nslog_log_teardown(&set->logs[i]);
	put_user_ns(set->user_ns);
}

/**
 * nslog_logset_get_init() - the initial IPC namespace's log set
 *
 * Context: any.
 * Return: a counted reference, for nslog_logset_put().
 */
struct nslog_logset *nslog_logset_get_init(void)
{
	refcount_inc(&nslog_init_set.ref);
	return &nslog_init_set;
}

/**
 * nslog_logset_put() - drop a reference to a log set
 * @set: the set
 *
 * Context: process context.
 */
void nslog_logset_put(struct nslog_logset *set)
{
	/* The initial set's last reference is dropped by nslog_logsets_exit(). */
	if (refcount_dec_and_test(&set->ref)) {
		nslog_logset_destroy(set);
		if (set->release)
			set->release(set);
	}
}

/**
 * nslog_logsets_init() - set up the initial namespace's logs
 *
 * Context: module init.
 * Return: 0.
 */
int nslog_logsets_init(void)
{
	atomic64_set(&nslog_set_ids, get_random_u64() >> 1);
	nslog_logset_init(&nslog_init_set, &init_user_ns, PROC_IPC_INIT_INO,
			  nslog_log_sizes, &nslog_logset_init_max_size);
	return 0;
}

/**
 * nslog_logsets_exit() - free the initial namespace's logs
 *
 * Context: module exit; no file is open any more.
 */
void nslog_logsets_exit(void)
{
	nslog_logset_put(&nslog_init_set);
}
