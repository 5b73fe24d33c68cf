// SPDX-License-Identifier: GPL-2.0
/*
 * collector_rec_fuzz: the collector following one log set (logset.c)
 * whose records the input makes, shipped to one of its outputs
 * (output.c: journal fields, JSON lines, RFC 5424, a logcat layout),
 * labelled with the container that /proc/PID/cgroup text names
 * (cgparse.c): everything a hostile container controls (its payloads,
 * its cgroups' names) and the headers the kernel would add.  The kernel
 * is played through struct nslog_kops, as tests/tools/logset_test.c
 * does: four fixed logs and two streams, "audit" (text) and "stats"
 * (binary, as nslogd's).
 *
 * Input: [output][utc, pump budget][16-bit length, cgroup text] then
 * records, each [which log][kind][16-bit length][bytes]: kind's low bit
 * says whether the bytes are a whole record as read() gives it, or a
 * payload to which the harness puts nslogger's header (seq from the
 * kind's other bits, so records can be lost or repeated).
 *
 * Checked: every journal field is KEY=VALUE with a key journald takes
 * (A-Z, 0-9, '_', not first, at most 64); every JSON line is one JSON
 * object in UTF-8; every RFC 5424 message is one line of printable
 * UTF-8 with its PRI, version, and an APP-NAME of at most 48 printable
 * ASCII characters.
 */
#include <errno.h>

#include "collector/logset.h"
#include "fuzz.h"
#include "fzcheck.h"

#define SET_ID	6414010659057826751ULL
#define NS_ID	4026532301ULL
#define NLOGS	(NSLOG_KLOG_COUNT + 2)
#define AUDIT	NSLOG_KLOG_COUNT
#define STATS	(NSLOG_KLOG_COUNT + 1)
#define MAXREC	64

static const char *const stream_names[NLOGS] = {
	[AUDIT] = "audit", [STATS] = "stats",
};

struct fake_rec {
	const uint8_t *p;
	size_t n;
	bool whole;	/* else a payload, given a header here */
	uint8_t kind;
};

static struct {
	struct fake_rec rec[NLOGS][MAXREC];
	unsigned int count[NLOGS], pos[NLOGS];
	__u64 seq[NLOGS], order;
	bool reaped;	/* read() at the end gives end of file */
} K;

static __u32 fake_log_id(unsigned int k)
{
	return k < NSLOG_KLOG_COUNT ? nslog_klog_android_id(k) :
	       NSLOG_STREAM_LOG_ID_MIN + k - NSLOG_KLOG_COUNT;
}

static int f_open(void *ctx, unsigned int klog, __u64 ns_id)
{
	(void)ctx;
	return ns_id == NS_ID ? (int)klog + 10 : -ENOENT;
}

static int f_open_stream(void *ctx, const char *name, __u64 ns_id)
{
	unsigned int k;

	(void)ctx;
	for (k = NSLOG_KLOG_COUNT; k < NLOGS; k++)
		if (!strcmp(name, stream_names[k]) && ns_id == NS_ID)
			return (int)k + 10;
	return -ENOENT;
}

static int f_info(void *ctx, int fd, struct nslog_info *info)
{
	unsigned int k = (unsigned int)fd - 10;

	(void)ctx;
	memset(info, 0, sizeof(*info));
	info->set_id = SET_ID;
	info->ns_id = NS_ID;
	info->head_seq = K.seq[k] + K.count[k];
	info->log_id = fake_log_id(k);
	return 0;
}

static int f_seek(void *ctx, int fd, struct nslog_seek *s)
{
	(void)ctx;
	(void)fd;
	s->lost = 0;
	return 0;
}

static ssize_t f_read(void *ctx, int fd, void *buf, size_t size)
{
	unsigned int k = (unsigned int)fd - 10;
	struct fake_rec *r;
	struct nslog_entry2 h = { .pid = 7, .tid = 8, .euid = 10042 };
	size_t hs;

	(void)ctx;
	if (K.pos[k] == K.count[k])
		return K.reaped ? 0 : -EAGAIN;
	r = &K.rec[k][K.pos[k]++];
	if (r->whole) {
		if (r->n > size)
			return -EINVAL;
		memcpy(buf, r->p, r->n);
		return (ssize_t)r->n;
	}
	/* kind: bit 1 the 0x4e54 header, bits 2-3 relay flags, 4-7 a jump */
	hs = r->kind & 2 ? sizeof(struct nslog_entry2) :
			   sizeof(struct nslog_entry);
	if (hs + r->n > size || r->n > 0xffff)
		return -EINVAL;
	K.seq[k] += r->kind >> 4;
	h.len = (__u16)r->n;
	h.hdr_size = (__u16)hs;
	h.seq = K.seq[k]++;
	h.order = K.order++;
	h.time_ns = 1700000000000000000LL + (__s64)h.order;
	h.stored_ns = h.time_ns + 5;
	h.log_id = fake_log_id(k);
	h.flags = (r->kind >> 2) & 3;
	h.relay_pid = 77;
	memcpy(buf, &h, hs);
	memcpy((char *)buf + hs, r->p, r->n);
	return (ssize_t)(hs + r->n);
}

static void f_close(void *ctx, int fd)
{
	(void)ctx;
	(void)fd;
}

