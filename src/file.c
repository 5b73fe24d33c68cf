// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: an open file of a log, whatever it was opened through.
 *
 * Each open file is a writer, a reader, or both.  A reader has a cursor into
 * its log's ring, a header version (1 by default; 2, or nslogger's own
 * NSLOG_ENTRY_VERSION, after LOGGER_SET_VERSION) and a filter fixed at open
 * time: the pid namespace its pids are shown in and whether it may see every
 * record or only those of its own effective uid.  Once its set is let go (its
 * namespace died, see src/ns/), a reader that has read everything gets end
 * of file.
 *
 * The same file operations serve the device nodes (device.c), the files of
 * an nslogfs mount (fs/nslogfs.c) and the files host collection opens
 * (NSLOG_IOC_OPEN_NS).  What differs is decided by the opener: which set and
 * log, whether a reader sees everything, and who may flush (see
 * nslog_file_open()).
 */

#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid_namespace.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/user_namespace.h>

#include <uapi/linux/nslogger.h>

#include "file.h"
#include "logset.h"
#include "ns/registry.h"
#include "relay.h"
#include "stream.h"

/**
 * struct nslog_file - one open file of a log device
 * @log: the log this file reads and writes
 * @lock: serialises the readers of this file (cursor, version)
 * @cur: the reader's place in the ring
 * @filter: what this reader may see, fixed at open; holds a reference to
 *	the opener's pid namespace
 * @version: header version returned by read(), 1, 2, NSLOG_ENTRY_VERSION
 *	or NSLOG_ENTRY2_VERSION
 * @payload: staging buffer for one payload on its way to user space
 * @opener: see &struct nslog_opener; NULL for files that cannot be written
 */
struct nslog_file {
	struct nslog_log *log;
	/* serialises this file's readers: @cur, @version, @payload */
	struct mutex lock;
	struct nslog_ring_cursor cur;
	struct nslog_ring_filter filter;
	int version;
	u8 *payload;
	const struct nslog_opener *opener;
};

/* Give back a log's references: the stream's, if it is one, then its set's. */
static void nslog_file_put_log(struct nslog_log *log)
{
	struct nslog_logset *set = log->set;
	struct nslog_stream *s = nslog_log_stream(log);

	if (s)
		nslog_stream_put(s);
	nslog_ns_put_set(set);
}

/* The header read() puts before a payload, by version. */
union nslog_hdr {
	struct logger_entry v1;
	struct logger_entry_v2 v2;
	struct nslog_entry ns;
	struct nslog_entry2 ns2;
};

static size_t nslog_hdr_size(int version)
{
	switch (version) {
	case 2:
		return sizeof(struct logger_entry_v2);
	case NSLOG_ENTRY_VERSION:
		return sizeof(struct nslog_entry);
	case NSLOG_ENTRY2_VERSION:
		return sizeof(struct nslog_entry2);
	default:
		return sizeof(struct logger_entry);
	}
}

/*
 * A file of @log, whose references (its set's, and the stream's if it is
 * one) it takes over.  Readers get their filter from the caller: pids shown
 * in its pid namespace, and every record (@all) or only its own euid's.
 */
static struct nslog_file *nslog_file_new(struct nslog_log *log, bool reader,
					 bool all)
{
	struct nslog_file *nf;

	nf = kzalloc(sizeof(*nf), GFP_KERNEL_ACCOUNT);
	if (!nf)
		goto err_put_log;
	nf->log = log;
	mutex_init(&nf->lock);
	nf->version = 1;
	if (reader) {
		nf->payload = kmalloc(LOGGER_ENTRY_MAX_PAYLOAD,
				      GFP_KERNEL_ACCOUNT);
		if (!nf->payload)
			goto err_free_file;
		nslog_ring_cursor_init(&nf->log->ring, &nf->cur);
		nf->filter.pid_ns = get_pid_ns(task_active_pid_ns(current));
		nf->filter.all = all;
		nf->filter.euid = current_euid();
	}
	return nf;

err_free_file:
	kfree(nf);
err_put_log:
	nslog_file_put_log(log);
	return NULL;
}

static void nslog_file_free(struct nslog_file *nf)
{
	if (nf->filter.pid_ns)
		put_pid_ns(nf->filter.pid_ns);
	kfree(nf->payload);
	nslog_file_put_log(nf->log);
	kfree(nf);
}

