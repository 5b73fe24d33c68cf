// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * devfd: the open device node of each buffer, opened on first use and
 * opened again after a failure, at most once per retry interval.
 *
 * A process may log before the module is loaded or before /dev/log is
 * mounted into its container.  KitKat's liblog then gave up for good;
 * here a failed open is retried, but not on every record: a missing
 * module would otherwise cost an open() (and a path lookup) per record.
 * The interval is one second, or $NSLOG_LOG_RETRY_MS milliseconds (the
 * tests use it), read when an open fails.
 *
 * Locking: writers hold nslog_dev_lock for reading while they use an fd,
 * so that __android_log_close() (the only writer of the lock) cannot
 * close it under them.  Opening is serialised by nslog_dev_open_lock, and
 * the fd is published with a release store that writers pair with an
 * acquire load: a writer sees either -1 or an open fd.  The time of the
 * next try is read without the mutex; a stale value costs at most one
 * extra trip through the mutex, where it is read again.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "devpath.h"
#include "internal.h"

struct nslog_dev {
	int fd;			/* -1 until an open succeeds */
	int err;		/* positive errno of the last failed open */
	int64_t next_ns;	/* CLOCK_MONOTONIC time of the next try */
};

static struct nslog_dev nslog_devs[NSLOG_BUF_COUNT] = {
	[0 ... NSLOG_BUF_COUNT - 1] = { .fd = -1 },
};
static pthread_rwlock_t nslog_dev_lock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t nslog_dev_open_lock = PTHREAD_MUTEX_INITIALIZER;

static int64_t nslog_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t nslog_retry_ns(void)
{
	const char *env = getenv(NSLOG_RETRY_MS_ENV);
	char *end;
	long ms;

	if (env && *env) {
		ms = strtol(env, &end, 10);
		if (!*end && ms >= 0)
			return (int64_t)ms * 1000000;
	}
	return (int64_t)NSLOG_RETRY_MS_DEFAULT * 1000000;
}

/* Called with nslog_dev_open_lock held, when the retry time has come. */
static void nslog_dev_try_open(struct nslog_dev *d, int buf)
{
	char path[NSLOG_PATH_MAX];
	int ret, fd;

	ret = nslog_dev_path(path, sizeof(path), buf, NULL);
	fd = ret ? ret : open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		/* Pairs with the acquire load in nslog_dev_fd(). */
		__atomic_store_n(&d->fd, fd, __ATOMIC_RELEASE);
		return;
	}
	d->err = ret ? -ret : errno;
	__atomic_store_n(&d->next_ns, nslog_now_ns() + nslog_retry_ns(),
			 __ATOMIC_RELAXED);
}

/* The fd of @buf, or a negative errno; called with nslog_dev_lock read. */
static int nslog_dev_fd(int buf)
{
	struct nslog_dev *d = &nslog_devs[buf];
	int fd;

	fd = __atomic_load_n(&d->fd, __ATOMIC_ACQUIRE);
	if (fd >= 0)
		return fd;
	if (nslog_now_ns() < __atomic_load_n(&d->next_ns, __ATOMIC_RELAXED))
		return -__atomic_load_n(&d->err, __ATOMIC_RELAXED);

	pthread_mutex_lock(&nslog_dev_open_lock);
	fd = d->fd;
	if (fd < 0 && nslog_now_ns() >= d->next_ns)
		nslog_dev_try_open(d, buf);
	fd = d->fd >= 0 ? d->fd : -d->err;
	pthread_mutex_unlock(&nslog_dev_open_lock);
	return fd;
}

/**
 * nslog_dev_writev() - store one record in a buffer
 * @buf: an enum nslog_buf_id
 * @vec: the record's pieces
 * @n: their number
 *
 * A system buffer that cannot be opened falls back to main, as Android
 * 4.x's liblog did.
 *
 * Context: any thread; may open the node (process context).
 * Return: the bytes stored, or a negative errno: -EINVAL for a bad @buf,
 * the open's error (until the next retry), or writev()'s.
 */
int nslog_dev_writev(int buf, const struct iovec *vec, int n)
{
	ssize_t ret;
	int fd;

	if (buf < 0 || buf >= NSLOG_BUF_COUNT)
		return -EINVAL;
	pthread_rwlock_rdlock(&nslog_dev_lock);
	fd = nslog_dev_fd(buf);
	if (fd < 0 && buf == NSLOG_BUF_SYSTEM) {
		int main_fd = nslog_dev_fd(NSLOG_BUF_MAIN);

		if (main_fd >= 0)
			fd = main_fd;
	}
	if (fd < 0) {
		pthread_rwlock_unlock(&nslog_dev_lock);
		return fd;
	}
	do
		ret = writev(fd, vec, n);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		ret = -errno;
	pthread_rwlock_unlock(&nslog_dev_lock);
	return (int)ret;
}

/**
 * nslog_dev_close() - close every node; the next record opens it again
 *
 * Context: any thread; waits for records being written.
 */
void nslog_dev_close(void)
{
	int buf;

	pthread_rwlock_wrlock(&nslog_dev_lock);
	for (buf = 0; buf < NSLOG_BUF_COUNT; buf++) {
		if (nslog_devs[buf].fd >= 0)
			close(nslog_devs[buf].fd);
		nslog_devs[buf].fd = -1;
		nslog_devs[buf].err = 0;
		nslog_devs[buf].next_ns = 0;
	}
	pthread_rwlock_unlock(&nslog_dev_lock);
}
