// SPDX-License-Identifier: GPL-2.0
/*
 * logset: one followed log set.
 *
 * Opening: NSLOG_IOC_OPEN_NS by namespace id for each log followed, with
 * nslogger's header (NSLOG_ENTRY2_VERSION, or NSLOG_ENTRY_VERSION from a
 * module older than relays: logdev.c); NSLOG_IOC_INFO says which set
 * each fd reached, and all must be the set the caller expects (a set
 * that is replaced meanwhile gives -ESTALE: look again).  Each log then
 * seeks (NSLOG_IOC_SEEK) to the seq after the last one shipped (from the
 * state file, or from the output when it is further: resume.c), or to 0
 * for a log never shipped from.
 *
 * Reading: each log holds at most one record read ahead; of those, the
 * one with the lowest @order goes first, so that a set's records leave in
 * the order they were written as far as they were there to be read.  A
 * log that said -EAGAIN is not read again within one pump.
 *
 * Loss: every seq of a log is one record, so a record whose seq is past
 * the one expected (the seek's, then the last shipped plus one) follows
 * records this reader never got: overwritten before it read them, or
 * flushed.  They are reported, as a record of lost records, before it.
 * The kernel says the same in the header's @lost; seq arithmetic is what
 * counts here.  A log that ends (end of file) with records still missing
 * since its seek reports them too.
 *
 * End: read() gives end of file once the set is gone (its namespace
 * died and was reaped) and every record was read; the log is closed, and
 * when every log is, the set is done.
 *
 * Streams: besides its four fixed logs a set may have streams, made and
 * removed at run time in an nslogfs mount.  The caller opens each by name
 * (nslog_set_open_stream(), NSLOG_IOC_OPEN_STREAM) when the listing shows
 * it; from then on a stream is one more log of the set, read, merged by
 * @order, resumed and reported on as the fixed ones are, under its name.
 * A removed stream gives end of file once read: nslog_set_prune() then
 * drops it, and a stream made later under the same name is a new one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "logset.h"

static void nslog_set_init(struct nslog_set *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < NSLOG_KLOG_COUNT; i++) {
		s->logs[i].set = s;
		s->logs[i].klog = i;
		s->logs[i].fd = -1;
		strcpy(s->logs[i].name, nslog_klog_name(i));
	}
}

/**
 * nslog_set_nlogs() - how many logs nslog_set_log() numbers
 * @s: the set
 *
 * Context: any.
 * Return: the four fixed logs and the streams.
 */
unsigned int nslog_set_nlogs(const struct nslog_set *s)
{
	return NSLOG_KLOG_COUNT + s->nstreams;
}

/**
 * nslog_set_log() - a log of a set
 * @s: the set
 * @i: below nslog_set_nlogs(): the fixed logs by &enum nslog_klog, then
 *     the streams
 *
 * Context: any; valid until nslog_set_prune() or nslog_set_close().
 * Return: the log (its fd is -1 if it is not followed, or ended).
 */
struct nslog_flog *nslog_set_log(const struct nslog_set *s, unsigned int i)
{
	if (i < NSLOG_KLOG_COUNT)
		return (struct nslog_flog *)&s->logs[i];
	return s->streams[i - NSLOG_KLOG_COUNT];
}

/* The stream of that name that @s follows (or that failed), or NULL. */
struct nslog_flog *nslog_set_find_stream(const struct nslog_set *s,
					 const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nstreams; i++)
		if (!strcmp(s->streams[i]->name, name))
			return s->streams[i];
	return NULL;
}

