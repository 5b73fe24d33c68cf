// SPDX-License-Identifier: GPL-2.0
/*
 * json_emit: records made to be hard to encode, as the collector's JSON
 * lines (default) or RFC 5424 messages (--rfc5424), one a line, for
 * json_test.sh to check with jq and a regular expression.
 *
 * Record N (from 0) has seq N; its message is described on stderr
 * ("N DESCRIPTION") so that a failure names it.  After them comes a
 * record of lost records, then a relayed record whose writer was gone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonrec.h"
#include "collector/rfc5424.h"

struct sample {
	const char *what;
	const char *msg;
	size_t len;
	const char *tag;
};

static const struct sample samples[] = {
	{ "plain", "hello", 5, "T" },
	{ "quotes and backslashes", "\"q\" \\ \\\\", 8, "a\"b\\c" },
	{ "every control character", "\x01\x02\x03\x04\x05\x06\x07\x08\t\n"
	  "\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a"
	  "\x1b\x1c\x1d\x1e\x1f\x7f", 32, "ctl\x01" },
	{ "invalid UTF-8", "\xff\xfe\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82",
	  13, "\xff" },
	{ "valid UTF-8", "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe2\x80\xa8",
	  18, "\xe6\x97\xa5\xe6\x9c\xac" },
	{ "a NUL inside (events strings may have one)", "a\0b", 3, "" },
	{ "brackets and equals", "[x=\"y\"] ]", 9, "]" },
	{ NULL, NULL, 0, NULL },	/* long: filled in */
};

static struct nslog_ident ident = {
	.runtime = "lxc",
	.name = "we\"b]\\1",
	.cgroup = "/lxc.payload.we\"b]\\1",
};

int main(int argc, char **argv)
{
	static char longmsg[4076];
	bool rfc = argc > 1 && !strcmp(argv[1], "--rfc5424");
	struct nslog_meta m = {
		.log = "main",
		.host = "host-1",
		.boot_id = "4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d",
		.has_set = true,
		.set_id = 18446744073709551615ULL,
		.has_ns = true,
		.ns_id = 4026532301ULL,
		.ident = &ident,
	};
	struct nslog_loss loss = { .known = true, .count = 5, .first_seq = 2,
				   .sec = 1700000000 };
	struct nslog_sbuf b = { 0 };
	struct nslog_decoded t;
	struct nslog_rec r;
	size_t i;

	memset(longmsg, 'x', sizeof(longmsg));
	longmsg[100] = '\n';
	setenv("TZ", "XYZ-5:45", 1);
	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		const struct sample *s = &samples[i];

		memset(&r, 0, sizeof(r));
		memset(&t, 0, sizeof(t));
		r.pid = (__s32)(100 + i);
		r.tid = r.pid;
		r.sec = 1700000000 + (__s64)i;
		r.nsec = 999999999;
		r.has_seq = true;
		r.seq = i;
		r.order = i * 2;
		r.has_euid = true;
		r.euid = 65534;
		t.prio = (int)(2 + i % 6);
		t.tag = s->tag ? s->tag : "long";
		t.tag_len = (int)strlen(t.tag);
		t.msg = s->msg ? s->msg : longmsg;
		t.msg_len = s->msg ? s->len : sizeof(longmsg);
		fprintf(stderr, "%zu %s\n", i, s->what ? s->what : "4076 bytes");
		if (rfc) {
			nslog_rfc5424_record(&b, 1, &r, &t, &m, false);
			puts(b.p);
		} else {
			nslog_json_record(stdout, &r, &t, &m, false);
		}
	}
	m.utc = true;
	if (rfc) {
		nslog_rfc5424_loss(&b, 1, &m, &loss);
		puts(b.p);
	} else {
		nslog_json_loss(stdout, &m, &loss);
	}

	/* relayed by 4242, stored a second after its claimed time */
	r.seq = i;
	r.flags = NSLOG_ENTRY_RELAYED | NSLOG_ENTRY_UNVERIFIED;
	r.has_relay = true;
	r.relay_pid = 4242;
	r.sec = 1700000000;
	r.nsec = 1000;
	r.stored_sec = 1700000001;
	r.stored_nsec = 1000;
	t.msg = "relayed";
	t.msg_len = 7;
	fprintf(stderr, "%zu relayed, unverified\n", i);
	if (rfc) {
		nslog_rfc5424_record(&b, 1, &r, &t, &m, false);
		puts(b.p);
	} else {
		nslog_json_record(stdout, &r, &t, &m, false);
	}
	nslog_sbuf_free(&b);
	return ferror(stdout) ? 1 : 0;
}
