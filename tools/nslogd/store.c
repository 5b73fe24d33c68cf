// SPDX-License-Identifier: GPL-2.0
/*
 * store: records into the set's logs with NSLOG_IOC_RELAY.
 *
 * The set is the one of nslogd's IPC namespace: the nodes are opened as
 * every tool opens them (lib/devpath), write-only, once, and kept. A node
 * missing at start (the module loaded later, /dev/log bound in later) is
 * tried again on use, at most once a second, so a missing node costs an
 * open() a second and not one per record.
 *
 * Crash (4), stats (5) and security (6) have no log in a set: they go to
 * streams of the same set (streams.c), made when their first record comes
 * and opened write-only then, through NSLOG_IOC_RELAY with
 * NSLOG_RELAY_FILE_LOG on the stream's fd. Without a view of the set's
 * nslogfs, or when a stream cannot be made, their records are counted as
 * NSLOGD_STORE_NO_LOG, and the stream is tried again at most once a
 * second, as a missing node. A kernel older than the flag refuses it
 * (-EINVAL: nslogd's arguments are otherwise always valid); from then on
 * their records are counted as NSLOGD_STORE_NO_FILE_LOG, never stored
 * anywhere else (not into main).
 *
 * A stream can be removed while nslogd holds it (an unlink through any
 * mount of the set): the records would go on into a log no new reader
 * finds. So, at most once a second and only when a record comes for it,
 * nslogd looks whether the name still leads to the stream it holds, and
 * opens (or makes) it again if not.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "devpath.h"
#include "store.h"

static const char *const result_names[NSLOGD_STORE_RESULTS] = {
	[NSLOGD_STORE_STORED]	= "stored",
	[NSLOGD_STORE_DROPPED]	= "dropped",
	[NSLOGD_STORE_NO_LOG]	= "no-log",
	[NSLOGD_STORE_FAILED]	= "failed",
	[NSLOGD_STORE_NO_FILE_LOG] = "no-file-log",
};

/**
 * nslogd_store_result_name() - the word stats use for a store result
 * @r: a result
 *
 * Context: any.
 * Return: a static string, "?" for a value out of range.
 */
const char *nslogd_store_result_name(enum nslogd_store_result r)
{
	if ((unsigned int)r >= NSLOGD_STORE_RESULTS)
		return "?";
	return result_names[r];
}

/**
 * nslogd_relay_ioctl() - NSLOG_IOC_RELAY itself
 * @fd: a write fd of one of the set's logs
 * @relay: the record and its writer
 *
 * Context: a system call; does not block (a rate limit drops, not waits).
 * Return: the payload length, or -errno.
 */
int nslogd_relay_ioctl(int fd, const struct nslog_relay *relay)
{
	int r = ioctl(fd, NSLOG_IOC_RELAY, relay);

	return r < 0 ? -errno : r;
}

/**
 * nslogd_store_init() - a store with nothing open yet
 * @s: the store
 * @dev_dir: where the nodes are, as nslog_dev_path() takes it (NULL:
 *	$NSLOG_DEV_DIR, else /dev/log/ or /dev/log_*)
 * @relay: nslogd_relay_ioctl(), or a stand-in
 * @streams: where crash, stats and security go; NULL for nowhere
 *
 * Context: any.
 */
void nslogd_store_init(struct nslogd_store *s, const char *dev_dir,
		       nslogd_relay_fn *relay, struct nslogd_streams *streams)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < NSLOGD_STORE_LOGS; i++)
		s->fd[i] = -1;
	s->dev_dir = dev_dir;
	s->relay = relay;
	s->streams = streams;
}

/* A stream's write fd, made on first use; -errno. */
static int store_open_stream(struct nslogd_store *s, unsigned int i)
{
	int fd;

	if (!s->streams || s->streams->dirfd < 0)
		return -(s->streams && s->streams->err ? s->streams->err :
			 ENODEV);
	fd = nslogd_streams_open(s->streams, i, O_WRONLY, true);
	return fd;
}

static int store_open_log(struct nslogd_store *s, unsigned int i,
			  int64_t now_ns)
{
	char path[NSLOG_PATH_MAX];
	int fd;

	if (nslogd_stream_name(i)) {
		fd = store_open_stream(s, i);
		if (fd < 0) {
			s->open_errno[i] = -fd;
			goto err_retry;
		}
		s->next_check_ns[i] = now_ns + NSLOGD_STORE_RETRY_NS;
	} else if (nslog_dev_path(path, sizeof(path), (int)i, s->dev_dir) < 0) {
		s->open_errno[i] = ENAMETOOLONG;
		goto err_retry;
	} else {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			s->open_errno[i] = errno;
			goto err_retry;
		}
	}
	s->fd[i] = fd;
	s->open_errno[i] = 0;
	return 0;

