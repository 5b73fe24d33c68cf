// SPDX-License-Identifier: GPL-2.0
/*
 * logformat_test: nslogcat's decoding, layouts, filters, printing
 * (dividers, -B, -e, --uid, the event tag map) and device-path resolution, fed with synthetic records.  Every expected
 * string is written out in full.
 */
#include <errno.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <log/log_read.h>

#include "devpath.h"
#include "logformat.h"
#include "nslogcat/logprint.h"
#include "tap.h"

/* A record as read() returns it, at most 64 KiB for the tests. */
struct raw {
	unsigned char b[65536 + 24];
	size_t n;
};

static size_t hdr(unsigned char *b, int version, size_t len, int pid,
		  int tid, uint32_t sec, int nsec, uint32_t euid)
{
	struct logger_entry_v2 h = {
		.len = (__u16)len,
		.hdr_size = version == 2 ? 24 : 0,
		.pid = pid,
		.tid = tid,
		.sec = (__s32)sec,
		.nsec = nsec,
		.euid = euid,
	};
	size_t size = version == 2 ? 24 : 20;

	memcpy(b, &h, size);
	return size;
}

/* A record with a given payload. */
static void mkraw(struct raw *r, int version, int pid, int tid, uint32_t sec,
		  int nsec, uint32_t euid, const void *payload, size_t len)
{
	size_t h = hdr(r->b, version, len, pid, tid, sec, nsec, euid);

	memcpy(r->b + h, payload, len);
	r->n = h + len;
}

/* A text payload [prio][tag\0][msg\0]; returns its length. */
static size_t text(unsigned char *p, int prio, const char *tag,
		   const char *msg)
{
	size_t t = strlen(tag) + 1, m = strlen(msg) + 1;

	p[0] = (unsigned char)prio;
	memcpy(p + 1, tag, t);
	memcpy(p + 1 + t, msg, m);
	return 1 + t + m;
}

/* A v1 text record of pid 1234, tid 5678 at 1700000000.123456789. */
static void mktext(struct raw *r, int prio, const char *tag, const char *msg)
{
	unsigned char p[8192];

	mkraw(r, 1, 1234, 5678, 1700000000, 123456789, 0, p,
	      text(p, prio, tag, msg));
}

/* Format one text or events record; returns a malloc'ed string. */
static char *fmt_raw(const struct raw *r, enum nslog_format fmt, bool events)
{
	static struct nslog_decoded e;
	struct nslog_rec rec;
	size_t size = 0;
	char *out = NULL;
	FILE *f;

	if (nslog_rec_parse(&rec, r->b, r->n))
		return strdup("<parse error>");
	if (!events)
		nslog_entry_from_text(&e, &rec);
	else if (nslog_entry_from_event(&e, &rec))
		return strdup("<event error>");
	f = open_memstream(&out, &size);
	nslog_format_entry(f, fmt, &rec, &e);
	fclose(f);
	return out;
}

/* Format one text record with a -v spec; returns a malloc'ed string. */
static char *fmt_spec(const struct raw *r, const char *spec)
{
	static struct nslog_decoded e;
	struct nslog_fmt fmt = { .layout = NSLOG_FMT_BRIEF };
	struct nslog_rec rec;
	const char *bad;
	size_t size = 0;
	char *out = NULL;
	FILE *f;

	if (nslog_fmt_parse(&fmt, spec, &bad))
		return strdup("<bad spec>");
	if (nslog_rec_parse(&rec, r->b, r->n))
		return strdup("<parse error>");
	nslog_entry_from_text(&e, &rec);
	f = open_memstream(&out, &size);
	nslog_format_line(f, &fmt, &rec, &e);
	fclose(f);
	return out;
}

static void check_spec(const char *what, const struct raw *r,
		       const char *spec, const char *want)
{
	char *got = fmt_spec(r, spec);

	tap_str(what, got, want);
	free(got);
}

static void check_fmt(const char *what, const struct raw *r,
		      enum nslog_format fmt, bool events, const char *want)
{
	char *got = fmt_raw(r, fmt, events);

	tap_str(what, got, want);
	free(got);
}

static void set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static void test_parse(void)
{
	struct nslog_rec rec;
	struct raw r;
	int ret;

	mkraw(&r, 1, 10, 11, 12, 13, 0, "abc", 3);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.hdr_size == 20 && rec.len == 3 && rec.pid == 10 &&
	       rec.tid == 11 && rec.sec == 12 && rec.nsec == 13 &&
	       !rec.has_euid && rec.payload == r.b + 20 &&
	       !memcmp(rec.payload, "abc", 3),
	       "parse: v1 header fields, payload after 20 bytes");

	mkraw(&r, 2, 10, 11, 12, 13, 1000, "abc", 3);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.hdr_size == 24 && rec.len == 3 && rec.has_euid &&
	       rec.euid == 1000 && rec.payload == r.b + 24,
	       "parse: v2 header carries euid, payload after 24 bytes");

	tap_int("parse: read count shorter than header + len is rejected",
		nslog_rec_parse(&rec, r.b, r.n - 1), -EBADMSG);
	tap_int("parse: fewer than 20 bytes is rejected",
		nslog_rec_parse(&rec, r.b, 19), -EBADMSG);
	r.b[2] = 22;
	tap_int("parse: hdr_size between 1 and 23 is rejected",
		nslog_rec_parse(&rec, r.b, r.n), -EBADMSG);

	mkraw(&r, 1, 1, 1, 0x80000000u, 0, 0, "", 0);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.sec == 0x80000000u && rec.len == 0,
	       "parse: sec past 2038 reads as unsigned; empty payload");
}

static void test_layouts(void)
{
	struct raw r;

	mktext(&r, 4, "MyTag", "hello");
	check_fmt("brief", &r, NSLOG_FMT_BRIEF, false,
		  "I/MyTag   ( 1234): hello\n");
	check_fmt("process", &r, NSLOG_FMT_PROCESS, false,
		  "I( 1234) hello  (MyTag)\n");
	check_fmt("tag", &r, NSLOG_FMT_TAG, false, "I/MyTag   : hello\n");
	check_fmt("thread", &r, NSLOG_FMT_THREAD, false,
		  "I( 1234: 5678) hello\n");
	check_fmt("raw", &r, NSLOG_FMT_RAW, false, "hello\n");
	check_fmt("time", &r, NSLOG_FMT_TIME, false,
		  "11-14 22:13:20.123 I/MyTag   ( 1234): hello\n");
	check_fmt("threadtime", &r, NSLOG_FMT_THREADTIME, false,
		  "11-14 22:13:20.123  1234  5678 I MyTag   : hello\n");
	check_fmt("long", &r, NSLOG_FMT_LONG, false,
		  "[ 11-14 22:13:20.123  1234: 5678 I/MyTag    ]\nhello\n\n");

	mktext(&r, 6, "VeryLongTagName", "x");
	check_fmt("brief: a tag over 8 columns is not cut", &r,
		  NSLOG_FMT_BRIEF, false, "E/VeryLongTagName( 1234): x\n");
	check_fmt("threadtime: a tag over 8 columns is not cut", &r,
		  NSLOG_FMT_THREADTIME, false,
		  "11-14 22:13:20.123  1234  5678 E VeryLongTagName: x\n");

	mkraw(&r, 1, 123456, 7654321, 1700000000, 5000000, 0, "\3T\0m", 5);
	check_fmt("thread: pids wider than 5 columns", &r, NSLOG_FMT_THREAD,
		  false, "D(123456:7654321) m\n");
	check_fmt("time: 5 ms prints as .005", &r, NSLOG_FMT_TIME, false,
		  "11-14 22:13:20.005 D/T       (123456): m\n");
}

