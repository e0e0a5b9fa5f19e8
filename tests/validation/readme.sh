#!/bin/sh
# README.md's validation table, between its two marker lines
#
#   <!-- validation table: make validate-readme -->
#   <!-- end validation table -->
#
# is the suite's own output (tests/validation/run.sh --markdown).
#
#   sh tests/validation/readme.sh --write   rewrite that part of README.md
#   sh tests/validation/readme.sh --check   run the suite and compare: prints
#                                           "ok validation-readme" or a
#                                           "FAIL validation-readme: ..." line
#
# Environment: SWAPREPLAY (the binary; default build/swapreplay).  The JSON
# of --check goes to a scratch file, not build/validation.json.
set -u
V=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$V/../.." && pwd)
README=$ROOT/README.md
BEGIN='<!-- validation table: make validate-readme -->'
END='<!-- end validation table -->'
mode=${1:-}
case $mode in --write|--check) ;; *) echo "usage: $0 --write|--check" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ "$(grep -cxF "$BEGIN" "$README")" != 1 ] || [ "$(grep -cxF "$END" "$README")" != 1 ]; then
	echo "FAIL validation-readme: README.md needs one line '$BEGIN' and one '$END'"
	exit 1
fi
if [ "$mode" = --check ]; then
	json=$tmp/validation.json
else
	json=${VALIDATION_JSON:-$ROOT/build/validation.json}
fi
if ! VALIDATION_JSON=$json sh "$V/run.sh" --markdown >"$tmp/table" 2>"$tmp/err"; then
	echo "FAIL validation-readme: the suite failed: $(head -3 "$tmp/err")"
	exit 1
fi
awk -v b="$BEGIN" -v e="$END" -v t="$tmp/table" '
	$0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' "$README" >"$tmp/README.md"
if [ "$mode" = --write ]; then
	if cmp -s "$tmp/README.md" "$README"; then
		echo "README.md: validation table unchanged"
	else
		cat "$tmp/README.md" >"$README"
		echo "README.md: validation table rewritten"
	fi
elif cmp -s "$tmp/README.md" "$README"; then
	echo "ok validation-readme"
else
	echo "FAIL validation-readme: README.md's validation table is not the suite's current output: run make validate-readme"
	diff "$README" "$tmp/README.md" | head -10 | sed 's/^/    /'
fi
