// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: streams, the logs a set gains at run time.
 */

/**
 * DOC: streams
 *
 * Besides its four logs, a set may have streams: logs with a name, made and
 * removed at run time (creating and unlinking a file in an nslogfs mount,
 * src/fs/).  A stream is a log like the others for its readers and writers;
 * what is its own is its name, its log id and its file attributes, which
 * every mount of the set shows alike.
 *
 * Bounds: a stream's ring is at most what its set's logs may be resized to
 * (-EFBIG); the mount it is made or resized through bounds the number of
 * the set's streams and the bytes of their rings (-ENOSPC); the set's owner
 * bounds the same across all its sets (&nslog_logset.charge, -EDQUOT).  A
 * stream counts until it is freed, not until it is removed, so removing
 * streams while keeping them open gains nothing.
 *
 * Locking: &nslog_logset.streams_lock serialises the table, the counts and
 * resizes; it is taken inside the registry's lock (for the listing) and
 * outside the owner's charge.
 */

#include <linux/ctype.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "logset.h"
#include "stream.h"

/**
 * nslog_stream_name_ok() - whether a name may be a stream's
 * @name: NUL-terminated
 *
 * 1 to NSLOG_STREAM_NAME_MAX characters: a letter or digit, then letters,
 * digits, '.', '_' or '-'; not one of the four logs' names.  The listing in
 * /proc/nslogger/namespaces is split on spaces, so a name has none.
 *
 * Return: true if it may.
 */
bool nslog_stream_name_ok(const char *name)
{
	size_t i, len = strnlen(name, NSLOG_STREAM_NAME_MAX + 1);

	if (!len || len > NSLOG_STREAM_NAME_MAX || !isalnum(name[0]))
		return false;
	for (i = 1; i < len; i++)
		if (!isalnum(name[i]) && !strchr("._-", name[i]))
			return false;
	for (i = 0; i < NSLOG_NR_LOGS; i++)
		if (!strcmp(name, nslog_log_names[i]))
			return false;
	return true;
}

