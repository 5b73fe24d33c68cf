// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: records a relay stores for another process (NSLOG_IOC_RELAY).
 */

/**
 * DOC: relays
 *
 * Android 7 and later log through logd's datagram socket, never through
 * /dev/log: a daemon that speaks logd's protocol (nslogd) learns each
 * record's sender from SCM_CREDENTIALS and must store the record as that
 * sender's.  If it called write(), every record would carry the daemon's
 * identity and be charged to the daemon's cgroup.
 *
 * So the relay names the writer by the pid SCM_CREDENTIALS gave it, and the
 * kernel does what it does for write(): it finds the process itself (in the
 * relay's pid namespace), checks that it lives in the set's IPC namespace,
 * stamps its thread group and effective uid, and charges its cgroups.  What
 * the relay cannot know better than the writer told it (the thread id and
 * the time of logd's header) is kept as a claim and shown as such.
 *
 * In the ring a relayed record is a plain record with NSLOG_REC_RELAY, the
 * relay's thread group in the slot of the writer's thread, and a struct
 * nslog_rec_relay (16 bytes) of claims before the payload.
 *
 * A writer that is gone (exited, possibly reaped, before the relay read its
 * datagram) cannot be looked at.  With NSLOG_RELAY_KEEP_EXITED its record is
 * stored with the pid and uid the relay passes (what SCM_CREDENTIALS said,
 * which the kernel checked when the datagram was sent), marked
 * NSLOG_REC_UNVERIFIED, and charged to the relay's cgroups: the relay could
 * have written it itself with write() at that cost, so no limit is escaped
 * (docs/security.md).
 *
 * Which log: the one of the file's set that the argument's Android log id
 * names (main, radio, events, system), or with NSLOG_RELAY_FILE_LOG the
 * file's own log, which may be a stream: Android's crash, stats and
 * security logs have no log of their own in a set, and a relay keeps them
 * in streams it made (tools/nslogd).  A stream removed while the file is
 * open takes the record as write() on that file does: stored, for the
 * readers that still have it open.
 *
 * Who may relay: CAP_SYSLOG in the user namespace that owns the set, as for
 * reading all of it; the host's CAP_SYSLOG also through a read fd (host
 * collection's) and into the writer's own set (NSLOG_RELAY_WRITER_SET).
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/user_namespace.h>

#include <uapi/linux/nslogger.h>

#include "log.h"
#include "logset.h"
#include "ns/registry.h"
#include "ratelimit/ratelimit.h"
#include "relay.h"

/* A set's log for each of Android's LOG_ID_* a relay may name. */
static const unsigned int nslog_relay_logs[] = {
	[0] = NSLOG_LOG_MAIN,
	[1] = NSLOG_LOG_RADIO,
	[2] = NSLOG_LOG_EVENTS,
	[3] = NSLOG_LOG_SYSTEM,
};

/**
 * nslog_relay_check() - validate an NSLOG_IOC_RELAY argument by itself
 * @arg: the argument, copied in
 *
 * Context: any.
 * Return: 0; -EINVAL for an unknown flag, a reserved field that is not 0,
 * a log id other than main, radio, events or system (other than 0 with
 * NSLOG_RELAY_FILE_LOG), NSLOG_RELAY_FILE_LOG with NSLOG_RELAY_WRITER_SET,
 * a pid of 0 or less, a negative tid or time, or an empty payload;
 * -EMSGSIZE for a payload over LOGGER_ENTRY_MAX_PAYLOAD.
 */
int nslog_relay_check(const struct nslog_relay *arg)
{
	if (arg->flags & ~NSLOG_RELAY_FLAGS)
		return -EINVAL;
	if (arg->__reserved[0] || arg->__reserved[1])
		return -EINVAL;
	if (arg->log_id >= ARRAY_SIZE(nslog_relay_logs))
		return -EINVAL;
	/* The file's log is of the file's set, and named by no id. */
	if ((arg->flags & NSLOG_RELAY_FILE_LOG) &&
	    (arg->log_id || (arg->flags & NSLOG_RELAY_WRITER_SET)))
		return -EINVAL;
	if (arg->pid <= 0 || arg->tid < 0 || arg->time_ns < 0)
		return -EINVAL;
	if (!arg->len)
		return -EINVAL;
	if (arg->len > LOGGER_ENTRY_MAX_PAYLOAD)
		return -EMSGSIZE;
	return 0;
}

