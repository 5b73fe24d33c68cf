// SPDX-License-Identifier: GPL-2.0
/*
 * parse: a syslog message into PRI, tag, the sender's pid claim and text.
 *
 * What senders write (shared/reference/syslog-socket.md):
 *
 *   <155>Dec  7 02:42:50 mytag[7783]: MARK 0		glibc, musl (+ "\n")
 *   <13>Dec  7 02:42:50 vm ultag3: text		logger --rfc3164
 *   <148>1 2026-12-07T02:42:50.38+00:00 vm ultag5 - - [tq a="1"] text
 *							logger --rfc5424
 *
 * RFC 3164 (as senders write it, the RFC itself only describes what it
 * saw): after PRI, an optional stamp "Mmm dd hh:mm:ss " (or an RFC 3339
 * one, which some forwarders write), then a hostname only if a stamp came
 * first, then the TAG: a word of at most NSLOG_SL_TAG_MAX bytes ending in
 * ':' or "[PID]:", and one space (its bytes printable, UTF-8 allowed, no
 * '<' or '>').  A message with no such word has no tag
 * and is all text.
 *
 * RFC 5424: "<PRI>1 " then TIMESTAMP HOSTNAME APP-NAME PROCID MSGID, each
 * a word ("-" for none), STRUCTURED-DATA ("-" or [...] elements), and MSG,
 * whose UTF-8 BOM is dropped.  A message that breaks off early keeps what
 * it had: no text, or the tag alone.
 *
 * A missing or malformed PRI ("<>", "<1a>", "<192>", "<013>", no '>')
 * is the default, user.notice, and the message is parsed as RFC 3164 from
 * its first byte, as syslog daemons do.  Nothing here fails: every input
 * is some message.  The caller strips the framing (a datagram's trailing
 * newline or NUL).
 */
#include <string.h>

#include "parse.h"

/* Bytes left from @p to @end. */
#define LEFT(p, end)	((size_t)((end) - (p)))

/* "<PRI>": 1 to 3 digits, no leading zero, at most 191; -1 if not. */
static int parse_pri(const char *p, const char *end, const char **after)
{
	const char *q = p + 1;
	int pri = 0;

	if (p >= end || *p != '<')
		return -1;
	while (q < end && *q >= '0' && *q <= '9' && q - p <= 3) {
		pri = pri * 10 + (*q - '0');
		q++;
	}
	if (q == p + 1 || q >= end || *q != '>')
		return -1;
	if (p[1] == '0' && q != p + 2)
		return -1;
	if (pri > 191)
		return -1;
	*after = q + 1;
	return pri;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* The length of "Mmm dd hh:mm:ss " at @p, or 0. */
static size_t stamp3164_len(const char *p, const char *end)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t i;

	if (LEFT(p, end) < 16)
		return 0;
	for (i = 0; i < 36; i += 3)
		if (!memcmp(p, months + i, 3))
			break;
	if (i == 36 || p[3] != ' ' || (p[4] != ' ' && !is_digit(p[4])) ||
	    !is_digit(p[5]) || p[6] != ' ')
		return 0;
	if (!is_digit(p[7]) || !is_digit(p[8]) || p[9] != ':' ||
	    !is_digit(p[10]) || !is_digit(p[11]) || p[12] != ':' ||
	    !is_digit(p[13]) || !is_digit(p[14]) || p[15] != ' ')
		return 0;
	return 16;
}

/* "YYYY-MM-DDT...": an RFC 3339 stamp and its space, or 0. */
static size_t stamp3339_len(const char *p, const char *end)
{
	const char *sp;

	if (LEFT(p, end) < 20 || !is_digit(p[0]) || !is_digit(p[3]) ||
	    p[4] != '-' || p[7] != '-' || p[10] != 'T')
		return 0;
	sp = memchr(p, ' ', LEFT(p, end));
	return sp ? LEFT(p, sp) + 1 : 0;
}

/* A decimal pid, 1 to 2^31 - 1, of @n bytes; 0 if it is not one. */
static int parse_pid(const char *p, size_t n)
{
	long v = 0;
	size_t i;

	if (!n || n > 10)
		return 0;
	for (i = 0; i < n; i++) {
		if (!is_digit(p[i]))
			return 0;
		v = v * 10 + (p[i] - '0');
	}
	return v > 0 && v <= 0x7fffffff ? (int)v : 0;
}

/*
 * A tag's bytes: printable but for ':', '[' (which end it) and '<', '>'
 * (a malformed PRI is no tag); UTF-8 allowed.
 */
static bool tag_byte(char c)
{
	unsigned char u = (unsigned char)c;

	return u > ' ' && u != 0x7f && c != ':' && c != '[' && c != '<' &&
	       c != '>';
}

