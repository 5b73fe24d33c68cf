// SPDX-License-Identifier: GPL-2.0
/*
 * streams: crash, stats, security and kernel in streams of the set.
 *
 * A set has four logs (main, radio, events, system); Android has eight.
 * The other four are kept in streams of the same set, named as Android
 * names the logs ("crash", "stats", "security", "kernel"), which are
 * files of an nslogfs mount (docs/nslogfs.md). nslogd holds a view of
 * its set's nslogfs, chosen at start, before it drops its privileges:
 *
 *  1. the nodes' directory, if it is itself an nslogfs mount (statfs
 *     says NSLOGFS_SUPER_MAGIC) where the user nslogd becomes may make
 *     files;
 *  2. else a mount of its own, made with the new mount API (fsopen(),
 *     fsconfig(), fsmount()) and never attached anywhere: no
 *     move_mount(), so nothing appears in the container's tree, and the
 *     mount goes when nslogd's fd of it is closed. It needs CAP_SYS_ADMIN
 *     over the set's user namespace (a container's root), which nslogd
 *     does not keep: hence at start. Its options let nslogd make streams
 *     once it is another user with CAP_SYSLOG alone: the root directory
 *     is the user's (uid=, gid=), the four logs of this mount are its own
 *     (mode=0600: nobody else sees this mount anyway), and a stream is
 *     made at the smallest size (size=8K) and then sized;
 *  3. else the nodes' directory if it is nslogfs at all: the streams
 *     already there are used, and making one fails (counted, told);
 *  4. else none: logs 4 to 7 are not kept (counted, told).
 *
 * A stream is made on first use (a record for it, a reader or setLogSize
 * asking for it), mode 0600: every access goes through nslogd, whose
 * rules (the security log for system only, an app its own uid's
 * records) are the ones Android's readers expect; the host reads it
 * through the kernel (NSLOG_IOC_OPEN_STREAM, /proc/nslogger/namespaces).
 * It is then sized as logd sizes its logs, NSLOGD_STREAM_SIZE, or the
 * largest the limits allow (ringfit.c): a container's set is allowed
 * 64 KiB by default. A restarted nslogd opens the streams again, with
 * what they hold: a stream belongs to the set, not to the mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/mount.h>
#include <linux/nslogger.h>

#include "devpath.h"
#include "streams.h"

static const char *const stream_names[] = {
	"crash", "stats", "security", "kernel",
};

/**
 * nslogd_stream_name() - the stream that keeps an Android log
 * @log_id: an Android log id
 *
 * Context: any.
 * Return: "crash", "stats", "security" or "kernel" for 4 to 7, else NULL.
 */
const char *nslogd_stream_name(unsigned int log_id)
{
	if (log_id < NSLOGD_STREAM_FIRST || log_id > NSLOGD_STREAM_LAST)
		return NULL;
	return stream_names[log_id - NSLOGD_STREAM_FIRST];
}

/**
 * nslogd_view_name() - a word for where the view came from
 * @v: the view
 *
 * Context: any.
 * Return: a static string.
 */
const char *nslogd_view_name(enum nslogd_view v)
{
	switch (v) {
	case NSLOGD_VIEW_DEV_DIR:
		return "the nodes' nslogfs";
	case NSLOGD_VIEW_MOUNT:
		return "a detached nslogfs mount";
	default:
		return "none";
	}
}

/**
 * nslogd_streams_init() - streams in a view already open
 * @st: the streams
 * @dirfd: the view's root directory (O_PATH will do), taken over; -1 for
 *	none
 * @view: where it came from
 * @ioctl_fn: nslogd_ringctl_ioctl(), or a stand-in, to size a stream made
 *
 * Context: any.
 */
void nslogd_streams_init(struct nslogd_streams *st, int dirfd,
			 enum nslogd_view view, nslogd_ringctl_ioctl_fn *ioctl_fn)
{
	memset(st, 0, sizeof(*st));
	st->dirfd = dirfd;
	st->view = dirfd < 0 ? NSLOGD_VIEW_NONE : view;
	st->err = dirfd < 0 ? ENODEV : 0;
	st->ioctl = ioctl_fn;
}

/**
 * nslogd_streams_may_make() - whether a user may make files in a directory
 * @dir: the directory's attributes
 * @who: the user, as nslogd will be once its privileges are dropped (no
 *	capability overrides a mode then)
 *
 * Context: any.
 * Return: true if the mode grants @who write and search.
 */
bool nslogd_streams_may_make(const struct stat *dir,
			     const struct nslogd_who *who)
{
	mode_t m = dir->st_mode;
	bool member = who->gid == dir->st_gid;
	size_t i;

	for (i = 0; i < who->ngroups && !member; i++)
		member = who->groups[i] == dir->st_gid;
	if (who->uid == dir->st_uid)
		return (m & 0300) == 0300;
	if (member)
		return (m & 0030) == 0030;
	return (m & 0003) == 0003;
}

static int fs_set(int fsfd, const char *key, const char *value)
{
	return (int)syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_STRING, key, value,
			    0);
}

