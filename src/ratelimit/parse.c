// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: parsing a rate limit, as the admin file (admin.c) and the
 * default_limit parameter (default.c) take it:
 *
 *   [records=N/PERIOD] [records_burst=B] [bytes=SIZE/PERIOD]
 *   [bytes_burst=SIZE]
 *
 * PERIOD is a number (1 if left out) and a unit: ms, s, min, h.  N, B and
 * SIZE take the K and M suffixes.  Pure functions of the text: no lock, no
 * table, nothing above the buckets' bounds (bucket.c).
 */

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/time64.h>

#include <uapi/linux/nslogger.h>

#include "bucket.h"
#include "parse.h"

static int nslog_rl_parse_count(const char *s, const char *end, u64 *out)
{
	char num[24];
	size_t n = end - s;
	unsigned int shift = 0;
	u64 v;

	if (!n || n >= sizeof(num) || !isdigit(*s))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	/* No G: every count of 1G or more is above NSLOG_RL_MAX_COUNT. */
	switch (tolower(num[n - 1])) {
	case 'm':
		shift += 10;
		fallthrough;
	case 'k':
		shift += 10;
		num[n - 1] = '\0';
	}
	/* Decimal only, and nothing that wraps: no count above the bound. */
	if (kstrtoull(num, 10, &v) || v > NSLOG_RL_MAX_COUNT >> shift)
		return -EINVAL;
	*out = v << shift;
	return 0;
}

static int nslog_rl_parse_period(const char *s, u64 *out)
{
	static const struct { const char *unit; u64 ns; } units[] = {
		{ "ms", NSEC_PER_MSEC }, { "s", NSEC_PER_SEC },
		{ "min", 60 * NSEC_PER_SEC }, { "h", 3600 * NSEC_PER_SEC },
	};
	size_t digits = strspn(s, "0123456789");
	unsigned long long n = 1;
	char num[12];
	int i;

	if (digits) {
		if (digits >= sizeof(num))
			return -EINVAL;
		memcpy(num, s, digits);
		num[digits] = '\0';
		if (kstrtoull(num, 10, &n) || !n)
			return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(s + digits, units[i].unit)) {
			/* No period above the bound, and so none that wraps. */
			if (n > NSLOG_RL_MAX_PERIOD_NS / units[i].ns)
				return -EINVAL;
			*out = n * units[i].ns;
			return 0;
		}
	}
	return -EINVAL;
}

/* "N/PERIOD" */
static int nslog_rl_parse_rate(const char *s, u64 *count, u64 *period_ns)
{
	const char *slash = strchr(s, '/');

	if (!slash || nslog_rl_parse_count(s, slash, count) || !*count)
		return -EINVAL;
	return nslog_rl_parse_period(slash + 1, period_ns);
}

/* "B": a burst given is never 0, which would mean "not given" below. */
static int nslog_rl_parse_burst(const char *s, u64 *burst)
{
	if (nslog_rl_parse_count(s, s + strlen(s), burst) || !*burst)
		return -EINVAL;
	return 0;
}

/**
 * nslog_rl_parse_limit() - parse the limit of a "set" line
 * @args: what follows "set PATH", e.g. "records=100/s bytes=64K/1min";
 *	cut up in place
 * @l: the limit, with the bursts filled in
 *
 * Context: any.
 * Return: 0, or -EINVAL if @args is malformed or the limit out of bounds.
 */
int nslog_rl_parse_limit(char *args, struct nslog_rl_limit *l)
{
	struct nslog_rl_tb probe;
	char *tok;
	int err;

	memset(l, 0, sizeof(*l));
	while ((tok = strsep(&args, " \t")) != NULL) {
		char *val = strchr(tok, '=');

		if (!*tok)
			continue;
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "records"))
			err = nslog_rl_parse_rate(val, &l->records,
						  &l->records_period_ns);
		else if (!strcmp(tok, "bytes"))
			err = nslog_rl_parse_rate(val, &l->bytes,
						  &l->bytes_period_ns);
		else if (!strcmp(tok, "records_burst"))
			err = nslog_rl_parse_burst(val, &l->records_burst);
		else if (!strcmp(tok, "bytes_burst"))
			err = nslog_rl_parse_burst(val, &l->bytes_burst);
		else
			err = -EINVAL;
		if (err)
			return err;
	}
	if (!l->records && !l->bytes)
		return -EINVAL;
	/* A burst without its rate means nothing. */
	if ((l->records_burst && !l->records) || (l->bytes_burst && !l->bytes))
		return -EINVAL;
	if (l->records && !l->records_burst)
		l->records_burst = l->records;
	if (l->bytes && !l->bytes_burst)
		l->bytes_burst = l->bytes;
	/* A byte bucket that can never pass a full record is a mistake. */
	if (l->bytes && l->bytes_burst < LOGGER_ENTRY_MAX_PAYLOAD)
		return -EINVAL;
	if (nslog_rl_tb_set(&probe, l->records, l->records_period_ns,
			    l->records_burst) ||
	    nslog_rl_tb_set(&probe, l->bytes, l->bytes_period_ns,
			    l->bytes_burst))
		return -EINVAL;
	return 0;
}
