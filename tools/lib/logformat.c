// SPDX-License-Identifier: GPL-2.0
/*
 * logformat: decode logger records and print them as logcat does.
 *
 * Output layouts, those of Android 4.x logcat ("P" the priority letter,
 * TIME "MM-DD HH:MM:SS.mmm" in local time, tags padded to 8 columns):
 *
 *   brief	P/tag     ( pid): msg
 *   process	P( pid) msg  (tag)
 *   tag	P/tag     : msg
 *   thread	P( pid:  tid) msg
 *   raw	msg
 *   time	TIME P/tag     ( pid): msg
 *   threadtime	TIME   pid   tid P tag     : msg
 *   long	[ TIME   pid:  tid P/tag      ]\n msg\n\n
 *
 * logcat's modifiers (struct nslog_fmt, "-v threadtime,year,zone"): year
 * "YYYY-MM-DD HH:MM:SS.mmm"; zone " +hhmm" after the time; UTC the time in
 * UTC, with its zone; epoch the seconds since the epoch in 19 columns;
 * usec and nsec six and nine digits of fraction; uid the writer's uid
 * before the pid ("%5u:"; in threadtime "%5u "), blank without a v2 or
 * nslogger header.  nslogger's own modifier, relay: before the pid (after
 * the uid), a record a relay stored for another process shows the relay's
 * pid and '>' ("%5d>"), or '?' ("%5d?") if the writer was gone when it was
 * stored, so that its pid and uid are the relay's word; other records a
 * blank column:
 *
 *   brief,relay       I/tag     (  412>  129): msg
 *   threadtime,relay  TIME   412>  129   131 I tag     : msg
 *   long,relay        [ TIME   412?    0:  133 I/tag      ]
 *
 * The relay's pid needs nslogger's 0x4e54 header (0 without it, or if
 * the reader cannot see the relay).  json is a layout of its own
 * (jsonrec.c, through logprint.c).
 *
 * One trailing newline of the message is dropped; every other line of a
 * multi-line message is printed with its own prefix, except in "long",
 * which prints the message whole under its header.  A tag prints up to
 * its first newline, if it has one: every line printed starts with the
 * record's prefix, so that no writer can print a line of its own making.  Unlike logcat, an
 * empty message still prints one (empty) line.  With version 2 headers,
 * "long" shows the writer's euid before the pid: "[ TIME  euid:  pid: tid"
 * (with Android's version 4 header, only with the uid modifier).
 *
 * Events records ([__s32 tag][typed value], native byte order) print with
 * priority I and tag "[<tag number>]" as logcat did without a tag map.
 * Values: INT and LONG in decimal, STRING as its bytes, LIST as
 * "[a,b,...]", recursively.  A value that runs past the payload or has an
 * unknown type ends the text with "<malformed>"; text longer than
 * NSLOG_EVENT_TEXT_MAX ends in '!'.  One '\n' byte after the value (old
 * writers added it) is ignored, as are other trailing bytes.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "logformat.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* 64-bit nanoseconds since the epoch, floored to whole seconds and ns. */
static void nslog_ns_split(__s64 time_ns, __s64 *sec, __s32 *nsec)
{
	__s64 s = time_ns / 1000000000, ns = time_ns % 1000000000;

	if (ns < 0) {
		ns += 1000000000;
		s--;
	}
	*sec = s;
	*nsec = (__s32)ns;
}

/*
 * nslogger's header: 64-bit time, seq, order, ...; from 72 bytes on
 * (NSLOG_ENTRY2_VERSION) also the relay and when the record was stored.
 */
static void nslog_rec_parse_ns(struct nslog_rec *rec, const unsigned char *p)
{
	struct nslog_entry2 h;

	memset(&h, 0, sizeof(h));
	memcpy(&h, p, rec->hdr_size < sizeof(h) ? rec->hdr_size : sizeof(h));
	nslog_ns_split(h.time_ns, &rec->sec, &rec->nsec);
	rec->euid = h.euid;
	rec->seq = h.seq;
	rec->order = h.order;
	rec->lost = h.lost;
	rec->log_id = h.log_id;
	rec->flags = h.flags;
	rec->has_relay = rec->hdr_size >= NSLOG_HDR_NS2_SIZE;
	if (!rec->has_relay)
		return;
	rec->relay_pid = h.relay_pid;
	nslog_ns_split(h.stored_ns, &rec->stored_sec, &rec->stored_nsec);
}

