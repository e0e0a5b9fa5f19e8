#!/bin/sh
# Every path of this repository that a doc, a help text or a comment names
# exists: words starting with one of the repository's folders (src/, docs/,
# include/swapreplay/, traces/, tests/, policies/, .ci/), as written or
# relative to the naming file's folder (../traces/...).  Patterns
# (fuzz_<target>.c, sample.*, $(B)/...) and kernel paths (mm/swapfile.c,
# include/linux/...) are not this repository's and are not checked.
R=$(cd "$T/.." && pwd)
# The words that look like this repository's paths, one per line, from
# standard input.
paths() {
	grep -oE '(^|[^A-Za-z0-9_./$)-])(\.\./)*(src|docs|include/swapreplay|traces|tests|policies|\.ci)/[A-Za-z0-9_./-]*[A-Za-z0-9_]([<*{$%]|\.\*)?' |
		sed -E 's/^[^.a-z]//' | grep -vE '([<*{$%]|\.\*)$'
}
# check WHAT DIR: each path on standard input exists in the repository or
# relative to DIR.
bad=0
check() {
	while read -r p; do
		[ -e "$R/$p" ] || [ -e "$R/$2/$p" ] || { echo "FAIL docpaths: $1 names $p, which does not exist"; bad=1; }
	done
}
cd "$R" || exit 1
files=$(find . -path ./.git -prune -o -path './build*' -prune -o -path ./tests/fuzz/corpus -prune \
	-o -path ./tests/cli/cases -prune -o -type f \( -name '*.md' -o -name '*.c' -o -name '*.h' \
	-o -name '*.sh' -o -name '*.mk' -o -name Makefile -o -name run -o -name '*.bt' \
	-o -name '*.[15]' -o -name '*.bash' -o -name '*.pc.in' \) -print | sort)
for f in $files; do
	f=${f#./}
	paths <"$f" | sort -u >"$W/paths"
	check "$f" "$(dirname "$f")" <"$W/paths"
done
[ $bad = 1 ] || echo "ok docpaths: every repository path named in $(echo "$files" | wc -l) files exists"
# The help texts.
bad=0
for c in "" replay convert stat compare gen sweep merge policies machines machine capture-fixup; do
	if [ -z "$c" ]; then
		$SR --help
	else
		$SR help "$c"
	fi >"$W/help" 2>&1
	paths <"$W/help" | sort -u >"$W/paths"
	check "help ${c:-(main)}" . <"$W/paths"
done
[ $bad = 1 ] || echo "ok docpaths: every repository path named in the help texts exists"