static void test_lines(void)
{
	struct raw r;

	mktext(&r, 5, "ML", "one\ntwo\n");
	check_fmt("brief: each line gets the prefix, last newline dropped", &r,
		  NSLOG_FMT_BRIEF, false,
		  "W/ML      ( 1234): one\nW/ML      ( 1234): two\n");
	check_fmt("process: each line gets prefix and suffix", &r,
		  NSLOG_FMT_PROCESS, false,
		  "W( 1234) one  (ML)\nW( 1234) two  (ML)\n");
	check_fmt("threadtime: multi-line", &r, NSLOG_FMT_THREADTIME, false,
		  "11-14 22:13:20.123  1234  5678 W ML      : one\n"
		  "11-14 22:13:20.123  1234  5678 W ML      : two\n");
	check_fmt("long: the message is printed whole under one header", &r,
		  NSLOG_FMT_LONG, false,
		  "[ 11-14 22:13:20.123  1234: 5678 W/ML       ]\none\ntwo\n\n");
	check_fmt("raw: multi-line", &r, NSLOG_FMT_RAW, false, "one\ntwo\n");

	mktext(&r, 4, "ML", "a\n\nb");
	check_fmt("tag: an empty middle line keeps its prefix", &r,
		  NSLOG_FMT_TAG, false,
		  "I/ML      : a\nI/ML      : \nI/ML      : b\n");

	mktext(&r, 4, "ML", "a\n\n");
	check_fmt("tag: only one trailing newline is dropped", &r,
		  NSLOG_FMT_TAG, false, "I/ML      : a\nI/ML      : \n");

	mktext(&r, 4, "E", "");
	check_fmt("brief: an empty message prints one line", &r,
		  NSLOG_FMT_BRIEF, false, "I/E       ( 1234): \n");
	check_fmt("long: an empty message", &r, NSLOG_FMT_LONG, false,
		  "[ 11-14 22:13:20.123  1234: 5678 I/E        ]\n\n\n");
}

static void test_text_edges(void)
{
	struct raw r;

	mkraw(&r, 1, 1, 2, 1700000000, 0, 0, "\4T\0abc", 6);
	check_fmt("text: message without its NUL (truncated by the kernel)",
		  &r, NSLOG_FMT_TAG, false, "I/T       : abc\n");
	mkraw(&r, 1, 1, 2, 1700000000, 0, 0, "\4TAGNOEND", 9);
	check_fmt("text: tag without its NUL, no message", &r, NSLOG_FMT_TAG,
		  false, "I/TAGNOEND: \n");
	mkraw(&r, 1, 1, 2, 1700000000, 0, 0, "", 0);
	check_fmt("text: empty payload prints priority ?", &r, NSLOG_FMT_TAG,
		  false, "?/        : \n");
	mkraw(&r, 1, 1, 2, 1700000000, 0, 0, "\4T\0one\0two", 11);
	check_fmt("text: bytes after the message's NUL are not printed", &r,
		  NSLOG_FMT_TAG, false, "I/T       : one\n");
}

/*
 * Found by tests/fuzz (logformat_fuzz): a tag is the writer's bytes up to
 * a NUL, so it may hold a newline, which printed as it is started a line
 * of the writer's making, without the record's prefix: a container could
 * forge records of others in nslogcat's and the collector's layouts.
 * The tag prints up to its first newline.
 */
static void test_tag_newline(void)
{
	static const char forged[] = "T\nE/Other   (    1): forged";
	struct raw r;

	mktext(&r, 4, forged, "m");
	check_fmt("tag: a newline in the tag starts no line (brief)", &r,
		  NSLOG_FMT_BRIEF, false, "I/T       ( 1234): m\n");
	check_fmt("tag: a newline in the tag starts no line (process)", &r,
		  NSLOG_FMT_PROCESS, false, "I( 1234) m  (T)\n");
	check_fmt("tag: a newline in the tag starts no line (threadtime)", &r,
		  NSLOG_FMT_THREADTIME, false,
		  "11-14 22:13:20.123  1234  5678 I T       : m\n");
	check_fmt("tag: a newline in the tag starts no line (long)", &r,
		  NSLOG_FMT_LONG, false,
		  "[ 11-14 22:13:20.123  1234: 5678 I/T        ]\nm\n\n");
	mktext(&r, 4, "\nX", "m");
	check_fmt("tag: a tag that starts with a newline prints empty", &r,
		  NSLOG_FMT_TAG, false, "I/        : m\n");
}

static void test_prio(void)
{
	static const int prios[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255, -1 };
	char got[ARRAY_SIZE(prios) + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prios); i++)
		got[i] = nslog_prio_char(prios[i]);
	got[i] = '\0';
	tap_str("priority letters of 0..9, 255, -1", got, "??VDIWEFS???");

	tap_ok(nslog_prio_from_char('v') == 2 && nslog_prio_from_char('D') == 3 &&
	       nslog_prio_from_char('i') == 4 && nslog_prio_from_char('W') == 5 &&
	       nslog_prio_from_char('e') == 6 && nslog_prio_from_char('F') == 7 &&
	       nslog_prio_from_char('s') == 8 && nslog_prio_from_char('x') == -1 &&
	       nslog_prio_from_char('\0') == -1,
	       "priority from letter, either case");

	tap_ok(nslog_format_from_name("brief") == NSLOG_FMT_BRIEF &&
	       nslog_format_from_name("process") == NSLOG_FMT_PROCESS &&
	       nslog_format_from_name("tag") == NSLOG_FMT_TAG &&
	       nslog_format_from_name("thread") == NSLOG_FMT_THREAD &&
	       nslog_format_from_name("raw") == NSLOG_FMT_RAW &&
	       nslog_format_from_name("time") == NSLOG_FMT_TIME &&
	       nslog_format_from_name("threadtime") == NSLOG_FMT_THREADTIME &&
	       nslog_format_from_name("long") == NSLOG_FMT_LONG &&
	       nslog_format_from_name("Brief") == -1 &&
	       nslog_format_from_name("") == -1,
	       "format names");
}

static void test_time(void)
{
	struct raw r;

	mktext(&r, 4, "T", "m");
	set_tz("XYZ-2");
	check_fmt("time: TZ is honoured (UTC+2 crosses midnight)", &r,
		  NSLOG_FMT_TIME, false,
		  "11-15 00:13:20.123 I/T       ( 1234): m\n");
	set_tz("UTC0");

	mkraw(&r, 1, 1, 2, 0x80000000u, 999999999, 0, "\4T\0m", 5);
	check_fmt("time: sec 0x80000000 is 2038, not 1901", &r, NSLOG_FMT_TIME,
		  false, "01-19 03:14:08.999 I/T       (    1): m\n");
}

static void test_euid(void)
{
	unsigned char p[64];
	struct raw r;

	mkraw(&r, 2, 1234, 5678, 1700000000, 123456789, 1000, p,
	      text(p, 4, "MyTag", "hello"));
	check_fmt("long with a v2 header shows the euid", &r, NSLOG_FMT_LONG,
		  false,
		  "[ 11-14 22:13:20.123  1000: 1234: 5678 I/MyTag    ]\nhello\n\n");
	check_fmt("brief with a v2 header is unchanged", &r, NSLOG_FMT_BRIEF,
		  false, "I/MyTag   ( 1234): hello\n");
}

/* Events payload builder. */
struct evb {
	unsigned char b[65536];
	size_t n;
};

static void ev_bytes(struct evb *e, const void *p, size_t n)
{
	memcpy(e->b + e->n, p, n);
	e->n += n;
}

static void ev_tag(struct evb *e, int32_t tag)
{
	e->n = 0;
	ev_bytes(e, &tag, 4);
}

static void ev_u8(struct evb *e, unsigned char v)
{
	ev_bytes(e, &v, 1);
}