/*
 * Android's version 4 header, as liblog's android_logger_list_read() gives
 * it: the log id at 20, the writer's uid at 24, (__u32)-1 if unknown.
 */
static void nslog_rec_parse_v4(struct nslog_rec *rec, const unsigned char *p)
{
	__u32 uid;

	memcpy(&rec->log_id, p + 20, sizeof(rec->log_id));
	memcpy(&uid, p + 24, sizeof(uid));
	rec->has_euid = uid != (__u32)-1;
	rec->euid = rec->has_euid ? uid : 0;
}

/**
 * nslog_rec_parse() - read the header of one record returned by read()
 * @rec: filled in; @rec->payload points into @buf
 * @buf: the bytes read() returned
 * @n: the count read() returned
 *
 * A zero hdr_size (the __pad of version 1) means a 20-byte header; 24 to
 * 27 a version 2 header; 28 to 55 Android's version 4 (log id and uid
 * after version 1's fields, from liblog's reader); 56 or more nslogger's own
 * header (struct nslog_entry), 72 or more with what relays add (struct
 * nslog_entry2: @has_relay); a longer one would add fields after them.
 *
 * Context: any.
 * Return: 0, or -EBADMSG if @n does not match the header's sizes.
 */
int nslog_rec_parse(struct nslog_rec *rec, const void *buf, size_t n)
{
	const unsigned char *p = buf;
	struct logger_entry h;

	if (n < NSLOG_HDR_V1_SIZE)
		return -EBADMSG;
	memcpy(&h, p, sizeof(h));

	rec->has_euid = h.__pad != 0;
	rec->hdr_size = rec->has_euid ? h.__pad : NSLOG_HDR_V1_SIZE;
	if (rec->has_euid && rec->hdr_size < NSLOG_HDR_V2_SIZE)
		return -EBADMSG;
	if (rec->hdr_size > n || h.len != n - rec->hdr_size)
		return -EBADMSG;

	rec->len = h.len;
	rec->pid = h.pid;
	rec->tid = h.tid;
	rec->sec = (__u32)h.sec;
	rec->nsec = h.nsec;
	rec->euid = 0;
	rec->has_seq = rec->hdr_size >= NSLOG_HDR_NS_SIZE;
	rec->seq = 0;
	rec->order = 0;
	rec->lost = 0;
	rec->log_id = 0;
	rec->flags = 0;
	rec->has_relay = false;
	rec->relay_pid = 0;
	if (rec->has_seq)
		nslog_rec_parse_ns(rec, p);
	else if (rec->hdr_size >= NSLOG_HDR_V4_SIZE)
		nslog_rec_parse_v4(rec, p);
	else if (rec->has_euid)
		memcpy(&rec->euid, p + offsetof(struct logger_entry_v2, euid),
		       sizeof(rec->euid));
	rec->has_lid = rec->has_seq || rec->hdr_size >= NSLOG_HDR_V4_SIZE;
	if (!rec->has_relay) {
		/* stored when written, as far as the header tells */
		rec->stored_sec = rec->sec;
		rec->stored_nsec = rec->nsec;
	}
	rec->payload = p + rec->hdr_size;
	return 0;
}

/**
 * nslog_entry_from_text() - split a text payload into priority, tag, msg
 * @e: filled in; points into @rec's payload
 * @rec: a parsed record of main, radio or system
 *
 * Lenient: a missing terminator (the kernel truncates long records) ends
 * the field at the end of the payload; an empty payload gives priority 0.
 *
 * Context: any.
 */
void nslog_entry_from_text(struct nslog_decoded *e, const struct nslog_rec *rec)
{
	const char *p = (const char *)rec->payload;
	size_t left = rec->len;
	size_t n;

	e->prio = NSLOG_PRIO_UNKNOWN;
	e->tag = "";
	e->tag_len = 0;
	e->msg = "";
	e->msg_len = 0;
	if (!left)
		return;

	e->prio = (unsigned char)*p++;
	left--;
	n = strnlen(p, left);
	e->tag = p;
	e->tag_len = (int)n;
	if (n == left)
		return;

	p += n + 1;
	left -= n + 1;
	e->msg = p;
	e->msg_len = strnlen(p, left);
}

