// SPDX-License-Identifier: GPL-2.0
/*
 * collstate: the collector's state file, and the order that makes it
 * safe.
 *
 * A log's position in memory moves when a record is handed to the output
 * ("shipped"); it is copied to what the state file may say ("flushed")
 * only once the output took everything handed to it (coll_flush()).  The
 * file is written (cstate.c: temp file, fsync, rename, fsync of the
 * directory) at most every --state-interval, and when the collector
 * stops, after nslog_out_sync() (fsync when the output is a regular
 * file).  So the file never says a record was shipped that the output
 * did not get: a restart repeats what was shipped after the last save
 * and loses nothing.  collector.c's comment says what each output
 * guarantees.
 *
 * The journal can say more than the file: on start, coll_state_found()
 * asks it for the last record of each log (journalpos.c), and each log
 * resumes after the larger of its word and the file's (resume.c), so
 * that what was shipped after the last save is not shipped again.
 *
 * A lock (PATH.lock, flock()) keeps two collectors off one state file.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector.h"
#include "journalpos.h"

/* How long a start waits for journald to write what it was sent. */
#define COLL_SYNC_MS	10000

static long coll_ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000 +
	       (now.tv_nsec - t->tv_nsec) / 1000000;
}

static int coll_lock(struct nslog_collector *c)
{
	char path[4096], *dir;
	int ret;

	snprintf(path, sizeof(path), "%s", c->state_path);
	dir = dirname(path);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ret = -errno;
		fprintf(stderr, COLL_PROG ": cannot make %s: %s\n", dir,
			strerror(errno));
		return ret;
	}
	snprintf(path, sizeof(path), "%s.lock", c->state_path);
	c->lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (c->lockfd < 0) {
		ret = -errno;
		fprintf(stderr, COLL_PROG ": cannot open %s: %s\n", path,
			strerror(errno));
		return ret;
	}
	if (flock(c->lockfd, LOCK_EX | LOCK_NB)) {
		ret = -errno;
		fprintf(stderr, COLL_PROG ": %s: %s\n", path,
			errno == EWOULDBLOCK ?
			"another nslog-collector uses this state file" :
			strerror(errno));
		return ret;
	}
	return 0;
}

/**
 * coll_state_open() - lock and load the state file
 * @c: the collector, with its boot id
 *
 * A file of another boot, or one that does not parse, is ignored (every
 * set then starts at its oldest record: records may repeat, none is
 * lost), with a message.
 *
 * Return: 0, or a negative errno to stop on (locked by another
 * collector, unreadable).
 */
int coll_state_open(struct nslog_collector *c)
{
	unsigned int line;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &c->saved);
	memcpy(c->st.boot_id, c->boot_id, sizeof(c->boot_id));
	if (!c->state_path)
		return 0;
	ret = coll_lock(c);
	if (ret)
		return ret;
	ret = nslog_cstate_load(&c->st, c->state_path, c->boot_id, &line);
	switch (ret) {
	case 0:
		return 0;
	case -ESTALE:
		fprintf(stderr, COLL_PROG ": %s is of another boot: every set starts at its oldest record\n",
			c->state_path);
		c->dirty = true;
		return 0;
	case -EBADMSG:
		fprintf(stderr, COLL_PROG ": %s:%u: not a state file nslog-collector wrote; ignored, every set starts at its oldest record\n",
			c->state_path, line);
		c->dirty = true;
		return 0;
	}
	fprintf(stderr, COLL_PROG ": cannot read %s: %s\n", c->state_path,
		strerror(-ret));
	return ret;
}

/* The journal's word on each followed log of a set, into c->found. */
static int coll_found_set(struct nslog_collector *c, struct nslog_jpos *q,
			  __u64 set_id, __u64 ns_id)
{
	struct nslog_cstate_set *e;
	struct nslog_pos pos;
	unsigned int i;
	int ret, err = 0;

	if (nslog_cstate_find(&c->found, set_id))
		return 0;
	e = nslog_cstate_add(&c->found, set_id, ns_id);
	if (!e)
		return -ENOMEM;
	for (i = 0; i < NSLOG_KLOG_COUNT; i++) {
		if (!(c->logmask & (1u << i)))
			continue;
		ret = nslog_jpos_last(q, set_id, nslog_klog_name(i), &pos);
		if (ret)
			err = ret;
		e->has[i] = !ret && pos.has;
		e->last[i] = pos.last;
	}
	return err;
}

/* The journal's word on stream @name of a set (coll_found_set()'s). */
static int coll_found_stream(struct nslog_collector *c, struct nslog_jpos *q,
			     __u64 set_id, const char *name)
{
	struct nslog_cstate_set *e = nslog_cstate_find(&c->found, set_id);
	struct nslog_pos pos;
	int ret;

	if (!e || nslog_cstate_stream_find(e, name))
		return 0;
	ret = nslog_jpos_last(q, set_id, name, &pos);
	if (ret || !pos.has)
		return ret;
	/* the journal has no log id: by name (coll_state_found()) */
	ret = nslog_cstate_stream_add(e, name, 0, pos.last);
	return ret == -EINVAL ? 0 : ret;
}

