/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prune: logd's prune list, kept and shown (getPruneList, setPruneList);
 * on nslogger's rings it selects nothing (prune.c says why).
 */
#ifndef NSLOGD_PRUNE_H
#define NSLOGD_PRUNE_H

#include <stdbool.h>

/* The longest list kept, its NUL included. */
#define NSLOGD_PRUNE_MAX	1024
/* logd's default (shared/reference/logd-protocol.md, "Control"). */
#define NSLOGD_PRUNE_DEFAULT	"~! ~1000/!"

struct nslogd_prune {
	char list[NSLOGD_PRUNE_MAX];
};

void nslogd_prune_init(struct nslogd_prune *p);
bool nslogd_prune_entry_valid(const char *e);
int nslogd_prune_set(struct nslogd_prune *p, char *const *entries,
		     unsigned int n);

#endif /* NSLOGD_PRUNE_H */