/**
 * nslog_file_open() - make @file a file of one log
 * @file: a file being opened, for reading, writing or both
 * @log: the log; the references to its set and, for a stream, to the stream
 *	are taken over, also on failure
 * @all: a reader sees every record, not only its own euid's; decided by
 *	the caller once, with the opener's credentials, like any right to
 *	read a file
 * @opener: what the opener decides later, see &struct nslog_opener
 *
 * Context: process context, from an open() method.
 * Return: 0, or -ENOMEM.
 */
int nslog_file_open(struct file *file, struct nslog_log *log, bool all,
		    const struct nslog_opener *opener)
{
	struct nslog_file *nf;

	nf = nslog_file_new(log, file->f_mode & FMODE_READ, all);
	if (!nf)
		return -ENOMEM;
	nf->opener = opener;
	file->private_data = nf;
	return stream_open(file_inode(file), file);
}

int nslog_file_release(struct inode *inode, struct file *file)
{
	nslog_file_free(file->private_data);
	return 0;
}

ssize_t nslog_file_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct nslog_file *nf = iocb->ki_filp->private_data;
	size_t len;

	/* One call is one record; the payload is cut at the ABI's maximum. */
	len = min_t(size_t, iov_iter_count(from), LOGGER_ENTRY_MAX_PAYLOAD);
	if (!len)
		return 0;
	return nslog_log_write(nf->log, from, len);
}

/* Move the reader's cursor; called with nf->lock held. */
static void nslog_file_advance(struct nslog_file *nf,
			       const struct nslog_ring_cursor *next)
{
	/* The position is also read locklessly by nslog_file_has_new(). */
	WRITE_ONCE(nf->cur.pos, next->pos);
	nf->cur.seq = next->seq;
	nf->cur.lost = next->lost;
}

static bool nslog_file_has_new(struct nslog_file *nf)
{
	return nslog_ring_has_new(&nf->log->ring, READ_ONCE(nf->cur.pos));
}

/* Whether the file's set was let go: a reader at its end is done. */
static bool nslog_file_dead(struct nslog_file *nf)
{
	/*
	 * Paired with WRITE_ONCE() in nslog_logset_kill() and
	 * nslog_stream_remove().
	 */
	return READ_ONCE(nf->log->set->dead) || READ_ONCE(nf->log->gone);
}

/* A record's flags as nslogger's headers show them. */
static u32 nslog_entry_flags(u16 flags)
{
	return (flags & NSLOG_REC_KERNEL ? NSLOG_ENTRY_KERNEL : 0) |
	       (flags & NSLOG_REC_RELAY ? NSLOG_ENTRY_RELAYED : 0) |
	       (flags & NSLOG_REC_UNVERIFIED ? NSLOG_ENTRY_UNVERIFIED : 0);
}

/* Fill in the header @nf's version asks for; returns its size. */
static size_t nslog_fill_hdr(struct nslog_file *nf, struct file *file,
			     const struct nslog_rec_view *view,
			     union nslog_hdr *hdr)
{
	struct timespec64 ts = ns_to_timespec64(view->ts_ns);

	memset(hdr, 0, sizeof(*hdr));
	if (nf->version == NSLOG_ENTRY_VERSION ||
	    nf->version == NSLOG_ENTRY2_VERSION) {
		hdr->ns.len = view->len;
		hdr->ns.hdr_size = nslog_hdr_size(nf->version);
		hdr->ns.pid = view->pid;
		hdr->ns.tid = view->tid;
		hdr->ns.euid = from_kuid_munged(file->f_cred->user_ns,
						view->euid);
		hdr->ns.seq = view->seq;
		hdr->ns.order = view->order;
		hdr->ns.lost = view->lost;
		hdr->ns.time_ns = view->ts_ns;
		hdr->ns.log_id = nslog_log_android_id(nf->log);
		hdr->ns.flags = nslog_entry_flags(view->flags);
		/* The first fields of nslog_entry2 are nslog_entry's. */
		hdr->ns2.relay_pid = view->relay_pid;
		hdr->ns2.stored_ns = view->stored_ns;
		return nslog_hdr_size(nf->version);
	}
	hdr->v2.len = view->len;
	hdr->v2.pid = view->pid;
	hdr->v2.tid = view->tid;
	/* The ABI's seconds are 32 bits wide: see the uapi header. */
	hdr->v2.sec = (s32)ts.tv_sec;
	hdr->v2.nsec = ts.tv_nsec;
	if (nf->version == 2) {
		hdr->v2.hdr_size = sizeof(hdr->v2);
		hdr->v2.euid = from_kuid_munged(file->f_cred->user_ns,
						view->euid);
	}
	return nslog_hdr_size(nf->version);
}

