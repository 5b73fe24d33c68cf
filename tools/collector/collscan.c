// SPDX-License-Identifier: GPL-2.0
/*
 * collscan: the collector's sets.
 *
 * coll_scan() reads /proc/nslogger/namespaces (again from its start,
 * which also quiets its poll()) and starts following every set it lists
 * that is not followed yet, live or dead, where the state file says each
 * log stands; then it finds who the new sets belong to (nsident.c), before
 * any of their records is shipped.  A set that is gone before it could be
 * opened, while the state file or the listing says it had records, is
 * reported as records that may have been lost.
 *
 * Streams: every listing, each followed set's streams that it lists and
 * that are not followed yet are opened by name (a set's first listing
 * resumes them from the state file and the journal, as its fixed logs);
 * a stream that was removed ends (end of file) once read, and
 * coll_reap() forgets it.  On a module without streams (NSLOG_IOC_OPEN_STREAM
 * gives -ENOTTY) only the fixed logs are followed, as it says once.
 *
 * coll_pump() ships a set's records; coll_reap() drops the sets whose
 * every log reached end of file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

#include "collector.h"
#include "nsident.h"

/* Records a pump ships before other sets get their turn. */
#define COLL_BUDGET		256
/* Lookups of a set's processes before it is left unidentified. */
#define COLL_IDENT_TRIES	3

static struct nslog_set *coll_find(const struct nslog_collector *c,
				   __u64 set_id)
{
	struct nslog_set *s;

	for (s = c->sets; s; s = s->next)
		if (s->set_id == set_id)
			return s;
	return NULL;
}

/*
 * A record that records of log @log of a set from @first on may be lost,
 * for @why.
 */
static int coll_lost_unknown(struct nslog_collector *c, __u64 set_id,
			     __u64 ns_id, const char *log, __u64 first,
			     enum nslog_loss_why why)
{
	struct nslog_loss loss = {
		.known = false,
		.why = why,
		.first_seq = first,
	};
	struct nslog_meta m = {
		.log = log,
		.host = c->sink.host,
		.boot_id = c->sink.boot_id,
		.has_set = true,
		.set_id = set_id,
		.has_ns = true,
		.ns_id = ns_id,
		.utc = c->sink.utc,
	};
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	loss.sec = now.tv_sec;
	loss.nsec = (__s32)now.tv_nsec;
	c->shipped = true;
	return nslog_out_loss(&c->out, &m, &loss);
}

/*
 * The stream @name of a set is gone before it could be followed (@why:
 * removed, or with its set): its records after the last shipped (state
 * file or journal) may be lost; or all, if @stored says it held some.
 */
static int coll_stream_gone(struct nslog_collector *c, __u64 set_id,
			    __u64 ns_id, const char *name,
			    const struct nslog_cstate_set *resume,
			    const struct nslog_cstate_set *found, __u64 stored,
			    enum nslog_loss_why why)
{
	const struct nslog_cstate_stream *a, *b;
	struct nslog_pos state, dest;
	struct nslog_resume r;

	a = resume ? nslog_cstate_stream_find(resume, name) : NULL;
	b = found ? nslog_cstate_stream_find(found, name) : NULL;
	if (!a && !b && !stored)
		return 0;
	state.has = a;
	state.last = a ? a->last : 0;
	dest.has = b;
	dest.last = b ? b->last : 0;
	nslog_resume_pick(&r, &state, &dest, ~0ULL);
	return coll_lost_unknown(c, set_id, ns_id, name,
				 r.pos.has ? r.pos.last + 1 : 0, why);
}

/*
 * The streams of a set that the state file, the journal or the listing
 * (@e, or NULL) name, and that @s (or NULL) does not follow: gone, for
 * @why (removed, if @s is followed; else with their set).
 */
static int coll_streams_gone(struct nslog_collector *c, __u64 set_id,
			     __u64 ns_id, const struct nslog_set *s,
			     const struct nslog_cstate_set *resume,
			     const struct nslog_cstate_set *found,
			     const struct nslog_nsent *e,
			     enum nslog_loss_why why)
{
	const char *name;
	size_t i;
	int ret;

