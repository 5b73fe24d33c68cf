// SPDX-License-Identifier: GPL-2.0
/*
 * output_test: what the collector's outputs write, exactly: UTF-8
 * checking, JSON escaping, RFC 3339 time stamps, the priority mapping,
 * JSON lines, RFC 5424 messages (header fields, structured data and its
 * escaping), journald's fields, the syslog destinations on real sockets
 * (unix datagram and stream, UDP, TCP's octet counting), nslogcat's
 * layouts with their headers, and flush/sync.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "jsonrec.h"
#include "jsonw.h"
#include "collector/journalrec.h"
#include "collector/output.h"
#include "collector/rfc5424.h"
#include "severity.h"
#include "collector/syslogdest.h"
#include "timefmt.h"
#include "utf8.h"
#include "tap.h"

#define ID1 "3f4b7e2c9a1d8f6e5b0c4a3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f"

static void set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static void test_utf8(void)
{
	static const struct {
		const char *s;
		size_t n;
		size_t want;
		const char *what;
	} c[] = {
		{ "a", 1, 1, "ASCII" },
		{ "\xc3\xa9", 2, 2, "U+00E9" },
		{ "\xe2\x82\xac", 3, 3, "U+20AC" },
		{ "\xf0\x9f\x98\x80", 4, 4, "U+1F600" },
		{ "\xc0\xaf", 2, 0, "overlong 2-byte" },
		{ "\xe0\x80\xaf", 3, 0, "overlong 3-byte" },
		{ "\xf0\x80\x80\xaf", 4, 0, "overlong 4-byte" },
		{ "\xed\xa0\x80", 3, 0, "a surrogate" },
		{ "\xf4\x90\x80\x80", 4, 0, "above U+10FFFF" },
		{ "\xf5\x80\x80\x80", 4, 0, "F5 lead byte" },
		{ "\x80", 1, 0, "a lone continuation byte" },
		{ "\xe2\x82", 2, 0, "cut short" },
		{ "\xe2\x28\xa1", 3, 0, "a bad continuation" },
		{ "\xef\xbf\xbf", 3, 3, "U+FFFF" },
		{ "\xf4\x8f\xbf\xbf", 4, 4, "U+10FFFF" },
	};
	char what[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		snprintf(what, sizeof(what), "utf8: %s", c[i].what);
		tap_int(what, (long)nslog_utf8_seq((const unsigned char *)c[i].s,
						   c[i].n), (long)c[i].want);
	}
}

static char *json_of(const void *s, size_t n)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	nslog_json_string(f, s, n);
	fclose(f);
	return buf;
}

static void test_json_string(void)
{
	tap_str("json: plain", json_of("abc", 3), "\"abc\"");
	tap_str("json: quote, backslash, slash",
		json_of("a\"b\\c/d", 7), "\"a\\\"b\\\\c/d\"");
	tap_str("json: short escapes",
		json_of("\b\f\n\r\t", 5), "\"\\b\\f\\n\\r\\t\"");
	tap_str("json: other control characters, NUL and DEL",
		json_of("\x01\x1f\x00\x7f", 4), "\"\\u0001\\u001f\\u0000\\u007f\"");
	tap_str("json: valid UTF-8 is kept",
		json_of("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9),
		"\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	tap_str("json: each invalid byte becomes \\ufffd",
		json_of("a\xff\xc3(\xed\xa0\x80z", 8),
		"\"a\\ufffd\\ufffd(\\ufffd\\ufffd\\ufffdz\"");
	tap_str("json: U+2028 kept (valid JSON)",
		json_of("\xe2\x80\xa8", 3), "\"\xe2\x80\xa8\"");
	tap_str("json: empty", json_of("", 0), "\"\"");
}

static void test_rfc3339(void)
{
	char buf[NSLOG_RFC3339_MAX];
	int n;

	set_tz("UTC0");
	n = nslog_rfc3339(buf, sizeof(buf), 1700000000, 123456789, 9, true);
	tap_ok(n == 30 && !strcmp(buf, "2023-11-14T22:13:20.123456789Z"),
	       "rfc3339: UTC, nanoseconds");
	nslog_rfc3339(buf, sizeof(buf), 1700000000, 123456789, 6, false);
	tap_str("rfc3339: local at offset 0 is +00:00, microseconds", buf,
		"2023-11-14T22:13:20.123456+00:00");
	set_tz("XYZ-2");
	nslog_rfc3339(buf, sizeof(buf), 1700000000, 5000000, 3, false);
	tap_str("rfc3339: UTC+2, milliseconds", buf,
		"2023-11-15T00:13:20.005+02:00");
	set_tz("ABC+3:30");
	nslog_rfc3339(buf, sizeof(buf), 1700000000, 0, 0, false);
	tap_str("rfc3339: UTC-3:30, no fraction", buf,
		"2023-11-14T18:43:20-03:30");
	set_tz("UTC0");
	nslog_rfc3339(buf, sizeof(buf), 4398046511LL, 104000000, 9, true);
	tap_str("rfc3339: after 2106", buf, "2109-05-15T07:35:11.104000000Z");
	tap_int("rfc3339: a buffer too small", nslog_rfc3339(buf, 20,
		1700000000, 0, 9, true), -EINVAL);
	tap_str("rfc3339: ... leaves it empty", buf, "");
}

static void test_severity(void)
{
	static const int want[] = { 6, 6, 7, 7, 6, 4, 3, 2, 6, 6 };
	char got[16], exp[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		got[i] = (char)('0' + nslog_severity((int)i));
		exp[i] = (char)('0' + want[i]);
	}
	got[i] = exp[i] = '\0';
	tap_str("severity: Android 0..9 to syslog", got, exp);
	tap_ok(!strcmp(nslog_severity_name(2), "crit") &&
	       !strcmp(nslog_severity_name(4), "warning") &&
	       !strcmp(nslog_severity_name(7), "debug") &&
	       !strcmp(nslog_severity_name(99), "info"),
	       "severity: names");
	tap_ok(nslog_facility_from_name("user") == 1 &&
	       nslog_facility_from_name("local7") == 23 &&
	       nslog_facility_from_name("daemon") == 3 &&
	       nslog_facility_from_name("16") == 16 &&
	       nslog_facility_from_name("24") == -1 &&
	       nslog_facility_from_name("x") == -1 &&
	       nslog_facility_from_name("1x") == -1,
	       "facility: names and numbers");
}

/* A record: v2-like fields from nslogger's header, and its text. */
struct rec {
	struct nslog_rec r;
	struct nslog_decoded t;
	unsigned char payload[64];
};

