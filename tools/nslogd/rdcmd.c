// SPDX-License-Identifier: GPL-2.0
/*
 * rdcmd: a reader's command, parsed strictly.
 *
 * logd searches its 254 bytes for each key and ignores the rest; nslogd
 * takes the same words but refuses what liblog never sends, so a command
 * that would mean something else than it seems (a cut "tail=1000", a key
 * twice, a number with junk after it, an unknown word) is refused rather
 * than guessed at:
 *
 *  - the first word is "stream" or "dumpAndClose", and only the first;
 *  - then words separated by one or more spaces, each key at most once:
 *    lids=ID[,ID...] (0 to 7), tail=N, start=SEC.NNNNNNNNN (exactly nine
 *    digits of nanoseconds), timeout=SEC, pid=N: unsigned decimal that
 *    fits 32 bits (pid: a positive int, or 0 for every process);
 *  - one trailing NUL or newline is tolerated (a client that sends a C
 *    string with its terminator), nothing else outside printable ASCII;
 *  - more than NSLOGD_RDCMD_MAX bytes is -EMSGSIZE (logd would look at
 *    the first 254 bytes only, and so might read a cut number).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "rdcmd.h"

/* Unsigned decimal of @n bytes at @s, at most @max: 0, or -EINVAL. */
static int parse_u32(const char *s, size_t n, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!n || n > 10)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > max)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int parse_lids(const char *s, size_t n, uint32_t *lids)
{
	size_t i = 0;

	*lids = 0;
	for (;;) {
		size_t j = i;
		uint32_t id;

		while (j < n && s[j] != ',')
			j++;
		if (parse_u32(s + i, j - i, NSLOGD_RDCMD_IDS - 1, &id))
			return -EINVAL;
		*lids |= 1u << id;
		if (j == n)
			return 0;
		i = j + 1;	/* a trailing comma is an empty id: refused */
	}
}

static int parse_start(const char *s, size_t n, int64_t *ns)
{
	const char *dot = memchr(s, '.', n);
	uint32_t sec, nsec;

	if (!dot || (size_t)(s + n - dot - 1) != 9 ||
	    parse_u32(s, (size_t)(dot - s), UINT32_MAX, &sec) ||
	    parse_u32(dot + 1, 9, 999999999, &nsec))
		return -EINVAL;
	*ns = (int64_t)sec * 1000000000LL + nsec;
	return 0;
}

/* Whether the word @w of @n bytes is KEY=; then @v is what follows. */
static bool key(const char *w, size_t n, const char *k, const char **v,
		size_t *vn)
{
	size_t kn = strlen(k);

	if (n < kn || memcmp(w, k, kn))
		return false;
	*v = w + kn;
	*vn = n - kn;
	return true;
}

static int parse_word(const char *w, size_t n, struct nslogd_rdcmd *cmd,
		      unsigned int *seen)
{
	enum { LIDS = 1, TAIL = 2, START = 4, TIMEOUT = 8, PID = 16 };
	const char *v;
	size_t vn;
	uint32_t u = 0;
	int bit, ret;

	if (key(w, n, "lids=", &v, &vn)) {
		bit = LIDS;
		ret = parse_lids(v, vn, &cmd->lids);
	} else if (key(w, n, "tail=", &v, &vn)) {
		bit = TAIL;
		ret = parse_u32(v, vn, UINT32_MAX, &cmd->tail);
	} else if (key(w, n, "start=", &v, &vn)) {
		bit = START;
		ret = parse_start(v, vn, &cmd->start_ns);
		cmd->has_start = true;
	} else if (key(w, n, "timeout=", &v, &vn)) {
		bit = TIMEOUT;
		ret = parse_u32(v, vn, UINT32_MAX, &cmd->timeout_s);
		cmd->has_timeout = true;
	} else if (key(w, n, "pid=", &v, &vn)) {
		bit = PID;
		ret = parse_u32(v, vn, INT_MAX, &u);
		cmd->pid = (pid_t)u;
	} else {
		return -EINVAL;
	}
	if (ret || (*seen & bit))
		return -EINVAL;
	*seen |= bit;
	return 0;
}

/**
 * nslogd_rdcmd_parse() - check and parse a reader's command
 * @buf: the command as received, not NUL-terminated
 * @n: its length
 * @cmd: filled in when it is accepted
 *
 * Context: any.
 * Return: 0; -EMSGSIZE for more than NSLOGD_RDCMD_MAX bytes; -EINVAL for
 * anything else this file's header does not allow.
 */
int nslogd_rdcmd_parse(const char *buf, size_t n, struct nslogd_rdcmd *cmd)
{
	unsigned int seen = 0;
	size_t i = 0;
	bool first = true;

	memset(cmd, 0, sizeof(*cmd));
	cmd->lids = NSLOGD_RDCMD_ALL_IDS;
	if (n > NSLOGD_RDCMD_MAX)
		return -EMSGSIZE;
	if (n && (buf[n - 1] == '\0' || buf[n - 1] == '\n'))
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] < ' ' || buf[i] > '~')
			return -EINVAL;

	i = 0;
	while (i < n) {
		size_t j;

		while (i < n && buf[i] == ' ')
			i++;
		if (i == n)
			break;
		j = i;
		while (j < n && buf[j] != ' ')
			j++;
		if (first) {
			if (j - i == 6 && !memcmp(buf + i, "stream", 6))
				cmd->stream = true;
			else if (j - i != 12 ||
				 memcmp(buf + i, "dumpAndClose", 12))
				return -EINVAL;
			first = false;
		} else if (parse_word(buf + i, j - i, cmd, &seen)) {
			return -EINVAL;
		}
		i = j;
	}
	return first ? -EINVAL : 0;
}
