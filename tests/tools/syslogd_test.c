// SPDX-License-Identifier: GPL-2.0
/*
 * syslogd_test: nslog-syslogd on the host.
 *
 * The parser with what each sender writes (shared/reference/
 * syslog-socket.md) and every malformed PRI; the stream framing (NUL,
 * newline, octet counts, a message cut, one never finished); the record
 * (the severity table, the kept PRI, NUL bytes, a cut before a UTF-8
 * sequence); the store (its ioctl played by a stand-in that records each
 * struct nslog_relay: which fd, which flags, and the retries); the control
 * commands; real sockets in a temporary directory (datagrams with
 * SCM_CREDENTIALS, a stream connection, the connection limit); and the
 * program itself ($NSLOG_BIN/nslog-syslogd) against a FIFO for a node.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nslog-syslogd/control.h"
#include "nslog-syslogd/frame.h"
#include "nslog-syslogd/parse.h"
#include "nslog-syslogd/record.h"
#include "nslog-syslogd/source.h"
#include "nslog-syslogd/store.h"
#include "syslogpri.h"
#include "fakedev.h"
#include "tap.h"
#include "tmpdir.h"

#define S(lit)	lit, sizeof(lit) - 1

static bool field_is(const char *p, size_t n, const char *want)
{
	return n == strlen(want) && !memcmp(p, want, n);
}

/* --- parse --- */

struct parse_case {
	const char *in;
	int pri;
	bool given;
	enum nslog_sl_format format;
	const char *tag;
	int pid;
	const char *text;
};

static const struct parse_case parse_cases[] = {
	/* what each sender writes */
	{ "<155>Dec  7 02:42:50 mytag[7783]: MARK 0", 155, true,
	  NSLOG_SL_RFC3164, "mytag", 7783, "MARK 0" },
	{ "<13>Dec  7 02:42:50 ultag: util-linux 3164", 13, true,
	  NSLOG_SL_RFC3164, "ultag", 0, "util-linux 3164" },
	{ "<13>Dec  7 02:42:50 vm ultag3: host first", 13, true,
	  NSLOG_SL_RFC3164, "ultag3", 0, "host first" },
	{ "<148>1 2026-12-07T02:42:50.380805+00:00 vm ultag5 - - [timeQuality tzKnown=\"1\" isSynced=\"0\"] util-linux 5424",
	  148, true, NSLOG_SL_RFC5424, "ultag5", 0, "util-linux 5424" },
	{ "<13>Dec 17 02:42:50 bbtag: busybox logger", 13, true,
	  NSLOG_SL_RFC3164, "bbtag", 0, "busybox logger" },
	/* RFC 5424's corners */
	{ "<165>1 2003-10-11T22:14:15.003Z h app 42 ID47 [a x=\"q\\]\\\"\"][b] \xef\xbb\xbfhi",
	  165, true, NSLOG_SL_RFC5424, "app", 42, "hi" },
	{ "<14>1 - - - - - - text", 14, true, NSLOG_SL_RFC5424, "", 0, "text" },
	{ "<14>1 - - app", 14, true, NSLOG_SL_RFC5424, "app", 0, "" },
	{ "<14>1 ", 14, true, NSLOG_SL_RFC5424, "", 0, "" },
	/* no tag: all text; a stamp in RFC 3339 */
	{ "<13>hello world", 13, true, NSLOG_SL_RFC3164, "", 0, "hello world" },
	{ "<14>2026-12-07T02:42:50Z fwd[9]: forwarded", 14, true,
	  NSLOG_SL_RFC3164, "fwd", 9, "forwarded" },
	{ "<13>tag[x]: bad pid", 13, true, NSLOG_SL_RFC3164, "tag", 0, "bad pid" },
	{ "<13>tag[12: no bracket", 13, true, NSLOG_SL_RFC3164, "", 0,
	  "tag[12: no bracket" },
	{ "<13>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: 49 is too long",
	  13, true, NSLOG_SL_RFC3164, "", 0,
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: 49 is too long" },
	{ "<0>k:", 0, true, NSLOG_SL_RFC3164, "k", 0, "" },
	{ "<191>t: max", 191, true, NSLOG_SL_RFC3164, "t", 0, "max" },
	/* no PRI, or a malformed one: user.notice, all parsed as 3164 */
	{ "no pri: at all", 13, false, NSLOG_SL_RFC3164, "", 0, "no pri: at all" },
	{ "tag: no pri", 13, false, NSLOG_SL_RFC3164, "tag", 0, "no pri" },
	{ "<>t: x", 13, false, NSLOG_SL_RFC3164, "", 0, "<>t: x" },
	{ "<1a>t: x", 13, false, NSLOG_SL_RFC3164, "", 0, "<1a>t: x" },
	{ "<192>t: x", 13, false, NSLOG_SL_RFC3164, "", 0, "<192>t: x" },
	{ "<013>t: x", 13, false, NSLOG_SL_RFC3164, "", 0, "<013>t: x" },
	{ "<1234>t: x", 13, false, NSLOG_SL_RFC3164, "", 0, "<1234>t: x" },
	{ "<13", 13, false, NSLOG_SL_RFC3164, "", 0, "<13" },
	{ "", 13, false, NSLOG_SL_RFC3164, "", 0, "" },
};

static void test_parse_senders_and_malformed_pri(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		const struct parse_case *c = &parse_cases[i];
		struct nslog_sl_msg m;

		nslog_sl_parse(&m, c->in, strlen(c->in));
		if (m.pri != c->pri || m.pri_given != c->given ||
		    m.format != c->format || m.claimed_pid != c->pid ||
		    !field_is(m.tag, m.tag_len, c->tag) ||
		    !field_is(m.text, m.text_len, c->text)) {
			printf("#   case %zu \"%s\": pri %d given %d format %d pid %d tag '%.*s' text '%.*s'\n",
			       i, c->in, m.pri, m.pri_given, m.format,
			       m.claimed_pid, (int)m.tag_len,
			       m.tag ? m.tag : "", (int)m.text_len,
			       m.text ? m.text : "");
			tap_failed_now = 1;
		}
	}
}