static void ev_int(struct evb *e, int32_t v)
{
	ev_u8(e, NSLOG_EVENT_INT);
	ev_bytes(e, &v, 4);
}

static void ev_long(struct evb *e, int64_t v)
{
	ev_u8(e, NSLOG_EVENT_LONG);
	ev_bytes(e, &v, 8);
}

static void ev_str(struct evb *e, const char *s, size_t n)
{
	int32_t len = (int32_t)n;

	ev_u8(e, NSLOG_EVENT_STRING);
	ev_bytes(e, &len, 4);
	ev_bytes(e, s, n);
}

static void ev_list(struct evb *e, unsigned char count)
{
	ev_u8(e, NSLOG_EVENT_LIST);
	ev_u8(e, count);
}

static void check_ev(const char *what, const struct evb *e,
		     enum nslog_format fmt, const char *want)
{
	static struct raw r;

	mkraw(&r, 1, 1234, 5678, 1700000000, 123456789, 0, e->b, e->n);
	check_fmt(what, &r, fmt, true, want);
}

static void test_events(void)
{
	static struct evb e;

	ev_tag(&e, 12345);
	ev_int(&e, 42);
	check_ev("events: INT, brief", &e, NSLOG_FMT_BRIEF,
		 "I/[12345] ( 1234): 42\n");
	check_ev("events: INT, threadtime", &e, NSLOG_FMT_THREADTIME,
		 "11-14 22:13:20.123  1234  5678 I [12345] : 42\n");

	ev_tag(&e, -7);
	ev_int(&e, INT32_MIN);
	check_ev("events: negative tag and INT32_MIN", &e, NSLOG_FMT_TAG,
		 "I/[-7]    : -2147483648\n");

	ev_tag(&e, 2718);
	ev_long(&e, -1234567890123LL);
	check_ev("events: LONG", &e, NSLOG_FMT_TAG,
		 "I/[2718]  : -1234567890123\n");

	ev_tag(&e, 1);
	ev_str(&e, "foo bar", 7);
	check_ev("events: STRING", &e, NSLOG_FMT_RAW, "foo bar\n");

	ev_tag(&e, 12345);
	ev_list(&e, 3);
	ev_int(&e, 1);
	ev_str(&e, "foo", 3);
	ev_int(&e, 3);
	check_ev("events: LIST [1,foo,3]", &e, NSLOG_FMT_BRIEF,
		 "I/[12345] ( 1234): [1,foo,3]\n");

	ev_tag(&e, 5);
	ev_list(&e, 3);
	ev_long(&e, 1);
	ev_list(&e, 2);
	ev_int(&e, 2);
	ev_list(&e, 0);
	ev_str(&e, "", 0);
	check_ev("events: nested lists, empty list and empty string", &e,
		 NSLOG_FMT_RAW, "[1,[2,[]],]\n");

	ev_tag(&e, 5);
	ev_int(&e, 9);
	ev_u8(&e, '\n');
	check_ev("events: one trailing newline byte is ignored", &e,
		 NSLOG_FMT_RAW, "9\n");

	ev_tag(&e, 5);
	ev_str(&e, "two\nlines", 9);
	check_ev("events: a newline in a STRING splits the output", &e,
		 NSLOG_FMT_TAG, "I/[5]     : two\nI/[5]     : lines\n");

	ev_tag(&e, 5);
	check_ev("events: a tag without a value prints an empty message", &e,
		 NSLOG_FMT_TAG, "I/[5]     : \n");
}

static void test_events_bad(void)
{
	static struct nslog_decoded ent;
	static struct evb e;
	static struct raw r;
	struct nslog_rec rec;
	int32_t len;

	ev_tag(&e, 5);
	ev_list(&e, 3);
	ev_int(&e, 1);
	check_ev("events: a list cut short is marked", &e, NSLOG_FMT_RAW,
		 "[1,<malformed>\n");

	ev_tag(&e, 5);
	ev_u8(&e, 9);
	ev_int(&e, 1);
	check_ev("events: unknown type is marked", &e, NSLOG_FMT_RAW,
		 "<malformed>\n");

	ev_tag(&e, 5);
	ev_u8(&e, NSLOG_EVENT_STRING);
	len = 100;
	ev_bytes(&e, &len, 4);
	ev_bytes(&e, "short", 5);
	check_ev("events: STRING longer than the payload is marked", &e,
		 NSLOG_FMT_RAW, "<malformed>\n");

	ev_tag(&e, 5);
	ev_u8(&e, NSLOG_EVENT_LONG);
	ev_bytes(&e, "1234", 4);
	check_ev("events: LONG cut short is marked", &e, NSLOG_FMT_RAW,
		 "<malformed>\n");

	mkraw(&r, 1, 1, 1, 1, 0, 0, "abc", 3);
	nslog_rec_parse(&rec, r.b, r.n);
	tap_int("events: a payload shorter than a tag is an error",
		nslog_entry_from_event(&ent, &rec), -EBADMSG);

	ev_tag(&e, 5);
	{
		static char big[20000];

		memset(big, 'x', sizeof(big));
		ev_str(&e, big, sizeof(big));
	}
	rec.payload = e.b;
	rec.len = (unsigned int)e.n;
	nslog_entry_from_event(&ent, &rec);
	tap_ok(ent.msg_len == NSLOG_EVENT_TEXT_MAX - 1 &&
	       ent.msg[ent.msg_len - 1] == '!' && ent.msg[0] == 'x' &&
	       ent.msg[ent.msg_len - 2] == 'x' && ent.msg[ent.msg_len] == '\0',
	       "events: text past NSLOG_EVENT_TEXT_MAX ends in '!'");
}

static void test_filter(void)
{
	struct nslog_filter f;
	bool ok;

	nslog_filter_init(&f);
	tap_ok(nslog_filter_pass(&f, "x", 1, 0) &&
	       nslog_filter_pass(&f, "x", 1, 2),
	       "filter: empty filter passes every priority, even 0");

	ok = !nslog_filter_parse(&f, "*:S  MyTag:W,Other") &&
	     !nslog_filter_pass(&f, "x", 1, 7) &&
	     !nslog_filter_pass(&f, "MyTag", 5, 4) &&
	     nslog_filter_pass(&f, "MyTag", 5, 5) &&
	     nslog_filter_pass(&f, "Other", 5, 2) &&
	     !nslog_filter_pass(&f, "MyTa", 4, 7);
	tap_ok(ok, "filter: *:S MyTag:W Other (tag alone means V)");

	ok = !nslog_filter_parse(&f, "MyTag:e") &&
	     !nslog_filter_pass(&f, "MyTag", 5, 5) &&
	     nslog_filter_pass(&f, "MyTag", 5, 6);
	tap_ok(ok, "filter: a later rule for a tag wins");

	ok = !nslog_filter_parse(&f, "*") && !nslog_filter_pass(&f, "x", 1, 2) &&
	     nslog_filter_pass(&f, "x", 1, 3) &&
	     !nslog_filter_parse(&f, "*:*") && nslog_filter_pass(&f, "x", 1, 2);
	tap_ok(ok, "filter: '*' alone means *:D, '*:*' means *:V");

	tap_ok(nslog_filter_parse(&f, "tag:x") == -EINVAL &&
	       nslog_filter_parse(&f, ":v") == -EINVAL &&
	       nslog_filter_parse(&f, "tag:vv") == -EINVAL &&
	       nslog_filter_parse(&f, "tag:") == -EINVAL &&
	       !nslog_filter_parse(&f, " \t,"),
	       "filter: malformed rules are refused, blanks are nothing");
	nslog_filter_free(&f);
	tap_ok(f.count == 0 && nslog_filter_pass(&f, "x", 1, 0),
	       "filter: freed filter passes everything");
}

