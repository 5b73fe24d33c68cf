/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_RL_BUCKET_H
#define _NSLOG_RL_BUCKET_H

#include <linux/bits.h>
#include <linux/time64.h>
#include <linux/types.h>

/* Accepted bounds of a rate N per P with burst B; see bucket.c. */
#define NSLOG_RL_MAX_COUNT	1000000000ULL		/* N and B, per dimension */
#define NSLOG_RL_MIN_PERIOD_NS	1000000ULL		/* 1 ms */
#define NSLOG_RL_MAX_PERIOD_NS	(86400ULL * NSEC_PER_SEC)	/* 1 day */
#define NSLOG_RL_MAX_CREDIT	BIT_ULL(62)		/* B * P */

/**
 * struct nslog_rl_tb - one dimension (records or bytes) of a token bucket
 * @tokens: credit now; a unit costs @period_ns of it
 * @rate: units per period, N: credit grows by N per nanosecond
 * @period_ns: the period P, which is also the credit one unit costs
 * @cap: the most credit, B * P
 *
 * A @rate of 0 means the dimension is unlimited.
 */
struct nslog_rl_tb {
	u64 tokens;
	u64 rate;
	u64 period_ns;
	u64 cap;
};

int nslog_rl_tb_set(struct nslog_rl_tb *tb, u64 count, u64 period_ns,
		    u64 burst);
void nslog_rl_tb_refill(struct nslog_rl_tb *tb, u64 elapsed_ns);
bool nslog_rl_tb_can(const struct nslog_rl_tb *tb, u64 units);
void nslog_rl_tb_take(struct nslog_rl_tb *tb, u64 units);
void nslog_rl_tb_give(struct nslog_rl_tb *tb, u64 units);
void nslog_rl_tb_carry(struct nslog_rl_tb *tb, const struct nslog_rl_tb *old);
u64 nslog_rl_tb_units(const struct nslog_rl_tb *tb);

/**
 * nslog_rl_elapsed() - nanoseconds from @last to @now on a wrapping clock
 * @last: the earlier reading
 * @now: the later reading
 *
 * Context: any.
 * Return: @now - @last modulo 2^64, or 0 if that looks like the clock went
 * backwards (more than 2^63 ns).
 */
static inline u64 nslog_rl_elapsed(u64 last, u64 now)
{
	s64 d = (s64)(now - last);

	return d > 0 ? d : 0;
}

#endif /* _NSLOG_RL_BUCKET_H */