static void test_parse_nul_ends_a_tag_not_a_text(void)
{
	static const char in[] = "<14>t\0x: a";
	static const char in2[] = "<14>tag: a\0b";
	struct nslog_sl_msg m;

	nslog_sl_parse(&m, in, sizeof(in) - 1);
	CHECK(m.tag_len == 0 && m.text_len == sizeof(in) - 1 - 4);
	nslog_sl_parse(&m, in2, sizeof(in2) - 1);
	CHECK(field_is(m.tag, m.tag_len, "tag") && m.text_len == 3);
}

/* --- frame --- */

struct got {
	int n;
	char msg[8][NSLOG_SL_MSG_MAX + 1];
	size_t len[8];
	bool cut[8];
};

static void got_msg(void *ctx, const char *msg, size_t len, bool cut)
{
	struct got *g = ctx;

	if (g->n < 8) {
		memcpy(g->msg[g->n], msg, len);
		g->msg[g->n][len] = '\0';
		g->len[g->n] = len;
		g->cut[g->n] = cut;
	}
	g->n++;
}

static struct nslog_sl_framer fr;
static struct got g;

/* Feed @in one byte at a time, then all at once: the same messages. */
static bool frames(const char *in, size_t n, bool end, int count,
		   const char *const *want)
{
	int pass, i;

	for (pass = 0; pass < 2; pass++) {
		memset(&g, 0, sizeof(g));
		nslog_sl_frame_init(&fr);
		if (pass)
			nslog_sl_frame_feed(&fr, in, n, got_msg, &g);
		else
			for (i = 0; i < (int)n; i++)
				nslog_sl_frame_feed(&fr, in + i, 1, got_msg, &g);
		if (end)
			nslog_sl_frame_end(&fr, got_msg, &g);
		if (g.n != count) {
			printf("#   pass %d: %d messages, want %d\n", pass, g.n,
			       count);
			return false;
		}
		for (i = 0; i < count; i++)
			if (strcmp(g.msg[i], want[i])) {
				printf("#   pass %d: message %d '%s', want '%s'\n",
				       pass, i, g.msg[i], want[i]);
				return false;
			}
	}
	return true;
}

static void test_frame_each_senders_terminator(void)
{
	static const char glibc[] = "<155>a: x\0<156>a: y\0";
	static const char *const w1[] = { "<155>a: x", "<156>a: y" };
	static const char *const w2[] = { "<13>s: ul stream", "<13>t: two" };
	static const char *const w3[] = { "<13>a: b c", "<14>x: 12" };
	static const char *const w4[] = { "<13>a", "<13>b" };

	CHECK(frames(glibc, sizeof(glibc) - 1, false, 2, w1));
	CHECK(frames(S("<13>s: ul stream\n<13>t: two\r\n"), false, 2, w2));
	/* RFC 6587 octet counting; a message may hold NUL and newline */
	CHECK(frames(S("10 <13>a: b c9 <14>x: 12"), false, 2, w3));
	/* empty messages between terminators are skipped */
	CHECK(frames(S("\n\n\0<13>a\0\0\r\n<13>b\n"), false, 2, w4));
}

static void test_frame_count_holds_terminators(void)
{
	static const char in[] = "7 <13>a\nb3 xyz";

	memset(&g, 0, sizeof(g));
	nslog_sl_frame_init(&fr);
	nslog_sl_frame_feed(&fr, in, sizeof(in) - 1, got_msg, &g);
	CHECK(g.n == 2 && g.len[0] == 7 && !memcmp(g.msg[0], "<13>a\nb", 7) &&
	      !strcmp(g.msg[1], "xyz"));
}