/* Android's version 4 header, as liblog's reader returns records. */
static void mkv4(struct raw *r, uint32_t lid, int pid, uint32_t sec, int nsec,
		 uint32_t uid, const void *payload, size_t len)
{
	struct logger_entry_v4 h = {
		.len = (uint16_t)len,
		.hdr_size = 28,
		.pid = pid,
		.tid = (uint32_t)pid,
		.sec = sec,
		.nsec = (uint32_t)nsec,
		.lid = lid,
		.uid = uid,
	};

	memcpy(r->b, &h, sizeof(h));
	memcpy(r->b + sizeof(h), payload, len);
	r->n = sizeof(h) + len;
}

/* Records printed one after the other, as nslogcat prints them. */
struct rig {
	struct nslog_printer p;
	struct nslog_print_state st;
	char *out;
	size_t size;
	FILE *f;
	char *err;
	size_t err_size;
	FILE *ferr;
	int ret;		/* the last nslog_print()'s */
	int printed;		/* how many it said it printed */
};

static void rig_init(struct rig *g, enum nslog_format fmt)
{
	memset(g, 0, sizeof(*g));
	nslog_print_state_init(&g->st);
	g->f = open_memstream(&g->out, &g->size);
	g->ferr = open_memstream(&g->err, &g->err_size);
	g->p.out = g->f;
	g->p.err = g->ferr;
	g->p.prog = "test";
	g->p.fmt.layout = fmt;
	g->p.headers = true;
}

static void rig_raw(struct rig *g, const struct raw *r)
{
	g->ret = nslog_print(&g->p, &g->st, r->b, r->n);
	g->printed += g->ret > 0;
}

static void rig_text(struct rig *g, uint32_t lid, uint32_t sec, int pid,
		     uint32_t uid, const char *tag, const char *msg)
{
	unsigned char p[256];
	struct raw r;

	mkv4(&r, lid, pid, sec, 0, uid, p, text(p, 4, tag, msg));
	rig_raw(g, &r);
}

static void rig_event(struct rig *g, uint32_t sec, int32_t tag, int32_t v)
{
	unsigned char p[16];
	struct raw r;

	memcpy(p, &tag, 4);
	p[4] = 0;
	memcpy(p + 5, &v, 4);
	mkv4(&r, 2, 9, sec, 0, (uint32_t)-1, p, 9);
	rig_raw(g, &r);
}

static void rig_done(struct rig *g)
{
	fclose(g->f);
	fclose(g->ferr);
}

static void rig_free(struct rig *g)
{
	free(g->out);
	free(g->err);
}

/* main, system and events records, in the order the reader merged them. */
static void rig_three(struct rig *g)
{
	rig_text(g, 0, 100, 1, 0, "m", "m1");
	rig_text(g, 3, 100, 2, 0, "s", "s1");
	rig_event(g, 100, 77, 1);
	rig_text(g, 0, 100, 1, 0, "m", "m2");
	rig_text(g, 0, 101, 1, 0, "m", "m3");
	rig_text(g, 3, 101, 2, 0, "s", "s2");
	rig_event(g, 103, 77, 2);
	rig_done(g);
}

static void test_v4(void)
{
	unsigned char p[64];
	struct nslog_rec rec;
	struct raw r;
	size_t n = text(p, 5, "T", "m");
	int ret;

	mkv4(&r, 3, 321, 1700000000, 5, 1001, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.hdr_size == 28 && rec.has_lid && rec.log_id == 3 &&
	       rec.has_euid && rec.euid == 1001 && !rec.has_seq &&
	       rec.pid == 321 && rec.sec == 1700000000 && rec.nsec == 5 &&
	       rec.len == n && rec.payload == r.b + 28,
	       "parse: Android's version 4 header: log id, uid");
	check_spec("version 4: long shows no uid, as logcat", &r, "long",
		   "[ 11-14 22:13:20.000   321:  321 W/T        ]\nm\n\n");
	check_spec("version 4: long,uid shows it", &r, "long,uid",
		   "[ 11-14 22:13:20.000  1001:  321:  321 W/T        ]\nm\n\n");
	mkv4(&r, 0, 321, 1700000000, 5, (uint32_t)-1, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.has_lid && !rec.has_euid,
	       "parse: version 4 with uid (uint32_t)-1 has no euid");
	check_spec("version 4: threadtime,uid without a uid is blank", &r,
		   "threadtime,uid",
		   "11-14 22:13:20.000         321   321 W T       : m\n");
	mkraw(&r, 2, 1, 1, 1, 0, 7, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && !rec.has_lid && rec.has_euid && rec.euid == 7,
	       "parse: version 2 has an euid and no log id");
}

static void test_print_dividers(void)
{
	struct rig g;

	rig_init(&g, NSLOG_FMT_TAG);
	rig_three(&g);
	tap_str("print: a \"beginning of\" line before each log's first record",
		g.out,
		"--------- beginning of main\n"
		"I/m       : m1\n"
		"--------- beginning of system\n"
		"I/s       : s1\n"
		"--------- beginning of events\n"
		"I/[77]    : 1\n"
		"I/m       : m2\n"
		"I/m       : m3\n"
		"I/s       : s2\n"
		"I/[77]    : 2\n");
	rig_free(&g);

	rig_init(&g, NSLOG_FMT_TAG);
	g.p.dividers = true;
	rig_three(&g);
	tap_str("print: -D adds \"switch to\" at every change of log",
		g.out,
		"--------- beginning of main\n"
		"I/m       : m1\n"
		"--------- beginning of system\n"
		"I/s       : s1\n"
		"--------- beginning of events\n"
		"I/[77]    : 1\n"
		"--------- switch to main\n"
		"I/m       : m2\n"
		"I/m       : m3\n"
		"--------- switch to system\n"
		"I/s       : s2\n"
		"--------- switch to events\n"
		"I/[77]    : 2\n");
	rig_free(&g);

	rig_init(&g, NSLOG_FMT_RAW);
	g.p.headers = false;
	g.p.dividers = true;
	rig_three(&g);
	tap_str("print: no dividers when one log is read", g.out,
		"m1\ns1\n1\nm2\nm3\ns2\n2\n");
	rig_free(&g);
}

static void test_print_modes(void)
{
	struct nslog_filter filt;
	char want[512];
	size_t n = 0;
	struct raw r[2];
	unsigned char p[64];
	struct rig g;

	rig_init(&g, NSLOG_FMT_TAG);
	g.p.binary = true;
	mkv4(&r[0], 0, 5, 1, 2, 3, p, text(p, 4, "b", "x"));
	mkv4(&r[1], 3, 6, 1, 2, 3, p, text(p, 2, "c", "y"));
	rig_raw(&g, &r[0]);
	rig_raw(&g, &r[1]);
	rig_done(&g);
	memcpy(want, r[0].b, r[0].n);
	n = r[0].n;
	memcpy(want + n, r[1].b, r[1].n);
	n += r[1].n;
	tap_mem("binary: the records as the reader gave them, no headers",
		g.out, g.size, want, n);
	rig_free(&g);

	nslog_filter_init(&filt);
	nslog_filter_parse(&filt, "*:S s:I");
	rig_init(&g, NSLOG_FMT_TAG);
	g.p.filter = &filt;
	rig_three(&g);
	tap_str("filter: only tag s passes; no header for silent buffers",
		g.out,
		"--------- beginning of system\n"
		"I/s       : s1\n"
		"I/s       : s2\n");
	tap_int("filter: nslog_print() says which records it printed",
		g.printed, 2);
	rig_free(&g);
	nslog_filter_free(&filt);
}