/* A detached nslogfs mount of the caller's set: its root's fd, or -errno. */
static int mount_own(const struct nslogd_who *who)
{
	char uid[16], gid[16];
	int fsfd, mfd, err;

	fsfd = (int)syscall(SYS_fsopen, "nslogfs", FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return -errno;
	snprintf(uid, sizeof(uid), "%u", (unsigned int)who->uid);
	snprintf(gid, sizeof(gid), "%u", (unsigned int)who->gid);
	if (fs_set(fsfd, "uid", uid) || fs_set(fsfd, "gid", gid) ||
	    fs_set(fsfd, "mode", "0600") || fs_set(fsfd, "size", "8K") ||
	    syscall(SYS_fsconfig, fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		goto err_close;
	mfd = (int)syscall(SYS_fsmount, fsfd, FSMOUNT_CLOEXEC,
			   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			   MOUNT_ATTR_NOEXEC);
	if (mfd < 0)
		goto err_close;
	close(fsfd);
	return mfd;

err_close:
	err = -errno;
	close(fsfd);
	return err;
}

/* The directory of the main node, if it is an nslogfs mount: its fd. */
static int dev_dir_view(const char *dev_dir)
{
	char path[NSLOG_PATH_MAX], *slash;
	struct statfs sfs;
	int fd;

	if (nslog_dev_path(path, sizeof(path), NSLOG_BUF_MAIN, dev_dir) < 0)
		return -1;
	slash = strrchr(path, '/');
	if (!slash)
		return -1;
	if (slash == path)
		slash++;
	*slash = '\0';
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstatfs(fd, &sfs) || (unsigned long)sfs.f_type != NSLOGFS_SUPER_MAGIC) {
		close(fd);
		return -1;
	}
	return fd;
}

/**
 * nslogd_streams_view() - choose and open the view (see the top)
 * @st: the streams, initialised here
 * @dev_dir: the nodes' directory, as nslog_dev_path() takes it
 * @who: the user nslogd will become: the mount's root is made its own
 * @ioctl_fn: nslogd_ringctl_ioctl(), or a stand-in
 *
 * Context: process, before the privileges are dropped; may mount.
 * Return: 0 with a view in @st->view; or -errno of the mount when there
 * is none. @st->err holds the mount's errno whenever there is no mount of
 * nslogd's own: the reason none, or the reason the view is the nodes'
 * nslogfs where nslogd may not make streams.
 */
int nslogd_streams_view(struct nslogd_streams *st, const char *dev_dir,
			const struct nslogd_who *who,
			nslogd_ringctl_ioctl_fn *ioctl_fn)
{
	struct stat root;
	int dfd = dev_dir_view(dev_dir), mfd;

	if (dfd >= 0 && !fstat(dfd, &root) &&
	    nslogd_streams_may_make(&root, who)) {
		nslogd_streams_init(st, dfd, NSLOGD_VIEW_DEV_DIR, ioctl_fn);
		return 0;
	}
	mfd = mount_own(who);
	if (mfd >= 0) {
		if (dfd >= 0)
			close(dfd);
		nslogd_streams_init(st, mfd, NSLOGD_VIEW_MOUNT, ioctl_fn);
		return 0;
	}
	/* The nodes' nslogfs, where making may be refused; or none. */
	nslogd_streams_init(st, dfd, NSLOGD_VIEW_DEV_DIR, ioctl_fn);
	st->err = -mfd;
	return dfd >= 0 ? 0 : mfd;
}

/**
 * nslogd_streams_open() - open the stream of a log, making it if asked
 * @st: the streams; NULL (a store without them) is as no view: -ENOENT
 * @log_id: 4 to 7
 * @flags: open()'s: O_WRONLY, or O_RDONLY | O_NONBLOCK
 * @make: make it if it is not there (its first use), and size it
 *
 * Context: process; opens files, may make a stream.
 * Return: the fd, close-on-exec; -ENOENT for a stream not there and not
 * made, or no view at all; -EINVAL for another id; or -errno of the
 * open or of the making (-EACCES: the view's directory is not nslogd's;
 * -ENOSPC, -EDQUOT, -EFBIG: limits, docs/nslogfs.md).
 */
int nslogd_streams_open(struct nslogd_streams *st, unsigned int log_id,
			int flags, bool make)
{
	const char *name = nslogd_stream_name(log_id);
	int fd, tries;

	if (!name)
		return -EINVAL;
	if (!st || st->dirfd < 0)
		return -ENOENT;
	for (tries = 0; tries < 2; tries++) {
		fd = openat(st->dirfd, name, flags | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (errno != ENOENT || !make)
			return -errno;
		fd = openat(st->dirfd, name,
			    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			    NSLOGD_STREAM_MODE);
		if (fd < 0 && errno == EEXIST)
			continue;	/* made meanwhile, by another mount */
		if (fd < 0)
			return -errno;
		/* Too small is better than none: its mount's size stays. */
		nslogd_ringfit(st->ioctl, fd, NSLOGD_STREAM_SIZE);
		st->made |= 1ull << log_id;
		close(fd);
	}
	fd = openat(st->dirfd, name, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/**
 * nslogd_streams_stale() - whether an fd is no longer of the named stream
 * @st: the streams; NULL (a store without them): false
 * @log_id: 4 to 7
 * @fd: an fd nslogd_streams_open() gave for it
 *
 * A stream removed (unlinked through any mount of the set) still takes
 * records on the files open on it, which no new reader will ever see; a
 * stream of the same name made since is another log. Either way the
 * name leads elsewhere than @fd, or nowhere.
 *
 * Context: process; two stat calls.
 * Return: true if @fd should be closed and the stream opened again.
 */
bool nslogd_streams_stale(const struct nslogd_streams *st,
			  unsigned int log_id, int fd)
{
	const char *name = nslogd_stream_name(log_id);
	struct stat a, b;

	if (!name || !st || st->dirfd < 0)
		return false;
	if (fstatat(st->dirfd, name, &a, 0) || fstat(fd, &b))
		return true;
	return a.st_ino != b.st_ino || a.st_dev != b.st_dev;
}

/**
 * nslogd_streams_close() - let the view go
 * @st: the streams
 *
 * A detached mount goes with its fd; the streams stay in the set.
 *
 * Context: process.
 */
void nslogd_streams_close(struct nslogd_streams *st)
{
	if (st->dirfd >= 0)
		close(st->dirfd);
	st->dirfd = -1;
}