ssize_t nslog_file_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct nslog_file *nf = file->private_data;
	struct nslog_log *log = nf->log;
	union nslog_hdr hdr;
	struct nslog_ring_cursor next;
	struct nslog_rec_view view;
	size_t hdr_size;
	ssize_t ret;

	for (;;) {
		if (mutex_lock_interruptible(&nf->lock))
			return -EINTR;
		ret = nslog_ring_peek(&log->ring, &nf->cur, &nf->filter, &view,
				      nf->payload, &next);
		if (!ret)
			break;
		/* Nothing to see up to the head: skip what was looked at. */
		nslog_file_advance(nf, &next);
		mutex_unlock(&nf->lock);

		/* Read to its end, a dead set has nothing more to come. */
		if (nslog_file_dead(nf))
			return 0;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		/* Android's logger gave -EINTR, not a restart, on a signal. */
		if (wait_event_interruptible(log->wait, nslog_file_has_new(nf) ||
					     nslog_file_dead(nf)))
			return -EINTR;
	}

	hdr_size = nslog_fill_hdr(nf, file, &view, &hdr);
	if (count < hdr_size + view.len) {
		/* The record stays unread; the reader may retry bigger. */
		ret = -EINVAL;
		goto out_unlock;
	}
	if (copy_to_user(ubuf, &hdr, hdr_size) ||
	    copy_to_user(ubuf + hdr_size, nf->payload, view.len)) {
		ret = -EFAULT;
		goto out_unlock;
	}
	nslog_file_advance(nf, &next);
	ret = hdr_size + view.len;

out_unlock:
	mutex_unlock(&nf->lock);
	return ret;
}

__poll_t nslog_file_poll(struct file *file, poll_table *wait)
{
	struct nslog_file *nf = file->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;
	struct nslog_ring_cursor next;
	struct nslog_rec_view view;

	if (!(file->f_mode & FMODE_READ))
		return mask;

	poll_wait(file, &nf->log->wait, wait);
	/* Pairs with wq_has_sleeper() in nslog_log_wake(). */
	smp_mb();
	if (nslog_file_dead(nf))
		mask |= EPOLLHUP;

	/*
	 * Another thread of this file may hold the lock inside read(), for as
	 * long as its copy to user space takes (a userfaultfd page: forever).
	 * poll() must not wait for it: then the lockless hint answers, which
	 * may say readable when only records this reader cannot see, or none
	 * (lapped), are there.
	 */
	if (!mutex_trylock(&nf->lock)) {
		if (nslog_file_has_new(nf))
			mask |= EPOLLIN | EPOLLRDNORM;
		return mask;
	}
	if (!nslog_ring_peek(&nf->log->ring, &nf->cur, &nf->filter, &view,
			     NULL, &next)) {
		mask |= EPOLLIN | EPOLLRDNORM;
	} else {
		nslog_file_advance(nf, &next);
	}
	mutex_unlock(&nf->lock);
	return mask;
}

static long nslog_next_entry_len(struct nslog_file *nf)
{
	struct nslog_ring_cursor next;
	struct nslog_rec_view view;
	long ret = 0;

	if (mutex_lock_interruptible(&nf->lock))
		return -ERESTARTSYS;
	if (!nslog_ring_peek(&nf->log->ring, &nf->cur, &nf->filter, &view,
			     NULL, &next)) {
		ret = nslog_hdr_size(nf->version) + view.len;
	} else {
		nslog_file_advance(nf, &next);
	}
	mutex_unlock(&nf->lock);
	return ret;
}

/* The set host collection names by an nsfs fd, or by an id with -1. */
static struct nslog_logset *nslog_other_set(s32 ns_fd, u64 ns_id)
{
	struct nslog_logset *set;
	struct file *nsfs;

	if (ns_fd == -1)
		return nslog_ns_id_set(ns_id);
	if (ns_fd < 0)
		return ERR_PTR(-EBADF);
	nsfs = fget(ns_fd);
	if (!nsfs)
		return ERR_PTR(-EBADF);
	set = nslog_ns_nsfs_set(nsfs);
	fput(nsfs);
	return set;
}