static void test_print_select(void)
{
	static const unsigned long uids[] = { 1000, 2000 };
	regex_t re;
	struct rig g;

	regcomp(&re, "^m[23]$|s2", REG_EXTENDED | REG_NOSUB);
	rig_init(&g, NSLOG_FMT_RAW);
	g.p.headers = false;
	g.p.regex = &re;
	rig_three(&g);
	tap_str("regex: -e matches the message (POSIX ERE)", g.out,
		"m2\nm3\ns2\n");
	tap_int("regex: records that do not match are not counted",
		g.printed, 3);
	rig_free(&g);
	regfree(&re);

	rig_init(&g, NSLOG_FMT_RAW);
	g.p.headers = false;
	g.p.uids = uids;
	g.p.uid_count = 2;
	rig_text(&g, 0, 1, 1, 1000, "a", "uid 1000");
	rig_text(&g, 0, 1, 1, 1001, "a", "uid 1001");
	rig_text(&g, 0, 1, 1, 2000, "a", "uid 2000");
	rig_text(&g, 0, 1, 1, (uint32_t)-1, "a", "no uid");
	rig_done(&g);
	tap_str("uid: --uid keeps the listed euids; an unknown one never passes",
		g.out, "uid 1000\nuid 2000\n");
	rig_free(&g);
}

static void test_print_tags(void)
{
	char path[] = "/tmp/nslog_tags.XXXXXX";
	struct nslog_filter filt;
	EventTagMap *map;
	struct rig g;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!tap_ok(f != NULL, "tags: a temporary event-log-tags file"))
		return;
	fputs("# comment\n77 am_test (pid|1|5)\n", f);
	fclose(f);
	map = android_openEventTagMap(path);
	unlink(path);
	if (!tap_ok(map != NULL, "tags: the map opens"))
		return;

	rig_init(&g, NSLOG_FMT_BRIEF);
	g.p.headers = false;
	g.p.tags = map;
	rig_event(&g, 1, 77, 1234);
	rig_event(&g, 1, 78, 5);
	rig_done(&g);
	tap_str("tags: events print with their name; unknown tags as [N]",
		g.out, "I/am_test (    9): 1234\nI/[78]    (    9): 5\n");
	rig_free(&g);

	nslog_filter_init(&filt);
	nslog_filter_parse(&filt, "*:S am_test");
	rig_init(&g, NSLOG_FMT_TAG);
	g.p.headers = false;
	g.p.tags = map;
	g.p.filter = &filt;
	rig_event(&g, 1, 77, 1);
	rig_event(&g, 1, 78, 2);
	rig_done(&g);
	tap_str("tags: filterspecs name events tags by their names", g.out,
		"I/am_test : 1\n");
	rig_free(&g);
	nslog_filter_free(&filt);
	android_closeEventTagMap(map);
}

static void test_print_bad_event(void)
{
	struct rig g;
	struct raw r;

	rig_init(&g, NSLOG_FMT_RAW);
	g.p.headers = false;
	mkv4(&r, 2, 1, 1, 0, 0, "ab", 2);
	rig_raw(&g, &r);
	rig_event(&g, 2, 3, 4);
	rig_done(&g);
	tap_str("print: an events record without a tag is skipped", g.out,
		"4\n");
	tap_str("print: ... with a warning naming the log", g.err,
		"test: events: skipping a 30-byte record: no event tag\n");
	rig_free(&g);
}

static char tmpdir[64];

static void touch(const char *name)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (f)
		fclose(f);
}

static void check_path(const char *what, int id, const char *dir,
		       const char *suffix)
{
	char got[NSLOG_PATH_MAX], want[NSLOG_PATH_MAX];
	int ret;

	ret = nslog_dev_path(got, sizeof(got), id, dir);
	snprintf(want, sizeof(want), "%s%s", tmpdir, suffix);
	if (ret)
		snprintf(got, sizeof(got), "error %d", ret);
	tap_str(what, got, want);
}

static void test_devpath(void)
{
	char path[NSLOG_PATH_MAX], want[NSLOG_PATH_MAX];
	char sub[128];

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/nslog_devpath.XXXXXX");
	if (!tap_ok(mkdtemp(tmpdir), "devpath: make a test directory"))
		return;

	unsetenv(NSLOG_DEV_DIR_ENV);
	touch("main");
	touch("log_system");
	check_path("devpath: DIR/main when it exists", NSLOG_BUF_MAIN, tmpdir,
		   "/main");
	check_path("devpath: DIR/log_system when only that exists",
		   NSLOG_BUF_SYSTEM, tmpdir, "/log_system");
	check_path("devpath: DIR/radio when no form exists (as main)",
		   NSLOG_BUF_RADIO, tmpdir, "/radio");

	setenv(NSLOG_DEV_DIR_ENV, tmpdir, 1);
	check_path("devpath: $NSLOG_DEV_DIR when no dir is given",
		   NSLOG_BUF_EVENTS, NULL, "/events");
	snprintf(sub, sizeof(sub), "%s/x", tmpdir);
	nslog_dev_path(path, sizeof(path), NSLOG_BUF_MAIN, sub);
	snprintf(want, sizeof(want), "%s/x/main", tmpdir);
	tap_str("devpath: an explicit dir beats $NSLOG_DEV_DIR", path, want);
	setenv(NSLOG_DEV_DIR_ENV, "", 1);
	nslog_dev_path(path, sizeof(path), NSLOG_BUF_MAIN, NULL);
	nslog_dev_path_root(want, sizeof(want), NSLOG_BUF_MAIN, "/dev");
	tap_str("devpath: empty $NSLOG_DEV_DIR means the default", path, want);
	unsetenv(NSLOG_DEV_DIR_ENV);

	nslog_dev_path_root(path, sizeof(path), NSLOG_BUF_MAIN, tmpdir);
	snprintf(want, sizeof(want), "%s/log_main", tmpdir);
	tap_str("devpath: ROOT/log_main when ROOT/log is missing", path, want);
	touch("log");
	nslog_dev_path_root(path, sizeof(path), NSLOG_BUF_RADIO, tmpdir);
	snprintf(want, sizeof(want), "%s/log_radio", tmpdir);
	tap_str("devpath: ROOT/log_radio when ROOT/log is not a directory",
		path, want);
	snprintf(sub, sizeof(sub), "%s/log", tmpdir);
	unlink(sub);
	mkdir(sub, 0700);
	nslog_dev_path_root(path, sizeof(path), NSLOG_BUF_EVENTS, tmpdir);
	snprintf(want, sizeof(want), "%s/log/events", tmpdir);
	tap_str("devpath: ROOT/log/events when ROOT/log is a directory", path,
		want);

	tap_ok(nslog_dev_path(path, sizeof(path), 4, tmpdir) == -EINVAL &&
	       nslog_dev_path(path, sizeof(path), -1, tmpdir) == -EINVAL &&
	       nslog_dev_path(path, 8, NSLOG_BUF_MAIN, tmpdir) == -ENAMETOOLONG,
	       "devpath: bad id and short buffer are errors");
	tap_ok(!strcmp(nslog_buf_name(0), "main") &&
	       !strcmp(nslog_buf_name(1), "radio") &&
	       !strcmp(nslog_buf_name(2), "events") &&
	       !strcmp(nslog_buf_name(3), "system") && !nslog_buf_name(4) &&
	       nslog_buf_from_name("events") == 2 &&
	       nslog_buf_from_name("all") == -1,
	       "devpath: buffer names in Android's log_id order");

	snprintf(path, sizeof(path), "%s/main", tmpdir);
	unlink(path);
	touch("log/events");
	check_path("devpath: DIR/log/events when DIR/log holds it",
		   NSLOG_BUF_EVENTS, tmpdir, "/log/events");
	snprintf(path, sizeof(path), "%s/log/events", tmpdir);
	unlink(path);
	check_path("devpath: DIR/log_system beats DIR/log/system",
		   NSLOG_BUF_SYSTEM, tmpdir, "/log_system");
	snprintf(path, sizeof(path), "%s/log/main", tmpdir);
	touch("log/main");
	check_path("devpath: a missing node takes main's form (DIR/log/)",
		   NSLOG_BUF_RADIO, tmpdir, "/log/radio");
	unlink(path);
	touch("log_main");
	check_path("devpath: a missing node takes main's form (DIR/log_)",
		   NSLOG_BUF_RADIO, tmpdir, "/log_radio");
	snprintf(path, sizeof(path), "%s/log_main", tmpdir);
	unlink(path);

	rmdir(sub);
	snprintf(path, sizeof(path), "%s/log_system", tmpdir);
	unlink(path);
	rmdir(tmpdir);
}

