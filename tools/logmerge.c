// SPDX-License-Identifier: GPL-2.0
/*
 * logmerge: merge logger buffers by time stamp.
 *
 * Each source holds at most one record read ahead.  To choose the next
 * record, every source without one is read again (so a record that reached
 * an idle buffer meanwhile takes part), and the earliest (sec, nsec) wins;
 * ties go to the source listed first.  A dump ends when a round of reads
 * finds every source empty (-EAGAIN).
 *
 * Tail mode keeps the last N records of the dump in a queue and prints
 * them when the dump ends, as logcat -t does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jsonrec.h"
#include "logmerge.h"

/* One record kept back for tail mode. */
struct nslog_tail_item {
	struct nslog_tail_item *next;
	struct nslog_src *src;
	size_t n;
	unsigned char raw[];
};

struct nslog_tail {
	struct nslog_tail_item *head;
	struct nslog_tail_item **last;
	size_t count;
	size_t max;
};

/**
 * nslog_src_init() - set up a source with nothing read yet
 * @src: the source
 * @name: device path, kept by reference
 * @events: true for the events buffer
 * @fd: descriptor for poll(), or -1
 * @read: how to read one record
 * @priv: for @read
 *
 * Context: any.
 */
void nslog_src_init(struct nslog_src *src, const char *name, bool events,
		    int fd, nslog_read_fn read, void *priv)
{
	src->name = name;
	src->events = events;
	src->log = NULL;
	src->fd = fd;
	src->read = read;
	src->priv = priv;
	src->n = 0;
	src->started = false;
}

static int nslog_src_fill(struct nslog_src *src)
{
	ssize_t n;
	int ret;

	if (src->n)
		return 0;
	do
		n = src->read(src, src->buf, sizeof(src->buf));
	while (n == -EINTR);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ENODATA;
	ret = nslog_rec_parse(&src->rec, src->buf, (size_t)n);
	if (ret)
		return ret;
	src->n = (size_t)n;
	return 0;
}

static bool nslog_rec_before(const struct nslog_rec *a,
			     const struct nslog_rec *b)
{
	if (a->sec != b->sec)
		return a->sec < b->sec;
	return a->nsec < b->nsec;
}

/**
 * nslog_merge_next() - the source whose pending record is the earliest
 * @srcs: the sources
 * @count: how many
 * @next: set to that source, or to NULL if every source is empty; on
 *	  error, to the source that failed
 *
 * Reads one record into each source that has none pending.  The caller
 * prints (*next)->buf and then sets (*next)->n to 0.
 *
 * Context: process context; calls the read callbacks.
 * Return: 0, or the negative errno of a failed read: -ENODATA for end of
 * file, -EBADMSG for a record whose size does not match its header.
 */
int nslog_merge_next(struct nslog_src *srcs, size_t count,
		     struct nslog_src **next)
{
	struct nslog_src *best = NULL;
	size_t i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = nslog_src_fill(&srcs[i]);
		if (ret == -EAGAIN)
			continue;
		if (ret) {
			*next = &srcs[i];
			return ret;
		}
		if (!best || nslog_rec_before(&srcs[i].rec, &best->rec))
			best = &srcs[i];
	}
	*next = best;
	return 0;
}

static void nslog_warn(const struct nslog_printer *p,
		       const struct nslog_src *src, size_t n)
{
	if (!p->err)
		return;
	fprintf(p->err, "%s: %s: skipping a %zu-byte record: no event tag\n",
		p->prog ? p->prog : "nslogcat", src->name, n);
}

/* -v json: every record a JSON line, no "beginning of" headers. */
static int nslog_print_json(const struct nslog_printer *p,
			    const struct nslog_src *src,
			    const struct nslog_rec *rec,
			    const struct nslog_decoded *e)
{
	struct nslog_meta m = { 0 };

	if (p->meta)
		m = *p->meta;
	m.utc = p->fmt.utc;
	m.log = src->log;
	if (rec->has_seq)
		m.log = nslog_klog_name((unsigned int)
					nslog_klog_from_android_id(rec->log_id));
	if (rec->has_seq && rec->lost) {
		struct nslog_loss loss = {
			.known = true,
			.count = rec->lost,
			.first_seq = rec->seq - rec->lost,
			.sec = rec->sec,
			.nsec = rec->nsec,
		};
		int ret = nslog_json_loss(p->out, &m, &loss);

		if (ret)
			return ret;
	}
	return nslog_json_record(p->out, rec, e, &m, src->events);
}

