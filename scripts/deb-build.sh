#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-build.sh - build the Debian packages (make deb).
#
#   scripts/deb-build.sh     build/deb/*.deb: nslogger-dkms, nslogger-tools,
#                            libnslog0, libnslog-dev (and their -dbgsym)
#
# dpkg-buildpackage -us -uc -b runs on a copy of the project's files (git's
# tracked and untracked ones, without what .gitignore names; every file
# but build/ outside git) in build/deb/nslogger-VERSION/, so that the
# tree's own build products stay out of the packages and the packages land
# in build/deb/. The build dependencies are debian/control's
# (scripts/deps.sh deb installs them); lintian runs if it is installed.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
project=$(cd "$here/.." && pwd -P)
out=$project/build/deb

case "${1:-}" in
"") ;;
-h|--help|*)
	sed -n '/^#   scripts\/deb-build.sh/,/^#  *libnslog0/s/^# \{0,1\}/ /p' "$0" >&2
	exit 2 ;;
esac

say() {
	echo "deb-build: $*" >&2
}

version=$(cat "$project/VERSION")
src=$out/nslogger-$version
t0=$(date +%s)

rm -rf "$out"
mkdir -p "$src"
if git -C "$project" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# Tracked files deleted in the tree are left out.
	# shellcheck disable=SC2016 # expanded by the inner shell
	git -C "$project" ls-files -z --cached --others --exclude-standard |
		(cd "$project" && xargs -0 sh -c 'for f; do if [ -e "$f" ]; then printf "%s\0" "$f"; fi; done' sh) |
		(cd "$project" && cpio -0 -pdm --quiet "$src")
else
	(cd "$project" && find . -path ./build -prune -o -type f -print0 |
		cpio -0 -pdm --quiet "$src")
fi
say "sources copied to ${src#"$project"/}"

(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	say "dpkg-buildpackage failed (build/deb/build.log)"
	exit 1
}
t1=$(date +%s)
say "built in $((t1 - t0)) s (build/deb/build.log):"
for deb in "$out"/*.deb; do
	echo "  ${deb##*/}" >&2
done

if command -v lintian >/dev/null 2>&1; then
	lintian --info "$out"/*.changes >"$out/lintian.log" 2>&1 || true
	say "lintian: $(grep -c '^[EW]:' "$out/lintian.log" || true) errors and warnings (build/deb/lintian.log)"
fi