static void test_fmt_parse(void)
{
	struct nslog_fmt f = { .layout = NSLOG_FMT_BRIEF };
	const char *bad = NULL;
	const char *spec;
	int ret;

	ret = nslog_fmt_parse(&f, "threadtime,UTC,usec", &bad);
	tap_ok(!ret && f.layout == NSLOG_FMT_THREADTIME && f.utc && f.usec &&
	       !f.year && !f.zone && !f.epoch && !f.nsec && !f.uid,
	       "-v threadtime,UTC,usec: a layout and two modifiers");
	ret = nslog_fmt_parse(&f, "year zone", &bad);
	tap_ok(!ret && f.layout == NSLOG_FMT_THREADTIME && f.utc && f.usec &&
	       f.year && f.zone,
	       "-v twice adds up; spaces separate as commas do");
	ret = nslog_fmt_parse(&f, "long,epoch,nsec,uid,utc", &bad);
	tap_ok(!ret && f.layout == NSLOG_FMT_LONG && f.epoch && f.nsec &&
	       f.uid, "-v long,epoch,nsec,uid,utc (UTC in any case)");
	ret = nslog_fmt_parse(&f, "json", &bad);
	tap_ok(!ret && f.layout == NSLOG_FMT_JSON, "-v json is a layout");
	tap_ok(!f.relay && !nslog_fmt_parse(&f, "Relay", &bad) && f.relay &&
	       f.layout == NSLOG_FMT_JSON,
	       "-v relay: nslogger's modifier, in any case");

	memset(&f, 0, sizeof(f));
	spec = "time,color,usec";
	ret = nslog_fmt_parse(&f, spec, &bad);
	tap_ok(ret == -EINVAL && bad == spec + 5 && !f.usec &&
	       f.layout == NSLOG_FMT_BRIEF,
	       "-v with an unknown word: -EINVAL, the word named, nothing changed");
	spec = "";
	tap_int("-v '' is refused", nslog_fmt_parse(&f, spec, &bad), -EINVAL);
	spec = ",,";
	tap_int("-v ',,' is refused", nslog_fmt_parse(&f, spec, &bad), -EINVAL);
	spec = "threadtimethreadtime";
	tap_int("-v with a long unknown word is refused",
		nslog_fmt_parse(&f, spec, &bad), -EINVAL);
}

static void test_modifiers(void)
{
	unsigned char p[64];
	struct raw r;

	/* 1700000000.123456789 is 2023-11-14 22:13:20 UTC */
	mktext(&r, 4, "MyTag", "hello");
	check_spec("year", &r, "time,year",
		   "2023-11-14 22:13:20.123 I/MyTag   ( 1234): hello\n");
	check_spec("usec", &r, "threadtime,usec",
		   "11-14 22:13:20.123456  1234  5678 I MyTag   : hello\n");
	check_spec("nsec", &r, "threadtime,nsec",
		   "11-14 22:13:20.123456789  1234  5678 I MyTag   : hello\n");
	check_spec("zone (TZ UTC)", &r, "time,zone",
		   "11-14 22:13:20.123 +0000 I/MyTag   ( 1234): hello\n");
	check_spec("epoch: seconds right-aligned in 19 columns, as logcat",
		   &r, "time,epoch",
		   "         1700000000.123 I/MyTag   ( 1234): hello\n");
	check_spec("epoch,usec,zone: no zone after epoch", &r,
		   "time,epoch,usec,zone",
		   "         1700000000.123456 I/MyTag   ( 1234): hello\n");
	check_spec("threadtime,year,zone,usec", &r, "threadtime,year,zone,usec",
		   "2023-11-14 22:13:20.123456 +0000  1234  5678 I MyTag   : hello\n");

	set_tz("XYZ-2");
	check_spec("local time in TZ UTC+2 with zone", &r, "time,year,zone",
		   "2023-11-15 00:13:20.123 +0200 I/MyTag   ( 1234): hello\n");
	check_spec("UTC: UTC whatever TZ says, with its zone", &r,
		   "threadtime,UTC",
		   "11-14 22:13:20.123 +0000  1234  5678 I MyTag   : hello\n");
	set_tz("ABC+3:30");
	check_spec("a zone west of UTC, half hours", &r, "time,zone",
		   "11-14 18:43:20.123 -0330 I/MyTag   ( 1234): hello\n");
	set_tz("UTC0");

	check_spec("uid without an euid in the header: blank", &r, "brief,uid",
		   "I/MyTag   (       1234): hello\n");
	mkraw(&r, 2, 1234, 5678, 1700000000, 123456789, 1000, p,
	      text(p, 4, "MyTag", "hello"));
	check_spec("uid: brief", &r, "brief,uid",
		   "I/MyTag   ( 1000: 1234): hello\n");
	check_spec("uid: process", &r, "process,uid",
		   "I( 1000: 1234) hello  (MyTag)\n");
	check_spec("uid: thread", &r, "thread,uid",
		   "I( 1000: 1234: 5678) hello\n");
	check_spec("uid: time", &r, "time,uid",
		   "11-14 22:13:20.123 I/MyTag   ( 1000: 1234): hello\n");
	check_spec("uid: threadtime, a space for the colon", &r,
		   "threadtime,uid",
		   "11-14 22:13:20.123  1000  1234  5678 I MyTag   : hello\n");
	check_spec("uid: long", &r, "long,uid",
		   "[ 11-14 22:13:20.123  1000: 1234: 5678 I/MyTag    ]\nhello\n\n");
	check_spec("uid: tag and raw show no pid, so no uid", &r, "tag,uid",
		   "I/MyTag   : hello\n");
	check_spec("uid: a 7-digit uid widens the column", &r, "brief",
		   "I/MyTag   ( 1234): hello\n");
	r.b[20] = 0x87;
	r.b[21] = 0xd6;
	r.b[22] = 0x12;
	check_spec("uid: 1234567", &r, "brief,uid",
		   "I/MyTag   (1234567: 1234): hello\n");
}

/* A record with nslogger's own header. */
static void mkns(struct raw *r, size_t hdr_size, __u64 seq, __u64 lost,
		 __s64 time_ns, __u32 log_id, __u32 flags, const void *payload,
		 size_t len)
{
	struct nslog_entry h = {
		.len = (__u16)len,
		.hdr_size = (__u16)hdr_size,
		.pid = 321,
		.tid = 322,
		.euid = 1001,
		.seq = seq,
		.order = seq * 3 + 1,
		.lost = lost,
		.time_ns = time_ns,
		.log_id = log_id,
		.flags = flags,
	};

	memset(r->b, 0, hdr_size);
	memcpy(r->b, &h, sizeof(h));
	memcpy(r->b + hdr_size, payload, len);
	r->n = hdr_size + len;
}