static void test_frame_bad_count_is_a_line(void)
{
	static const char *const w[] = { "12x: not a count", "1234567890 ten digits" };

	CHECK(frames(S("12x: not a count\n1234567890 ten digits\n"), false, 2,
		     w));
}

static void test_frame_long_message_cut_rest_dropped(void)
{
	static char in[NSLOG_SL_MSG_MAX * 2 + 16];
	size_t n = NSLOG_SL_MSG_MAX + 100;

	memset(in, 'a', n);
	in[n++] = '\n';
	memcpy(in + n, "next\n", 5);
	n += 5;
	memset(&g, 0, sizeof(g));
	nslog_sl_frame_init(&fr);
	nslog_sl_frame_feed(&fr, in, n, got_msg, &g);
	CHECK(g.n == 2);
	CHECK(g.len[0] == NSLOG_SL_MSG_MAX && g.cut[0]);
	CHECK(!strcmp(g.msg[1], "next") && !g.cut[1]);
	/* a counted one over the buffer: cut, the next one read whole */
	n = (size_t)snprintf(in, sizeof(in), "%d ", NSLOG_SL_MSG_MAX + 5);
	memset(in + n, 'b', NSLOG_SL_MSG_MAX + 5);
	n += NSLOG_SL_MSG_MAX + 5;
	memcpy(in + n, "3 end", 5);
	n += 5;
	memset(&g, 0, sizeof(g));
	nslog_sl_frame_init(&fr);
	nslog_sl_frame_feed(&fr, in, n, got_msg, &g);
	CHECK(g.n == 2 && g.len[0] == NSLOG_SL_MSG_MAX && g.cut[0] &&
	      !strcmp(g.msg[1], "end"));
}

static void test_frame_unfinished_delivered_at_end(void)
{
	static const char *const w[] = { "<13>a: done", "<13>a: never ended" };
	static const char *const w2[] = { "abc" };

	CHECK(frames(S("<13>a: done\n<13>a: never ended"), true, 2, w));
	CHECK(frames(S("9 abc"), true, 1, w2));
	CHECK(g.cut[0]);
}

/* --- record --- */

static void test_record_severity_table_and_kept_pri(void)
{
	static const unsigned char want[8] = { 7, 7, 7, 6, 5, 4, 4, 3 };
	char payload[LOGGER_ENTRY_MAX_PAYLOAD];
	struct nslog_sl_msg m;
	unsigned int what;
	size_t n;
	int sev;

	for (sev = 0; sev < 8; sev++) {
		char in[64];

		snprintf(in, sizeof(in), "<%d>tg[5]: text %d", 19 * 8 + sev, sev);
		nslog_sl_parse(&m, in, strlen(in));
		n = nslog_sl_record(payload, &m, &what);
		CHECK((unsigned char)payload[0] == want[sev]);
		CHECK(!strcmp(payload + 1, "tg"));
		CHECK(!strncmp(payload + 4, "text ", 5));
		CHECK(nslog_syslog_trailer_get(payload, n) == 19 * 8 + sev);
		CHECK(what == 0);
	}
	nslog_sl_parse(&m, S("just text"));
	n = nslog_sl_record(payload, &m, &what);
	CHECK(n == 1 + 7 + 10 + 4 && !memcmp(payload, "\4syslog\0just text\0<13>", n));
}

static void test_record_nul_becomes_space(void)
{
	static const char in[] = "<14>t: a\0b\0";
	char payload[LOGGER_ENTRY_MAX_PAYLOAD];
	struct nslog_sl_msg m;
	unsigned int what;
	size_t n;

	nslog_sl_parse(&m, in, sizeof(in) - 1);
	n = nslog_sl_record(payload, &m, &what);
	CHECK(what == NSLOG_SL_REC_NUL);
	CHECK(n == 1 + 2 + 5 + 4 && !memcmp(payload, "\4t\0a b \0<14>", n));
}

static void test_record_cut_before_utf8_sequence(void)
{
	static char in[LOGGER_ENTRY_MAX_PAYLOAD + 64];
	char payload[LOGGER_ENTRY_MAX_PAYLOAD];
	struct nslog_sl_msg m;
	unsigned int what;
	size_t n, room, i;

	/* "<13>t: " then 'a's and a 3-byte character across the limit */
	n = (size_t)sprintf(in, "<13>t: ");
	room = LOGGER_ENTRY_MAX_PAYLOAD - 3 - 1 - 4;	/* prio t\0 \0 <13> */
	for (i = 0; i < room - 1; i++)
		in[n++] = 'a';
	memcpy(in + n, "\xe2\x82\xac", 3);	/* U+20AC: 1 byte fits, not 3 */
	n += 3;
	nslog_sl_parse(&m, in, n);
	n = nslog_sl_record(payload, &m, &what);
	CHECK(what == NSLOG_SL_REC_CUT);
	CHECK(n == LOGGER_ENTRY_MAX_PAYLOAD - 1);
	CHECK(payload[3 + room - 1] == '\0' && payload[3 + room - 2] == 'a');
	CHECK(nslog_syslog_trailer_get(payload, n) == 13);
	/* exactly full: nothing cut */
	n = (size_t)sprintf(in, "<13>t: ");
	memset(in + n, 'b', room);
	nslog_sl_parse(&m, in, n + room);
	CHECK(nslog_sl_record(payload, &m, &what) == LOGGER_ENTRY_MAX_PAYLOAD &&
	      what == 0);
}

