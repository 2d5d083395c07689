#!/usr/bin/env bash
# compare.sh BASE [HEAD]: build the golden dump of this checkout's
# bench/golden against the commit BASE and against HEAD, a commit, or by
# default this checkout's working tree as it is, and diff the two dumps.
#
# Each commit is checked out in a temporary git worktree, into which this
# checkout's bench/golden is copied, so that BASE may be a commit older than
# the command. The dumps are kept in OUT (default: a new temporary
# directory) as BASE.txt and HEAD.txt. GOLDEN_ARGS, if set, are passed to
# the command: sections to dump, -json.
#
# It exits 0 if the dumps are identical, 1 if they differ, after printing
# the cases that differ and the start of the diff, and 2 if a build fails.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 BASE [HEAD]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/golden-trees.XXXXXX")
trees=()
cleanup() {
	for t in "${trees[@]}"; do
		git -C "$repo" worktree remove --force "$t" >/dev/null 2>&1 || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

# dump NAME REV: build the command against REV, or the working tree if REV
# is empty, and write its dump to $out/NAME.txt.
dump() {
	local name=$1 rev=$2 dir
	if [ -z "$rev" ]; then
		dir=$repo
	else
		dir=$work/$name
		git -C "$repo" worktree add --detach --quiet "$dir" "$rev"
		trees+=("$dir")
		rm -rf "$dir/bench/golden"
		mkdir -p "$dir/bench"
		cp -R "$here" "$dir/bench/golden"
	fi
	if ! (cd "$dir" && go build -o "$work/golden-$name" ./bench/golden); then
		echo "golden: the build against ${rev:-the working tree} failed" >&2
		exit 2
	fi
	local start=$SECONDS
	# shellcheck disable=SC2086 # GOLDEN_ARGS is a list of words.
	"$work/golden-$name" ${GOLDEN_ARGS:-} >"$out/$name.txt"
	echo "$name: ${rev:-working tree} ($(git -C "$dir" rev-parse --short HEAD)$([ -z "$rev" ] && [ -n "$(git -C "$dir" status --porcelain)" ] && echo ", modified")): $(wc -l <"$out/$name.txt") lines in $((SECONDS - start)) s, $out/$name.txt"
}

dump BASE "$1"
dump HEAD "${2:-}"

if cmp -s "$out/BASE.txt" "$out/HEAD.txt"; then
	echo "identical"
	exit 0
fi
# Each line led by the name of its case, so that diff names the cases.
for name in BASE HEAD; do
	awk '/^=== /{c=$2} {print c "\t" $0}' "$out/$name.txt" >"$work/$name.cases"
done
cases=$(diff "$work/BASE.cases" "$work/HEAD.cases" | sed -n 's/^[<>] \([^	]*\)	.*/\1/p' | awk '!seen[$0]++' || true)
echo "the dumps differ in $(echo "$cases" | wc -l) cases:"
echo "$cases" | head -100
echo
echo "the start of the diff (diff -u -F '^=== ' $out/BASE.txt $out/HEAD.txt):"
{ diff -u -F '^=== ' "$out/BASE.txt" "$out/HEAD.txt" || true; } | head -200
exit 1
