// SPDX-License-Identifier: GPL-2.0
/*
 * nslogcat_fuzz: records as liblog's reader hands them to nslogcat
 * (struct log_msg: Android's version 4 header or nslogger's), printed by
 * nslogcat's nslog_print() with the options the input chooses: layout
 * and modifiers, -B, the dividers and -D, a filterspec, -e, --uid and
 * an event tag map.  The payload is what a container wrote.
 *
 * Input: [layout][modifiers][options] then records, each a 16-bit
 * length and that many bytes.
 *
 * Checked: nslog_print() refuses (-EBADMSG) exactly the records that do
 * not parse, and otherwise prints (1) or filters (0); in -v json every
 * line is one JSON object in UTF-8; in the other layouts a record
 * printed ends its output with a newline.
 */
#include <errno.h>
#include <regex.h>

#include "fuzz.h"
#include "fzcheck.h"
#include "nslogcat/logprint.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char tag_file[] =
	"# event tags for the harness\n"
	"42 answer (value|1)\n"
	"1004 am_proc_start (User|1|5),(PID|1|5)\n"
	"2718 e\n"
	"0 zero\n";

static struct nslog_filter filter;
static regex_t regex;
static EventTagMap *tags;
static const unsigned long uids[] = { 0, 1000, 10042 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TZ", "UTC", 1);
	nslog_filter_init(&filter);
	if (nslog_filter_parse(&filter, "ActivityManager:I answer:S x:W *:D") ||
	    regcomp(&regex, "a.*b|^$", REG_EXTENDED | REG_NOSUB))
		abort();
	tags = android_openEventTagMap(fz_file(tag_file, sizeof(tag_file) - 1));
	if (!tags)
		abort();
	return 0;
}

/* Every line of @m's text is one JSON object. */
static void check_json_lines(const struct fz_mem *m)
{
	const char *p = m->text, *end = p + m->len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		FZ_CHECK(nl);
		FZ_CHECK(fz_json_object(p, (size_t)(nl - p)));
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	uint8_t layout = fz_u8(&f), mods = fz_u8(&f), opts = fz_u8(&f);
	struct nslog_meta meta = { .host = "fuzzhost", .has_ns = true,
				   .ns_id = 4026532301ULL };
	struct nslog_printer p = {
		.fmt = {
			.layout = (enum nslog_format)(layout % 9),
			.year = mods & 1, .zone = mods & 2, .utc = mods & 4,
			.epoch = mods & 8, .usec = mods & 16,
			.nsec = mods & 32, .uid = mods & 64,
			.relay = mods & 128,
		},
		.binary = (opts & 3) == 3,
		.headers = opts & 4,
		.dividers = opts & 8,
		.filter = opts & 16 ? &filter : NULL,
		.regex = opts & 32 ? &regex : NULL,
		.uids = opts & 64 ? uids : NULL,
		.uid_count = 3,
		.tags = opts & 128 ? tags : NULL,
		.meta = opts & 1 ? &meta : NULL,
	};
	struct nslog_print_state st;
	struct nslog_rec rec;
	struct fz_mem out;
	const uint8_t *piece;
	size_t n, before, pad;
	uint8_t *buf;
	int ret;

	nslog_print_state_init(&st);
	p.out = fz_mem_open(&out);
	while (f.n) {
		piece = fz_piece(&f, 8192, &n);
		/*
		 * A buffer of the record's size: ASan sees a read past it.
		 * With -e, one NUL more: ASan's regexec() reads up to a NUL
		 * even with REG_STARTEND, as glibc's does not (nslogcat's
		 * buffer, a struct log_msg, is larger than its records).
		 */
		pad = p.regex ? 1 : 0;
		buf = malloc(n + pad ? n + pad : 1);
		if (!buf)
			break;
		memcpy(buf, piece, n);
		if (pad)
			buf[n] = '\0';
		fz_mem_flush(&out);
		before = out.len;
		ret = nslog_print(&p, &st, buf, n);
		fz_mem_flush(&out);
		if (p.binary)
			FZ_CHECK(ret == 1 && out.len == before + n);
		else if (nslog_rec_parse(&rec, buf, n))
			FZ_CHECK(ret == -EBADMSG && out.len == before);
		else
			FZ_CHECK(ret == 0 || ret == 1);
		if (!p.binary && ret == 1)
			FZ_CHECK(out.len > before && out.text[out.len - 1] == '\n');
		free(buf);
	}
	fz_mem_flush(&out);
	if (p.fmt.layout == NSLOG_FMT_JSON && !p.binary)
		check_json_lines(&out);
	fz_mem_close(&out);
	return 0;
}