static void test_syslogpri_trailer_forms(void)
{
	char t[NSLOG_SYSLOG_TRAILER_MAX];

	CHECK(nslog_syslog_trailer_put(t, 0) == 3 && !memcmp(t, "<0>", 3));
	CHECK(nslog_syslog_trailer_put(t, 191) == 5 && !memcmp(t, "<191>", 5));
	CHECK(nslog_syslog_trailer_put(t, 192) == 0);
	CHECK(nslog_syslog_trailer_get(S("\4t\0m\0<0>")) == 0);
	CHECK(nslog_syslog_trailer_get(S("\4t\0m\0<155>")) == 155);
	CHECK(nslog_syslog_trailer_get(S("\4t\0m\0")) == -1);
	CHECK(nslog_syslog_trailer_get(S("\4t\0m")) == -1);
	CHECK(nslog_syslog_trailer_get(S("\4t\0m\0<192>")) == -1);
	CHECK(nslog_syslog_trailer_get(S("\4t\0m\0<01>")) == -1);
	CHECK(nslog_syslog_trailer_get(S("\4t\0m\0<1>x")) == -1);
	CHECK(nslog_syslog_trailer_get(S("\4t\0m\0<>")) == -1);
	CHECK(nslog_syslog_trailer_get(S("\4t\0m\0<1a>")) == -1);
}

/* --- store --- */

#define MAX_CALLS 4096
static struct call {
	int fd;
	struct nslog_relay r;
	char payload[LOGGER_ENTRY_MAX_PAYLOAD];
} calls[MAX_CALLS];
static int ncalls;
/* what the stand-in returns: by call number, then 0 */
static int answers[4];

static int fake_relay(int fd, const struct nslog_relay *r)
{
	int ret = ncalls < 4 ? answers[ncalls] : 0;

	if (ncalls < MAX_CALLS) {
		calls[ncalls].fd = fd;
		calls[ncalls].r = *r;
		memcpy(calls[ncalls].payload, (const void *)(uintptr_t)r->payload,
		       r->len);
	}
	ncalls++;
	return ret < 0 ? ret : (int)r->len;
}

static void reset_calls(int a0, int a1)
{
	ncalls = 0;
	memset(answers, 0, sizeof(answers));
	answers[0] = a0;
	answers[1] = a1;
}

static void test_store_tied_and_writers_retries(void)
{
	struct nslog_sl_store st = { .relay = fake_relay, .own_fd = 3 };
	struct ucred cred = { .pid = 4242, .uid = 100033, .gid = 1 };
	struct nslog_sl_put p = { .cred = &cred, .tid = 17,
				  .time_ns = 1700000000123456789LL,
				  .payload = "\4t\0m\0", .len = 6 };
	int err;

	reset_calls(0, 0);
	CHECK(nslog_sl_store_put(&st, NSLOG_SL_TIED, 9, &p, &err) == NSLOG_SL_STORED);
	CHECK(ncalls == 1 && calls[0].fd == 9 &&
	      calls[0].r.flags == NSLOG_RELAY_KEEP_EXITED);
	CHECK(calls[0].r.pid == 4242 && calls[0].r.uid == 100033 &&
	      calls[0].r.tid == 17 && calls[0].r.log_id == 0 &&
	      calls[0].r.time_ns == 1700000000123456789LL &&
	      calls[0].r.len == 6 && !memcmp(calls[0].payload, "\4t\0m\0", 6));

	/* a tied socket's sender of another IPC namespace: its own set */
	reset_calls(-EPERM, 0);
	CHECK(nslog_sl_store_put(&st, NSLOG_SL_TIED, 9, &p, &err) == NSLOG_SL_ELSEWHERE);
	CHECK(ncalls == 2 && calls[1].fd == 9 &&
	      calls[1].r.flags == NSLOG_RELAY_WRITER_SET);
	reset_calls(-EPERM, -EPERM);
	CHECK(nslog_sl_store_put(&st, NSLOG_SL_TIED, 9, &p, &err) == NSLOG_SL_FAILED &&
	      err == EPERM);

	/* shared: the writer's set; gone: the listener's own, unverified */
	reset_calls(0, 0);
	CHECK(nslog_sl_store_put(&st, NSLOG_SL_WRITERS, -1, &p, &err) == NSLOG_SL_STORED);
	CHECK(ncalls == 1 && calls[0].fd == 3 &&
	      calls[0].r.flags == (NSLOG_RELAY_WRITER_SET | NSLOG_RELAY_KEEP_EXITED));
	reset_calls(-ESRCH, 0);
	CHECK(nslog_sl_store_put(&st, NSLOG_SL_WRITERS, -1, &p, &err) ==
	      NSLOG_SL_UNATTRIBUTED);
	CHECK(ncalls == 2 && calls[1].fd == 3 &&
	      calls[1].r.flags == NSLOG_RELAY_KEEP_EXITED);

	/* a rate limit, an error, no credentials */
	reset_calls(-EAGAIN, 0);
	CHECK(nslog_sl_store_put(&st, NSLOG_SL_TIED, 9, &p, &err) == NSLOG_SL_DROPPED);
	reset_calls(-EOVERFLOW, 0);
	CHECK(nslog_sl_store_put(&st, NSLOG_SL_TIED, 9, &p, &err) == NSLOG_SL_FAILED &&
	      err == EOVERFLOW && ncalls == 1);
	p.cred = NULL;
	reset_calls(0, 0);
	CHECK(nslog_sl_store_put(&st, NSLOG_SL_TIED, 9, &p, &err) == NSLOG_SL_FAILED &&
	      ncalls == 0);
	CHECK(!strcmp(nslog_sl_result_name(NSLOG_SL_UNATTRIBUTED), "unattributed"));
	CHECK(!strcmp(nslog_sl_result_name(NSLOG_SL_RESULTS), "?"));
}