static int nslog_flog_open(struct nslog_flog *l, const struct nslog_kops *k,
			   __u64 ns_id, __u64 set_id,
			   const struct nslog_cstate_set *resume,
			   const struct nslog_cstate_set *found)
{
	const struct nslog_cstate_stream *st;
	struct nslog_pos state = { 0 }, dest = { 0 };
	struct nslog_info info;
	struct nslog_seek seek = { 0 };
	bool stream = l->klog == NSLOG_KLOG_STREAM;
	int ret;

	if (!stream)
		l->fd = k->open(k->ctx, l->klog, ns_id);
	else if (k->open_stream)
		l->fd = k->open_stream(k->ctx, l->name, ns_id);
	else
		l->fd = -ENOTTY;
	if (l->fd < 0) {
		ret = l->fd;
		l->fd = -1;
		return ret;
	}
	ret = k->info(k->ctx, l->fd, &info);
	if (ret)
		return ret;
	if (info.set_id != set_id ||
	    (!stream && info.log_id != nslog_klog_android_id(l->klog)))
		return -ESTALE;
	/* a fixed log's id would be a kernel that got the name wrong */
	if (stream && info.log_id < NSLOG_STREAM_LOG_ID_MIN)
		return -EPROTO;
	l->log_id = info.log_id;
	if (stream) {
		st = resume ? nslog_cstate_stream_find(resume, l->name) : NULL;
		/*
		 * A name is not a log: a stream removed and made again under
		 * its name while the collector was stopped is a new log, from
		 * seq 0, with another log id (never reused in a set).  Then
		 * the state's word is the old one's; the journal has no log
		 * id, and its records of the name may be either's, so it is
		 * not believed either (at worst records repeat): the new one
		 * is read from its first record, and the old one's after the
		 * state's seq are the caller's to report (@remade).  With the
		 * same id the stream lived on from the state's word to now, so
		 * the journal's records of its name are its own.  A state file
		 * of an older collector has no id: a word past the head is not
		 * believed, but a new stream that wrote past it cannot be told
		 * apart.
		 */
		if (st && st->log_id && st->log_id != info.log_id) {
			l->remade = true;
			l->remade_last = st->last;
		} else {
			state.has = st && st->last < info.head_seq;
			state.last = state.has ? st->last : 0;
			st = found ? nslog_cstate_stream_find(found, l->name) :
				     NULL;
			dest.has = st;
			dest.last = st ? st->last : 0;
		}
	} else {
		if (resume && resume->has[l->klog]) {
			state.has = true;
			state.last = resume->last[l->klog];
		}
		if (found && found->has[l->klog]) {
			dest.has = true;
			dest.last = found->last[l->klog];
		}
	}
	nslog_resume_pick(&l->resumed, &state, &dest, info.head_seq);
	if (l->resumed.pos.has) {
		l->shipped_any = true;
		l->flushed_any = true;
		l->shipped = l->resumed.pos.last;
		l->flushed = l->shipped;
		seek.seq = l->shipped + 1;
	}
	l->next_seq = seek.seq;
	return k->seek(k->ctx, l->fd, &seek);
}

/**
 * nslog_set_open() - start following a set
 * @s: the set, filled in
 * @k: the kernel
 * @ns_id: the set's namespace
 * @set_id: the set /proc/nslogger/namespaces lists for it
 * @logmask: the logs to follow, bit (1 << log id)
 * @resume: where the state file says each log stands, or NULL
 * @found: where the output says each log stands (the journal:
 *	   journalpos.c), or NULL.  Each log resumes after the larger of
 *	   the two (resume.c); its @resumed says which, and by how much
 *	   the output was ahead.
 *
 * Streams are not opened here: nslog_set_open_stream().
 *
 * Context: process context.
 * Return: 0; -ENOENT if the set is gone, -ESTALE if the namespace has
 * another set now; another negative errno from the kernel (-EINVAL from
 * the header's version: a module that is too old).  On error nothing is
 * left open.
 */
int nslog_set_open(struct nslog_set *s, const struct nslog_kops *k,
		   __u64 ns_id, __u64 set_id, unsigned int logmask,
		   const struct nslog_cstate_set *resume,
		   const struct nslog_cstate_set *found)
{
	unsigned int i;
	int ret;

	nslog_set_init(s);
	s->ns_id = ns_id;
	s->set_id = set_id;
	for (i = 0; i < NSLOG_KLOG_COUNT; i++) {
		if (!(logmask & (1u << i)))
			continue;
		ret = nslog_flog_open(&s->logs[i], k, ns_id, set_id, resume,
				      found);
		if (ret) {
			nslog_set_close(s, k);
			return ret;
		}
	}
	return 0;
}