/*
 * A TAG at @p: "TAG: " or "TAG[PID]: " (the space optional); sets the tag
 * and pid and returns where the text starts, or NULL if @p has none.
 */
static const char *parse_tag(struct nslog_sl_msg *m, const char *p,
			     const char *end)
{
	const char *q = p, *pid = NULL, *pid_end = NULL;

	while (q < end && tag_byte(*q) && LEFT(p, q) <= NSLOG_SL_TAG_MAX)
		q++;
	if (q == p || q >= end || LEFT(p, q) > NSLOG_SL_TAG_MAX)
		return NULL;
	m->tag = p;
	m->tag_len = LEFT(p, q);
	if (*q == '[') {
		pid = q + 1;
		pid_end = memchr(pid, ']', LEFT(pid, end));
		if (!pid_end)
			return NULL;
		q = pid_end + 1;
	}
	if (q >= end || *q != ':')
		return NULL;
	q++;
	if (q < end && *q == ' ')
		q++;
	if (pid)
		m->claimed_pid = parse_pid(pid, LEFT(pid, pid_end));
	return q;
}

static void parse_3164(struct nslog_sl_msg *m, const char *p, const char *end)
{
	size_t stamp = stamp3164_len(p, end);
	const char *text, *sp;

	if (!stamp)
		stamp = stamp3339_len(p, end);
	p += stamp;
	text = parse_tag(m, p, end);
	if (!text && stamp) {
		/* a hostname first (logger --rfc3164), then the tag */
		sp = memchr(p, ' ', LEFT(p, end));
		if (sp)
			text = parse_tag(m, sp + 1, end);
	}
	if (!text) {
		m->tag = NULL;
		m->tag_len = 0;
		m->claimed_pid = 0;
		text = p;
	}
	m->text = text;
	m->text_len = LEFT(text, end);
}

/* The next space-ended word of RFC 5424's header; NULL at the end. */
static const char *word(const char **p, const char *end, size_t *n)
{
	const char *w = *p, *sp;

	if (w >= end)
		return NULL;
	sp = memchr(w, ' ', LEFT(w, end));
	*n = sp ? LEFT(w, sp) : LEFT(w, end);
	*p = sp ? sp + 1 : end;
	return w;
}

/* Past STRUCTURED-DATA: "-" or [id p="v" ...]... with \" \\ \] escapes. */
static const char *skip_sd(const char *p, const char *end)
{
	bool quoted = false;

	if (p < end && *p == '-')
		return p + 1;
	while (p < end && *p == '[') {
		for (p++; p < end; p++) {
			if (quoted && *p == '\\' && p + 1 < end) {
				p++;
				continue;
			}
			if (*p == '"')
				quoted = !quoted;
			else if (*p == ']' && !quoted)
				break;
		}
		if (p < end)
			p++;
	}
	return p;
}

static void parse_5424(struct nslog_sl_msg *m, const char *p, const char *end)
{
	const char *app, *procid;
	size_t n, app_n = 0, procid_n = 0;

	m->text = end;
	m->text_len = 0;
	if (!word(&p, end, &n) || !word(&p, end, &n))	/* TIMESTAMP HOSTNAME */
		return;
	app = word(&p, end, &app_n);
	if (app && !(app_n == 1 && *app == '-') && app_n <= NSLOG_SL_TAG_MAX &&
	    !memchr(app, '\0', app_n)) {
		m->tag = app;
		m->tag_len = app_n;
	}
	procid = word(&p, end, &procid_n);
	if (procid)
		m->claimed_pid = parse_pid(procid, procid_n);
	if (!procid || !word(&p, end, &n))		/* MSGID */
		return;
	p = skip_sd(p, end);
	if (p < end && *p == ' ')
		p++;
	if (LEFT(p, end) >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	m->text = p;
	m->text_len = LEFT(p, end);
}

/**
 * nslog_sl_parse() - the parts of one syslog message
 * @m: filled in, pointing into @buf
 * @buf: the message, without its framing
 * @len: its length, 0 or more
 *
 * Context: any.
 */
void nslog_sl_parse(struct nslog_sl_msg *m, const char *buf, size_t len)
{
	const char *end = buf + len, *p = buf;
	int pri = parse_pri(buf, end, &p);

	memset(m, 0, sizeof(*m));
	m->pri_given = pri >= 0;
	m->pri = pri >= 0 ? pri : NSLOG_SL_PRI_DEFAULT;
	if (pri < 0)
		p = buf;
	if (pri >= 0 && LEFT(p, end) >= 2 && p[0] == '1' && p[1] == ' ') {
		m->format = NSLOG_SL_RFC5424;
		parse_5424(m, p + 2, end);
		return;
	}
	m->format = NSLOG_SL_RFC3164;
	parse_3164(m, p, end);
}