/* Called with the set's streams_lock held. */
static struct nslog_stream *nslog_stream_lookup(struct nslog_logset *set,
						const char *name)
{
	struct nslog_stream *s;

	lockdep_assert_held(&set->streams_lock);
	list_for_each_entry(s, &set->streams, node)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

/*
 * Take @streams more streams and @bytes more ring bytes (both may be
 * negative) against the mount's limits @lim, if any, and the owner's.
 */
static int nslog_stream_charge(struct nslog_logset *set,
			       const struct nslog_stream_limits *lim,
			       int streams, s64 bytes)
{
	int err;

	lockdep_assert_held(&set->streams_lock);
	if (lim && ((streams > 0 && set->nr_streams + streams > lim->streams) ||
		    (bytes > 0 && set->stream_bytes + bytes > lim->bytes)))
		return -ENOSPC;
	if (set->charge) {
		err = set->charge(set, streams, bytes);
		if (err)
			return err;
	}
	set->nr_streams += streams;
	set->stream_bytes += bytes;
	return 0;
}

/**
 * nslog_stream_create() - make a stream in a set
 * @set: the set; the stream holds no reference to it, see below
 * @name: its name, see nslog_stream_name_ok()
 * @size: its ring size, rounded up to a power of two
 * @lim: the limits of the mount it is made through
 * @uid: owner of its files
 * @gid: their group
 * @mode: their permission bits, read and write only
 *
 * The stream is listed in @set and has a second reference, the caller's.
 * Whoever holds a reference to a stream also holds one to its set (an open
 * file, an inode of a mount), so the set outlives its streams.
 *
 * Context: process context, may sleep.
 * Return: the stream; or -EINVAL (a bad name, a size below 8 KiB), -EFBIG
 * (a size above what the set's logs may have), -EEXIST, -ENOSPC (@lim),
 * -EDQUOT (the owner's limits), -ENOMEM.
 */
struct nslog_stream *nslog_stream_create(struct nslog_logset *set,
					 const char *name, u32 size,
					 const struct nslog_stream_limits *lim,
					 kuid_t uid, kgid_t gid, umode_t mode)
{
	struct nslog_stream *s;
	int err;

	if (!nslog_stream_name_ok(name))
		return ERR_PTR(-EINVAL);
	err = nslog_logset_fit_size(set, &size);
	if (err)
		return ERR_PTR(err);
	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return ERR_PTR(-ENOMEM);
	strscpy(s->name, name, sizeof(s->name));
	s->size = size;
	s->uid = uid;
	s->gid = gid;
	s->mode = mode & 0666;
	/* The table's reference and the caller's. */
	refcount_set(&s->ref, 2);

	mutex_lock(&set->streams_lock);
	if (nslog_stream_lookup(set, name)) {
		err = -EEXIST;
		goto err_unlock;
	}
	err = nslog_stream_charge(set, lim, 1, size);
	if (err)
		goto err_unlock;
	s->log_id = set->next_log_id++;
	nslog_log_setup(&s->log, set, &set->order, NSLOG_NR_LOGS, size);
	list_add_tail(&s->node, &set->streams);
	mutex_unlock(&set->streams_lock);
	return s;

err_unlock:
	mutex_unlock(&set->streams_lock);
	kfree(s);
	return ERR_PTR(err);
}

/**
 * nslog_stream_find() - a listed stream of a set, by name
 * @set: the set
 * @name: NUL-terminated
 *
 * Context: process context, may sleep.
 * Return: the stream with a reference for the caller, or NULL.
 */
struct nslog_stream *nslog_stream_find(struct nslog_logset *set,
				       const char *name)
{
	struct nslog_stream *s;

	mutex_lock(&set->streams_lock);
	s = nslog_stream_lookup(set, name);
	if (s)
		nslog_stream_get(s);
	mutex_unlock(&set->streams_lock);
	return s;
}

/**
 * nslog_stream_next() - the first listed stream from a log id on
 * @set: the set
 * @log_id: the least log id wanted
 *
 * For directory listings: ids only grow along the table, so a listing that
 * goes on from the last id it showed plus one neither repeats nor skips a
 * stream that stayed.
 *
 * Context: process context, may sleep.
 * Return: the stream with a reference for the caller, or NULL.
 */
struct nslog_stream *nslog_stream_next(struct nslog_logset *set, u32 log_id)
{
	struct nslog_stream *s, *found = NULL;

	mutex_lock(&set->streams_lock);
	list_for_each_entry(s, &set->streams, node) {
		if (s->log_id >= log_id) {
			found = nslog_stream_get(s);
			break;
		}
	}
	mutex_unlock(&set->streams_lock);
	return found;
}

/**
 * nslog_stream_remove() - take a stream out of its set's table
 * @s: the stream; the caller holds a reference
 *
 * It is no longer found by name; its open files go on, and its readers get
 * end of file once they have read everything, as when a set dies.
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENOENT if it was removed already.
 */
int nslog_stream_remove(struct nslog_stream *s)
{
	struct nslog_logset *set = s->log.set;

	mutex_lock(&set->streams_lock);
	if (list_empty(&s->node)) {
		mutex_unlock(&set->streams_lock);
		return -ENOENT;
	}
	list_del_init(&s->node);
	/* Paired with READ_ONCE() in the readers' wait conditions. */
	WRITE_ONCE(s->log.gone, true);
	mutex_unlock(&set->streams_lock);

	wake_up_interruptible_poll(&s->log.wait, EPOLLIN | EPOLLHUP);
	nslog_stream_put(s);
	return 0;
}

/**
 * nslog_stream_resize() - give a stream another ring size
 * @s: the stream
 * @size: as for nslog_log_resize()
 * @lim: the limits of the mount it is resized through
 *
 * Context: process context, may sleep.
 * Return: 0, or as nslog_log_resize(), -ENOSPC (@lim), -EDQUOT (the owner's
 * limits).
 */
int nslog_stream_resize(struct nslog_stream *s, u32 size,
			const struct nslog_stream_limits *lim)
{
	struct nslog_logset *set = s->log.set;
	s64 delta;
	int err;

	err = nslog_logset_fit_size(set, &size);
	if (err)
		return err;
	mutex_lock(&set->streams_lock);
	delta = (s64)size - s->size;
	err = nslog_stream_charge(set, lim, 0, delta);
	if (err)
		goto out;
	err = nslog_log_resize(&s->log, size, nslog_logset_max_size(set));
	if (err) {
		/* Giving back never fails. */
		nslog_stream_charge(set, NULL, 0, -delta);
		goto out;
	}
	s->size = size;
out:
	mutex_unlock(&set->streams_lock);
	return err;
}

static void nslog_stream_free(struct nslog_stream *s)
{
	struct nslog_logset *set = s->log.set;

	nslog_log_teardown(&s->log);
	mutex_lock(&set->streams_lock);
	nslog_stream_charge(set, NULL, -1, -(s64)s->size);
	mutex_unlock(&set->streams_lock);
	kfree(s);
}

/**
 * nslog_stream_put() - drop a reference to a stream
 * @s: the stream
 *
 * The last one frees its ring and gives back what it counted.
 *
 * Context: process context, may sleep.
 */
void nslog_stream_put(struct nslog_stream *s)
{
	if (refcount_dec_and_test(&s->ref))
		nslog_stream_free(s);
}

/**
 * nslog_streams_init() - give a set an empty stream table
 * @set: the set
 *
 * Context: process context.
 */
void nslog_streams_init(struct nslog_logset *set)
{
	mutex_init(&set->streams_lock);
	INIT_LIST_HEAD(&set->streams);
	set->nr_streams = 0;
	set->stream_bytes = 0;
	set->next_log_id = NSLOG_STREAM_LOG_ID_MIN;
	set->charge = NULL;
}

/**
 * nslog_streams_kill() - wake a dying set's streams' readers
 * @set: the set, marked dead
 *
 * Context: process context, may sleep.
 */
void nslog_streams_kill(struct nslog_logset *set)
{
	struct nslog_stream *s;

	mutex_lock(&set->streams_lock);
	list_for_each_entry(s, &set->streams, node)
		wake_up_interruptible_poll(&s->log.wait, EPOLLIN | EPOLLHUP);
	mutex_unlock(&set->streams_lock);
}

/**
 * nslog_streams_destroy() - free the streams a set still lists
 * @set: the set, with no reference left: nothing else holds its streams
 *
 * Context: process context, may sleep.
 */
void nslog_streams_destroy(struct nslog_logset *set)
{
	struct nslog_stream *s, *tmp;

	list_for_each_entry_safe(s, tmp, &set->streams, node) {
		list_del_init(&s->node);
		nslog_stream_put(s);
	}
	WARN_ON_ONCE(set->nr_streams || set->stream_bytes);
	mutex_destroy(&set->streams_lock);
}

/**
 * nslog_streams_show() - call @show for each listed stream of a set
 * @m: passed on
 * @set: the set
 * @show: called with the set's streams_lock held
 * @arg: passed on
 *
 * Context: process context, may sleep.
 */
void nslog_streams_show(struct seq_file *m, struct nslog_logset *set,
			void (*show)(struct seq_file *m, void *arg,
				     struct nslog_log *log, const char *name),
			void *arg)
{
	struct nslog_stream *s;

	mutex_lock(&set->streams_lock);
	list_for_each_entry(s, &set->streams, node)
		show(m, arg, &s->log, s->name);
	mutex_unlock(&set->streams_lock);
}