/* --- control --- */

struct cmd_case {
	const char *line;
	int ret;
	enum nslog_sl_op op;
	const char *name;
	int type;
	enum nslog_sl_target target;
	int pid;
	uint64_t ns_id;
};

static const struct cmd_case cmd_cases[] = {
	{ "list", 0, NSLOG_SL_LIST, "", SOCK_DGRAM, NSLOG_SL_NO_SET, 0, 0 },
	{ "add web", 0, NSLOG_SL_ADD, "web", SOCK_DGRAM, NSLOG_SL_NO_SET, 0, 0 },
	{ "add web-1.a_b stream 1234\n", 0, NSLOG_SL_ADD, "web-1.a_b",
	  SOCK_STREAM, NSLOG_SL_BY_PID, 1234, 0 },
	{ "add db dgram ipc:4026532290", 0, NSLOG_SL_ADD, "db", SOCK_DGRAM,
	  NSLOG_SL_BY_ID, 0, 4026532290ULL },
	{ "attach db 99", 0, NSLOG_SL_ATTACH, "db", SOCK_DGRAM,
	  NSLOG_SL_BY_PID, 99, 0 },
	{ "remove db", 0, NSLOG_SL_REMOVE, "db", SOCK_DGRAM, NSLOG_SL_NO_SET, 0, 0 },
	{ "", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "list x", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "frob x", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "add", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "add .hidden", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "add a/b", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "add x 0", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "add x 012", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "add x ipc:", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "add x 2147483648", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "add x 1 2", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "attach x", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "attach x stream 1", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "remove x 1", -EINVAL, 0, "", 0, 0, 0, 0 },
	{ "add aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	  -EINVAL, 0, "", 0, 0, 0, 0 },
};

static void test_control_commands_parse(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmd_cases); i++) {
		const struct cmd_case *k = &cmd_cases[i];
		struct nslog_sl_cmd c;
		const char *why = NULL;
		int ret = nslog_sl_cmd_parse(&c, k->line, &why);

		if (ret != k->ret || (!ret && (c.op != k->op ||
		    strcmp(c.name, k->name) || c.type != k->type ||
		    c.target != k->target || c.pid != k->pid ||
		    c.ns_id != k->ns_id))) {
			printf("#   case %zu '%s': %d (%s)\n", i, k->line, ret,
			       why ? why : "");
			tap_failed_now = 1;
		}
	}
}

/* The set a command names: fd 100 + pid, or 200 for an id. */
static int fake_open_set(int own_fd, const struct nslog_sl_cmd *c,
			 uint64_t *ns_id)
{
	(void)own_fd;
	if (c->target == NSLOG_SL_BY_PID && c->pid == 666)
		return -ESRCH;
	*ns_id = c->target == NSLOG_SL_BY_ID ? c->ns_id : 4026530000ULL + c->pid;
	return dup(2);
}

static struct nslog_sl_listener lis;
static struct nslog_sl_control ctl;

static int64_t fixed_now(void) { return 1800000000000000000LL; }

static void listener_setup(const char *dir)
{
	nslog_sl_listener_init(&lis, epoll_create1(EPOLL_CLOEXEC), fake_relay,
			       3);
	lis.now_ns = fixed_now;
	memset(&ctl, 0, sizeof(ctl));
	ctl.dir = dir;
	ctl.l = &lis;
	ctl.open_set = fake_open_set;
}

static void listener_down(void)
{
	while (lis.nsrc)
		nslog_sl_source_remove(&lis, lis.src[0], true);
	close(lis.epfd);
}

