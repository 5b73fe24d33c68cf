#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# json_test.sh: the collector's JSON lines are JSON for jq, whatever bytes
# were logged, with the values written; its RFC 5424 messages match the
# RFC's grammar (header, structured data, one line each).  Skipped if jq
# is missing (scripts/deps.sh tools installs it).
#
# Needs $NSLOG_BIN, the directory holding tests/json_emit.
set -u

bin=${NSLOG_BIN:?set NSLOG_BIN to the build directory}
emit=$bin/tests/json_emit
tmp=$(mktemp -d /tmp/nslog_json.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
# No command runs through run(): a failure shows no stderr of one.
: >"$tmp/err"

if ! command -v jq >/dev/null 2>&1; then
	skip "jq checks" "jq is not installed"
	tap_done
	exit
fi

${VALGRIND:-} "$emit" >"$tmp/json" 2>"$tmp/what"
result $? "json_emit runs"

lines=$(wc -l <"$tmp/json")
[ "$lines" -eq 10 ]
result $? "a line per record and one for the loss ($lines)"

i=0
bad=0
while IFS= read -r line; do
	if ! printf '%s\n' "$line" | jq -e . >/dev/null 2>"$tmp/jqerr"; then
		echo "#   line $((i + 1)) ($(sed -n "$((i + 1))p" "$tmp/what")): $(cat "$tmp/jqerr")"
		bad=1
	fi
	i=$((i + 1))
done <"$tmp/json"
result $bad "every line is one JSON value for jq"

jq -s -e 'length == 10 and all(type == "object")' "$tmp/json" >/dev/null
result $? "jq reads the stream as 10 objects"

jq -r -s '.[1].message' "$tmp/json" >"$tmp/got"
printf '"q" \\ \\\\\n' >"$tmp/want"
cmp -s "$tmp/got" "$tmp/want"
result $? "quotes and backslashes come back as they were"

jq -j -s '.[2].message' "$tmp/json" | od -An -tx1 | tr -d ' \n' >"$tmp/got"
printf '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f7f' >"$tmp/want"
cmp -s "$tmp/got" "$tmp/want"
result $? "every control character comes back as it was"

jq -j -s '.[3].message' "$tmp/json" | od -An -tx1 | tr -d ' \n' >"$tmp/got"
printf 'efbfbd%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 >"$tmp/want"
cmp -s "$tmp/got" "$tmp/want"
result $? "each byte of invalid UTF-8 is U+FFFD"

jq -j -s '.[4].message, .[4].tag' "$tmp/json" >"$tmp/got"
printf '\303\251t\303\251 \342\202\254 \360\237\230\200 \342\200\250\346\227\245\346\234\254' >"$tmp/want"
cmp -s "$tmp/got" "$tmp/want"
result $? "valid UTF-8 comes back as it was"

jq -e -s '.[5].message == "a\u0000b"' "$tmp/json" >/dev/null
result $? "a NUL inside a message"

jq -e -s '(.[7].message | length) == 4076' "$tmp/json" >/dev/null
result $? "a 4076-byte message whole"

jq -e -s 'all(.[]; .set_id == "18446744073709551615")' "$tmp/json" >/dev/null
result $? "set_id is a string: 64 bits survive jq"

jq -e -s 'all(.[0:8][]; .time | test("^2023-11-1[45]T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.999999999\\+05:45$"))' \
	"$tmp/json" >/dev/null
result $? "time: RFC 3339, nanoseconds, the zone's offset"

jq -e -s '.[8] | .type == "lost" and .lost == 5 and .lost_first_seq == 2 and .lost_last_seq == 6 and .time == "2023-11-14T22:13:20.000000000Z"' \
	"$tmp/json" >/dev/null
result $? "the loss record: count, range, UTC time"

jq -e -s '.[0] | .container_name == "we\"b]\\1" and .runtime == "lxc" and .ns_id == 4026532301 and .uid == 65534 and .level == "debug" and .priority == 2' \
	"$tmp/json" >/dev/null
result $? "container and nslogger fields"

jq -e -s 'all(.[0:8][]; has("relayed") or has("relay_pid") or has("unverified") or has("stored_time") | not)' \
	"$tmp/json" >/dev/null
result $? "records not relayed have no relay members"

jq -e -s '.[9] | .relayed == true and .relay_pid == 4242 and .unverified == true and .time == "2023-11-14T22:13:20.000001000Z" and .stored_time == "2023-11-14T22:13:21.000001000Z"' \
	"$tmp/json" >/dev/null
result $? "a relayed record: relayed, relay_pid, unverified, stored_time"

${VALGRIND:-} "$emit" --rfc5424 >"$tmp/rfc" 2>/dev/null
result $? "json_emit --rfc5424 runs"
lines=$(wc -l <"$tmp/rfc")
[ "$lines" -eq 10 ]
result $? "RFC 5424: one line per message ($lines)"

# PRI VERSION SP TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID SP SD
# [SP MSG]; SD-PARAM values with ", \, ] escaped.  (In a POSIX bracket
# expression ']' comes first and '\' is itself.)
value='"([^]"\]|\\[]"\])*"'
param="[!#-~]{1,32}=$value"
sd="\\[nslogger@32473( $param)*\\]"
head='<[0-9]{1,3}>1 [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}(Z|[+-][0-9]{2}:[0-9]{2})'
re="^$head [!-~]{1,255} [!-~]{1,48} [!-~]{1,128} [!-~]{1,32} $sd( .*)?\$"
LC_ALL=C grep -Evc "$re" "$tmp/rfc" >"$tmp/count"
[ "$(cat "$tmp/count")" -eq 0 ]
result $? "RFC 5424: every message matches the grammar"
LC_ALL=C grep -Ev "$re" "$tmp/rfc" | sed 's/^/#   /'

grep -q 'container_name="we\\"b\\]\\\\1"' "$tmp/rfc"
result $? "RFC 5424: a value with \", ] and \\ escaped"

tail -n 1 "$tmp/rfc" | grep -q ' uid="65534" relayed="1" relay_pid="4242" unverified="1" stored_time="2023-11-14T22:13:21.000001Z" runtime="lxc"'
result $? "RFC 5424: a relayed record's params, after uid"
head -n 8 "$tmp/rfc" | grep -Eq 'relayed=|relay_pid=|unverified=|stored_time='
[ $? -eq 1 ]
result $? "RFC 5424: records not relayed have none of them"

tap_done
