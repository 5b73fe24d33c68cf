// SPDX-License-Identifier: GPL-2.0
/*
 * logformat_fuzz: one record as read() returns it, decoded by lib/'s
 * logformat (nslog_rec_parse(), nslog_entry_from_text() or
 * nslog_entry_from_event()) and printed in a layout (nslog_format_line())
 * or as a JSON line (nslog_json_record()): what nslogcat, the collector
 * and nslog share.  A container writes the payload; the header is the
 * kernel's, fuzzed too.
 *
 * Input: [layout][modifiers][record...].  Layout's low bit chooses text
 * or events decoding, the rest one of the nine layouts; each bit of
 * modifiers one of logcat's modifiers.
 *
 * Checked: the header is accepted exactly when its sizes agree with the
 * count (a check written here, not the parser's); the decoded tag and
 * message lie within the payload (text) or the decoded text (events);
 * every line printed starts with the record's prefix, that is, a
 * record prints as many lines as its message has; a JSON line is one
 * valid JSON object in UTF-8.
 */
#include <errno.h>

#include "fuzz.h"
#include "fzcheck.h"
#include "jsonrec.h"
#include "logformat.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

static struct nslog_decoded dec;
static struct nslog_filter filter;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TZ", "UTC", 1);
	nslog_filter_init(&filter);
	if (nslog_filter_parse(&filter, "Tag:W x:S *:I"))
		abort();
	return 0;
}

/* The header is whole and its sizes are the count's: parse must accept. */
static bool sizes_agree(const uint8_t *p, size_t n)
{
	uint16_t len, pad;

	if (n < 20)
		return false;
	memcpy(&len, p, 2);
	memcpy(&pad, p + 2, 2);
	if (pad && pad < 24)
		return false;
	return (size_t)(pad ? pad : 20) + len == n;
}

static bool within(const void *x, size_t xn, const void *p, size_t n)
{
	const char *a = x, *b = p;

	return a >= b && a <= b + n && xn <= (size_t)(b + n - a);
}

static void check_text(const struct nslog_rec *rec)
{
	const char *pl = (const char *)rec->payload;

	nslog_entry_from_text(&dec, rec);
	if (!rec->len) {
		FZ_CHECK(dec.prio == NSLOG_PRIO_UNKNOWN && !dec.tag_len &&
			 !dec.msg_len);
		return;
	}
	FZ_CHECK(dec.prio == (unsigned char)pl[0]);
	FZ_CHECK(dec.tag == pl + 1 && dec.tag_len >= 0);
	FZ_CHECK(within(dec.tag, (size_t)dec.tag_len, pl, rec->len));
	FZ_CHECK(!memchr(dec.tag, '\0', (size_t)dec.tag_len));
	if (dec.msg_len)
		FZ_CHECK(within(dec.msg, dec.msg_len, pl, rec->len));
	FZ_CHECK(!memchr(dec.msg, '\0', dec.msg_len));
}

/* false: no tag, nothing to print (the callers skip the record) */
static bool check_event(const struct nslog_rec *rec)
{
	int ret = nslog_entry_from_event(&dec, rec);

	FZ_CHECK(!ret == (rec->len >= 4));
	if (ret)
		return false;
	FZ_CHECK(dec.msg == dec.text && dec.msg_len < sizeof(dec.text));
	FZ_CHECK(dec.text[dec.msg_len] == '\0');
	FZ_CHECK(dec.tag == dec.tag_buf &&
		 (size_t)dec.tag_len == strlen(dec.tag_buf));
	return true;
}

static void check_json(const struct nslog_rec *rec, bool events, bool utc)
{
	struct nslog_meta m = { .log = events ? "events" : "main",
				.host = "h", .utc = utc };
	struct fz_mem out;

	fz_mem_open(&out);
	FZ_CHECK(!nslog_json_record(out.f, rec, &dec, &m, events));
	fz_mem_flush(&out);
	FZ_CHECK(out.len && out.text[out.len - 1] == '\n');
	FZ_CHECK(fz_count(out.text, out.len, '\n') == 1);
	FZ_CHECK(fz_json_object(out.text, out.len - 1));
	fz_mem_close(&out);
}

/* Lines printed: one per line of the message, three more in long. */
static void check_layout(const struct nslog_rec *rec,
			 const struct nslog_fmt *fmt)
{
	size_t len = dec.msg_len, lines;
	struct fz_mem out;

	if (len && dec.msg[len - 1] == '\n')
		len--;
	lines = fz_count(dec.msg, len, '\n');
	lines += fmt->layout == NSLOG_FMT_LONG ? 3 : 1;
	fz_mem_open(&out);
	FZ_CHECK(!nslog_format_line(out.f, fmt, rec, &dec));
	fz_mem_flush(&out);
	FZ_CHECK(fz_count(out.text, out.len, '\n') == lines);
	fz_mem_close(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	uint8_t how = fz_u8(&f), mods = fz_u8(&f);
	struct nslog_fmt fmt = {
		.layout = (enum nslog_format)((how >> 1) % 9),
		.year = mods & 1, .zone = mods & 2, .utc = mods & 4,
		.epoch = mods & 8, .usec = mods & 16, .nsec = mods & 32,
		.uid = mods & 64, .relay = mods & 128,
	};
	bool events = how & 1;
	struct nslog_rec rec;
	uint8_t *buf;
	int ret;

	/* a buffer of the record's size: ASan sees a read past it */
	buf = malloc(f.n ? f.n : 1);
	if (!buf)
		return 0;
	memcpy(buf, f.p, f.n);
	ret = nslog_rec_parse(&rec, buf, f.n);
	FZ_CHECK(!ret == sizes_agree(buf, f.n));
	if (ret) {
		FZ_CHECK(ret == -EBADMSG);
		goto out;
	}
	FZ_CHECK(rec.payload == buf + rec.hdr_size &&
		 rec.len == f.n - rec.hdr_size);
	FZ_CHECK(rec.has_seq == (rec.hdr_size >= NSLOG_HDR_NS_SIZE));
	FZ_CHECK(rec.has_relay == (rec.hdr_size >= NSLOG_HDR_NS2_SIZE));
	FZ_CHECK(rec.nsec >= 0 || !rec.has_seq);

	if (!events)
		check_text(&rec);
	else if (!check_event(&rec))
		goto out;
	nslog_filter_pass(&filter, dec.tag, dec.tag_len, dec.prio);
	if (fmt.layout == NSLOG_FMT_JSON)
		check_json(&rec, events, fmt.utc);
	else
		check_layout(&rec, &fmt);
out:
	free(buf);
	return 0;
}