	for (i = 0; resume && i < resume->nstreams; i++) {
		name = resume->streams[i].name;
		if (s && nslog_set_find_stream(s, name))
			continue;
		ret = coll_stream_gone(c, set_id, ns_id, name, resume, found,
				       0, why);
		if (ret)
			return ret;
	}
	for (i = 0; found && i < found->nstreams; i++) {
		name = found->streams[i].name;
		if ((s && nslog_set_find_stream(s, name)) ||
		    (resume && nslog_cstate_stream_find(resume, name)))
			continue;
		ret = coll_stream_gone(c, set_id, ns_id, name, NULL, found, 0,
				       why);
		if (ret)
			return ret;
	}
	for (i = 0; e && i < e->nstreams; i++) {
		name = e->streams[i].name;
		if ((s && nslog_set_find_stream(s, name)) ||
		    (resume && nslog_cstate_stream_find(resume, name)) ||
		    (found && nslog_cstate_stream_find(found, name)))
			continue;
		ret = coll_stream_gone(c, set_id, ns_id, name, NULL, NULL,
				       e->streams[i].stored, why);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * coll_set_gone() - report a set that went before it could be followed
 * @c: the collector
 * @set_id: the set
 * @ns_id: its namespace
 * @resume: its state file entry, or NULL
 * @found: what the journal has of it (coll_state_found()), or NULL
 * @e: its entry of the last listing, or NULL
 *
 * Each followed log and each stream that the state file or the journal
 * has, or that held records, gets a record saying that its records from
 * the one after the last shipped (or from the first) on may have been
 * lost.
 *
 * Return: 0, or the output's negative errno.
 */
static int coll_set_gone(struct nslog_collector *c, __u64 set_id, __u64 ns_id,
			 const struct nslog_cstate_set *resume,
			 const struct nslog_cstate_set *found,
			 const struct nslog_nsent *e)
{
	const __u64 *stored = e ? e->stored : NULL;
	struct nslog_pos state, dest;
	struct nslog_resume r;
	unsigned int i;
	__u64 first;
	int ret;

	for (i = 0; i < NSLOG_KLOG_COUNT; i++) {
		if (!(c->logmask & (1u << i)))
			continue;
		state.has = resume && resume->has[i];
		state.last = state.has ? resume->last[i] : 0;
		dest.has = found && found->has[i];
		dest.last = dest.has ? found->last[i] : 0;
		if (!(resume || dest.has || (stored && stored[i])))
			continue;
		/* the set's head is gone with it */
		nslog_resume_pick(&r, &state, &dest, ~0ULL);
		first = r.pos.has ? r.pos.last + 1 : 0;
		ret = coll_lost_unknown(c, set_id, ns_id, nslog_klog_name(i),
					first, NSLOG_LOSS_SET_GONE);
		if (ret)
			return ret;
	}
	return coll_streams_gone(c, set_id, ns_id, NULL, resume, found, e,
				 NSLOG_LOSS_SET_GONE);
}

static int coll_watch_log(struct nslog_collector *c, struct nslog_flog *l)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = l };

	if (l->fd >= 0 && epoll_ctl(c->epfd, EPOLL_CTL_ADD, l->fd, &ev))
		return -errno;
	return 0;
}