static bool reply_is(const char *line, const char *prefix)
{
	static char reply[NSLOG_SL_REPLY_MAX];

	nslog_sl_control_run(&ctl, line, reply, sizeof(reply));
	if (!strncmp(reply, prefix, strlen(prefix)))
		return true;
	printf("#   '%s': '%s', want '%s...'\n", line, reply, prefix);
	return false;
}

static void test_control_add_attach_list_remove(void)
{
	char dir[64], path[128], want[160];
	struct stat st;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "syslogd_test"));
	listener_setup(dir);
	snprintf(path, sizeof(path), "%s/web/log", dir);
	snprintf(want, sizeof(want), "ok %s ipc:4026530042", path);
	CHECK(reply_is("add web 42", want));
	CHECK(!stat(path, &st) && S_ISSOCK(st.st_mode) &&
	      (st.st_mode & 0777) == 0666);
	snprintf(path, sizeof(path), "%s/web", dir);
	CHECK(!stat(path, &st) && (st.st_mode & 0777) == 0700);
	CHECK(lis.nsrc == 1 && lis.src[0]->how == NSLOG_SL_TIED &&
	      lis.src[0]->owns_fd && lis.src[0]->set_fd >= 0);
	CHECK(reply_is("add web 43", "error NAME is taken"));
	CHECK(reply_is("add gone 666", "error cannot open the set: No such process"));
	CHECK(reply_is("add early stream", "ok "));
	CHECK(lis.nsrc == 2 && lis.src[1]->how == NSLOG_SL_WRITERS &&
	      lis.src[1]->type == SOCK_STREAM);
	CHECK(reply_is("attach early ipc:77", "ok "));
	CHECK(lis.src[1]->how == NSLOG_SL_TIED && lis.src[1]->ns_id == 77);
	CHECK(reply_is("attach nobody 1", "error no such NAME"));
	CHECK(reply_is("list", "ok 2\nweb "));
	CHECK(reply_is("remove web", "ok"));
	CHECK(stat(path, &st) && errno == ENOENT);
	CHECK(reply_is("remove web", "error no such NAME"));
	CHECK(reply_is("bogus", "error unknown command"));
	listener_down();
	tmpdir_remove(dir);
}

/* --- sockets --- */

static void serve(void)
{
	struct epoll_event evs[64];
	int n, i;

	while ((n = epoll_wait(lis.epfd, evs, 64, 50)) > 0)
		for (i = 0; i < n; i++) {
			enum nslog_sl_kind *k = evs[i].data.ptr;

			if (*k == NSLOG_SL_EV_SOURCE)
				nslog_sl_source_ready(&lis, evs[i].data.ptr);
			else
				nslog_sl_conn_ready(&lis, evs[i].data.ptr,
						    evs[i].events);
		}
}

static int connect_to(const char *path, int type)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_socket_datagrams_with_credentials(void)
{
	static char big[NSLOG_SL_MSG_MAX + 100];
	char dir[64], path[128];
	int fd, fds[2];
	struct nslog_sl_source *s;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} cm;
	struct iovec iov = { .iov_base = "<14>fd: passed", .iov_len = 14 };
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cm.buf,
			    .msg_controllen = sizeof(cm.buf) };
	struct cmsghdr *c;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "syslogd_test"));
	listener_setup(dir);
	snprintf(path, sizeof(path), "%s/log", dir);
	REQUIRE(!nslog_sl_source_add(&lis, "", path, SOCK_DGRAM,
				     NSLOG_SL_TIED, 9, false, 5, &s));
	fd = connect_to(path, SOCK_DGRAM);
	REQUIRE(fd >= 0);
	reset_calls(0, 0);
	CHECK(send(fd, S("<155>Dec  7 02:43:02 mtag[7930]: MUSL 0\n"), 0) > 0);
	CHECK(send(fd, "", 0, 0) == 0);		/* empty: no message */
	memset(big, 'x', sizeof(big));
	memcpy(big, "<14>big: ", 9);
	CHECK(send(fd, big, sizeof(big), 0) == (ssize_t)sizeof(big));
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
	c = CMSG_FIRSTHDR(&h);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fds[0], sizeof(int));
	CHECK(sendmsg(fd, &h, 0) == 14);
	serve();
	CHECK(ncalls == 3);
	CHECK(calls[0].fd == 9 && calls[0].r.pid == getpid() &&
	      calls[0].r.uid == getuid() && calls[0].r.tid == 7930 &&
	      calls[0].r.time_ns == fixed_now() &&
	      calls[0].r.flags == NSLOG_RELAY_KEEP_EXITED);
	CHECK(calls[0].r.len == 1 + 5 + 7 + 5 &&
	      !memcmp(calls[0].payload, "\6mtag\0MUSL 0\0<155>", calls[0].r.len));
	CHECK(calls[1].r.len == LOGGER_ENTRY_MAX_PAYLOAD);
	CHECK(s->n.received == 3 && s->n.cut == 1 &&
	      s->n.result[NSLOG_SL_STORED] == 3 && s->n.fds_closed == 1);
	close(fds[0]);
	close(fds[1]);
	close(fd);
	listener_down();
	tmpdir_remove(dir);
}

