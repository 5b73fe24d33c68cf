/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdcmd: the one command a logdr reader sends, checked and parsed.
 *
 * The wire format (shared/reference/logd-protocol.md, "Readers"): ASCII,
 * no NUL, words separated by spaces: "stream" or "dumpAndClose", then any
 * of " lids=0,3,4", " tail=N", " start=SEC.NNNNNNNNN", " timeout=SEC",
 * " pid=N".
 */
#ifndef NSLOGD_RDCMD_H
#define NSLOGD_RDCMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* logd looks for its keys in the first 254 bytes; nslogd takes no more. */
#define NSLOGD_RDCMD_MAX	254
/* Log ids a command may name: 0 main ... 7 kernel. */
#define NSLOGD_RDCMD_IDS	8
#define NSLOGD_RDCMD_ALL_IDS	((1u << NSLOGD_RDCMD_IDS) - 1)

struct nslogd_rdcmd {
	bool stream;		/* "stream"; false: "dumpAndClose" */
	uint32_t lids;		/* bit per log id; no lids=: every id */
	uint32_t tail;		/* 0: no tail= (or tail=0): everything */
	bool has_start;
	int64_t start_ns;	/* start=: records from this CLOCK_REALTIME on */
	bool has_timeout;
	uint32_t timeout_s;	/* timeout=: seconds */
	pid_t pid;		/* 0: every process */
};

int nslogd_rdcmd_parse(const char *buf, size_t n, struct nslogd_rdcmd *cmd);

#endif /* NSLOGD_RDCMD_H */
