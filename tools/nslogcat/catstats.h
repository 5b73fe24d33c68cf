/* SPDX-License-Identifier: GPL-2.0 */
/*
 * catstats: nslogcat -S, what the module counts of one log set's buffers,
 * from /proc/nslogger/namespaces.
 */
#ifndef NSLOG_CATSTATS_H
#define NSLOG_CATSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "devpath.h"

/* One log's line of the listing. */
struct nslog_catstat {
	bool found;
	char state[8];		/* live or dead */
	unsigned int files;	/* open files of the set */
	uint64_t set_id;
	uint64_t size;		/* ring bytes (0 until first written) */
	uint64_t used;		/* bytes the records take */
	uint64_t written;	/* records ever written */
	uint64_t stored;	/* records held now */
};

int nslog_catstats_parse(const char *text, uint64_t ns_id,
			 struct nslog_catstat st[NSLOG_BUF_COUNT]);
void nslog_catstats_print(FILE *out, uint64_t ns_id,
			  const struct nslog_catstat st[NSLOG_BUF_COUNT],
			  const int *ids, size_t count);
int nslog_catstats_self_ns(uint64_t *ns_id);
int nslog_catstats_read(const char *path, char **text);

#endif /* NSLOG_CATSTATS_H */