/* Bounded output for decoded events; overflow is remembered. */
struct nslog_sink {
	char *buf;
	size_t size;
	size_t len;
	bool full;
};

/* Unread part of an events payload. */
struct nslog_cursor {
	const unsigned char *p;
	size_t left;
};

static void nslog_sink_put(struct nslog_sink *s, const void *data, size_t n)
{
	size_t room = s->size - 1 - s->len;

	if (s->full)
		return;
	if (n > room) {
		n = room;
		s->full = true;
	}
	memcpy(s->buf + s->len, data, n);
	s->len += n;
}

static void nslog_sink_str(struct nslog_sink *s, const char *str)
{
	nslog_sink_put(s, str, strlen(str));
}

static bool nslog_take(struct nslog_cursor *c, void *out, size_t n)
{
	if (c->left < n)
		return false;
	memcpy(out, c->p, n);
	c->p += n;
	c->left -= n;
	return true;
}

static int nslog_ev_value(struct nslog_sink *s, struct nslog_cursor *c);

static int nslog_ev_int(struct nslog_sink *s, struct nslog_cursor *c)
{
	char num[16];
	int32_t v;

	if (!nslog_take(c, &v, sizeof(v)))
		return -EBADMSG;
	snprintf(num, sizeof(num), "%" PRId32, v);
	nslog_sink_str(s, num);
	return 0;
}

static int nslog_ev_long(struct nslog_sink *s, struct nslog_cursor *c)
{
	char num[24];
	int64_t v;

	if (!nslog_take(c, &v, sizeof(v)))
		return -EBADMSG;
	snprintf(num, sizeof(num), "%" PRId64, v);
	nslog_sink_str(s, num);
	return 0;
}

static int nslog_ev_string(struct nslog_sink *s, struct nslog_cursor *c)
{
	uint32_t n;

	if (!nslog_take(c, &n, sizeof(n)) || n > c->left)
		return -EBADMSG;
	nslog_sink_put(s, c->p, n);
	c->p += n;
	c->left -= n;
	return 0;
}

static int nslog_ev_list(struct nslog_sink *s, struct nslog_cursor *c)
{
	unsigned char count;
	unsigned int i;
	int ret;

	if (!nslog_take(c, &count, 1))
		return -EBADMSG;
	nslog_sink_str(s, "[");
	for (i = 0; i < count; i++) {
		if (i)
			nslog_sink_str(s, ",");
		ret = nslog_ev_value(s, c);
		if (ret)
			return ret;
	}
	nslog_sink_str(s, "]");
	return 0;
}

/* Recursion depth is bounded by the payload: each list costs 2 bytes. */
static int nslog_ev_value(struct nslog_sink *s, struct nslog_cursor *c)
{
	unsigned char type;

	if (!nslog_take(c, &type, 1))
		return -EBADMSG;
	switch (type) {
	case NSLOG_EVENT_INT:
		return nslog_ev_int(s, c);
	case NSLOG_EVENT_LONG:
		return nslog_ev_long(s, c);
	case NSLOG_EVENT_STRING:
		return nslog_ev_string(s, c);
	case NSLOG_EVENT_LIST:
		return nslog_ev_list(s, c);
	}
	return -EBADMSG;
}

/**
 * nslog_entry_from_event() - render an events payload as text
 * @e: filled in; the text lives in @e itself
 * @rec: a parsed record of the events buffer
 *
 * See the top of this file for the rendering.
 *
 * Context: any.
 * Return: 0, or -EBADMSG if the payload is too short to hold a tag.
 */
int nslog_entry_from_event(struct nslog_decoded *e, const struct nslog_rec *rec)
{
	struct nslog_cursor c = { .p = rec->payload, .left = rec->len };
	struct nslog_sink s = { .buf = e->text, .size = sizeof(e->text) };
	int32_t tag;

	if (!nslog_take(&c, &tag, sizeof(tag)))
		return -EBADMSG;
	e->prio = NSLOG_PRIO_INFO;
	snprintf(e->tag_buf, sizeof(e->tag_buf), "[%" PRId32 "]", tag);
	e->tag = e->tag_buf;
	e->tag_len = (int)strlen(e->tag_buf);

	if (c.left && nslog_ev_value(&s, &c))
		nslog_sink_str(&s, "<malformed>");
	if (s.full)
		s.buf[s.len - 1] = '!';
	s.buf[s.len] = '\0';
	e->msg = e->text;
	e->msg_len = s.len;
	return 0;
}