/*
 * The log of @set named @name, one of the four or a stream, with the
 * references a file takes over; @set's reference is taken over, also on
 * failure.
 */
static struct nslog_log *nslog_named_log(struct nslog_logset *set,
					 const char *name)
{
	struct nslog_stream *s;
	int i;

	for (i = 0; i < NSLOG_NR_LOGS; i++)
		if (!strcmp(name, nslog_log_names[i]))
			return &set->logs[i];
	s = nslog_stream_find(set, name);
	if (s)
		return &s->log;
	nslog_ns_put_set(set);
	return ERR_PTR(-ENOENT);
}

/* A new read-only, close-on-exec fd of @log, whose references it takes. */
static int nslog_file_install_reader(struct nslog_log *log)
{
	struct nslog_file *nnf;
	struct file *file;
	int fd;

	nnf = nslog_file_new(log, true, true);
	if (!nnf)
		return -ENOMEM;
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		goto err_free_file;
	file = anon_inode_getfile("[nslogger]", &nslog_file_fops, nnf,
				  O_RDONLY | O_CLOEXEC);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		fd = PTR_ERR(file);
		goto err_free_file;
	}
	/* A stream, like the device files: no seeking, no positional I/O. */
	file->f_mode &= ~(FMODE_LSEEK | FMODE_PREAD | FMODE_PWRITE);
	file->f_mode |= FMODE_STREAM;
	fd_install(fd, file);
	return fd;

err_free_file:
	nslog_file_free(nnf);
	return fd;
}

/*
 * Host collection: a new read-only file on the log named @name of the set
 * of the IPC namespace named by an nsfs fd (@ns_fd) or by its id (@ns_id,
 * with @ns_fd -1).
 */
static long nslog_open_named(s32 ns_fd, u64 ns_id, const char *name)
{
	struct nslog_logset *set;
	struct nslog_log *log;

	set = nslog_other_set(ns_fd, ns_id);
	if (IS_ERR(set))
		return PTR_ERR(set);
	log = nslog_named_log(set, name);
	if (IS_ERR(log))
		return PTR_ERR(log);
	return nslog_file_install_reader(log);
}

/*
 * NSLOG_IOC_OPEN_NS: the same log as @nf's (for a stream, the stream of
 * the same name) of another set.  Only for CAP_SYSLOG in the initial user
 * namespace: a container's root has no say here.
 */
static long nslog_open_ns(struct nslog_file *nf,
			  struct nslog_open_ns __user *uarg)
{
	struct nslog_stream *s = nslog_log_stream(nf->log);
	struct nslog_open_ns arg;

	if (!capable(CAP_SYSLOG))
		return -EPERM;
	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (arg.flags)
		return -EINVAL;
	return nslog_open_named(arg.ns_fd, arg.ns_id,
				s ? s->name : nslog_log_names[nf->log->id]);
}

/* NSLOG_IOC_OPEN_STREAM: a log of another set by name, as OPEN_NS. */
static long nslog_open_stream(struct nslog_open_stream __user *uarg)
{
	struct nslog_open_stream arg;

	if (!capable(CAP_SYSLOG))
		return -EPERM;
	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (arg.flags || !memchr(arg.name, 0, sizeof(arg.name)))
		return -EINVAL;
	return nslog_open_named(arg.ns_fd, arg.ns_id, arg.name);
}

static long nslog_set_version(struct nslog_file *nf, int __user *uversion)
{
	int version;

	if (get_user(version, uversion))
		return -EFAULT;
	/* Not logd's 3 and 4 either, as Android's driver: see abi.md. */
	if (version != 1 && version != 2 && version != NSLOG_ENTRY_VERSION &&
	    version != NSLOG_ENTRY2_VERSION)
		return -EINVAL;
	if (mutex_lock_interruptible(&nf->lock))
		return -ERESTARTSYS;
	nf->version = version;
	mutex_unlock(&nf->lock);
	return 0;
}

static long nslog_info(struct nslog_file *nf, struct nslog_info __user *uinfo)
{
	struct nslog_logset *set = nf->log->set;
	struct nslog_info info = {
		.set_id = set->id,
		.ns_id = set->ns_id,
		.log_id = nslog_log_android_id(nf->log),
		.flags = nslog_file_dead(nf) ? NSLOG_INFO_DEAD : 0,
	};

	nslog_ring_extent(&nf->log->ring, &info.head_seq, &info.tail_seq);
	return copy_to_user(uinfo, &info, sizeof(info)) ? -EFAULT : 0;
}

