// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * logger_read: android_logger_list_read(), the logs of a list merged into
 * one stream.
 *
 * Each log holds at most one record read ahead, already in the form the
 * caller gets (logger_entry_v4, or nslogger's header, either size, when
 * asked for and the device gave it).  To choose the next record, every
 * log without one is read again (so that a record that reached an idle
 * log meanwhile takes part) and the earliest wins: by write order when
 * both records carry nslogger's header, else by time; ties go to the log
 * opened first.  When every log reads empty, the call returns -EAGAIN
 * (ANDROID_LOG_NONBLOCK) or waits in poll() for any of them.
 *
 * Tail mode reads what the logs hold first, keeps the last @tail records
 * that pass the pid and time filters in a queue, and serves that queue
 * before reading on.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "logger_list.h"

#define NSLOG_V4_SIZE	((unsigned int)sizeof(struct logger_entry_v4))

/* The header of a record as read(), whatever its version. */
struct nslog_raw_hdr {
	unsigned int hdr_size;
	unsigned int len;
	int32_t pid, tid;
	uint64_t time_ns;
	uint32_t uid;		/* (uint32_t)-1: the header has none */
	bool ns;		/* nslogger's own header */
	uint64_t order;
	uint32_t log_id;
};

static int nslog_raw_parse(struct nslog_raw_hdr *h, const unsigned char *p,
			   size_t n)
{
	struct logger_entry_v2 v2;
	struct nslog_entry ns;

	if (n < sizeof(struct logger_entry))
		return -EINVAL;
	memcpy(&v2, p, sizeof(struct logger_entry));
	h->hdr_size = v2.hdr_size ? v2.hdr_size : sizeof(struct logger_entry);
	if (v2.hdr_size && v2.hdr_size < sizeof(v2))
		return -EINVAL;
	if (h->hdr_size > n || v2.len != n - h->hdr_size)
		return -EINVAL;
	h->len = v2.len;
	h->pid = v2.pid;
	h->tid = v2.tid;
	h->time_ns = (uint64_t)(uint32_t)v2.sec * 1000000000ULL +
		     (uint32_t)v2.nsec;
	h->uid = (uint32_t)-1;
	h->ns = h->hdr_size >= sizeof(ns);
	if (h->ns) {
		memcpy(&ns, p, sizeof(ns));
		h->uid = ns.euid;
		h->time_ns = (uint64_t)ns.time_ns;
		h->order = ns.order;
		h->log_id = ns.log_id;
	} else if (v2.hdr_size) {
		memcpy(&v2, p, sizeof(v2));
		h->uid = v2.euid;
	}
	return 0;
}

/* Read one record into @l->msg; 0, -EAGAIN, or a negative errno. */
static int nslog_log_fill(struct logger *l)
{
	unsigned char raw[LOGGER_ENTRY_MAX_LEN];
	struct logger_entry_v4 *e = &l->msg.entry;
	struct nslog_raw_hdr h = { 0 };
	ssize_t n;
	int ret;

	if (l->n)
		return 0;
	do
		n = read(l->fd, raw, sizeof(raw));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EIO;
	ret = nslog_raw_parse(&h, raw, (size_t)n);
	if (ret)
		return ret;

	l->time_ns = h.time_ns;
	l->has_order = h.ns;
	l->order = h.order;
	if (h.ns && (l->list->header == NSLOG_ENTRY_VERSION ||
		     l->list->header == NSLOG_ENTRY2_VERSION)) {
		memcpy(l->msg.buf, raw, (size_t)n);
		l->n = (size_t)n;
		return 0;
	}
	if (NSLOG_V4_SIZE + h.len > LOGGER_ENTRY_MAX_LEN)
		return -EINVAL;
	e->len = (uint16_t)h.len;
	e->hdr_size = NSLOG_V4_SIZE;
	e->pid = h.pid;
	e->tid = (uint32_t)h.tid;
	e->sec = (uint32_t)(h.time_ns / 1000000000ULL);
	e->nsec = (uint32_t)(h.time_ns % 1000000000ULL);
	e->lid = h.ns ? h.log_id : (uint32_t)l->id;
	e->uid = h.uid;
	memcpy(l->msg.buf + NSLOG_V4_SIZE, raw + h.hdr_size, h.len);
	l->n = NSLOG_V4_SIZE + h.len;
	return 0;
}