/**
 * nslog_print() - print one record as the printer says
 * @p: output settings
 * @src: the buffer the record came from
 * @raw: the record as read(): header and payload
 * @n: its size
 *
 * Filters apply to text output only; -B output is every record, raw.
 * With @p->headers, the first record printed from @src is preceded by
 * "--------- beginning of <name>".
 *
 * Context: process context.
 * Return: 0, or -EIO for an output error.
 */
int nslog_print(const struct nslog_printer *p, struct nslog_src *src,
		const void *raw, size_t n)
{
	struct nslog_decoded e;
	struct nslog_rec rec;

	if (p->binary) {
		fwrite(raw, 1, n, p->out);
		return ferror(p->out) ? -EIO : 0;
	}
	if (nslog_rec_parse(&rec, raw, n))
		return -EBADMSG;
	if (!src->events) {
		nslog_entry_from_text(&e, &rec);
	} else if (nslog_entry_from_event(&e, &rec)) {
		nslog_warn(p, src, n);
		return 0;
	}
	if (p->filter && !nslog_filter_pass(p->filter, e.tag, e.tag_len,
					    e.prio))
		return 0;

	if (p->fmt.layout == NSLOG_FMT_JSON)
		return nslog_print_json(p, src, &rec, &e);
	if (p->headers && !src->started)
		fprintf(p->out, "--------- beginning of %s\n", src->name);
	src->started = true;
	return nslog_format_line(p->out, &p->fmt, &rec, &e);
}

static int nslog_tail_push(struct nslog_tail *t, struct nslog_src *src)
{
	struct nslog_tail_item *item;

	item = malloc(sizeof(*item) + src->n);
	if (!item)
		return -ENOMEM;
	item->next = NULL;
	item->src = src;
	item->n = src->n;
	memcpy(item->raw, src->buf, src->n);
	*t->last = item;
	t->last = &item->next;

	if (++t->count > t->max) {
		item = t->head;
		t->head = item->next;
		t->count--;
		free(item);
	}
	return 0;
}

static int nslog_tail_print(struct nslog_tail *t, const struct nslog_printer *p)
{
	struct nslog_tail_item *item;
	int ret;

	for (item = t->head; item; item = item->next) {
		ret = nslog_print(p, item->src, item->raw, item->n);
		if (ret)
			return ret;
	}
	return 0;
}

static void nslog_tail_free(struct nslog_tail *t)
{
	struct nslog_tail_item *item;

	while (t->head) {
		item = t->head;
		t->head = item->next;
		free(item);
	}
}

/**
 * nslog_dump() - print what the sources hold, in time order, and return
 * @srcs: the sources
 * @count: how many
 * @p: output settings
 * @tail: print only the last @tail records; 0 prints all
 * @failed: set to the source whose read failed, else NULL
 *
 * Context: process context; allocates in tail mode.
 * Return: 0 once every source reads empty; a negative errno from
 * nslog_merge_next(), -EIO for an output error, -ENOMEM.
 */
int nslog_dump(struct nslog_src *srcs, size_t count,
	       const struct nslog_printer *p, size_t tail,
	       struct nslog_src **failed)
{
	struct nslog_tail t = { .max = tail };
	struct nslog_src *src;
	int ret;

	t.last = &t.head;
	*failed = NULL;
	for (;;) {
		ret = nslog_merge_next(srcs, count, &src);
		if (ret) {
			*failed = src;
			goto out;
		}
		if (!src)
			break;
		if (tail)
			ret = nslog_tail_push(&t, src);
		else
			ret = nslog_print(p, src, src->buf, src->n);
		src->n = 0;
		if (ret)
			goto out;
	}
	ret = nslog_tail_print(&t, p);
out:
	nslog_tail_free(&t);
	return ret;
}

/**
 * nslog_strerror() - describe an error of nslog_dump()
 * @err: a negative errno
 *
 * Context: any.
 * Return: a static string.
 */
const char *nslog_strerror(int err)
{
	switch (err) {
	case -ENODATA:
		return "unexpected end of file (not a logger device?)";
	case -EBADMSG:
		return "record size does not match its header (not a logger device?)";
	}
	return strerror(-err);
}