static long nslog_seek(struct nslog_file *nf, struct nslog_seek __user *useek)
{
	struct nslog_ring_cursor next;
	struct nslog_seek arg;

	if (copy_from_user(&arg, useek, sizeof(arg)))
		return -EFAULT;
	if (mutex_lock_interruptible(&nf->lock))
		return -ERESTARTSYS;
	arg.lost = nslog_ring_seek(&nf->log->ring, &next, arg.seq);
	nslog_file_advance(nf, &next);
	mutex_unlock(&nf->lock);
	/* Positioned already: a bad pointer here only loses the answer. */
	return copy_to_user(useek, &arg, sizeof(arg)) ? -EFAULT : 0;
}

/*
 * A ring size is a matter of memory, not of reading: the log group's
 * members may flush but not resize, only CAP_SYSLOG over the set may, up
 * to what the host allows the set (nslog_log_resize()).
 */
static long nslog_set_size(struct file *file, u32 __user *usize)
{
	struct nslog_file *nf = file->private_data;
	u32 size;

	if (!ns_capable(nf->log->set->user_ns, CAP_SYSLOG))
		return -EPERM;
	if (get_user(size, usize))
		return -EFAULT;
	if (nf->opener->resize)
		return nf->opener->resize(file, size);
	return nslog_log_resize(nf->log, size,
				nslog_logset_max_size(nf->log->set));
}

/*
 * The Android ioctls.  Their numbers are _IO() although SET_VERSION takes a
 * pointer, and several return lengths: that is the ABI liblog and logcat
 * were built against, kept as it is.
 */
long nslog_file_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct nslog_file *nf = file->private_data;
	bool reader = file->f_mode & FMODE_READ;
	long ret;

	switch (cmd) {
	case LOGGER_GET_LOG_BUF_SIZE:
		return READ_ONCE(nf->log->ring.size);
	case LOGGER_GET_LOG_LEN:
		if (!reader)
			return -EBADF;
		if (mutex_lock_interruptible(&nf->lock))
			return -ERESTARTSYS;
		ret = nslog_ring_unread(&nf->log->ring, &nf->cur);
		mutex_unlock(&nf->lock);
		return ret;
	case LOGGER_GET_NEXT_ENTRY_LEN:
		if (!reader)
			return -EBADF;
		return nslog_next_entry_len(nf);
	case LOGGER_FLUSH_LOG:
		if (!(file->f_mode & FMODE_WRITE))
			return -EBADF;
		/* The caller's credentials, now: see nslog_file_open(). */
		if (!nf->opener->may_flush(file))
			return -EPERM;
		nslog_log_flush(nf->log);
		return 0;
	case LOGGER_GET_VERSION:
		if (!reader)
			return -EBADF;
		return READ_ONCE(nf->version);
	case LOGGER_SET_VERSION:
		if (!reader)
			return -EBADF;
		return nslog_set_version(nf, (int __user *)arg);
	case NSLOG_IOC_OPEN_NS:
		return nslog_open_ns(nf, (struct nslog_open_ns __user *)arg);
	case NSLOG_IOC_OPEN_STREAM:
		return nslog_open_stream((struct nslog_open_stream __user *)arg);
	case NSLOG_IOC_INFO:
		return nslog_info(nf, (struct nslog_info __user *)arg);
	case NSLOG_IOC_SEEK:
		if (!reader)
			return -EBADF;
		return nslog_seek(nf, (struct nslog_seek __user *)arg);
	case NSLOG_IOC_SET_SIZE:
		if (!(file->f_mode & FMODE_WRITE))
			return -EBADF;
		return nslog_set_size(file, (u32 __user *)arg);
	case NSLOG_IOC_RELAY:
		return nslog_relay_ioctl(file, nf->log,
					 (struct nslog_relay __user *)arg);
	default:
		return -ENOTTY;
	}
}

/**
 * nslog_file_log() - the log a file of nslog_file_open() is of
 * @file: the file
 *
 * Context: any, while @file is open.
 * Return: the log; its set is held as long as @file is open.
 */
struct nslog_log *nslog_file_log(struct file *file)
{
	struct nslog_file *nf = file->private_data;

	return nf->log;
}

/* For the files NSLOG_IOC_OPEN_NS makes, which are never opened by path. */
const struct file_operations nslog_file_fops = {
	NSLOG_FILE_OPS,
};