static bool nslog_log_before(const struct logger *a, const struct logger *b)
{
	if (a->has_order && b->has_order)
		return a->order < b->order;
	return a->time_ns < b->time_ns;
}

/* The log whose pending record comes next, NULL if all are empty. */
static int nslog_list_next(struct logger_list *list, struct logger **next)
{
	struct logger *best = NULL, *l;
	size_t i;
	int ret;

	for (i = 0; i < list->count; i++) {
		l = list->logs[i];
		ret = nslog_log_fill(l);
		if (ret == -EAGAIN)
			continue;
		if (ret) {
			nslog_list_failed(list, l, "read");
			return ret;
		}
		if (!best || nslog_log_before(l, best))
			best = l;
	}
	*next = best;
	return 0;
}

/* The pid and start time filters. */
static bool nslog_list_wants(const struct logger_list *list,
			     const struct logger *l)
{
	if (list->pid > 0 && l->msg.entry.pid != list->pid)
		return false;
	return l->time_ns >= list->start_ns;
}

/* Take the next wanted record out of the logs: its size, 0 if none now. */
static int nslog_list_take(struct logger_list *list, struct log_msg *msg)
{
	struct logger *l;
	size_t n;
	int ret;

	for (;;) {
		ret = nslog_list_next(list, &l);
		if (ret)
			return ret;
		if (!l)
			return 0;
		n = l->n;
		l->n = 0;
		if (!nslog_list_wants(list, l))
			continue;
		memcpy(msg->buf, l->msg.buf, n);
		return (int)n;
	}
}

static int nslog_tail_fill(struct logger_list *list)
{
	struct nslog_tail_rec *r;
	struct log_msg *msg;
	int n;

	msg = malloc(sizeof(*msg));
	if (!msg)
		return -ENOMEM;
	while ((n = nslog_list_take(list, msg)) > 0) {
		r = malloc(sizeof(*r) + (size_t)n);
		if (!r) {
			n = -ENOMEM;
			break;
		}
		r->next = NULL;
		r->n = (size_t)n;
		memcpy(r->raw, msg->buf, (size_t)n);
		*list->last = r;
		list->last = &r->next;
		if (++list->queued > list->tail) {
			r = list->head;
			list->head = r->next;
			list->queued--;
			free(r);
		}
	}
	free(msg);
	list->tail_done = true;
	return n;
}

static int nslog_tail_pop(struct logger_list *list, struct log_msg *msg)
{
	struct nslog_tail_rec *r = list->head;
	int n = (int)r->n;

	memcpy(msg->buf, r->raw, r->n);
	list->head = r->next;
	if (!list->head)
		list->last = &list->head;
	list->queued--;
	free(r);
	return n;
}

static int nslog_list_wait(struct logger_list *list)
{
	struct pollfd pfd[NSLOG_BUF_COUNT];
	size_t i;
	int ret;

	for (i = 0; i < list->count; i++) {
		pfd[i].fd = list->logs[i]->fd;
		pfd[i].events = POLLIN;
	}
	do
		ret = poll(pfd, list->count, -1);
	while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : 0;
}

NSLOG_EXPORT
int android_logger_list_read(struct logger_list *list, struct log_msg *msg)
{
	int ret;

	if (!list || !msg || !list->count)
		return -EINVAL;
	if (list->tail && !list->tail_done) {
		ret = nslog_tail_fill(list);
		if (ret < 0)
			return ret;
	}
	if (list->head)
		return nslog_tail_pop(list, msg);
	for (;;) {
		ret = nslog_list_take(list, msg);
		if (ret)
			return ret;
		if (list->mode & ANDROID_LOG_NONBLOCK)
			return -EAGAIN;
		ret = nslog_list_wait(list);
		if (ret)
			return ret;
	}
}