static void mkrec(struct rec *x, int prio, const char *tag, const char *msg)
{
	memset(x, 0, sizeof(*x));
	x->r.pid = 1234;
	x->r.tid = 1235;
	x->r.sec = 1700000000;
	x->r.nsec = 123456789;
	x->r.euid = 1000;
	x->r.has_euid = true;
	x->r.has_seq = true;
	x->r.seq = 41;
	x->r.order = 97;
	x->t.prio = prio;
	x->t.tag = tag;
	x->t.tag_len = (int)strlen(tag);
	x->t.msg = msg;
	x->t.msg_len = strlen(msg);
}

/*
 * @x made a record of nslog-syslogd's: priority, tag, message and the
 * sender's PRI kept after the message's NUL (lib/syslogpri.c).
 */
static void mksyslog(struct rec *x, int prio, const char *tag,
		     const char *msg, const char *trailer)
{
	size_t tl = strlen(tag), ml = strlen(msg), n = 0;

	mkrec(x, prio, tag, msg);
	x->payload[n++] = (unsigned char)prio;
	memcpy(x->payload + n, tag, tl + 1);
	n += tl + 1;
	memcpy(x->payload + n, msg, ml + 1);
	n += ml + 1;
	memcpy(x->payload + n, trailer, strlen(trailer));
	n += strlen(trailer);
	x->r.payload = x->payload;
	x->r.len = (__u16)n;
	x->t.tag = (const char *)x->payload + 1;
	x->t.msg = (const char *)x->payload + 2 + tl;
}

/*
 * @x made a record that relay 77 stored 1.4 s after the time its writer
 * claims (the 0x4e54 header), its writer gone (@unverified) or not.
 */
static void mkrelayed(struct rec *x, bool unverified)
{
	x->r.flags = NSLOG_ENTRY_RELAYED |
		     (unverified ? NSLOG_ENTRY_UNVERIFIED : 0);
	x->r.has_relay = true;
	x->r.relay_pid = 77;
	x->r.stored_sec = 1700000001;
	x->r.stored_nsec = 500000000;
}

static struct nslog_ident docker = {
	.runtime = "docker",
	.id = ID1,
	.cgroup = "/system.slice/docker-" ID1 ".scope",
};

static struct nslog_meta meta(const struct nslog_ident *id)
{
	struct nslog_meta m = {
		.log = "main",
		.host = "h1",
		.boot_id = "4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d",
		.has_set = true,
		.set_id = 6414010659057826751ULL,
		.has_ns = true,
		.ns_id = 4026532301ULL,
		.ident = id,
		.utc = true,
	};

	return m;
}

static void test_labels(void)
{
	struct nslog_ident lxc = { .runtime = "lxc", .name = "web1" };
	struct nslog_ident pod = { .runtime = "kubernetes",
				   .pod = "5c1d8d34-9b0e-4c8e-a1f2-3b4c5d6e7f80" };
	struct nslog_ident unit = { .unit = "foo.service" };
	struct nslog_loss loss = { .known = true, .count = 3, .first_seq = 7 };
	char buf[NSLOG_LOSS_TEXT_MAX];
	struct nslog_meta m;

	m = meta(&docker);
	nslog_meta_label(buf, sizeof(buf), &m);
	tap_str("label: docker: the short id", buf,
		"ipc:[4026532301] (docker 3f4b7e2c9a1d)");
	m.ident = &lxc;
	nslog_meta_label(buf, sizeof(buf), &m);
	tap_str("label: lxc: the name", buf, "ipc:[4026532301] (lxc web1)");
	m.ident = &pod;
	nslog_meta_label(buf, sizeof(buf), &m);
	tap_str("label: a pod", buf, "ipc:[4026532301] (kubernetes pod "
		"5c1d8d34-9b0e-4c8e-a1f2-3b4c5d6e7f80)");
	m.ident = &unit;
	nslog_meta_label(buf, sizeof(buf), &m);
	tap_str("label: a unit", buf, "ipc:[4026532301] (foo.service)");
	m.ident = NULL;
	nslog_loss_text(buf, sizeof(buf), &m, &loss);
	tap_str("loss: the text", buf,
		"3 records of log main of ipc:[4026532301] were lost (seq 7 to 9)");
	loss.known = false;
	nslog_loss_text(buf, sizeof(buf), &m, &loss);
	tap_str("loss: an unknown count", buf,
		"records of log main of ipc:[4026532301] from seq 7 on may have "
		"been lost: the set was gone before they were read");
}