static const char *const nslog_format_names[] = {
	[NSLOG_FMT_BRIEF]	= "brief",
	[NSLOG_FMT_PROCESS]	= "process",
	[NSLOG_FMT_TAG]		= "tag",
	[NSLOG_FMT_THREAD]	= "thread",
	[NSLOG_FMT_RAW]		= "raw",
	[NSLOG_FMT_TIME]	= "time",
	[NSLOG_FMT_THREADTIME]	= "threadtime",
	[NSLOG_FMT_LONG]	= "long",
	[NSLOG_FMT_JSON]	= "json",
};

/**
 * nslog_format_from_name() - parse a -v argument
 * @name: "brief", "process", "tag", "thread", "raw", "time", "threadtime",
 *	  "long" or "json"
 *
 * Context: any.
 * Return: an enum nslog_format, or -1 for an unknown name.
 */
int nslog_format_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(nslog_format_names); i++)
		if (!strcmp(name, nslog_format_names[i]))
			return (int)i;
	return -1;
}

/* logcat's modifiers, and the flag of struct nslog_fmt each one sets. */
static bool *nslog_fmt_modifier(struct nslog_fmt *fmt, const char *w,
				size_t n)
{
	static const struct {
		const char *name;
		size_t off;
	} mods[] = {
		{ "year",	offsetof(struct nslog_fmt, year) },
		{ "zone",	offsetof(struct nslog_fmt, zone) },
		{ "UTC",	offsetof(struct nslog_fmt, utc) },
		{ "epoch",	offsetof(struct nslog_fmt, epoch) },
		{ "usec",	offsetof(struct nslog_fmt, usec) },
		{ "nsec",	offsetof(struct nslog_fmt, nsec) },
		{ "uid",	offsetof(struct nslog_fmt, uid) },
		{ "relay",	offsetof(struct nslog_fmt, relay) },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mods); i++)
		if (strlen(mods[i].name) == n && !strncasecmp(w, mods[i].name, n))
			return (bool *)((char *)fmt + mods[i].off);
	return NULL;
}

/**
 * nslog_fmt_parse() - apply a -v argument
 * @fmt: the layout and modifiers so far; changed by the words of @spec
 * @spec: words separated by commas (or spaces): layout names (the last
 *	  one counts) and modifiers (year, zone, UTC, epoch, usec, nsec,
 *	  uid, relay; UTC in any case, as logcat takes it)
 * @bad: on error, set to the first unknown word within @spec
 *
 * Several -v options add up, as in logcat: "-v threadtime -v UTC" is
 * "-v threadtime,UTC".
 *
 * Context: any.
 * Return: 0, or -EINVAL for an unknown or empty word.
 */
int nslog_fmt_parse(struct nslog_fmt *fmt, const char *spec, const char **bad)
{
	static const char seps[] = ", ";
	struct nslog_fmt f = *fmt;
	char word[16];
	bool *flag;
	size_t n;
	int layout;

	*bad = spec;
	if (!spec[strspn(spec, seps)])
		return -EINVAL;
	for (;;) {
		spec += strspn(spec, seps);
		if (!*spec)
			break;
		n = strcspn(spec, seps);
		*bad = spec;
		flag = nslog_fmt_modifier(&f, spec, n);
		if (flag) {
			*flag = true;
		} else {
			if (n >= sizeof(word))
				return -EINVAL;
			memcpy(word, spec, n);
			word[n] = '\0';
			layout = nslog_format_from_name(word);
			if (layout < 0)
				return -EINVAL;
			f.layout = (enum nslog_format)layout;
		}
		spec += n;
	}
	*fmt = f;
	return 0;
}

/**
 * nslog_prio_char() - the letter logcat prints for a priority
 * @prio: a priority byte
 *
 * Context: any.
 * Return: one of V D I W E F S, or '?' for anything else.
 */
char nslog_prio_char(int prio)
{
	static const char letters[] = "??VDIWEFS";

	if (prio < 0 || prio > NSLOG_PRIO_SILENT)
		return '?';
	return letters[prio];
}

/**
 * nslog_prio_from_char() - parse a priority letter
 * @c: one of v d i w e f s, either case
 *
 * Context: any.
 * Return: the priority (2 to 8), or -1.
 */