/**
 * nslog_relay_log() - which of a set's logs a checked argument names
 * @arg: an argument nslog_relay_check() accepted, without
 *	NSLOG_RELAY_FILE_LOG
 *
 * Context: any.
 * Return: an &enum nslog_log_id.
 */
unsigned int nslog_relay_log(const struct nslog_relay *arg)
{
	return nslog_relay_logs[arg->log_id];
}

/**
 * nslog_relay_stamp() - the header and claims of a relayed record
 * @rec: filled in; holds a reference to the current task's thread group
 *	(the relay) and takes over @writer's
 * @rel: filled in with the claims
 * @arg: the relay's argument, checked
 * @writer: the writer's thread group, a counted reference taken over; NULL
 *	for a writer that is gone (then @arg->pid is kept as a claim)
 * @euid: the writer's effective uid, or for a writer that is gone the uid
 *	the relay passed
 *
 * Context: process context.
 */
void nslog_relay_stamp(struct nslog_rec *rec, struct nslog_rec_relay *rel,
		       const struct nslog_relay *arg, struct pid *writer,
		       kuid_t euid)
{
	rec->ts_ns = ktime_get_real_ns();
	rec->tgid = writer;
	rec->tid = get_pid(task_tgid(current));
	rec->euid = euid;
	rec->len = sizeof(*rel) + arg->len;
	rec->flags = NSLOG_REC_RELAY | (writer ? 0 : NSLOG_REC_UNVERIFIED);
	rel->claim_ns = arg->time_ns;
	rel->claim_tid = arg->tid;
	rel->claim_pid = writer ? 0 : arg->pid;
}

/*
 * The process a relay names, in the relay's pid namespace: its thread
 * group leader, held, with its struct pid in @pidp; NULL if no process has
 * that id or it is exiting.
 */
static struct task_struct *nslog_relay_writer(pid_t nr, struct pid **pidp)
{
	struct task_struct *task;
	struct pid *pid;

	pid = find_get_pid(nr);
	if (!pid)
		return NULL;
	task = get_pid_task(pid, PIDTYPE_TGID);
	if (task && !(READ_ONCE(task->flags) & PF_EXITING)) {
		*pidp = pid;
		return task;
	}
	if (task)
		put_task_struct(task);
	put_pid(pid);
	return NULL;
}

/*
 * The set a live writer's record goes to: @set, the file's, if the writer
 * lives in its IPC namespace; with NSLOG_RELAY_WRITER_SET the writer's own.
 * Returns a counted reference, ERR_PTR(-EPERM) for a writer of another
 * namespace, or ERR_PTR(-ESRCH) if it exited meanwhile.
 */
static struct nslog_logset *nslog_relay_target(struct task_struct *task,
					       struct nslog_logset *set,
					       bool writer_set)
{
	struct nslog_logset *wset;

	wset = nslog_ns_task_set(task, writer_set);
	if (writer_set || IS_ERR(wset)) {
		if (PTR_ERR(wset) == -ENOENT)
			return ERR_PTR(-EPERM);
		return wset;
	}
	if (wset != set) {
		nslog_ns_put_set(wset);
		return ERR_PTR(-EPERM);
	}
	return wset;
}

/* Who may relay through @file into @set; see the DOC comment. */
static int nslog_relay_may(struct file *file, struct nslog_logset *set,
			   const struct nslog_relay *arg)
{
	if (!(file->f_mode & FMODE_WRITE) && !capable(CAP_SYSLOG))
		return -EBADF;
	if ((arg->flags & NSLOG_RELAY_WRITER_SET) && !capable(CAP_SYSLOG))
		return -EPERM;
	if (!ns_capable(set->user_ns, CAP_SYSLOG))
		return -EPERM;
	return 0;
}