static char *mem_json_record(const struct rec *x, const struct nslog_meta *m,
			     bool events)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	nslog_json_record(f, &x->r, &x->t, m, events);
	fclose(f);
	return buf;
}

static void test_json_lines(void)
{
	struct nslog_loss loss = { .known = true, .count = 3, .first_seq = 7,
				   .sec = 1700000000, .nsec = 5 };
	struct nslog_meta m = meta(&docker);
	char buf[4096];
	struct rec x;
	FILE *f;

	mkrec(&x, 5, "Tag", "line one\nline \"two\"\n");
	x.r.flags = NSLOG_ENTRY_KERNEL;
	tap_str("json: a record with every field", mem_json_record(&x, &m, false),
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.123456789Z\","
		"\"host\":\"h1\",\"boot_id\":\"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d\","
		"\"log\":\"main\",\"ns_id\":4026532301,\"set_id\":\"6414010659057826751\","
		"\"seq\":41,\"order\":97,\"priority\":5,\"level\":\"warning\",\"tag\":\"Tag\","
		"\"message\":\"line one\\nline \\\"two\\\"\",\"pid\":1234,\"tid\":1235,"
		"\"uid\":1000,\"kernel\":true,\"runtime\":\"docker\",\"container_id\":\""
		ID1 "\",\"cgroup\":\"/system.slice/docker-" ID1 ".scope\"}\n");

	m.ident = NULL;
	mkrec(&x, 4, "T", "m");
	x.r.has_relay = true;
	x.r.stored_sec = x.r.sec;
	x.r.stored_nsec = x.r.nsec;
	tap_str("json: a plain record of the 0x4e54 header has no relay members",
		mem_json_record(&x, &m, false),
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.123456789Z\","
		"\"host\":\"h1\",\"boot_id\":\"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d\","
		"\"log\":\"main\",\"ns_id\":4026532301,\"set_id\":\"6414010659057826751\","
		"\"seq\":41,\"order\":97,\"priority\":4,\"level\":\"info\",\"tag\":\"T\","
		"\"message\":\"m\",\"pid\":1234,\"tid\":1235,\"uid\":1000,"
		"\"kernel\":false}\n");
	mkrelayed(&x, false);
	tap_str("json: a relayed record: relayed, relay_pid, stored_time",
		mem_json_record(&x, &m, false),
		"{\"type\":\"record\",\"time\":\"2023-11-14T22:13:20.123456789Z\","
		"\"host\":\"h1\",\"boot_id\":\"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d\","
		"\"log\":\"main\",\"ns_id\":4026532301,\"set_id\":\"6414010659057826751\","
		"\"seq\":41,\"order\":97,\"priority\":4,\"level\":\"info\",\"tag\":\"T\","
		"\"message\":\"m\",\"pid\":1234,\"tid\":1235,\"uid\":1000,"
		"\"kernel\":false,\"relayed\":true,\"relay_pid\":77,"
		"\"stored_time\":\"2023-11-14T22:13:21.500000000Z\"}\n");
	mkrelayed(&x, true);
	tap_ok(strstr(mem_json_record(&x, &m, false),
		      "\"kernel\":false,\"relayed\":true,\"relay_pid\":77,"
		      "\"unverified\":true,\"stored_time\":"
		      "\"2023-11-14T22:13:21.500000000Z\"}\n") != NULL,
	       "json: an unverified relayed record: \"unverified\":true too");
	mksyslog(&x, 4, "cron", "notice", "<77>");
	tap_ok(strstr(mem_json_record(&x, &m, false),
		      "\"priority\":4,\"level\":\"notice\",\"facility\":\"cron\","
		      "\"tag\":\"cron\",\"message\":\"notice\"") != NULL,
	       "json: a syslog record's kept PRI: its level, and its facility by name");
	mkrec(&x, 4, "t", "m");
	tap_ok(!strstr(mem_json_record(&x, &m, false), "facility"),
	       "json: no facility without a kept PRI");
	m.ident = &docker;

	f = fmemopen(buf, sizeof(buf), "w");
	nslog_json_loss(f, &m, &loss);
	fclose(f);
	tap_str("json: a record of lost records", buf,
		"{\"type\":\"lost\",\"time\":\"2023-11-14T22:13:20.000000005Z\","
		"\"host\":\"h1\",\"boot_id\":\"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d\","
		"\"log\":\"main\",\"ns_id\":4026532301,\"set_id\":\"6414010659057826751\","
		"\"lost\":3,\"lost_first_seq\":7,\"lost_last_seq\":9,\"level\":\"warning\","
		"\"tag\":\"nslog-collector\",\"message\":\"3 records of log main of "
		"ipc:[4026532301] (docker 3f4b7e2c9a1d) were lost (seq 7 to 9)\","
		"\"runtime\":\"docker\",\"container_id\":\"" ID1 "\",\"cgroup\":"
		"\"/system.slice/docker-" ID1 ".scope\"}\n");

	loss.known = false;
	m.ident = NULL;
	m.host = NULL;
	m.boot_id = NULL;
	f = fmemopen(buf, sizeof(buf), "w");
	nslog_json_loss(f, &m, &loss);
	fclose(f);
	tap_ok(strstr(buf, "\"lost\":null,\"lost_first_seq\":7,\"level\"") &&
	       !strstr(buf, "lost_last_seq") && !strstr(buf, "host"),
	       "json: an unknown count is null, no last seq");
}