static int coll_watch(struct nslog_collector *c, struct nslog_set *s)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nslog_set_nlogs(s); i++) {
		ret = coll_watch_log(c, nslog_set_log(s, i));
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * coll_streams() - follow the streams of a set that are new in the listing
 * @c: the collector
 * @s: the set, followed
 * @e: its entry of the listing
 * @resume: its state file entry at its first listing, else NULL
 * @found: what the journal has of it at its first listing, else NULL
 *
 * A stream gone since the listing, or of a set replaced since, is not
 * followed (coll_follow() reports what it may have lost); another that
 * cannot be opened is said, and tried again at the next listing.  The
 * first -ENOTTY says that the module has no streams, and none is tried
 * again.  A stream whose log id is not the one the state file has for
 * its name is another stream (@remade): the old one's records after the
 * state's seq may have been lost, and a record says so.
 *
 * Return: 0, or a negative errno to stop on (no memory, no epoll, the
 * output's error).
 */
static int coll_streams(struct nslog_collector *c, struct nslog_set *s,
			const struct nslog_nsent *e,
			const struct nslog_cstate_set *resume,
			const struct nslog_cstate_set *found)
{
	struct nslog_flog *l;
	size_t i;
	int ret;

	for (i = 0; i < e->nstreams && !c->no_streams; i++) {
		if (nslog_set_find_stream(s, e->streams[i].name))
			continue;
		ret = nslog_set_open_stream(s, &c->k, e->streams[i].name,
					    resume, found, &l);
		if (!ret) {
			s->ready = true;
			ret = coll_watch_log(c, l);
			if (!ret && l->remade)
				ret = coll_lost_unknown(c, s->set_id, s->ns_id,
							l->name,
							l->remade_last + 1,
							NSLOG_LOSS_STREAM_REMADE);
			if (ret)
				return ret;
			continue;
		}
		if (ret == -ENOTTY) {
			c->no_streams = true;
			fprintf(stderr, COLL_PROG ": the nslogger module cannot open streams (NSLOG_IOC_OPEN_STREAM: %s): it is older than this collector; only main, events, radio and system are followed\n",
				strerror(-ret));
			break;
		}
		if (ret == -ENOMEM)
			return ret;
		if (ret == -ENOENT || ret == -ESTALE)
			continue;
		fprintf(stderr, COLL_PROG ": ipc:[%" PRIu64 "] stream %s not followed: %s\n",
			(uint64_t)s->ns_id, e->streams[i].name, strerror(-ret));
	}
	return 0;
}

static bool coll_fatal(int err)
{
	/* no privilege, or a module without what the collector needs */
	return err == -EPERM || err == -EACCES || err == -EINVAL ||
	       err == -ENOTTY || err == -EBADF || err == -ENOMEM;
}

/* The journal named a seq that a log of @s has not written: say so. */
static void coll_found_ignored(const struct nslog_set *s,
			       const struct nslog_cstate_set *found)
{
	const struct nslog_cstate_stream *st;
	const struct nslog_flog *l;
	unsigned int i;
	__u64 seq;

	for (i = 0; i < nslog_set_nlogs(s); i++) {
		l = nslog_set_log(s, i);
		if (!l->resumed.ignored)
			continue;
		if (i < NSLOG_KLOG_COUNT) {
			seq = found->last[i];
		} else {
			st = nslog_cstate_stream_find(found, l->name);
			seq = st ? st->last : 0;
		}
		fprintf(stderr, COLL_PROG ": ipc:[%" PRIu64 "] log %s: the journal has seq %" PRIu64 " of set %" PRIu64 ", which the log has not written: not its record (forged, or of an earlier load of the module); ignored\n",
			(uint64_t)s->ns_id, l->name, (uint64_t)seq,
			(uint64_t)s->set_id);
	}
}

/* Start following a listed set.  Returns 0, or a fatal negative errno. */
static int coll_follow(struct nslog_collector *c, const struct nslog_nsent *e)
{
	struct nslog_cstate_set *resume = nslog_cstate_find(&c->st, e->set_id);
	struct nslog_cstate_set *found = nslog_cstate_find(&c->found,
							   e->set_id);
	struct nslog_set *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	ret = nslog_set_open(s, &c->k, e->ns_id, e->set_id, c->logmask,
			     resume, found);
	if (!ret)
		ret = coll_watch(c, s);
	if (!ret)
		ret = coll_streams(c, s, e, resume, found);
	if (ret) {
		nslog_set_close(s, &c->k);
		free(s);
	}
	if (ret == -ESTALE)
		return 0;	/* the namespace has another set now */
	if (ret == -ENOENT) {
		ret = coll_set_gone(c, e->set_id, e->ns_id, resume, found, e);
		if (resume)
			nslog_cstate_remove(&c->st, resume);
		return ret;
	}
	if (ret && coll_fatal(ret)) {
		fprintf(stderr, COLL_PROG ": cannot follow ipc:[%" PRIu64 "]: %s%s\n",
			(uint64_t)e->ns_id, strerror(-ret),
			ret == -EINVAL || ret == -ENOTTY ?
			" (is the nslogger module older than this collector?)" : "");
		return ret;
	}
	if (ret) {
		fprintf(stderr, COLL_PROG ": ipc:[%" PRIu64 "] not followed: %s\n",
			(uint64_t)e->ns_id, strerror(-ret));
		return 0;
	}
	/* streams that the state file has and that were removed */
	ret = coll_streams_gone(c, e->set_id, e->ns_id, s, resume, found,
				NULL, NSLOG_LOSS_STREAM_GONE);
	if (resume)
		nslog_cstate_remove(&c->st, resume);
	if (found)
		coll_found_ignored(s, found);
	s->ready = true;
	s->next = c->sets;
	c->sets = s;
	c->nsets++;
	return ret;
}

static bool coll_needs_ident(const struct nslog_set *s)
{
	return !s->ident.runtime && !s->ident.cgroup &&
	       s->ident_tries < COLL_IDENT_TRIES;
}

/*
 * Who the sets not known yet belong to: one walk of /proc for all of
 * them.  The host's set is the host's.
 */
static int coll_identify(struct nslog_collector *c)
{
	struct nslog_nsq *q;
	struct nslog_set *s, **who;
	unsigned int n = 0, i;
	int ret = 0;

	for (s = c->sets; s; s = s->next) {
		if (c->have_host_ns && s->ns_id == c->host_ns)
			s->ident.runtime = "host";
		else if (coll_needs_ident(s))
			n++;
	}
	if (!n)
		return 0;
	q = calloc(n, sizeof(*q));
	who = calloc(n, sizeof(*who));
	if (!q || !who) {
		ret = -ENOMEM;
		goto out;
	}
	n = 0;
	for (s = c->sets; s; s = s->next) {
		if (s->ident.runtime || !coll_needs_ident(s))
			continue;
		who[n] = s;
		q[n++].ns_id = s->ns_id;
	}
	if (nslog_ns_find(c->proc_root, q, n))
		goto out;	/* no /proc: sets stay unidentified */
	for (i = 0; i < n; i++) {
		s = who[i];
		ret = nslog_ns_ident(c->proc_root, &q[i], &s->ident);
		if (ret)
			goto out;
		if (!s->ident.runtime && !s->ident.cgroup)
			s->ident_tries++;
	}
out:
	free(q);
	free(who);
	return ret;
}

/*
 * After the first listing: what the journal had that the state file did
 * not (shipped after its last save by a collector that was killed), and
 * that is not shipped again.
 */
static void coll_found_report(const struct nslog_collector *c)
{
	const struct nslog_set *s;
	unsigned int i, logs = 0;
	__u64 ahead = 0;

	for (s = c->sets; s; s = s->next) {
		for (i = 0; i < nslog_set_nlogs(s); i++) {
			if (nslog_set_log(s, i)->resumed.from !=
			    NSLOG_RESUME_DEST)
				continue;
			ahead += nslog_set_log(s, i)->resumed.ahead;
			logs++;
		}
	}
	if (logs)
		fprintf(stderr, COLL_PROG ": the journal already has what was shipped after the state file was last written: %" PRIu64 " seqs of %u log%s, not shipped again\n",
			(uint64_t)ahead, logs, logs == 1 ? "" : "s");
}

/**
 * coll_scan() - follow the sets that the listing shows and that are new
 * @c: the collector
 *
 * Context: process context.
 * Return: 0, or a negative errno to stop on (the listing cannot be
 * read, the module is too old, no privilege, the output failed).
 */
int coll_scan(struct nslog_collector *c)
{
	const struct nslog_nsent *e;
	struct nslog_set *s;
	size_t i;
	int ret;

	ret = nslog_nslist_read(&c->list, c->nsfd);
	if (ret == -EPROTO)
		fprintf(stderr, COLL_PROG ": %s/namespaces has no set_id column: the nslogger module is older than this collector\n",
			c->proc_dir);
	else if (ret)
		fprintf(stderr, COLL_PROG ": cannot read %s/namespaces: %s\n",
			c->proc_dir, strerror(-ret));
	if (ret)
		return ret;
	if (!c->scanned)
		coll_state_found(c);
	for (i = 0; i < c->list.count; i++) {
		e = &c->list.sets[i];
		s = coll_find(c, e->set_id);
		if (s)
			ret = coll_streams(c, s, e, NULL, NULL);
		else
			ret = coll_follow(c, e);
		if (ret)
			return ret;
	}
	ret = coll_identify(c);
	if (ret)
		return ret;
	if (!c->scanned) {
		c->scanned = true;
		coll_found_report(c);
		ret = coll_state_vanished(c);
		nslog_cstate_free(&c->found);
	}
	return ret;
}

/**
 * coll_state_vanished() - report the state file's sets that are gone
 * @c: the collector, after its first listing
 *
 * Sets that the state file has and that were not listed went while the
 * collector was not running: what was written after the last record it
 * shipped may be lost.  The state file forgets them.
 *
 * Return: 0, or the output's negative errno.
 */
int coll_state_vanished(struct nslog_collector *c)
{
	struct nslog_cstate_set *s;
	int ret;

	while (c->st.count) {
		s = &c->st.sets[c->st.count - 1];
		ret = coll_set_gone(c, s->set_id, s->ns_id, s,
				    nslog_cstate_find(&c->found, s->set_id),
				    NULL);
		if (ret)
			return ret;
		nslog_cstate_remove(&c->st, s);
		c->dirty = true;
	}
	return 0;
}

/**
 * coll_pump() - ship a set's records, up to a budget
 * @c: the collector
 * @s: the set
 * @more: set if it has more ready
 *
 * A log that fails (not an end of file) is reported and no longer read.
 *
 * Return: 0, or the output's negative errno.
 */
int coll_pump(struct nslog_collector *c, struct nslog_set *s, bool *more)
{
	struct nslog_flog *l;
	unsigned int i;
	int ret;

	ret = nslog_set_pump(s, &c->k, &c->sink, COLL_BUDGET, more);
	c->shipped = true;
	for (i = 0; i < nslog_set_nlogs(s); i++) {
		l = nslog_set_log(s, i);
		if (!l->err || l->told)
			continue;
		l->told = true;
		fprintf(stderr, COLL_PROG ": ipc:[%" PRIu64 "] log %s: %s; no longer read\n",
			(uint64_t)s->ns_id, l->name,
			l->err == -EBADMSG ? "a record not in nslogger's header" :
			strerror(-l->err));
	}
	return ret;
}

/*
 * Drop the streams that ended (removed, all read), and the sets that are
 * done: their namespace is gone, all was read.
 */
void coll_reap(struct nslog_collector *c)
{
	struct nslog_set **p = &c->sets, *s;

	while ((s = *p)) {
		if (nslog_set_prune(s, &c->k))
			c->dirty = true;
		if (!nslog_set_done(s)) {
			p = &s->next;
			continue;
		}
		*p = s->next;
		nslog_set_close(s, &c->k);
		free(s);
		c->nsets--;
		c->dirty = true;
	}
}

void coll_close_sets(struct nslog_collector *c)
{
	struct nslog_set *s;

	while ((s = c->sets)) {
		c->sets = s->next;
		nslog_set_close(s, &c->k);
		free(s);
	}
	c->nsets = 0;
}