err_retry:
	s->next_try_ns[i] = now_ns + NSLOGD_STORE_RETRY_NS;
	return -s->open_errno[i];
}

/**
 * nslogd_store_open() - open the set's four logs
 * @s: the store
 * @now_ns: the time, for the retry of a node that fails
 *
 * The streams are not opened here: each on its first record.
 *
 * Context: process; opens files.
 * Return: how many of the four are open; a log that failed is tried again
 * by nslogd_store_put(), and its errno is in @s->open_errno.
 */
int nslogd_store_open(struct nslogd_store *s, int64_t now_ns)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < NSLOGD_STREAM_FIRST; i++)
		if (s->fd[i] >= 0 || !store_open_log(s, i, now_ns))
			n++;
	return n;
}

/**
 * nslogd_store_put() - store one record
 * @s: the store
 * @rec: an accepted record (nslogd_dgram_parse())
 * @now_ns: the time, for the retry of a node that failed to open
 * @err: set to the errno of NSLOGD_STORE_NO_LOG and NSLOGD_STORE_FAILED
 *	(for a stream without a view, the reason there is none)
 *
 * The writer is named by its SCM_CREDENTIALS pid and uid, with
 * NSLOG_RELAY_KEEP_EXITED (and NSLOG_RELAY_FILE_LOG into a stream): a writer that exited before its datagram was
 * read (a short-lived command) is stored with the credentials it sent,
 * marked unverified by the kernel, rather than lost.
 *
 * Context: process; one ioctl, which does not block.
 * Return: what became of the record.
 */
enum nslogd_store_result nslogd_store_put(struct nslogd_store *s,
					  const struct nslogd_record *rec,
					  int64_t now_ns, int *err)
{
	struct nslog_relay r;
	unsigned int i = rec->log_id;
	bool stream = nslogd_stream_name(i) != NULL;
	int ret;

	*err = 0;
	if (i >= NSLOGD_STORE_LOGS) {
		*err = EINVAL;
		return NSLOGD_STORE_FAILED;	/* dgram.c lets none through */
	}
	if (stream && s->no_file_log)
		return NSLOGD_STORE_NO_FILE_LOG;
	if (stream && s->fd[i] >= 0 && now_ns >= s->next_check_ns[i]) {
		s->next_check_ns[i] = now_ns + NSLOGD_STORE_RETRY_NS;
		if (nslogd_streams_stale(s->streams, i, s->fd[i])) {
			close(s->fd[i]);
			s->fd[i] = -1;
		}
	}
	if (s->fd[i] < 0) {
		if (now_ns < s->next_try_ns[i] || store_open_log(s, i, now_ns)) {
			*err = s->open_errno[i];
			return NSLOGD_STORE_NO_LOG;
		}
	}

	memset(&r, 0, sizeof(r));
	r.pid = rec->pid;
	r.uid = rec->uid;
	r.tid = rec->tid;
	r.log_id = stream ? 0 : i;
	r.time_ns = (int64_t)rec->sec * 1000000000LL + rec->nsec;
	r.flags = NSLOG_RELAY_KEEP_EXITED |
		  (stream ? NSLOG_RELAY_FILE_LOG : 0);
	r.len = (uint32_t)rec->len;
	r.payload = (uint64_t)(uintptr_t)rec->payload;

	ret = s->relay(s->fd[i], &r);
	if (ret >= 0)
		return NSLOGD_STORE_STORED;
	if (ret == -EAGAIN)
		return NSLOGD_STORE_DROPPED;
	if (ret == -EINVAL && stream) {
		s->no_file_log = true;
		return NSLOGD_STORE_NO_FILE_LOG;
	}
	*err = -ret;
	return NSLOGD_STORE_FAILED;
}

/**
 * nslogd_store_close() - close the logs
 * @s: the store
 *
 * Context: process.
 */
void nslogd_store_close(struct nslogd_store *s)
{
	unsigned int i;

	for (i = 0; i < NSLOGD_STORE_LOGS; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->fd[i] = -1;
	}
}