static void test_rfc5424(void)
{
	struct nslog_ident odd = {
		.runtime = "lxc",
		.name = "we\"b]\\1",
		.cgroup = "/lxc.payload.we\"b]\\1\n\xff",
	};
	struct nslog_loss loss = { .known = true, .count = 2, .first_seq = 40,
				   .sec = 1700000000, .nsec = 999999 };
	struct nslog_meta m = meta(&docker);
	struct nslog_sbuf b = { 0 };
	char tag[80];
	struct rec x;

	mkrec(&x, 6, "MyTag", "hello\n");
	nslog_rfc5424_record(&b, NSLOG_FACILITY_USER, &x.r, &x.t, &m, false);
	tap_str("rfc5424: a record", b.p,
		"<11>1 2023-11-14T22:13:20.123456Z h1 MyTag 1234 main "
		"[nslogger@32473 log=\"main\" ns_id=\"4026532301\" "
		"set_id=\"6414010659057826751\" "
		"boot_id=\"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d\" seq=\"41\" order=\"97\" tid=\"1235\" "
		"uid=\"1000\" runtime=\"docker\" container_id=\"" ID1 "\" "
		"cgroup=\"/system.slice/docker-" ID1 ".scope\"] hello");

	mkrec(&x, 7, "a tag with spaces\x7f\xc3\xa9", "l1\nl2\t\x01\xff end");
	x.r.pid = 0;
	x.r.has_euid = false;
	x.r.has_seq = false;
	m.host = NULL;
	m.ident = &odd;
	nslog_rfc5424_record(&b, 23, &x.r, &x.t, &m, false);
	tap_str("rfc5424: nil host and pid, APP-NAME printable, values escaped, MSG on one line",
		b.p,
		"<186>1 2023-11-14T22:13:20.123456Z - a_tag_with_spaces___ - main "
		"[nslogger@32473 log=\"main\" ns_id=\"4026532301\" "
		"set_id=\"6414010659057826751\" "
		"boot_id=\"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d\" tid=\"1235\" runtime=\"lxc\" "
		"container_name=\"we\\\"b\\]\\\\1\" "
		"cgroup=\"/lxc.payload.we\\\"b\\]\\\\1#012\xef\xbf\xbd\"] "
		"l1#012l2#011#001\xef\xbf\xbd end");

	memset(tag, 'x', sizeof(tag) - 1);
	tag[sizeof(tag) - 1] = '\0';
	mkrec(&x, 4, tag, "");
	m.ident = NULL;
	nslog_rfc5424_record(&b, 1, &x.r, &x.t, &m, false);
	tap_ok(strstr(b.p, " xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 1234 ") &&
	       b.p[b.len - 1] == ']',
	       "rfc5424: APP-NAME cut at 48; an empty message has no MSG");

	mkrec(&x, 4, "", "m");
	x.r.len = 9;
	memcpy(x.payload, "\x39\x30\x00\x00", 4);	/* 12345 */
	x.r.payload = x.payload;
	m.log = "events";
	nslog_rfc5424_record(&b, 1, &x.r, &x.t, &m, true);
	tap_ok(strstr(b.p, "<14>1 2023-11-14T22:13:20.123456Z - - 1234 events ") &&
	       strstr(b.p, " event_tag=\"12345\"]"),
	       "rfc5424: events: MSGID events, the event tag in SD, no tag: -");

	m.log = "main";
	mksyslog(&x, 6, "sshd", "denied", "<38>");	/* auth.info */
	nslog_rfc5424_record(&b, NSLOG_FACILITY_USER, &x.r, &x.t, &m, false);
	tap_ok(!strncmp(b.p, "<38>1 ", 6) && strstr(b.p, " sshd 1234 main "),
	       "rfc5424: a syslog record's kept PRI: auth.info, not user.err");
	mksyslog(&x, 4, "cron", "notice", "<77>");
	nslog_rfc5424_record(&b, 23, &x.r, &x.t, &m, false);
	tap_ok(!strncmp(b.p, "<77>1 ", 6),
	       "rfc5424: ... cron.notice (INFO would be info), whatever --facility says");
	mksyslog(&x, 4, "t", "m", "<1a>");
	nslog_rfc5424_record(&b, 23, &x.r, &x.t, &m, false);
	tap_ok(!strncmp(b.p, "<190>1 ", 7),
	       "rfc5424: a malformed trailer is no PRI: --facility and the priority");

	mkrec(&x, 6, "MyTag", "hello\n");
	m = meta(NULL);
	mkrelayed(&x, false);
	nslog_rfc5424_record(&b, NSLOG_FACILITY_USER, &x.r, &x.t, &m, false);
	tap_str("rfc5424: a relayed record: relayed, relay_pid, stored_time after kernel's place",
		b.p,
		"<11>1 2023-11-14T22:13:20.123456Z h1 MyTag 1234 main "
		"[nslogger@32473 log=\"main\" ns_id=\"4026532301\" "
		"set_id=\"6414010659057826751\" "
		"boot_id=\"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d\" seq=\"41\" order=\"97\" tid=\"1235\" "
		"uid=\"1000\" relayed=\"1\" relay_pid=\"77\" "
		"stored_time=\"2023-11-14T22:13:21.500000Z\"] hello");
	mkrelayed(&x, true);
	x.r.relay_pid = 0;
	x.r.flags |= NSLOG_ENTRY_KERNEL;
	nslog_rfc5424_record(&b, NSLOG_FACILITY_USER, &x.r, &x.t, &m, false);
	tap_ok(strstr(b.p, " uid=\"1000\" kernel=\"1\" relayed=\"1\" "
		      "relay_pid=\"0\" unverified=\"1\" "
		      "stored_time=\"2023-11-14T22:13:21.500000Z\"] hello") != NULL,
	       "rfc5424: an unverified one, its relay not visible: unverified=\"1\", relay_pid=\"0\"");
	x.r.has_relay = false;
	x.r.flags &= ~NSLOG_ENTRY_KERNEL;
	nslog_rfc5424_record(&b, NSLOG_FACILITY_USER, &x.r, &x.t, &m, false);
	tap_ok(strstr(b.p, " uid=\"1000\" relayed=\"1\" unverified=\"1\"] "
		      "hello") != NULL,
	       "rfc5424: the 0x4e53 header: no relay_pid, no stored_time");
	mkrec(&x, 6, "MyTag", "hello\n");
	x.r.has_relay = true;
	x.r.stored_sec = x.r.sec;
	x.r.stored_nsec = x.r.nsec;
	nslog_rfc5424_record(&b, NSLOG_FACILITY_USER, &x.r, &x.t, &m, false);
	tap_str("rfc5424: a plain record of the 0x4e54 header, as before", b.p,
		"<11>1 2023-11-14T22:13:20.123456Z h1 MyTag 1234 main "
		"[nslogger@32473 log=\"main\" ns_id=\"4026532301\" "
		"set_id=\"6414010659057826751\" "
		"boot_id=\"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d\" seq=\"41\" order=\"97\" tid=\"1235\" "
		"uid=\"1000\"] hello");

	m = meta(NULL);
	nslog_rfc5424_loss(&b, 16, &m, &loss);
	tap_str("rfc5424: a record of lost records", b.p,
		"<132>1 2023-11-14T22:13:20.000999Z h1 nslog-collector - lost "
		"[nslogger@32473 log=\"main\" ns_id=\"4026532301\" "
		"set_id=\"6414010659057826751\" "
		"boot_id=\"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d\" lost=\"2\" lost_first_seq=\"40\" "
		"lost_last_seq=\"41\"] 2 records of log main of ipc:[4026532301] "
		"were lost (seq 40 to 41)");
	tap_ok(!b.oom, "rfc5424: no allocation failed");
	nslog_sbuf_free(&b);
}

