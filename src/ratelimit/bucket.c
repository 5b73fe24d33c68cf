// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: token bucket arithmetic.
 */

/**
 * DOC: token buckets
 *
 * A limit "N units per period P, burst B" (units are records or bytes) is a
 * bucket of credit counted in nanoseconds, as in sch_tbf and WireGuard's
 * ratelimiter, scaled so that nothing is ever divided on the hot path:
 *
 *	credit grows by N for every nanosecond that passes,
 *	one unit costs P of credit,
 *	the bucket holds at most B * P.
 *
 * So over a period P the bucket gains N * P, exactly N units' worth, and a
 * full bucket lets B units through at once.  With d nanoseconds since the
 * last refill:
 *
 *	T(t + d) = min(B * P, T(t) + N * d)
 *
 * and a unit passes if T >= P, leaving T - P.
 *
 * Overflow: N <= 10^9 and B * P <= 2^62 are enforced when a limit is set.
 * A refill first compares d with the time the bucket needs to fill up,
 * (B * P - T) / N, with one division; if d is at least that, the bucket is
 * full, whatever d is (an idle of years included).  Otherwise N * d is less
 * than B * P + N, which fits in 64 bits.  A unit count times P is at most
 * 4076 * 8.64 * 10^13 < 2^59.
 */

#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "bucket.h"

/**
 * nslog_rl_tb_set() - configure one dimension of a bucket, full
 * @tb: the dimension
 * @count: N, units per period; 0 for unlimited
 * @period_ns: P
 * @burst: B, the most units at once
 *
 * Context: any.
 * Return: 0, or -EINVAL if the numbers are out of the bounds above.
 */
int nslog_rl_tb_set(struct nslog_rl_tb *tb, u64 count, u64 period_ns,
		    u64 burst)
{
	if (!count) {
		*tb = (struct nslog_rl_tb){ };
		return 0;
	}
	if (count > NSLOG_RL_MAX_COUNT || !burst ||
	    burst > NSLOG_RL_MAX_COUNT ||
	    period_ns < NSLOG_RL_MIN_PERIOD_NS ||
	    period_ns > NSLOG_RL_MAX_PERIOD_NS ||
	    burst > div64_u64(NSLOG_RL_MAX_CREDIT, period_ns))
		return -EINVAL;
	tb->rate = count;
	tb->period_ns = period_ns;
	tb->cap = burst * period_ns;
	tb->tokens = tb->cap;
	return 0;
}

/**
 * nslog_rl_tb_refill() - add the credit earned over some time
 * @tb: the dimension
 * @elapsed_ns: nanoseconds since the last refill, any value
 *
 * Context: the caller serialises access to @tb.
 */
void nslog_rl_tb_refill(struct nslog_rl_tb *tb, u64 elapsed_ns)
{
	u64 room;

	if (!tb->rate)
		return;
	room = tb->cap - tb->tokens;
	if (elapsed_ns >= div64_u64(room, tb->rate) + 1)
		tb->tokens = tb->cap;
	else
		tb->tokens = min(tb->cap, tb->tokens + tb->rate * elapsed_ns);
}

/**
 * nslog_rl_tb_can() - whether @units would pass now
 * @tb: the dimension
 * @units: records or bytes, at most LOGGER_ENTRY_MAX_PAYLOAD
 *
 * Context: the caller serialises access to @tb.
 * Return: true if the bucket holds @units' worth of credit, or is unlimited.
 */
bool nslog_rl_tb_can(const struct nslog_rl_tb *tb, u64 units)
{
	return !tb->rate || tb->tokens >= units * tb->period_ns;
}

/**
 * nslog_rl_tb_take() - spend @units' worth of credit
 * @tb: the dimension; nslog_rl_tb_can() said yes
 * @units: as for nslog_rl_tb_can()
 *
 * Context: the caller serialises access to @tb.
 */
void nslog_rl_tb_take(struct nslog_rl_tb *tb, u64 units)
{
	if (tb->rate)
		tb->tokens -= units * tb->period_ns;
}

/**
 * nslog_rl_tb_give() - give back credit taken for a record later dropped
 * @tb: the dimension
 * @units: as passed to nslog_rl_tb_take()
 *
 * Context: the caller serialises access to @tb.
 */
void nslog_rl_tb_give(struct nslog_rl_tb *tb, u64 units)
{
	if (tb->rate)
		tb->tokens = min(tb->cap, tb->tokens + units * tb->period_ns);
}

/**
 * nslog_rl_tb_carry() - start a changed limit with the credit of the old one
 * @tb: the new dimension, as nslog_rl_tb_set() made it
 * @old: the dimension it replaces, refilled up to now
 *
 * If both are limited, @tb gets the whole units @old would let through,
 * at most its burst.  Units, not raw credit: a unit's worth of credit is
 * the period, which the change may have changed too.
 *
 * Context: the caller serialises access to @old.
 */
void nslog_rl_tb_carry(struct nslog_rl_tb *tb, const struct nslog_rl_tb *old)
{
	u64 units;

	if (!tb->rate || !old->rate)
		return;
	units = nslog_rl_tb_units(old);
	/* Compared in units first: @units * @period_ns could wrap. */
	if (units < div64_u64(tb->cap, tb->period_ns))
		tb->tokens = units * tb->period_ns;
}

/**
 * nslog_rl_tb_units() - whole units the bucket would let through now
 * @tb: the dimension
 *
 * Context: the caller serialises access to @tb.
 * Return: the count, or U64_MAX if unlimited.
 */
u64 nslog_rl_tb_units(const struct nslog_rl_tb *tb)
{
	return tb->rate ? div64_u64(tb->tokens, tb->period_ns) : U64_MAX;
}
