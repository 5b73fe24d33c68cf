// SPDX-License-Identifier: GPL-2.0
/*
 * nslist: reading /proc/nslogger/namespaces, one line per log of each set
 * after a '#' header:
 *
 *   # ns_id user_ns_id state files log allocated used written stored set_id
 *   4026531839 4026531837 live 0 main 262144 1032 12 12 81985529216486895
 *
 * into one entry per set (by set_id: a namespace id may come back, for a
 * new set, once the old one is gone).  A line without the set_id column
 * is from a module older than the collector.
 *
 * After its four fixed logs a set may have more lines, one per stream made
 * in an nslogfs mount, with the stream's name in the log column; they come
 * and go at run time.  A name that is neither a fixed log's nor a valid
 * stream's (nslog_stream_name_ok()) is skipped, not an error: the listing
 * of a later module must not stop the collector.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nslist.h"

static struct nslog_nsent *nslog_nslist_get(struct nslog_nslist *l,
					    __u64 set_id)
{
	struct nslog_nsent *e;
	size_t cap;

	/* a set's lines come one after another: try the last one first */
	if (l->count && l->sets[l->count - 1].set_id == set_id)
		return &l->sets[l->count - 1];
	e = (struct nslog_nsent *)nslog_nslist_find(l, set_id);
	if (e)
		return e;
	if (l->count == l->cap) {
		cap = l->cap ? l->cap * 2 : 16;
		e = realloc(l->sets, cap * sizeof(*e));
		if (!e)
			return NULL;
		l->sets = e;
		l->cap = cap;
	}
	e = &l->sets[l->count++];
	memset(e, 0, sizeof(*e));
	e->set_id = set_id;
	return e;
}

/* Add stream @name of @e, or update it if the set listed it already. */
static int nslog_nslist_stream(struct nslog_nsent *e, const char *name,
			       __u64 stored)
{
	struct nslog_nsstream *st;
	size_t i, cap;

	for (i = 0; i < e->nstreams; i++) {
		if (!strcmp(e->streams[i].name, name)) {
			e->streams[i].stored = stored;
			return 0;
		}
	}
	if (e->nstreams == e->streams_cap) {
		cap = e->streams_cap ? e->streams_cap * 2 : 4;
		st = realloc(e->streams, cap * sizeof(*st));
		if (!st)
			return -ENOMEM;
		e->streams = st;
		e->streams_cap = cap;
	}
	st = &e->streams[e->nstreams++];
	/* nslog_stream_name_ok() said it fits */
	memcpy(st->name, name, strlen(name) + 1);
	st->stored = stored;
	return 0;
}

static int nslog_nslist_line(struct nslog_nslist *l, const char *line)
{
	char state[8], log[64];
	unsigned long long ns, userns, files, alloc, used, written, stored;
	unsigned long long set_id;
	struct nslog_nsent *e;
	int n = 0, k;

	if (sscanf(line, "%llu %llu %7s %llu %63s %llu %llu %llu %llu %llu%n",
		   &ns, &userns, state, &files, log, &alloc, &used, &written,
		   &stored, &set_id, &n) != 10)
		return sscanf(line, "%llu %llu %7s %llu %63s %llu %llu %llu %llu",
			      &ns, &userns, state, &files, log, &alloc, &used,
			      &written, &stored) == 9 ? -EPROTO : -EBADMSG;
	if (line[n] && line[n] != '\n' && line[n] != ' ')
		return -EBADMSG;
	e = nslog_nslist_get(l, set_id);
	if (!e)
		return -ENOMEM;
	e->ns_id = ns;
	e->dead = !strcmp(state, "dead");
	k = nslog_klog_from_name(log);
	if (k >= 0)
		e->stored[k] = stored;
	else if (nslog_stream_name_ok(log))
		return nslog_nslist_stream(e, log, stored);
	return 0;
}

/**
 * nslog_nslist_parse() - the sets of the file's text
 * @l: emptied, then filled
 * @text: the whole file
 *
 * Context: process context; allocates.
 * Return: 0; -EPROTO if the lines have no set_id (a module that is too
 * old), -EBADMSG for another line that does not parse, -ENOMEM.
 */
int nslog_nslist_parse(struct nslog_nslist *l, const char *text)
{
	const char *line;
	size_t i;
	int ret;

	for (i = 0; i < l->count; i++)
		free(l->sets[i].streams);
	l->count = 0;
	for (line = text; *line; line += strcspn(line, "\n"), line += !!*line) {
		if (*line == '#' || *line == '\n')
			continue;
		ret = nslog_nslist_line(l, line);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * nslog_nslist_read() - read the file again from its start, and parse it
 * @l: emptied, then filled
 * @fd: the open file; reading it from the start also tells the kernel
 *	that this reader saw the changes so far (poll() quiets down)
 *
 * Context: process context; allocates.
 * Return: as nslog_nslist_parse(), or the read's negative errno.
 */
int nslog_nslist_read(struct nslog_nslist *l, int fd)
{
	size_t len = 0, cap = 16384;
	char *buf, *p;
	ssize_t n;
	int ret;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (cap - len < 4096) {
			p = realloc(buf, cap * 2);
			if (!p) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			free(buf);
			return ret;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	ret = nslog_nslist_parse(l, buf);
	free(buf);
	return ret;
}

/* The entry of @set_id, or NULL. */
const struct nslog_nsent *nslog_nslist_find(const struct nslog_nslist *l,
					    __u64 set_id)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		if (l->sets[i].set_id == set_id)
			return &l->sets[i];
	return NULL;
}

void nslog_nslist_free(struct nslog_nslist *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		free(l->sets[i].streams);
	free(l->sets);
	memset(l, 0, sizeof(*l));
}