static const char *field(const struct nslog_jfields *f, const char *key)
{
	static char buf[512];
	size_t i, k = strlen(key);

	for (i = 0; i < f->count; i++) {
		const char *p = f->iov[i].iov_base;

		if (f->iov[i].iov_len > k && !strncmp(p, key, k) && p[k] == '=') {
			snprintf(buf, sizeof(buf), "%.*s",
				 (int)(f->iov[i].iov_len - k - 1), p + k + 1);
			return buf;
		}
	}
	return NULL;
}

static bool has(const struct nslog_jfields *f, const char *key,
		const char *want)
{
	const char *got = field(f, key);

	if (!want)
		return !got;
	if (got && !strcmp(got, want))
		return true;
	printf("#   %s=%s, want %s\n", key, got ? got : "(none)", want);
	return false;
}

static void test_journal(void)
{
	struct nslog_ident lxc = { .runtime = "lxc", .name = "web1",
				   .cgroup = "/lxc.payload.web1" };
	struct nslog_loss loss = { .known = true, .count = 2, .first_seq = 40 };
	struct nslog_meta m = meta(&docker);
	struct nslog_jfields f = { 0 };
	struct rec x;

	mkrec(&x, 6, "MyTag", "multi\nline\n");
	x.r.flags = NSLOG_ENTRY_KERNEL;
	nslog_journal_record(&f, &x.r, &x.t, &m, false);
	tap_ok(has(&f, "MESSAGE", "multi\nline") && has(&f, "PRIORITY", "3") &&
	       has(&f, "SYSLOG_IDENTIFIER", "MyTag") &&
	       has(&f, "SYSLOG_PID", "1234") &&
	       has(&f, "CONTAINER_ID", "3f4b7e2c9a1d") &&
	       has(&f, "CONTAINER_ID_FULL", ID1) &&
	       has(&f, "CONTAINER_NAME", NULL) &&
	       has(&f, "NSLOG_RUNTIME", "docker") &&
	       has(&f, "NSLOG_CGROUP", "/system.slice/docker-" ID1 ".scope") &&
	       has(&f, "NSLOG_LOG", "main") &&
	       has(&f, "NSLOG_NS_ID", "4026532301") &&
	       has(&f, "NSLOG_SET_ID", "6414010659057826751") &&
	       has(&f, "NSLOG_SEQ", "41") && has(&f, "NSLOG_ORDER", "97") &&
	       has(&f, "NSLOG_PID", "1234") && has(&f, "NSLOG_TID", "1235") &&
	       has(&f, "NSLOG_UID", "1000") && has(&f, "NSLOG_PRIORITY", "6") &&
	       has(&f, "NSLOG_TIME_NS", "1700000000123456789") &&
	       has(&f, "NSLOG_KERNEL", "1") && has(&f, "NSLOG_EVENT_TAG", NULL),
	       "journal: a record's fields");
	tap_ok(has(&f, "NSLOG_RELAYED", NULL) &&
	       has(&f, "NSLOG_RELAY_PID", NULL) &&
	       has(&f, "NSLOG_UNVERIFIED", NULL) &&
	       has(&f, "NSLOG_STORED_TIME_NS", NULL) && f.count == 19,
	       "journal: a record not relayed: no relay field, 19 fields as before");

	mkrelayed(&x, false);
	x.r.flags |= NSLOG_ENTRY_KERNEL;
	nslog_journal_record(&f, &x.r, &x.t, &m, false);
	tap_ok(has(&f, "NSLOG_KERNEL", "1") && has(&f, "NSLOG_RELAYED", "1") &&
	       has(&f, "NSLOG_RELAY_PID", "77") &&
	       has(&f, "NSLOG_UNVERIFIED", NULL) &&
	       has(&f, "NSLOG_STORED_TIME_NS", "1700000001500000000") &&
	       has(&f, "NSLOG_TIME_NS", "1700000000123456789") &&
	       has(&f, "NSLOG_PID", "1234") && f.count == 22,
	       "journal: a relayed record: NSLOG_RELAYED, _RELAY_PID, _STORED_TIME_NS");
	mkrelayed(&x, true);
	x.r.relay_pid = 0;
	nslog_journal_record(&f, &x.r, &x.t, &m, false);
	tap_ok(has(&f, "NSLOG_RELAYED", "1") &&
	       has(&f, "NSLOG_RELAY_PID", "0") &&
	       has(&f, "NSLOG_UNVERIFIED", "1") &&
	       has(&f, "NSLOG_STORED_TIME_NS", "1700000001500000000"),
	       "journal: an unverified one: NSLOG_UNVERIFIED=1; a relay not visible is 0");
	x.r.has_relay = false;
	nslog_journal_record(&f, &x.r, &x.t, &m, false);
	tap_ok(has(&f, "NSLOG_RELAYED", "1") &&
	       has(&f, "NSLOG_RELAY_PID", NULL) &&
	       has(&f, "NSLOG_UNVERIFIED", "1") &&
	       has(&f, "NSLOG_STORED_TIME_NS", NULL),
	       "journal: the 0x4e53 header: no relay pid, no stored time");

	mksyslog(&x, 4, "cron", "notice", "<77>");
	nslog_journal_record(&f, &x.r, &x.t, &m, false);
	tap_ok(has(&f, "PRIORITY", "5") && has(&f, "SYSLOG_FACILITY", "9") &&
	       has(&f, "NSLOG_PRIORITY", "4") && has(&f, "MESSAGE", "notice"),
	       "journal: a syslog record's kept PRI: PRIORITY and SYSLOG_FACILITY");
	mkrec(&x, 4, "t", "m");
	nslog_journal_record(&f, &x.r, &x.t, &m, false);
	tap_ok(has(&f, "SYSLOG_FACILITY", NULL), "journal: none without one");

	mkrec(&x, 3, "", "");
	x.r.pid = 0;
	x.r.has_euid = false;
	m.ident = &lxc;
	m.log = "events";
	x.r.len = 9;
	memcpy(x.payload, "\x39\x30\x00\x00", 4);
	x.r.payload = x.payload;
	nslog_journal_record(&f, &x.r, &x.t, &m, true);
	tap_ok(has(&f, "MESSAGE", "") && has(&f, "PRIORITY", "7") &&
	       has(&f, "SYSLOG_IDENTIFIER", NULL) && has(&f, "SYSLOG_PID", NULL) &&
	       has(&f, "CONTAINER_NAME", "web1") && has(&f, "CONTAINER_ID", NULL) &&
	       has(&f, "NSLOG_RUNTIME", "lxc") && has(&f, "NSLOG_UID", NULL) &&
	       has(&f, "NSLOG_LOG", "events") && has(&f, "NSLOG_EVENT_TAG", "12345") &&
	       has(&f, "NSLOG_KERNEL", NULL),
	       "journal: no tag, pid 0, an events record, an LXC container");

	nslog_journal_loss(&f, &m, &loss);
	tap_ok(has(&f, "PRIORITY", "4") &&
	       has(&f, "SYSLOG_IDENTIFIER", "nslog-collector") &&
	       has(&f, "MESSAGE_ID", NSLOG_JOURNAL_LOST_ID) &&
	       has(&f, "NSLOG_LOST", "2") && has(&f, "NSLOG_LOST_FIRST_SEQ", "40") &&
	       has(&f, "NSLOG_LOST_LAST_SEQ", "41") &&
	       has(&f, "MESSAGE", "2 records of log events of ipc:[4026532301] "
		   "(lxc web1) were lost (seq 40 to 41)"),
	       "journal: a record of lost records");
	loss.known = false;
	nslog_journal_loss(&f, &m, &loss);
	tap_ok(has(&f, "NSLOG_LOST", "unknown") &&
	       has(&f, "NSLOG_LOST_LAST_SEQ", NULL),
	       "journal: an unknown count");
	nslog_journal_free(&f);
}