static void test_socket_stream_frames_and_end(void)
{
	static const char two[] = "<155>Dec  7 02:43:07 stag[7995]: STREAM 0";
	char dir[64], path[128];
	struct nslog_sl_source *s;
	int fd;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "syslogd_test"));
	listener_setup(dir);
	snprintf(path, sizeof(path), "%s/log", dir);
	REQUIRE(!nslog_sl_source_add(&lis, "", path, SOCK_STREAM,
				     NSLOG_SL_WRITERS, -1, false, 0, &s));
	fd = connect_to(path, SOCK_STREAM);
	REQUIRE(fd >= 0);
	reset_calls(0, 0);
	CHECK(send(fd, two, sizeof(two), 0) == sizeof(two));	/* its NUL */
	CHECK(send(fd, S("<13>slog: ul stream\n<13>sbb: unfinished"), 0) > 0);
	serve();
	CHECK(ncalls == 2 && lis.conns == 1 && s->conns == 1);
	close(fd);
	serve();
	CHECK(ncalls == 3 && lis.conns == 0 && s->conns == 0);
	CHECK(calls[0].fd == 3 && calls[0].r.pid == getpid() &&
	      calls[0].r.flags == (NSLOG_RELAY_WRITER_SET | NSLOG_RELAY_KEEP_EXITED));
	CHECK(!memcmp(calls[1].payload, "\4slog\0ul stream\0<13>", 20));
	CHECK(!memcmp(calls[2].payload, "\4sbb\0unfinished\0<13>", 20));
	listener_down();
	tmpdir_remove(dir);
}

static void test_socket_connection_limits(void)
{
	static int fds[NSLOG_SL_SOURCE_CONNS_MAX + 20];
	char dir[64], path[128];
	struct nslog_sl_source *s;
	unsigned int i, open_ok = 0;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "syslogd_test"));
	listener_setup(dir);
	snprintf(path, sizeof(path), "%s/log", dir);
	REQUIRE(!nslog_sl_source_add(&lis, "c", path, SOCK_STREAM,
				     NSLOG_SL_WRITERS, -1, false, 0, &s));
	for (i = 0; i < ARRAY_SIZE(fds); i++) {
		fds[i] = connect_to(path, SOCK_STREAM);
		serve();
	}
	CHECK(s->conns == NSLOG_SL_SOURCE_CONNS_MAX);
	CHECK(s->n.conns_refused == ARRAY_SIZE(fds) - NSLOG_SL_SOURCE_CONNS_MAX);
	/* the refused were closed: writing to them fails or reads EOF */
	for (i = 0; i < ARRAY_SIZE(fds); i++) {
		char c;

		if (fds[i] >= 0 && recv(fds[i], &c, 1, MSG_DONTWAIT) < 0 &&
		    errno == EAGAIN)
			open_ok++;
	}
	CHECK(open_ok == NSLOG_SL_SOURCE_CONNS_MAX);
	/* the listener's limit in all, below one socket's */
	lis.conns_max = NSLOG_SL_SOURCE_CONNS_MAX - 6;
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	serve();
	CHECK(s->conns == 0 && lis.conns == 0);
	for (i = 0; i < NSLOG_SL_SOURCE_CONNS_MAX; i++) {
		fds[i] = connect_to(path, SOCK_STREAM);
		serve();
	}
	CHECK(lis.conns == NSLOG_SL_SOURCE_CONNS_MAX - 6);
	for (i = 0; i < NSLOG_SL_SOURCE_CONNS_MAX; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	listener_down();
	tmpdir_remove(dir);
}

static void test_socket_replaces_stale_socket_only(void)
{
	char dir[64], path[128];
	int fd;

	REQUIRE(tmpdir_make(dir, sizeof(dir), "syslogd_test"));
	listener_setup(dir);
	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	close(fd);
	CHECK(nslog_sl_source_add(&lis, "", path, SOCK_DGRAM, NSLOG_SL_WRITERS,
				  -1, false, 0, NULL) == -EEXIST);
	snprintf(path, sizeof(path), "%s/sock", dir);
	CHECK(!nslog_sl_source_add(&lis, "", path, SOCK_DGRAM, NSLOG_SL_WRITERS,
				   -1, false, 0, NULL));
	nslog_sl_source_remove(&lis, lis.src[0], false);
	CHECK(!nslog_sl_source_add(&lis, "", path, SOCK_DGRAM, NSLOG_SL_WRITERS,
				   -1, false, 0, NULL));
	listener_down();
	tmpdir_remove(dir);
}

/* --- the program --- */

static bool wait_for(const char *path)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (!access(path, F_OK))
			return true;
		usleep(10000);
	}
	return false;
}

