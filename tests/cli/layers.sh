#!/bin/sh
# The includes of each layer agree with docs/ARCHITECTURE.md's table ("it
# may use"): a header of another layer, or a public header of one, that
# the table does not allow is a failure naming the file and the line.
# Every layer may use common; a layer always uses its own folder and its
# own public headers.
A="$T/../docs/ARCHITECTURE.md"
S="$T/.."

# Each layer's own headers: its folder's, and the public headers it
# implements.
own() {
	case $1 in
	common) echo "common/ swapreplay/error.h swapreplay/event.h swapreplay/outfile.h swapreplay/version.h" ;;
	trace) echo "trace/ swapreplay/trace.h swapreplay/stat.h" ;;
	machine) echo "machine/ swapreplay/machine.h" ;;
	mm) echo "mm/ swapreplay/kernel.h swapreplay/policy.h" ;;
	replay) echo "replay/ swapreplay/replay.h swapreplay/result.h" ;;
	policies) echo "" ;;
	*) echo "$1/ swapreplay/$1.h" ;;
	esac
}

# What a phrase of the table's "it may use" allows.
allows() {
	case $1 in
	"everything above"*) echo "$above" ;;
	"the public headers"*) echo "swapreplay/" ;;
	"the policies' header"* | "\`include/swapreplay/policy.h\`"*) echo "swapreplay/policy.h" ;;
	"block's headers"*) own block ;;
	"mm's kernel generations"* | "the kernel's generation"*) echo "swapreplay/kernel.h" ;;
	"replay's result"* | "the result structs"*) echo "swapreplay/result.h" ;;
	common* | trace* | machine* | mm* | replay* | report* | sweep* | hw*)
		own "$(echo "$1" | sed 's/[^a-z].*//')" ;;
	libc* | jansson* | cairo*) echo "" ;;
	*) echo "UNKNOWN:$1" ;;
	esac
}

rows=$(grep '^| `src/[a-z]*/` |\|^| `policies/` |' "$A")
[ -n "$rows" ] || { echo "FAIL layers: no table in docs/ARCHITECTURE.md"; exit 0; }
above=""
bad=0
n=0
echo "$rows" | sed 's/^| `\([a-z/]*\)` | [^|]* | \(.*\) |$/\1|\2/' >"$W/rows"
while IFS='|' read -r dir uses; do
	layer=$(basename "$dir")
	# The phrases, split at commas outside parentheses.
	phrases=$(printf '%s\n' "$uses" | awk '{ d = 0; s = ""
		for (i = 1; i <= length($0); i++) { c = substr($0, i, 1)
			if (c == "(") d++; if (c == ")") d--
			if (c == "," && d == 0) { print s; s = "" } else s = s c }
		print s }' | sed 's/^ *//')
	ok="$(own "$layer") $(own common)"
	while IFS= read -r ph; do
		[ -n "$ph" ] && ok="$ok $(allows "$ph")"
	done <<PH
$phrases
PH
	case $ok in
	*UNKNOWN:*) echo "FAIL layers: $dir: a phrase the check does not know: $(echo "$ok" | sed 's/.*UNKNOWN://')"; bad=1 ;;
	esac
	for f in "$S/$dir"*.c "$S/$dir"*.h; do
		[ -f "$f" ] || continue
		grep -n '^#include "' "$f" | sed 's/^\([0-9]*\):#include "\([^"]*\)".*/\1 \2/' |
		while read -r line inc; do
			hit=0
			# A header named without a folder is the layer's own.
			case $inc in */*) ;; *) hit=1 ;; esac
			for a in $ok; do
				case $inc in "$a"*) hit=1; break ;; esac
			done
			[ $hit = 1 ] || echo "FAIL layers: ${f#$S/}:$line includes $inc, which docs/ARCHITECTURE.md does not let $dir use"
		done >>"$W/fails"
		n=$((n + 1))
	done
	above="$above $(own "$layer")"
done <"$W/rows"
# (n counted in the loop's shell: the loop reads a file, not a pipe.)
[ -s "$W/fails" ] && cat "$W/fails"
[ $bad = 0 ] && [ ! -s "$W/fails" ] && [ $n -gt 100 ] &&
	echo "ok layers: the includes of $n files are what docs/ARCHITECTURE.md's table lets their layers use"
