// SPDX-License-Identifier: GPL-2.0
/*
 * logprint: one record of liblog's reader, printed as nslogcat does.
 *
 * The record is a struct log_msg as android_logger_list_read() returns it:
 * Android's version 4 header, or nslogger's own with -v json and the relay
 * modifier; both say which log the record came from.  A record prints if
 * its tag and priority pass the filterspecs, its message matches -e and its
 * writer's euid is in --uid; -B writes every record as it is, unfiltered,
 * as logcat does.
 *
 * Dividers, as logcat prints them when it reads several logs: before the
 * first record printed from a log, "--------- beginning of LOG"; with -D,
 * before a record from another log than the last one printed,
 * "--------- switch to LOG".
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "devpath.h"
#include "jsonrec.h"
#include "logprint.h"

/**
 * nslog_print_state_init() - nothing printed yet
 * @st: the state
 *
 * Context: any.
 */
void nslog_print_state_init(struct nslog_print_state *st)
{
	st->started = 0;
	st->last = -1;
}

static const char *nslog_log_name(const struct nslog_rec *rec)
{
	const char *name = nslog_buf_name((int)rec->log_id);

	return name ? name : "unknown";
}

static void nslog_warn(const struct nslog_printer *p,
		       const struct nslog_rec *rec, size_t n)
{
	if (!p->err)
		return;
	fprintf(p->err, "%s: %s: skipping a %zu-byte record: no event tag\n",
		p->prog ? p->prog : "nslogcat", nslog_log_name(rec), n);
}

/* -v json: every record a JSON line, no dividers. */
static int nslog_print_json(const struct nslog_printer *p,
			    const struct nslog_rec *rec,
			    const struct nslog_decoded *e, bool events)
{
	struct nslog_meta m = { 0 };

	if (p->meta)
		m = *p->meta;
	m.utc = p->fmt.utc;
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
	return nslog_json_record(p->out, rec, e, &m, events);
}

/* An events record's tag by its name in the tag map, if it has one. */
static void nslog_name_event(const struct nslog_printer *p,
			     const struct nslog_rec *rec,
			     struct nslog_decoded *e)
{
	const char *name;
	__u32 num;
	size_t len;

	if (!p->tags || rec->len < sizeof(num))
		return;
	memcpy(&num, rec->payload, sizeof(num));
	name = android_lookupEventTag_len(p->tags, &len, num);
	if (!name)
		return;
	e->tag = name;
	e->tag_len = (int)len;
}

static bool nslog_uid_pass(const struct nslog_printer *p,
			   const struct nslog_rec *rec)
{
	size_t i;

	if (!p->uids)
		return true;
	if (!rec->has_euid)
		return false;
	for (i = 0; i < p->uid_count; i++)
		if (p->uids[i] == rec->euid)
			return true;
	return false;
}

static bool nslog_regex_pass(const struct nslog_printer *p,
			     const struct nslog_decoded *e)
{
	regmatch_t m = { .rm_so = 0, .rm_eo = (regoff_t)e->msg_len };

	if (!p->regex)
		return true;
	return !regexec(p->regex, e->msg, 1, &m, REG_STARTEND);
}

static void nslog_divider(const struct nslog_printer *p,
			  struct nslog_print_state *st,
			  const struct nslog_rec *rec)
{
	unsigned int bit = 1U << (rec->log_id & 31);

	if (p->headers && (int)rec->log_id != st->last) {
		if (!(st->started & bit))
			fprintf(p->out, "--------- beginning of %s\n",
				nslog_log_name(rec));
		else if (p->dividers)
			fprintf(p->out, "--------- switch to %s\n",
				nslog_log_name(rec));
	}
	st->started |= bit;
	st->last = (int)rec->log_id;
}

/**
 * nslog_print() - print one record as the printer says
 * @p: output settings
 * @st: what was printed before, for the dividers
 * @raw: the record: a struct log_msg's bytes
 * @n: its size, as android_logger_list_read() returned it
 *
 * Context: process context.
 * Return: 1 if the record was printed, 0 if a filter left it out, -EIO for
 * an output error, -EBADMSG for a record that does not parse.
 */
int nslog_print(const struct nslog_printer *p, struct nslog_print_state *st,
		const void *raw, size_t n)
{
	struct nslog_decoded e;
	struct nslog_rec rec;
	bool events;
	int ret;

	if (p->binary) {
		fwrite(raw, 1, n, p->out);
		return ferror(p->out) ? -EIO : 1;
	}
	if (nslog_rec_parse(&rec, raw, n))
		return -EBADMSG;
	events = rec.log_id == NSLOG_BUF_EVENTS;
	if (!events) {
		nslog_entry_from_text(&e, &rec);
	} else if (nslog_entry_from_event(&e, &rec)) {
		nslog_warn(p, &rec, n);
		return 0;
	} else {
		nslog_name_event(p, &rec, &e);
	}
	if (p->filter && !nslog_filter_pass(p->filter, e.tag, e.tag_len,
					    e.prio))
		return 0;
	if (!nslog_uid_pass(p, &rec) || !nslog_regex_pass(p, &e))
		return 0;

	/*
	 * nslogcat's long shows the euid only with uid (or --v2), as for
	 * liblog's version 4 header; so also for nslogger's header, which
	 * the relay modifier reads: a record prints as without relay, but
	 * for the relay's column.
	 */
	if (rec.has_seq && p->fmt.layout == NSLOG_FMT_LONG && !p->fmt.uid)
		rec.has_euid = false;
	if (p->fmt.layout == NSLOG_FMT_JSON)
		ret = nslog_print_json(p, &rec, &e, events);
	else {
		nslog_divider(p, st, &rec);
		ret = nslog_format_line(p->out, &p->fmt, &rec, &e);
	}
	return ret ? ret : 1;
}