int nslog_prio_from_char(char c)
{
	static const char letters[] = "vdiwefs";
	const char *p;

	if (!c)
		return -1;
	p = strchr(letters, tolower((unsigned char)c));
	return p ? (int)(p - letters) + NSLOG_PRIO_VERBOSE : -1;
}

/**
 * nslog_format_time_fmt() - a record's time as logcat prints it
 * @buf: output, 48 bytes are plenty
 * @size: size of @buf
 * @fmt: the modifiers: year, zone, utc, epoch, usec, nsec
 * @sec: seconds since the epoch
 * @nsec: nanoseconds
 *
 * "MM-DD HH:MM:SS.mmm" in local time ($TZ honoured) by default; "YYYY-"
 * first with year; UTC with utc; seconds since the epoch, right-aligned
 * in 19 columns as logcat has them, with epoch; .uuuuuu with usec,
 * .nnnnnnnnn with nsec; " +hhmm" after it with zone or utc (not with
 * epoch).
 *
 * Context: process context (localtime_r() may read the zone files).
 */
void nslog_format_time_fmt(char *buf, size_t size, const struct nslog_fmt *fmt,
			   __s64 sec, __s32 nsec)
{
	time_t t = (time_t)sec;
	struct tm tm, *ok = NULL;
	size_t n;

	if (fmt->epoch)
		n = (size_t)snprintf(buf, size, "%19lld", (long long)sec);
	else if (!(ok = fmt->utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
		n = (size_t)snprintf(buf, size, "%lld", (long long)sec);
	else
		n = strftime(buf, size, fmt->year ? "%Y-%m-%d %H:%M:%S" :
			     "%m-%d %H:%M:%S", &tm);
	if (n >= size)
		return;
	if (fmt->nsec)
		n += (size_t)snprintf(buf + n, size - n, ".%09d", (int)nsec);
	else if (fmt->usec)
		n += (size_t)snprintf(buf + n, size - n, ".%06d",
				      (int)(nsec / 1000));
	else
		n += (size_t)snprintf(buf + n, size - n, ".%03d",
				      (int)(nsec / 1000000));
	if (ok && (fmt->zone || fmt->utc) && n < size)
		strftime(buf + n, size - n, " %z", &tm);
}

/**
 * nslog_format_time() - "MM-DD HH:MM:SS.mmm" in local time ($TZ honoured)
 * @buf: output, 32 bytes are plenty
 * @size: size of @buf
 * @sec: seconds since the epoch
 * @nsec: nanoseconds
 *
 * Context: process context (localtime_r() may read the zone files).
 */
void nslog_format_time(char *buf, size_t size, __s64 sec, __s32 nsec)
{
	static const struct nslog_fmt plain;

	nslog_format_time_fmt(buf, size, &plain, sec, nsec);
}

/* What every line of one record is printed from. */
struct nslog_line {
	enum nslog_format fmt;
	const struct nslog_rec *rec;
	const struct nslog_decoded *e;
	int tag_len;	/* of e->tag, up to its first newline */
	char pri;
	char when[48];
	char uid[16];	/* logcat's uid modifier: "%5u:", or empty */
	char relay[16];	/* the relay modifier: "%5d>", "%5d?", or empty */
};

static void nslog_put_prefix(FILE *out, const struct nslog_line *l)
{
	const struct nslog_rec *r = l->rec;
	const char *tag = l->e->tag;
	const char *uid = l->uid, *rl = l->relay;
	int tl = l->tag_len;
	int ul = (int)strlen(uid);

	switch (l->fmt) {
	case NSLOG_FMT_PROCESS:
		fprintf(out, "%c(%s%s%5d) ", l->pri, uid, rl, r->pid);
		break;
	case NSLOG_FMT_TAG:
		fprintf(out, "%c/%-8.*s: ", l->pri, tl, tag);
		break;
	case NSLOG_FMT_THREAD:
		fprintf(out, "%c(%s%s%5d:%5d) ", l->pri, uid, rl, r->pid,
			r->tid);
		break;
	case NSLOG_FMT_RAW:
		break;
	case NSLOG_FMT_TIME:
		fprintf(out, "%s %c/%-8.*s(%s%s%5d): ", l->when, l->pri, tl,
			tag, uid, rl, r->pid);
		break;
	case NSLOG_FMT_THREADTIME:
		/* logcat shows "uid pid", a space for the colon */
		fprintf(out, "%s %.*s%s%s%5d %5d %c %-8.*s: ", l->when,
			ul ? ul - 1 : 0, uid, ul ? " " : "", rl, r->pid,
			r->tid, l->pri, tl, tag);
		break;
	case NSLOG_FMT_BRIEF:
	default:
		fprintf(out, "%c/%-8.*s(%s%s%5d): ", l->pri, tl, tag, uid, rl,
			r->pid);
		break;
	}
}

static void nslog_put_suffix(FILE *out, const struct nslog_line *l)
{
	if (l->fmt == NSLOG_FMT_PROCESS)
		fprintf(out, "  (%.*s)", l->tag_len, l->e->tag);
	fputc('\n', out);
}

static void nslog_put_lines(FILE *out, const struct nslog_line *l,
			    const char *msg, size_t len)
{
	const char *end = msg + len;
	const char *nl;

	for (;;) {
		nl = memchr(msg, '\n', (size_t)(end - msg));
		nslog_put_prefix(out, l);
		fwrite(msg, 1, (size_t)((nl ? nl : end) - msg), out);
		nslog_put_suffix(out, l);
		if (!nl)
			break;
		msg = nl + 1;
	}
}

static void nslog_put_long(FILE *out, const struct nslog_line *l,
			   const char *msg, size_t len)
{
	const struct nslog_rec *r = l->rec;

	fprintf(out, "[ %s %s%s%5d:%5d %c/%-8.*s ]\n", l->when, l->uid,
		l->relay, r->pid, r->tid, l->pri, l->tag_len, l->e->tag);
	fwrite(msg, 1, len, out);
	fputs("\n\n", out);
}

/**
 * nslog_format_line() - print one decoded record
 * @out: where to print
 * @fmt: layout and modifiers; NSLOG_FMT_JSON is not printed here
 * @rec: the record's header fields
 * @e: the record's priority, tag and message
 *
 * With the uid modifier, or in "long" when the header has the euid, the
 * writer's euid is shown before the pid as "%5u:" (blank if the header
 * has none), as logcat -v uid does; with the relay modifier, after it, a
 * relayed record's relay (see the top of this file).
 *
 * Context: process context.
 * Return: 0, -EINVAL for NSLOG_FMT_JSON, or -EIO if @out has an error.
 */
int nslog_format_line(FILE *out, const struct nslog_fmt *fmt,
		      const struct nslog_rec *rec,
		      const struct nslog_decoded *e)
{
	struct nslog_line l = {
		.fmt = fmt->layout,
		.rec = rec,
		.e = e,
		.pri = nslog_prio_char(e->prio),
	};
	const char *nl = memchr(e->tag, '\n', (size_t)e->tag_len);
	size_t len = e->msg_len;

	if (l.fmt == NSLOG_FMT_JSON)
		return -EINVAL;
	l.tag_len = nl ? (int)(nl - e->tag) : e->tag_len;
	if (len && e->msg[len - 1] == '\n')
		len--;
	if (l.fmt == NSLOG_FMT_TIME || l.fmt == NSLOG_FMT_THREADTIME ||
	    l.fmt == NSLOG_FMT_LONG)
		nslog_format_time_fmt(l.when, sizeof(l.when), fmt, rec->sec,
				      rec->nsec);
	/*
	 * long shows the euid of a version 2 or nslogger header, as it did
	 * before liblog's reader; a version 4 header (that reader's, which
	 * has the uid always) shows it for the uid modifier only, as logcat.
	 */
	if (fmt->uid || (l.fmt == NSLOG_FMT_LONG && rec->has_euid &&
			 (rec->has_seq || !rec->has_lid))) {
		if (rec->has_euid)
			snprintf(l.uid, sizeof(l.uid), "%5u:",
				 (unsigned int)rec->euid);
		else
			strcpy(l.uid, "      ");
	}
	if (fmt->relay) {
		if (nslog_rec_relayed(rec))
			snprintf(l.relay, sizeof(l.relay), "%5d%c",
				 (int)rec->relay_pid,
				 nslog_rec_unverified(rec) ? '?' : '>');
		else
			strcpy(l.relay, "      ");
	}

	if (l.fmt == NSLOG_FMT_LONG)
		nslog_put_long(out, &l, e->msg, len);
	else
		nslog_put_lines(out, &l, e->msg, len);
	return ferror(out) ? -EIO : 0;
}

/**
 * nslog_format_entry() - print one decoded record in a layout
 * @out: where to print
 * @fmt: layout, without modifiers
 * @rec: the record's header fields
 * @e: the record's priority, tag and message
 *
 * Context: process context.
 * Return: as nslog_format_line().
 */
int nslog_format_entry(FILE *out, enum nslog_format fmt,
		       const struct nslog_rec *rec,
		       const struct nslog_decoded *e)
{
	struct nslog_fmt f = { .layout = fmt };

	return nslog_format_line(out, &f, rec, e);
}

/**
 * nslog_filter_init() - a filter that passes every record
 * @f: the filter
 *
 * Context: any.
 */
void nslog_filter_init(struct nslog_filter *f)
{
	f->global = NSLOG_PRIO_UNKNOWN;
	f->rules = NULL;
	f->count = 0;
}

static int nslog_filter_add(struct nslog_filter *f, const char *tag,
			    size_t tag_len, int prio)
{
	struct nslog_filter_rule *rules;
	char *copy;

	copy = strndup(tag, tag_len);
	if (!copy)
		return -ENOMEM;
	rules = realloc(f->rules, (f->count + 1) * sizeof(*rules));
	if (!rules) {
		free(copy);
		return -ENOMEM;
	}
	f->rules = rules;
	f->rules[f->count].tag = copy;
	f->rules[f->count].prio = prio;
	f->count++;
	return 0;
}

/* One "tag[:P]" rule: "*" alone means *:D, a tag alone means tag:V. */
static int nslog_filter_rule(struct nslog_filter *f, const char *spec,
			     size_t n)
{
	const char *colon = memchr(spec, ':', n);
	size_t tag_len = colon ? (size_t)(colon - spec) : n;
	bool star = tag_len == 1 && *spec == '*';
	int prio;

	if (!tag_len)
		return -EINVAL;
	if (!colon)
		prio = star ? NSLOG_PRIO_DEBUG : NSLOG_PRIO_VERBOSE;
	else if (n - tag_len != 2)
		return -EINVAL;
	else if (colon[1] == '*')
		prio = NSLOG_PRIO_VERBOSE;
	else
		prio = nslog_prio_from_char(colon[1]);
	if (prio < 0)
		return -EINVAL;

	if (star) {
		f->global = prio;
		return 0;
	}
	return nslog_filter_add(f, spec, tag_len, prio);
}

/**
 * nslog_filter_parse() - add logcat filterspecs
 * @f: the filter
 * @specs: rules "tag[:P]" separated by spaces, tabs or commas; P is one of
 *	   V D I W E F S (either case) or '*' for V; tag "*" sets the default
 *
 * Later rules override earlier ones for the same tag.
 *
 * Context: process context; allocates.
 * Return: 0, -EINVAL for a malformed rule, -ENOMEM.
 */
int nslog_filter_parse(struct nslog_filter *f, const char *specs)
{
	static const char seps[] = " \t,";
	size_t n;
	int ret;

	for (;;) {
		specs += strspn(specs, seps);
		if (!*specs)
			return 0;
		n = strcspn(specs, seps);
		ret = nslog_filter_rule(f, specs, n);
		if (ret)
			return ret;
		specs += n;
	}
}

/**
 * nslog_filter_pass() - whether a record is printed
 * @f: the filter
 * @tag: the record's tag, not necessarily NUL-terminated
 * @tag_len: its length
 * @prio: the record's priority
 *
 * Context: any.
 * Return: true if @prio reaches the level of the latest rule for @tag, or
 * of the default if no rule names @tag.
 */
bool nslog_filter_pass(const struct nslog_filter *f, const char *tag,
		       int tag_len, int prio)
{
	size_t i = f->count;

	while (i--) {
		const char *t = f->rules[i].tag;

		if (strlen(t) == (size_t)tag_len && !memcmp(t, tag, tag_len))
			return prio >= f->rules[i].prio;
	}
	return prio >= f->global;
}

/**
 * nslog_filter_free() - release the rules of a filter
 * @f: the filter; it passes everything again afterwards
 *
 * Context: any.
 */
void nslog_filter_free(struct nslog_filter *f)
{
	size_t i;

	for (i = 0; i < f->count; i++)
		free(f->rules[i].tag);
	free(f->rules);
	nslog_filter_init(f);
}