static int run_ctl(const char *exe, const char *dir, const char *a,
		   const char *b, char *out, size_t size)
{
	char cmd[512];
	FILE *f;
	size_t n;

	snprintf(cmd, sizeof(cmd), "'%s' ctl --dir '%s' %s %s 2>&1", exe, dir,
		 a, b);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	return pclose(f);
}

static void test_program_serves_control_and_stops(void)
{
	const char *bin = getenv("NSLOG_BIN");
	char exe[256], dir[64], ddir[96], cdir[96], path[160], errf[128];
	char out[4096];
	int keep, status, fd;
	pid_t pid;
	FILE *f;
	size_t n;

	if (!bin)
		SKIP("$NSLOG_BIN not set");
	snprintf(exe, sizeof(exe), "%s/nslog-syslogd", bin);
	REQUIRE(!access(exe, X_OK));
	REQUIRE(tmpdir_make(dir, sizeof(dir), "syslogd_test"));
	snprintf(ddir, sizeof(ddir), "%s/dev", dir);
	snprintf(cdir, sizeof(cdir), "%s/run/nslogger/syslog", dir);
	REQUIRE(!mkdir(ddir, 0755));
	keep = fakedev_fifo(ddir, "main");
	REQUIRE(keep >= 0);
	snprintf(errf, sizeof(errf), "%s/stderr", dir);
	snprintf(path, sizeof(path), "%s/shared", dir);

	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		execl(exe, "nslog-syslogd", "--dir", cdir, "--dev-dir", ddir,
		      "--socket", path, (char *)NULL);
		_exit(127);
	}
	snprintf(out, sizeof(out), "%s/control", cdir);
	CHECK(wait_for(out));
	CHECK(run_ctl(exe, cdir, "add", "box", out, sizeof(out)) == 0);
	CHECK(strstr(out, "/box/log writers") != NULL);
	CHECK(run_ctl(exe, cdir, "list", "", out, sizeof(out)) == 0);
	CHECK(strstr(out, "ok 2\n") == out && strstr(out, "\nbox "));
	CHECK(run_ctl(exe, cdir, "add", "../x", out, sizeof(out)) != 0);
	CHECK(strstr(out, "error bad or missing NAME") != NULL);
	/* a message through a FIFO, which has no relay ioctl: failed */
	fd = connect_to(path, SOCK_DGRAM);
	CHECK(fd >= 0 && send(fd, S("<13>t: x"), 0) == 8);
	close(fd);
	usleep(100000);
	kill(pid, SIGTERM);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(access(path, F_OK) && errno == ENOENT);
	f = fopen(errf, "r");
	REQUIRE(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	CHECK(strstr(out, "a record failed: Inappropriate ioctl") != NULL);
	CHECK(strstr(out, "counts: - ") && strstr(out, " failed=1 "));
	if (tap_failed_now)
		printf("#   stderr: %s\n", out);
	close(keep);
	tmpdir_remove(dir);
}

static const struct tap_case cases[] = {
	{ "parse: what each sender writes, and malformed PRIs",
	  test_parse_senders_and_malformed_pri },
	{ "parse: a NUL ends a tag, not a text", test_parse_nul_ends_a_tag_not_a_text },
	{ "frame: NUL, newline and octet counts", test_frame_each_senders_terminator },
	{ "frame: a counted message holds terminators",
	  test_frame_count_holds_terminators },
	{ "frame: a count that is not one is a line", test_frame_bad_count_is_a_line },
	{ "frame: a long message cut, its rest dropped",
	  test_frame_long_message_cut_rest_dropped },
	{ "frame: an unfinished message delivered at the end",
	  test_frame_unfinished_delivered_at_end },
	{ "record: the severity table and the kept PRI",
	  test_record_severity_table_and_kept_pri },
	{ "record: a NUL becomes a space", test_record_nul_becomes_space },
	{ "record: cut before a UTF-8 sequence", test_record_cut_before_utf8_sequence },
	{ "syslogpri: the trailer's forms", test_syslogpri_trailer_forms },
	{ "store: tied and writers' sockets, their retries",
	  test_store_tied_and_writers_retries },
	{ "control: commands parse", test_control_commands_parse },
	{ "control: add, attach, list, remove", test_control_add_attach_list_remove },
	{ "sockets: datagrams with credentials, cut, fds closed",
	  test_socket_datagrams_with_credentials },
	{ "sockets: a stream connection's frames and its end",
	  test_socket_stream_frames_and_end },
	{ "sockets: connection limits", test_socket_connection_limits },
	{ "sockets: a stale socket replaced, nothing else",
	  test_socket_replaces_stale_socket_only },
	{ "nslog-syslogd: serves control, stops on SIGTERM",
	  test_program_serves_control_and_stops },
};

int main(int argc, char **argv)
{
	return tap_run(cases, ARRAY_SIZE(cases), argc, argv);
}