static const char *recv_one(int fd)
{
	static char buf[256];
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

/*
 * A datagram socket at the address "localhost" resolves to first, which is
 * where the collector sends (::1 on many hosts, 127.0.0.1 on others).
 */
static int udp_server_at_localhost(int *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM };
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct addrinfo *res;
	int fd;

	*port = 0;
	if (getaddrinfo("localhost", "0", &hints, &res)) {
		printf("# localhost does not resolve (no /etc/hosts?)\n");
		return -1;
	}
	fd = socket(res->ai_family, SOCK_DGRAM, 0);
	if (fd >= 0 && !bind(fd, res->ai_addr, res->ai_addrlen) &&
	    !getsockname(fd, (struct sockaddr *)&ss, &len))
		*port = ntohs(ss.ss_family == AF_INET6 ?
			      ((struct sockaddr_in6 *)&ss)->sin6_port :
			      ((struct sockaddr_in *)&ss)->sin_port);
	freeaddrinfo(res);
	return fd;
}

static const char *read_all(int fd)
{
	static char buf[256];
	size_t len = 0;
	ssize_t n;

	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	return buf;
}

static void test_dest(const char *dir)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct sockaddr_in in = { .sin_family = AF_INET };
	socklen_t len = sizeof(in);
	struct nslog_dest d;
	char spec[200];
	int srv, c, port;

	tap_ok(!nslog_dest_parse(&d, "stdout") && d.kind == NSLOG_DEST_STDOUT &&
	       !nslog_dest_parse(&d, "-") &&
	       !nslog_dest_parse(&d, "unix:/run/x") && d.kind == NSLOG_DEST_UNIX &&
	       !strcmp(d.addr, "/run/x") &&
	       !nslog_dest_parse(&d, "udp:logs.example:514") &&
	       d.kind == NSLOG_DEST_UDP &&
	       !nslog_dest_parse(&d, "tcp:[::1]:6514") && d.kind == NSLOG_DEST_TCP,
	       "dest: the forms");
	tap_ok(nslog_dest_parse(&d, "file:/x") && nslog_dest_parse(&d, "unix:") &&
	       nslog_dest_parse(&d, "udp:host") && nslog_dest_parse(&d, "udp::514") &&
	       nslog_dest_parse(&d, "tcp:host:") &&
	       nslog_dest_parse(&d, "tcp:host:5x") &&
	       nslog_dest_parse(&d, "tcp:[::1:514"),
	       "dest: bad forms are refused");

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/dgram", dir);
	srv = socket(AF_UNIX, SOCK_DGRAM, 0);
	bind(srv, (struct sockaddr *)&sa, sizeof(sa));
	snprintf(spec, sizeof(spec), "unix:%s", sa.sun_path);
	nslog_dest_parse(&d, spec);
	tap_ok(!nslog_dest_open(&d, NULL) && !d.stream &&
	       !nslog_dest_send(&d, "<14>1 one", 9) &&
	       !nslog_dest_send(&d, "<14>1 two", 9) &&
	       !strcmp(recv_one(srv), "<14>1 one") &&
	       !strcmp(recv_one(srv), "<14>1 two"),
	       "dest: unix datagram: a message a datagram, no newline");
	nslog_dest_close(&d);
	close(srv);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/stream", dir);
	srv = socket(AF_UNIX, SOCK_STREAM, 0);
	bind(srv, (struct sockaddr *)&sa, sizeof(sa));
	listen(srv, 1);
	snprintf(spec, sizeof(spec), "unix:%s", sa.sun_path);
	nslog_dest_parse(&d, spec);
	tap_ok(!nslog_dest_open(&d, NULL) && d.stream &&
	       !nslog_dest_send(&d, "a", 1) && !nslog_dest_send(&d, "b c", 3),
	       "dest: unix stream: connected");
	nslog_dest_close(&d);
	c = accept(srv, NULL, NULL);
	tap_str("dest: unix stream: a line a message", read_all(c), "a\nb c\n");
	close(c);
	close(srv);

	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	srv = socket(AF_INET, SOCK_STREAM, 0);
	bind(srv, (struct sockaddr *)&in, sizeof(in));
	getsockname(srv, (struct sockaddr *)&in, &len);
	listen(srv, 1);
	snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%d", ntohs(in.sin_port));
	nslog_dest_parse(&d, spec);
	tap_ok(!nslog_dest_open(&d, NULL) && !nslog_dest_send(&d, "<14>1 x", 7) &&
	       !nslog_dest_send(&d, "", 0), "dest: tcp: connected");
	nslog_dest_close(&d);
	c = accept(srv, NULL, NULL);
	tap_str("dest: tcp: octet counting", read_all(c), "7 <14>1 x0 ");
	close(c);
	close(srv);

	srv = udp_server_at_localhost(&port);
	snprintf(spec, sizeof(spec), "udp:localhost:%d", port);
	nslog_dest_parse(&d, spec);
	tap_ok(!nslog_dest_open(&d, NULL) && !nslog_dest_send(&d, "<14>1 u", 7) &&
	       !strcmp(recv_one(srv), "<14>1 u"),
	       "dest: udp: a datagram a message, by host name");
	close(srv);
	tap_ok(!nslog_dest_send(&d, "<14>1 v", 7) &&
	       !nslog_dest_send(&d, "<14>1 w", 7) && d.refused >= 1,
	       "dest: udp: nobody listening is counted, not an error");
	nslog_dest_close(&d);

	snprintf(spec, sizeof(spec), "unix:%s/nobody", dir);
	nslog_dest_parse(&d, spec);
	tap_int("dest: a missing socket", nslog_dest_open(&d, NULL), -ENOENT);
}