/**
 * nslog_relay_ioctl() - NSLOG_IOC_RELAY: store a record for another process
 * @file: the file the ioctl came on, a file of @log; only its mode is
 *	looked at
 * @log: its log, held by the file with its set: with NSLOG_RELAY_FILE_LOG
 *	the record goes to @log, else to the log the argument names of
 *	@log's set, or of the writer's set with NSLOG_RELAY_WRITER_SET
 * @uarg: the argument
 *
 * Nothing is stored on any error.  See the uapi header and docs/abi.md.
 *
 * Context: process context, may sleep.
 * Return: the payload length (also when a rate limit dropped the record,
 * unless drop_errno is set: then -EAGAIN), or a negative errno.
 */
long nslog_relay_ioctl(struct file *file, struct nslog_log *log,
		       struct nslog_relay __user *uarg)
{
	struct nslog_logset *set = log->set, *target = NULL;
	struct task_struct *task = NULL;
	struct nslog_rec_relay rel;
	struct nslog_relay arg;
	struct pid *writer = NULL;
	struct iov_iter from;
	struct nslog_rec rec;
	void __user *payload;
	kuid_t euid;
	long err;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	err = nslog_relay_check(&arg);
	if (err)
		return err;
	err = nslog_relay_may(file, set, &arg);
	if (err)
		return err;

	/*
	 * The payload is copied once, from the caller straight into the ring,
	 * as write() copies; a buffer that cannot be read is refused here,
	 * before anything is looked up or charged.
	 */
	payload = u64_to_user_ptr(arg.payload);
	if (!access_ok(payload, arg.len))
		return -EFAULT;
	iov_iter_ubuf(&from, ITER_SOURCE, payload, arg.len);
	if (fault_in_iov_iter_readable(&from, arg.len))
		return -EFAULT;

	task = nslog_relay_writer(arg.pid, &writer);
	if (task) {
		target = nslog_relay_target(task, set,
					    arg.flags & NSLOG_RELAY_WRITER_SET);
		if (IS_ERR(target) && PTR_ERR(target) == -ESRCH) {
			/* It exited after all: a writer that is gone. */
			put_task_struct(task);
			put_pid(writer);
			task = NULL;
			writer = NULL;
			target = NULL;
		} else if (IS_ERR(target)) {
			err = PTR_ERR(target);
			target = NULL;
			goto out_put_task;
		}
	}
	if (task) {
		euid = task_euid(task);
	} else {
		/* A writer that is gone: only its own set is known, the file's. */
		if (!(arg.flags & NSLOG_RELAY_KEEP_EXITED) ||
		    (arg.flags & NSLOG_RELAY_WRITER_SET))
			return -ESRCH;
		euid = make_kuid(current_user_ns(), arg.uid);
		if (!uid_valid(euid) || !kuid_has_mapping(set->user_ns, euid))
			return -EOVERFLOW;
		target = nslog_logset_get(set);
	}

	nslog_relay_stamp(&rec, &rel, &arg, writer, euid);
	/* The record holds the writer's reference now. */
	writer = NULL;
	/*
	 * Without WRITER_SET the target is the file's set: with FILE_LOG
	 * (which excludes it) the file's own log.  A gone writer's record is
	 * paid for by the relay.
	 */
	if (!(arg.flags & NSLOG_RELAY_FILE_LOG))
		log = &target->logs[nslog_relay_log(&arg)];
	err = nslog_log_store_for(log, task ?: current, &rec, &rel, &from);
	if (err == -EAGAIN && !nslog_rl_drop_fails())
		err = 0;
	if (!err)
		err = arg.len;
	nslog_ns_put_set(target);

out_put_task:
	if (task)
		put_task_struct(task);
	put_pid(writer);
	return err;
}
