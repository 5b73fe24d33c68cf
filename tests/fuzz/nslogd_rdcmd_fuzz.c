// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd_rdcmd_fuzz: the one command a logdr reader sends, parsed by
 * nslogd's nslogd_rdcmd_parse() (rdcmd.c).
 *
 * Input: the command as received.
 *
 * Checked: more than NSLOGD_RDCMD_MAX bytes is -EMSGSIZE; a byte outside
 * printable ASCII (but one trailing NUL or newline) is refused; a command
 * accepted round-trips: written again in liblog's form, it parses to the
 * same request.
 */
#include <errno.h>
#include <inttypes.h>

#include "fuzz.h"
#include "nslogd/rdcmd.h"

static bool same(const struct nslogd_rdcmd *a, const struct nslogd_rdcmd *b)
{
	return a->stream == b->stream && a->lids == b->lids &&
	       a->tail == b->tail && a->has_start == b->has_start &&
	       (!a->has_start || a->start_ns == b->start_ns) &&
	       a->has_timeout == b->has_timeout &&
	       (!a->has_timeout || a->timeout_s == b->timeout_s) &&
	       a->pid == b->pid;
}

/* @c as liblog writes a command. */
static size_t format(const struct nslogd_rdcmd *c, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s",
				    c->stream ? "stream" : "dumpAndClose");
	const char *sep = " lids=";
	unsigned int id;

	if (c->lids != NSLOGD_RDCMD_ALL_IDS) {
		for (id = 0; id < NSLOGD_RDCMD_IDS; id++) {
			if (!(c->lids & (1u << id)))
				continue;
			n += (size_t)snprintf(buf + n, size - n, "%s%u", sep, id);
			sep = ",";
		}
	}
	if (c->tail)
		n += (size_t)snprintf(buf + n, size - n, " tail=%" PRIu32,
				      c->tail);
	if (c->has_start)
		n += (size_t)snprintf(buf + n, size - n,
				      " start=%" PRId64 ".%09" PRId64,
				      c->start_ns / 1000000000,
				      c->start_ns % 1000000000);
	if (c->has_timeout)
		n += (size_t)snprintf(buf + n, size - n, " timeout=%" PRIu32,
				      c->timeout_s);
	if (c->pid)
		n += (size_t)snprintf(buf + n, size - n, " pid=%d",
				      (int)c->pid);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nslogd_rdcmd cmd, again;
	char *buf = malloc(size ? size : 1), text[512];
	size_t i, n = size;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ret = nslogd_rdcmd_parse(buf, size, &cmd);
	if (size > NSLOGD_RDCMD_MAX) {
		FZ_CHECK(ret == -EMSGSIZE);
		goto out;
	}
	if (n && (buf[n - 1] == '\0' || buf[n - 1] == '\n'))
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] < ' ' || buf[i] > '~')
			FZ_CHECK(ret == -EINVAL);
	if (ret) {
		FZ_CHECK(ret == -EINVAL);
		goto out;
	}
	FZ_CHECK(cmd.lids && !(cmd.lids & ~NSLOGD_RDCMD_ALL_IDS));
	FZ_CHECK(cmd.pid >= 0);
	n = format(&cmd, text, sizeof(text));
	FZ_CHECK(n < sizeof(text));
	FZ_CHECK(!nslogd_rdcmd_parse(text, n, &again));
	FZ_CHECK(same(&cmd, &again));
out:
	free(buf);
	return 0;
}