/**
 * nslog_set_open_stream() - start following a stream of a followed set
 * @s: the set, opened (nslog_set_open())
 * @k: the kernel
 * @name: the stream's name, as the listing has it
 * @resume: where the state file says the set's logs stand, or NULL
 * @found: where the output says they stand, or NULL
 * @lp: set to the stream's log, for the caller's poll
 *
 * The stream resumes by its name as a fixed log does (nslog_set_open()).
 * A stream that @s has already, followed or failed, is not opened again.
 *
 * Context: process context; allocates.
 * Return: 0; -EEXIST if @s has it; -ENOTTY if the kernel has no streams
 * (a module older than the collector); -ENOENT if the stream (or the
 * set) is gone; -ESTALE if the namespace has another set now; -EINVAL
 * for a name that is no stream's; another negative errno.  On error
 * @s is as it was.
 */
int nslog_set_open_stream(struct nslog_set *s, const struct nslog_kops *k,
			  const char *name,
			  const struct nslog_cstate_set *resume,
			  const struct nslog_cstate_set *found,
			  struct nslog_flog **lp)
{
	struct nslog_flog *l, **arr;
	unsigned int cap;
	int ret;

	if (!nslog_stream_name_ok(name))
		return -EINVAL;
	if (nslog_set_find_stream(s, name))
		return -EEXIST;
	if (s->nstreams == s->streams_cap) {
		cap = s->streams_cap ? s->streams_cap * 2 : 4;
		arr = realloc(s->streams, cap * sizeof(*arr));
		if (!arr)
			return -ENOMEM;
		s->streams = arr;
		s->streams_cap = cap;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->set = s;
	l->klog = NSLOG_KLOG_STREAM;
	l->fd = -1;
	memcpy(l->name, name, strlen(name) + 1);
	ret = nslog_flog_open(l, k, s->ns_id, s->set_id, resume, found);
	if (ret) {
		if (l->fd >= 0)
			k->close(k->ctx, l->fd);
		free(l);
		return ret;
	}
	s->streams[s->nstreams++] = l;
	*lp = l;
	return 0;
}

/**
 * nslog_set_meta() - what the outputs are told of a record's set and log
 * @l: the log, of its set
 * @sink: the host's name, boot id, time zone choice
 * @m: filled in; points into @l, its set and @sink
 *
 * Context: any.
 */
void nslog_set_meta(const struct nslog_flog *l, const struct nslog_sink *sink,
		    struct nslog_meta *m)
{
	const struct nslog_set *s = l->set;