static void test_ns_header(void)
{
	unsigned char p[64];
	struct nslog_rec rec;
	struct raw r;
	size_t n = text(p, 5, "T", "m");
	int ret;

	tap_int("nslogger's header is 56 bytes", (long)NSLOG_HDR_NS_SIZE, 56);
	mkns(&r, 56, 41, 3, 1700000000123456789LL, 3, NSLOG_ENTRY_KERNEL, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.has_seq && rec.has_euid && rec.hdr_size == 56 &&
	       rec.len == n && rec.pid == 321 && rec.tid == 322 &&
	       rec.euid == 1001 && rec.seq == 41 && rec.order == 124 &&
	       rec.lost == 3 && rec.sec == 1700000000 &&
	       rec.nsec == 123456789 && rec.log_id == 3 &&
	       rec.flags == NSLOG_ENTRY_KERNEL && rec.payload == r.b + 56,
	       "parse: every field of nslogger's header");
	check_spec("nslogger's header: threadtime,uid", &r, "threadtime,uid",
		   "11-14 22:13:20.123  1001   321   322 W T       : m\n");

	mkns(&r, 64, 1, 0, 1700000000000000000LL, 0, 0, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.has_seq && rec.hdr_size == 64 &&
	       rec.payload == r.b + 64 && rec.seq == 1,
	       "parse: a longer header of a later version: its fields, payload after it");

	mkns(&r, 56, 0, 0, 4398046511104000000LL, 0, 0, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.sec == 4398046511LL && rec.nsec == 104000000,
	       "parse: 64-bit time past 2106");
	check_spec("year: past 2106", &r, "time,year",
		   "2109-05-15 07:35:11.104 W/T       (  321): m\n");

	mkns(&r, 56, 0, 0, -1500000000LL, 0, 0, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.sec == -2 && rec.nsec == 500000000,
	       "parse: a time before 1970 floors to (-2 s, 0.5 s)");

	mkns(&r, 56, 0, 0, 0, 0, 0, p, n);
	tap_int("parse: nslogger's header with a short read is rejected",
		nslog_rec_parse(&rec, r.b, r.n - 1), -EBADMSG);
}

/*
 * A record with nslogger's 0x4e54 header (struct nslog_entry2), as mkns()
 * makes it, stored at @stored_ns by relay @relay_pid, or not relayed
 * (@flags without NSLOG_ENTRY_RELAYED, @relay_pid 0).
 */
static void mkns2(struct raw *r, __u64 seq, __s64 time_ns, __u32 flags,
		  __s32 relay_pid, __s64 stored_ns, const void *payload,
		  size_t len)
{
	struct nslog_entry2 h = {
		.len = (__u16)len,
		.hdr_size = sizeof(h),
		.pid = 321,
		.tid = 322,
		.euid = 1001,
		.seq = seq,
		.order = seq * 3 + 1,
		.time_ns = time_ns,
		.flags = flags,
		.relay_pid = relay_pid,
		.stored_ns = stored_ns,
	};

	memcpy(r->b, &h, sizeof(h));
	memcpy(r->b + sizeof(h), payload, len);
	r->n = sizeof(h) + len;
}

static void test_ns2_header(void)
{
	unsigned char p[64];
	struct nslog_rec rec;
	struct raw r;
	size_t n = text(p, 4, "T", "m");
	int ret;

	tap_int("nslogger's header with relays is 72 bytes",
		(long)NSLOG_HDR_NS2_SIZE, 72);
	mkns2(&r, 5, 1700000000123456789LL, NSLOG_ENTRY_RELAYED, 77,
	      1700000002500000000LL, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.has_seq && rec.has_relay && rec.hdr_size == 72 &&
	       rec.len == n && rec.pid == 321 && rec.tid == 322 &&
	       rec.euid == 1001 && rec.seq == 5 && rec.order == 16 &&
	       rec.sec == 1700000000 && rec.nsec == 123456789 &&
	       rec.relay_pid == 77 && rec.stored_sec == 1700000002 &&
	       rec.stored_nsec == 500000000 && rec.payload == r.b + 72 &&
	       nslog_rec_relayed(&rec) && !nslog_rec_unverified(&rec),
	       "parse: 0x4e54: a relayed record, its relay and stored time");

	mkns2(&r, 6, 1700000000000000000LL,
	      NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED, 0,
	      -1500000000LL, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.has_relay && rec.relay_pid == 0 &&
	       rec.stored_sec == -2 && rec.stored_nsec == 500000000 &&
	       nslog_rec_relayed(&rec) && nslog_rec_unverified(&rec),
	       "parse: 0x4e54: unverified, the relay not visible (0); stored time floors");

	mkns2(&r, 7, 1700000000123456789LL, 0, 0, 1700000000123456789LL, p,
	      n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && rec.has_relay && !nslog_rec_relayed(&rec) &&
	       !nslog_rec_unverified(&rec) && rec.relay_pid == 0 &&
	       rec.stored_sec == rec.sec && rec.stored_nsec == rec.nsec,
	       "parse: 0x4e54: a plain record is neither; stored when written");
	check_spec("0x4e54: a plain record prints as with 56 bytes", &r,
		   "threadtime,uid",
		   "11-14 22:13:20.123  1001   321   322 I T       : m\n");

	mkns(&r, 56, 8, 0, 1700000000123456789LL, 0,
	     NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && !rec.has_relay && rec.relay_pid == 0 &&
	       nslog_rec_relayed(&rec) && nslog_rec_unverified(&rec) &&
	       rec.stored_sec == rec.sec && rec.stored_nsec == rec.nsec,
	       "parse: 0x4e53: the flags say relayed and unverified, no relay known");

	mkraw(&r, 2, 1, 2, 1700000000, 5, 1000, p, n);
	ret = nslog_rec_parse(&rec, r.b, r.n);
	tap_ok(!ret && !rec.has_relay && !nslog_rec_relayed(&rec) &&
	       rec.stored_sec == 1700000000 && rec.stored_nsec == 5,
	       "parse: version 2: never relayed; stored when written");
}