static const struct nslog_kops kops = {
	.open = f_open, .open_stream = f_open_stream, .info = f_info,
	.seek = f_seek, .read = f_read, .close = f_close,
};

/* journald's rule for a field name a client may send. */
static bool journal_key_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 64 || s[0] == '_' || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

static int journal_send(const struct iovec *iov, int n)
{
	const char *s, *eq;
	int i;

	FZ_CHECK(n > 0);
	for (i = 0; i < n; i++) {
		s = iov[i].iov_base;
		eq = memchr(s, '=', iov[i].iov_len);
		FZ_CHECK(eq);
		FZ_CHECK(journal_key_ok(s, (size_t)(eq - s)));
	}
	return 0;
}

/* One RFC 5424 message, a line without its newline. */
static void check_rfc5424(const char *s, size_t n)
{
	const char *p = s, *end = s + n, *sp;
	unsigned int pri = 0, field;
	size_t i;

	FZ_CHECK(fz_utf8_valid(s, n));
	for (i = 0; i < n; i++)
		FZ_CHECK((unsigned char)s[i] >= 0x20 && s[i] != 0x7f);
	FZ_CHECK(n > 3 && *p++ == '<');
	while (p < end && *p >= '0' && *p <= '9')
		pri = pri * 10 + (unsigned int)(*p++ - '0');
	FZ_CHECK(pri <= 191 && p + 3 <= end && !memcmp(p, ">1 ", 3));
	p += 3;
	/* TIMESTAMP HOSTNAME APP-NAME: the third field */
	for (field = 0; field < 3; field++) {
		sp = memchr(p, ' ', (size_t)(end - p));
		FZ_CHECK(sp);
		if (field == 2) {
			FZ_CHECK(sp > p && sp - p <= 48);
			for (; p < sp; p++)
				FZ_CHECK(*p > 32 && *p < 127);
		}
		p = sp + 1;
	}
}

/* Each line of @m by @check. */
static void each_line(const struct fz_mem *m,
		      void (*check)(const char *s, size_t n))
{
	const char *p = m->text, *end = p + m->len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		FZ_CHECK(nl);
		check(p, (size_t)(nl - p));
		p = nl + 1;
	}
}

static void check_json(const char *s, size_t n)
{
	FZ_CHECK(fz_json_object(s, n));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const kinds[] = {
		"journal", "json", "rfc5424", "threadtime", "long,uid,relay",
		"brief,year,zone", "process,epoch,nsec", "raw",
	};
	struct fz f = { data, size };
	uint8_t kind = fz_u8(&f) % 8;
	struct nslog_out out;
	struct nslog_sink sink = { .out = &out, .host = "fuzzhost",
				   .boot_id = "4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d" };
	struct nslog_cstate_set state;
	struct nslog_flog *lp;
	struct nslog_set s;
	struct fz_mem mem;
	const uint8_t *piece;
	unsigned int k, round, budget;
	char *cg;
	size_t n;
	bool more;

	memset(&K, 0, sizeof(K));
	budget = fz_u8(&f);
	sink.utc = budget & 1;
	budget = 1 + (budget >> 1);	/* records a pump: 1 to 128 */
	if (nslog_out_parse(&out, kinds[kind]))
		abort();
	out.send = journal_send;
	if (nslog_out_open(&out, fz_mem_open(&mem)))
		abort();

	piece = fz_piece(&f, 4096, &n);
	cg = fz_strndup(piece, n);
	while (f.n) {
		k = fz_u8(&f) % NLOGS;
		if (K.count[k] == MAXREC)
			break;
		K.rec[k][K.count[k]].kind = fz_u8(&f);
		K.rec[k][K.count[k]].whole = K.rec[k][K.count[k]].kind & 1;
		K.rec[k][K.count[k]].p = fz_piece(&f, NSLOG_READ_BUF_SIZE,
						  &K.rec[k][K.count[k]].n);
		K.count[k]++;
	}

	if (nslog_set_open(&s, &kops, NS_ID, SET_ID,
			   (1u << NSLOG_KLOG_COUNT) - 1, NULL, NULL))
		abort();
	if (nslog_set_open_stream(&s, &kops, "audit", NULL, NULL, &lp) ||
	    nslog_set_open_stream(&s, &kops, "stats", NULL, NULL, &lp))
		abort();
	nslog_cg_from_proc(&s.ident, cg);
	/* what is there now, then the set goes (end of file) */
	for (round = 0; round < 2; round++) {
		do {
			if (nslog_set_pump(&s, &kops, &sink, budget, &more))
				abort();
		} while (more);
		K.reaped = true;
	}
	FZ_CHECK(nslog_set_done(&s));
	if (!nslog_set_state(&s, &state))
		free(state.streams);
	nslog_set_close(&s, &kops);
	free(cg);

	FZ_CHECK(!nslog_out_flush(&out));
	fz_mem_flush(&mem);
	if (out.kind == NSLOG_OUT_JSON)
		each_line(&mem, check_json);
	else if (out.kind == NSLOG_OUT_RFC5424)
		each_line(&mem, check_rfc5424);
	nslog_out_close(&out);
	fz_mem_close(&mem);
	return 0;
}