static void test_outputs(const char *dir)
{
	struct nslog_meta m = meta(&docker);
	struct nslog_loss loss = { .known = true, .count = 1, .first_seq = 3 };
	struct nslog_out o;
	char path[128], buf[1024];
	struct rec x;
	size_t n;
	FILE *f;

	tap_ok(!nslog_out_parse(&o, "journal") && o.kind == NSLOG_OUT_JOURNAL &&
	       !nslog_out_parse(&o, "json") && o.kind == NSLOG_OUT_JSON &&
	       !nslog_out_parse(&o, "rfc5424") && o.kind == NSLOG_OUT_RFC5424 &&
	       o.facility == 1 && o.dest.kind == NSLOG_DEST_STDOUT &&
	       !nslog_out_parse(&o, "threadtime,year,zone") &&
	       o.kind == NSLOG_OUT_LOGCAT && o.fmt.year && o.fmt.zone &&
	       o.fmt.layout == NSLOG_FMT_THREADTIME,
	       "output: the -o forms");
	tap_ok(nslog_out_parse(&o, "syslog") && nslog_out_parse(&o, "json,UTC") &&
	       nslog_out_parse(&o, "brief,color"),
	       "output: unknown ones are refused (json is not a layout here)");

	snprintf(path, sizeof(path), "%s/out", dir);
	f = fopen(path, "w+");
	nslog_out_parse(&o, "time,year");
	nslog_out_open(&o, f);
	mkrec(&x, 4, "T", "a\nb");
	nslog_out_record(&o, &x.r, &x.t, &m, false);
	nslog_out_record(&o, &x.r, &x.t, &m, false);
	m.log = "system";
	nslog_out_record(&o, &x.r, &x.t, &m, false);
	nslog_out_loss(&o, &m, &loss);
	nslog_out_record(&o, &x.r, &x.t, &m, false);
	tap_int("output: sync of a regular file", nslog_out_sync(&o), 0);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	tap_str("output: layouts with a header at each change of log or set",
		buf,
		"--------- main of ipc:[4026532301] (docker 3f4b7e2c9a1d)\n"
		"2023-11-14 22:13:20.123 I/T       ( 1234): a\n"
		"2023-11-14 22:13:20.123 I/T       ( 1234): b\n"
		"2023-11-14 22:13:20.123 I/T       ( 1234): a\n"
		"2023-11-14 22:13:20.123 I/T       ( 1234): b\n"
		"--------- system of ipc:[4026532301] (docker 3f4b7e2c9a1d)\n"
		"2023-11-14 22:13:20.123 I/T       ( 1234): a\n"
		"2023-11-14 22:13:20.123 I/T       ( 1234): b\n"
		"--------- 1 record of log system of ipc:[4026532301] (docker "
		"3f4b7e2c9a1d) was lost (seq 3 to 3)\n"
		"--------- system of ipc:[4026532301] (docker 3f4b7e2c9a1d)\n"
		"2023-11-14 22:13:20.123 I/T       ( 1234): a\n"
		"2023-11-14 22:13:20.123 I/T       ( 1234): b\n");
	nslog_out_close(&o);
	fclose(f);
	unlink(path);
}