static void test_relay_layouts(void)
{
	unsigned char p[64];
	struct raw rel, unv, plain, v2;
	size_t n = text(p, 4, "MyTag", "hello");
	struct rig g;

	mkns2(&rel, 1, 1700000000123456789LL, NSLOG_ENTRY_RELAYED, 412,
	      1700000001000000000LL, p, n);
	mkns2(&unv, 2, 1700000000123456789LL,
	      NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED, 412,
	      1700000001000000000LL, p, n);
	mkns2(&plain, 3, 1700000000123456789LL, 0, 0, 1700000000123456789LL,
	      p, n);
	mkraw(&v2, 2, 321, 322, 1700000000, 123456789, 1001, p, n);

	check_spec("relay: brief", &rel, "brief,relay",
		   "I/MyTag   (  412>  321): hello\n");
	check_spec("relay: brief, unverified: '?'", &unv, "brief,relay",
		   "I/MyTag   (  412?  321): hello\n");
	check_spec("relay: brief, not relayed: a blank column", &plain,
		   "brief,relay", "I/MyTag   (        321): hello\n");
	check_spec("relay: brief, a version 2 header: a blank column", &v2,
		   "brief,relay", "I/MyTag   (        321): hello\n");
	check_spec("relay: process", &rel, "process,relay",
		   "I(  412>  321) hello  (MyTag)\n");
	check_spec("relay: thread", &unv, "thread,relay",
		   "I(  412?  321:  322) hello\n");
	check_spec("relay: time", &rel, "time,relay",
		   "11-14 22:13:20.123 I/MyTag   (  412>  321): hello\n");
	check_spec("relay: threadtime", &rel, "threadtime,relay",
		   "11-14 22:13:20.123   412>  321   322 I MyTag   : hello\n");
	check_spec("relay: threadtime, unverified", &unv, "threadtime,relay",
		   "11-14 22:13:20.123   412?  321   322 I MyTag   : hello\n");
	check_spec("relay: threadtime, not relayed", &plain, "threadtime,relay",
		   "11-14 22:13:20.123         321   322 I MyTag   : hello\n");
	check_spec("relay: threadtime with uid: uid, relay, pid", &unv,
		   "threadtime,uid,relay",
		   "11-14 22:13:20.123  1001   412?  321   322 I MyTag   : hello\n");
	check_spec("relay: brief with uid", &rel, "brief,relay,uid",
		   "I/MyTag   ( 1001:  412>  321): hello\n");
	check_spec("relay: tag and raw show no pid, so no relay", &rel,
		   "tag,relay", "I/MyTag   : hello\n");
	check_spec("relay: raw", &rel, "raw,relay", "hello\n");
	check_spec("relay: without the modifier a relayed record prints as any",
		   &unv, "threadtime",
		   "11-14 22:13:20.123   321   322 I MyTag   : hello\n");
	check_spec("relay: ... as a plain one does", &plain, "threadtime",
		   "11-14 22:13:20.123   321   322 I MyTag   : hello\n");

	/* nslogcat's printer: long keeps the euid for uid (or --v2) */
	rig_init(&g, NSLOG_FMT_LONG);
	g.p.headers = false;
	g.p.fmt.relay = true;
	rig_raw(&g, &rel);
	rig_raw(&g, &unv);
	rig_raw(&g, &plain);
	g.p.fmt.relay = false;
	rig_raw(&g, &plain);
	g.p.fmt.uid = true;
	g.p.fmt.relay = true;
	rig_raw(&g, &unv);
	rig_done(&g);
	tap_str("print: long,relay: the relay before the pid, no euid but for uid",
		g.out,
		"[ 11-14 22:13:20.123   412>  321:  322 I/MyTag    ]\nhello\n\n"
		"[ 11-14 22:13:20.123   412?  321:  322 I/MyTag    ]\nhello\n\n"
		"[ 11-14 22:13:20.123         321:  322 I/MyTag    ]\nhello\n\n"
		"[ 11-14 22:13:20.123   321:  322 I/MyTag    ]\nhello\n\n"
		"[ 11-14 22:13:20.123  1001:  412?  321:  322 I/MyTag    ]\nhello\n\n");
	rig_free(&g);
}

static void test_print_json(void)
{
	unsigned char p[64];
	struct rig g;
	struct raw r;
	size_t n;

	rig_init(&g, NSLOG_FMT_JSON);
	mkv4(&r, 0, 7, 100, 5, (uint32_t)-1, p, text(p, 4, "t\"q", "a\tb\n"));
	rig_raw(&g, &r);
	rig_event(&g, 101, 42, -3);
	rig_done(&g);
	tap_str("print: -v json, a line per record, no headers", g.out,
		"{\"type\":\"record\",\"time\":\"1970-01-01T00:01:40.000000005+00:00\","
		"\"log\":\"main\",\"priority\":4,\"level\":\"info\",\"tag\":\"t\\\"q\","
		"\"message\":\"a\\tb\",\"pid\":7,\"tid\":7}\n"
		"{\"type\":\"record\",\"time\":\"1970-01-01T00:01:41.000000000+00:00\","
		"\"log\":\"events\",\"priority\":4,\"level\":\"info\",\"tag\":\"[42]\","
		"\"event_tag\":42,\"message\":\"-3\",\"pid\":9,\"tid\":9}\n");
	rig_free(&g);

	rig_init(&g, NSLOG_FMT_JSON);
	g.p.fmt.utc = true;
	mkns(&r, 56, 10, 2, 1700000000123456789LL, 1 /* radio */, 0, p,
	     text(p, 6, "R", "radio"));
	rig_raw(&g, &r);
	rig_done(&g);
	tap_str("print: -v json,UTC with nslogger's header: seq, order, uid, kernel; loss first",
		g.out,
		"{\"type\":\"lost\",\"time\":\"2023-11-14T22:13:20.123456789Z\","
		"\"log\":\"radio\",\"lost\":2,\"lost_first_seq\":8,\"lost_last_seq\":9,"
		"\"level\":\"warning\",\"tag\":\"nslog-collector\","
		"\"message\":\"2 records of log radio of this namespace were lost (seq 8 to 9)\"}\n"
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.123456789Z\","
		"\"log\":\"radio\",\"seq\":10,\"order\":31,\"priority\":6,\"level\":\"err\","
		"\"tag\":\"R\",\"message\":\"radio\",\"pid\":321,\"tid\":322,\"uid\":1001,"
		"\"kernel\":false}\n");
	rig_free(&g);

	rig_init(&g, NSLOG_FMT_JSON);
	g.p.fmt.utc = true;
	n = text(p, 4, "A", "a");
	mkns2(&r, 0, 1700000000000000001LL, NSLOG_ENTRY_RELAYED, 77,
	      1700000002500000000LL, p, n);
	rig_raw(&g, &r);
	mkns2(&r, 1, 1700000000000000002LL,
	      NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED, 0,
	      1700000003000000000LL, p, n);
	rig_raw(&g, &r);
	mkns2(&r, 2, 1700000000000000003LL, 0, 0, 1700000000000000003LL, p,
	      n);
	rig_raw(&g, &r);
	rig_done(&g);
	tap_str("print: -v json, 0x4e54: relayed, unverified, plain", g.out,
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000001Z\","
		"\"log\":\"main\",\"seq\":0,\"order\":1,\"priority\":4,\"level\":\"info\","
		"\"tag\":\"A\",\"message\":\"a\",\"pid\":321,\"tid\":322,\"uid\":1001,"
		"\"kernel\":false,\"relayed\":true,\"relay_pid\":77,"
		"\"stored_time\":\"2023-11-14T22:13:22.500000000Z\"}\n"
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000002Z\","
		"\"log\":\"main\",\"seq\":1,\"order\":4,\"priority\":4,\"level\":\"info\","
		"\"tag\":\"A\",\"message\":\"a\",\"pid\":321,\"tid\":322,\"uid\":1001,"
		"\"kernel\":false,\"relayed\":true,\"relay_pid\":0,"
		"\"unverified\":true,"
		"\"stored_time\":\"2023-11-14T22:13:23.000000000Z\"}\n"
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000003Z\","
		"\"log\":\"main\",\"seq\":2,\"order\":7,\"priority\":4,\"level\":\"info\","
		"\"tag\":\"A\",\"message\":\"a\",\"pid\":321,\"tid\":322,\"uid\":1001,"
		"\"kernel\":false}\n");
	rig_free(&g);

	rig_init(&g, NSLOG_FMT_JSON);
	g.p.fmt.utc = true;
	mkns(&r, 56, 3, 0, 1700000000000000004LL, 0,
	     NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED, p, n);
	rig_raw(&g, &r);
	rig_done(&g);
	tap_str("print: -v json, 0x4e53: relayed and unverified, no relay_pid "
		"or stored_time", g.out,
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.000000004Z\","
		"\"log\":\"main\",\"seq\":3,\"order\":10,\"priority\":4,\"level\":\"info\","
		"\"tag\":\"A\",\"message\":\"a\",\"pid\":321,\"tid\":322,\"uid\":1001,"
		"\"kernel\":false,\"relayed\":true,\"unverified\":true}\n");
	rig_free(&g);
}

int main(void)
{
	set_tz("UTC0");
	test_parse();
	test_layouts();
	test_lines();
	test_text_edges();
	test_tag_newline();
	test_prio();
	test_time();
	test_euid();
	test_events();
	test_events_bad();
	test_filter();
	test_v4();
	test_print_dividers();
	test_print_modes();
	test_print_select();
	test_print_tags();
	test_print_bad_event();
	test_devpath();
	test_fmt_parse();
	test_modifiers();
	test_ns_header();
	test_ns2_header();
	test_relay_layouts();
	test_print_json();
	return tap_done();
}