/**
 * coll_state_found() - ask the output what it has of each set
 * @c: the collector, its state file loaded, the first listing read
 *
 * Only the journal can be asked (journalpos.c); with --no-state nothing
 * is.  After journald wrote what it was sent (nslog_journal_sync()), the
 * last record of each log (and each stream, by its name) of each set
 * listed or in the state file goes to c->found, for each log to resume
 * after the larger of the state file's word and the journal's
 * (resume.c).  That is what makes a restart after a SIGKILL or a crash
 * repeat nothing.  What cannot be asked is said, once, and the state
 * file alone counts for it.
 *
 * Context: process context; blocks up to COLL_SYNC_MS on journald.
 */
void coll_state_found(struct nslog_collector *c)
{
	struct nslog_jpos q;
	size_t i, j;
	int ret, err = 0;

	if (c->out.kind != NSLOG_OUT_JOURNAL || !c->state_path)
		return;
	ret = nslog_journal_sync(NSLOG_JOURNAL_VARLINK, COLL_SYNC_MS);
	if (ret)
		fprintf(stderr, COLL_PROG ": cannot have journald write what it was sent (%s: %s): records it had not written yet may be shipped again\n",
			NSLOG_JOURNAL_VARLINK, strerror(-ret));
	ret = nslog_jpos_open(&q, NULL, c->boot_id, getuid());
	if (ret) {
		fprintf(stderr, COLL_PROG ": cannot read the journal: %s: what was shipped after the state file was last written may be shipped again\n",
			ret == -EACCES ?
			"no journal file is readable (root or the group systemd-journal can read them; or journald keeps none)" :
			strerror(-ret));
		return;
	}
	for (i = 0; i < c->list.count; i++) {
		ret = coll_found_set(c, &q, c->list.sets[i].set_id,
				     c->list.sets[i].ns_id);
		if (ret)
			err = ret;
		for (j = 0; j < c->list.sets[i].nstreams; j++) {
			ret = coll_found_stream(c, &q, c->list.sets[i].set_id,
						c->list.sets[i].streams[j].name);
			if (ret)
				err = ret;
		}
	}
	for (i = 0; i < c->st.count; i++) {
		ret = coll_found_set(c, &q, c->st.sets[i].set_id,
				     c->st.sets[i].ns_id);
		if (ret)
			err = ret;
		for (j = 0; j < c->st.sets[i].nstreams; j++) {
			ret = coll_found_stream(c, &q, c->st.sets[i].set_id,
						c->st.sets[i].streams[j].name);
			if (ret)
				err = ret;
		}
	}
	nslog_jpos_close(&q);
	if (err)
		fprintf(stderr, COLL_PROG ": cannot read the journal: %s: where it failed, what was shipped after the state file was last written may be shipped again\n",
			strerror(-err));
}

/**
 * coll_flush() - hand buffered output over; the positions may be saved
 * @c: the collector
 *
 * Return: 0, or the output's negative errno (the positions stay where the
 * last successful flush left them).
 */
int coll_flush(struct nslog_collector *c)
{
	struct nslog_set *s;
	int ret;

	if (!c->shipped)
		return 0;
	ret = nslog_out_flush(&c->out);
	if (ret)
		return ret;
	for (s = c->sets; s; s = s->next)
		nslog_set_flushed(s);
	c->shipped = false;
	c->dirty = true;
	return 0;
}

/**
 * coll_save() - write the state file, if due
 * @c: the collector, flushed (coll_flush())
 * @force: now, whenever it was last written (stopping)
 *
 * The output is synced first (fsync of a regular file).  A state file
 * that cannot be written is reported, and tried again at the next
 * interval; only the output failing is an error.
 *
 * Return: 0, or the output's negative errno.
 */
int coll_save(struct nslog_collector *c, bool force)
{
	static bool failing;
	struct nslog_cstate st = { 0 };
	struct nslog_cstate_set *e;
	struct nslog_set *s;
	int ret;

	if (!c->state_path || !c->dirty)
		return 0;
	if (!force && coll_ms_since(&c->saved) < (long)c->state_ms)
		return 0;
	ret = nslog_out_sync(&c->out);
	if (ret)
		return ret;
	memcpy(st.boot_id, c->boot_id, sizeof(c->boot_id));
	for (s = c->sets; s; s = s->next) {
		e = nslog_cstate_add(&st, s->set_id, s->ns_id);
		if (!e) {
			ret = -ENOMEM;
			break;
		}
		ret = nslog_set_state(s, e);
		if (ret)
			break;
	}
	if (!ret)
		ret = nslog_cstate_save(&st, c->state_path);
	nslog_cstate_free(&st);
	clock_gettime(CLOCK_MONOTONIC, &c->saved);
	if (ret) {
		if (!failing)
			fprintf(stderr, COLL_PROG ": cannot write %s: %s (tried again every %u ms)\n",
				c->state_path, strerror(-ret), c->state_ms);
		failing = true;
		return 0;
	}
	if (failing)
		fprintf(stderr, COLL_PROG ": %s written again\n", c->state_path);
	failing = false;
	c->dirty = false;
	return 0;
}

/* Milliseconds until the state file is due; -1 if nothing is to save. */
int coll_state_due_ms(const struct nslog_collector *c)
{
	long left;

	if (!c->state_path || !c->dirty)
		return -1;
	left = (long)c->state_ms - coll_ms_since(&c->saved);
	return left < 0 ? 0 : (int)left;
}

void coll_state_close(struct nslog_collector *c)
{
	nslog_cstate_free(&c->st);
	nslog_cstate_free(&c->found);
	if (c->lockfd >= 0)
		close(c->lockfd);
	c->lockfd = -1;
}