/*
 * A stream's name lives in its log, which is freed when the stream ends:
 * another stream may get its memory, and its header is still due.
 */
static void test_stream_headers(void)
{
	struct nslog_meta m = meta(&docker);
	char name[32], same[32], *text = NULL;
	struct nslog_out o;
	struct rec x;
	size_t size;
	FILE *f = open_memstream(&text, &size);

	nslog_out_parse(&o, "tag");
	nslog_out_open(&o, f);
	mkrec(&x, 4, "T", "m");
	strcpy(name, "audit");
	m.log = name;
	nslog_out_record(&o, &x.r, &x.t, &m, false);
	strcpy(same, "audit");
	m.log = same;
	nslog_out_record(&o, &x.r, &x.t, &m, false);
	strcpy(same, "app.x");
	nslog_out_record(&o, &x.r, &x.t, &m, false);
	fflush(f);
	tap_str("output: a header for each stream by its name, wherever it is",
		text,
		"--------- audit of ipc:[4026532301] (docker 3f4b7e2c9a1d)\n"
		"I/T       : m\n"
		"I/T       : m\n"
		"--------- app.x of ipc:[4026532301] (docker 3f4b7e2c9a1d)\n"
		"I/T       : m\n");
	nslog_out_close(&o);
	fclose(f);
	free(text);
}

int main(void)
{
	char dir[64], cmd[128];

	set_tz("UTC0");
	test_utf8();
	test_json_string();
	test_rfc3339();
	test_severity();
	test_labels();
	test_json_lines();
	test_rfc5424();
	test_journal();
	test_stream_headers();
	snprintf(dir, sizeof(dir), "/tmp/nslog_out.XXXXXX");
	if (tap_ok(mkdtemp(dir) != NULL, "make a scratch directory")) {
		test_dest(dir);
		test_outputs(dir);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	}
	return tap_done();
}