	memset(m, 0, sizeof(*m));
	m->log = l->name;
	m->host = sink->host;
	m->boot_id = sink->boot_id;
	m->has_set = true;
	m->set_id = s->set_id;
	m->has_ns = true;
	m->ns_id = s->ns_id;
	m->ident = &s->ident;
	m->utc = sink->utc;
}

static void nslog_flog_stop(struct nslog_flog *l, const struct nslog_kops *k,
			    int err)
{
	if (l->fd >= 0)
		k->close(k->ctx, l->fd);
	l->fd = -1;
	l->n = 0;
	if (err)
		l->err = err;
	else
		l->eof = true;
}

/* End of file: records missing since the seek were lost for good. */
static int nslog_flog_eof(struct nslog_flog *l, const struct nslog_kops *k,
			  const struct nslog_sink *sink, __u64 head)
{
	struct nslog_loss loss = { .known = true };
	struct nslog_meta m;
	struct timespec now;

	nslog_flog_stop(l, k, 0);
	if (head <= l->next_seq)
		return 0;
	clock_gettime(CLOCK_REALTIME, &now);
	loss.count = head - l->next_seq;
	loss.first_seq = l->next_seq;
	loss.sec = now.tv_sec;
	loss.nsec = (__s32)now.tv_nsec;
	l->next_seq = head;
	nslog_set_meta(l, sink, &m);
	return nslog_out_loss(sink->out, &m, &loss);
}

/*
 * Read ahead one record into @l if it has none.  Returns 0 (a record, or
 * none now: @l->drained, or @l stopped), or an output error.
 */
static int nslog_flog_fill(struct nslog_flog *l, const struct nslog_kops *k,
			   const struct nslog_sink *sink)
{
	struct nslog_info info;
	ssize_t n;

	if (l->n || l->fd < 0 || l->drained)
		return 0;
	if (!l->buf) {
		l->buf = malloc(NSLOG_READ_BUF_SIZE);
		if (!l->buf)
			return -ENOMEM;
	}
	do
		n = k->read(k->ctx, l->fd, l->buf, NSLOG_READ_BUF_SIZE);
	while (n == -EINTR);
	if (n == -EAGAIN) {
		l->drained = true;
		return 0;
	}
	if (n < 0) {
		nslog_flog_stop(l, k, (int)n);
		return 0;
	}
	if (!n) {
		/* the head tells how many records the seek found gone */
		if (k->info(k->ctx, l->fd, &info))
			info.head_seq = l->next_seq;
		return nslog_flog_eof(l, k, sink, info.head_seq);
	}
	if (nslog_rec_parse(&l->rec, l->buf, (size_t)n) || !l->rec.has_seq) {
		nslog_flog_stop(l, k, -EBADMSG);
		return 0;
	}
	l->n = (size_t)n;
	return 0;
}

/* Whether @l holds binary event records: events, or nslogd's stats and security. */
static bool nslog_flog_binary(const struct nslog_flog *l)
{
	if (l->klog == NSLOG_KLOG_STREAM)
		return nslog_stream_binary(l->name);
	return l->klog == NSLOG_KLOG_EVENTS;
}

static void nslog_flog_text(const struct nslog_flog *l, struct nslog_decoded *t)
{
	if (!nslog_flog_binary(l)) {
		nslog_entry_from_text(t, &l->rec);
		return;
	}
	if (!nslog_entry_from_event(t, &l->rec))
		return;
	t->prio = NSLOG_PRIO_INFO;
	t->tag = "";
	t->tag_len = 0;
	t->msg = "<malformed events record: no tag>";
	t->msg_len = strlen(t->msg);
}

/* Hand @l's record to the output, after a report of what was lost. */
static int nslog_flog_ship(struct nslog_flog *l, const struct nslog_sink *sink)
{
	static struct nslog_decoded t;
	const struct nslog_rec *r = &l->rec;
	struct nslog_meta m;
	int ret;

	nslog_set_meta(l, sink, &m);
	if (r->seq > l->next_seq) {
		struct nslog_loss loss = {
			.known = true,
			.count = r->seq - l->next_seq,
			.first_seq = l->next_seq,
			.sec = r->sec,
			.nsec = r->nsec,
		};

		ret = nslog_out_loss(sink->out, &m, &loss);
		if (ret)
			return ret;
	}
	nslog_flog_text(l, &t);
	ret = nslog_out_record(sink->out, r, &t, &m, nslog_flog_binary(l));
	if (ret)
		return ret;
	l->shipped = r->seq;
	l->shipped_any = true;
	l->next_seq = r->seq + 1;
	l->n = 0;
	return 0;
}

/**
 * nslog_set_pump() - hand a set's records to the output
 * @s: the set
 * @k: the kernel
 * @sink: the output and the records' shared metadata
 * @budget: at most this many records (others wait for the next pump)
 * @more: set if the budget ran out: pump again without waiting
 *
 * Logs that end are closed (eof), logs whose read fails too (err, which
 * the caller reports); nslog_set_done() tells when none is left.
 *
 * Context: process context; may block on the output.
 * Return: 0, or the negative errno of the output: the record it was
 * given may not have reached it, and the state must not say it did.
 */
int nslog_set_pump(struct nslog_set *s, const struct nslog_kops *k,
		   const struct nslog_sink *sink, unsigned int budget,
		   bool *more)
{
	struct nslog_flog *best, *l;
	unsigned int done = 0, i;
	int ret = 0;

	*more = false;
	for (; done < budget; done++) {
		best = NULL;
		for (i = 0; i < nslog_set_nlogs(s); i++) {
			l = nslog_set_log(s, i);
			ret = nslog_flog_fill(l, k, sink);
			if (ret)
				goto out;
			if (l->n && (!best || l->rec.order < best->rec.order))
				best = l;
		}
		if (!best)
			break;
		ret = nslog_flog_ship(best, sink);
		if (ret)
			goto out;
	}
	*more = done == budget;
out:
	for (i = 0; i < nslog_set_nlogs(s); i++) {
		l = nslog_set_log(s, i);
		l->drained = false;
		/* a set waiting for records costs no buffers */
		if (!l->n) {
			free(l->buf);
			l->buf = NULL;
		}
	}
	return ret;
}

/* Every log of the set ended (or failed): nothing more will come. */
bool nslog_set_done(const struct nslog_set *s)
{
	unsigned int i;

	for (i = 0; i < nslog_set_nlogs(s); i++)
		if (nslog_set_log(s, i)->fd >= 0)
			return false;
	return true;
}

static void nslog_flog_free(struct nslog_flog *l, const struct nslog_kops *k)
{
	if (l->fd >= 0)
		k->close(k->ctx, l->fd);
	l->fd = -1;
	free(l->buf);
	l->buf = NULL;
	l->n = 0;
}

/**
 * nslog_set_prune() - forget the streams that ended
 * @s: the set
 * @k: the kernel
 *
 * A stream that gave end of file was removed, and all of it was shipped:
 * it is freed, and no longer in the state file.  A stream that failed
 * stays, so that it is not opened again.
 *
 * Context: process context; pointers to the streams dropped go stale.
 * Return: how many were dropped.
 */
unsigned int nslog_set_prune(struct nslog_set *s, const struct nslog_kops *k)
{
	unsigned int i, kept = 0, n;

	for (i = 0; i < s->nstreams; i++) {
		if (s->streams[i]->eof) {
			nslog_flog_free(s->streams[i], k);
			free(s->streams[i]);
			continue;
		}
		s->streams[kept++] = s->streams[i];
	}
	n = s->nstreams - kept;
	s->nstreams = kept;
	return n;
}

/* The output flushed everything handed to it: the state may say so. */
void nslog_set_flushed(struct nslog_set *s)
{
	struct nslog_flog *l;
	unsigned int i;

	for (i = 0; i < nslog_set_nlogs(s); i++) {
		l = nslog_set_log(s, i);
		l->flushed = l->shipped;
		l->flushed_any = l->shipped_any;
	}
}

/**
 * nslog_set_state() - the set's entry of the state file
 * @s: the set
 * @c: filled in: the last flushed seq of each log, and of each stream
 *	that shipped a record (c->streams, allocated)
 *
 * Context: process context; allocates.
 * Return: 0 or -ENOMEM.
 */
int nslog_set_state(const struct nslog_set *s, struct nslog_cstate_set *c)
{
	const struct nslog_flog *l;
	unsigned int i;
	int ret;

	memset(c, 0, sizeof(*c));
	c->set_id = s->set_id;
	c->ns_id = s->ns_id;
	for (i = 0; i < NSLOG_KLOG_COUNT; i++) {
		c->has[i] = s->logs[i].flushed_any;
		c->last[i] = s->logs[i].flushed;
	}
	for (i = 0; i < s->nstreams; i++) {
		l = s->streams[i];
		if (!l->flushed_any)
			continue;
		ret = nslog_cstate_stream_add(c, l->name, l->log_id,
					      l->flushed);
		if (ret)
			return ret;
	}
	return 0;
}

/* Close every log and forget the identity; @s may then be freed. */
void nslog_set_close(struct nslog_set *s, const struct nslog_kops *k)
{
	unsigned int i;

	for (i = 0; i < NSLOG_KLOG_COUNT; i++)
		nslog_flog_free(&s->logs[i], k);
	for (i = 0; i < s->nstreams; i++) {
		nslog_flog_free(s->streams[i], k);
		free(s->streams[i]);
	}
	free(s->streams);
	s->streams = NULL;
	s->nstreams = 0;
	s->streams_cap = 0;
	nslog_ident_free(&s->ident);
}
