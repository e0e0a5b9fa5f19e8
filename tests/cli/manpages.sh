#!/bin/sh
# The manual pages (docs/man/) against the binary and the code: every
# command of the top-level help has a section in swapreplay(1); every option
# a command's help declares (its option lines and usage lines) is in a tag of
# that section, and every other --option its help names is in the section's
# text; the pages' version is the binary's; every built-in policy and preset,
# every trace field and every machine key the parser knows is described; the
# pages' examples read and load; and groff and man render each page without
# a warning.  groff and man come from the project's deps (groff-base,
# man-db): when missing, `make deps` installs them, as for every other
# package, or this test fails saying so.
R=$(cd "$T/.." && pwd)
M=$R/docs/man
PAGES="$M/swapreplay.1 $M/swapreplay-trace.5 $M/swapreplay-machine.5"

. "$T/cli/lib/need.sh"

# The text of a page's source with the escapes a name may hold undone:
# \- is -, fonts, \c, \& and \% are dropped.
plain() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(CW//g' -e 's/\\[c&%]//g' "$1"
}

# section CMD: swapreplay(1)'s section of CMD (.SS CMD up to the next
# heading), plain.
section() {
	plain "$M/swapreplay.1" | awk -v s=".SS $1" '$0 == s { f = 1; next } f && /^\.S[SH] / { exit } f'
}

# tags: the tag lines (the line after .TP or .TQ) of the text on standard
# input, macro names and quotes dropped.
tags() {
	awk '/^\.T[PQ]$/ { t = 1; next } t { t = 0; sub(/^\.[A-Z]+ /, ""); gsub(/"/, ""); print }'
}

# word WORD: WORD is on standard input as a whole word (options end at
# anything but a letter, digit or dash).
word() {
	grep -qE -- "(^|[^A-Za-z0-9_-])$1([^A-Za-z0-9_-]|\$)"
}

# The options a help text (file $1) declares, one a line (long names only,
# no value): its option lines (two spaces, a dash) and usage lines.
help_opts() {
	{
		grep '^  -' "$1" | sed 's/^  //; s/  .*//' | tr ',' '\n'
		grep -E '^(Usage:|       swapreplay )' "$1" | tr ' |' '\n\n'
	} | sed 's/^ *\[*//; s/\]* *$//' | grep -E '^--[a-z]' | sed -E 's/\[?=.*//' | sort -u
}

ok=1
need groff groff-base manpages || ok=0
need man man-db manpages || ok=0

# Rendering: no warning from groff (all warnings on) nor from man.
if [ $ok = 1 ]; then
	bad=0
	for p in $PAGES; do
		w=$(groff -man -ww -z "$p" 2>&1) || w="$w (exit status $?)"
		[ -z "$w" ] || { echo "FAIL manpages: groff -man -ww warns on $(basename "$p"): $w"; bad=1; }
		w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$p" 2>&1 >/dev/null) || w="$w (exit status $?)"
		[ -z "$w" ] || { echo "FAIL manpages: man --warnings -l warns on $(basename "$p"): $w"; bad=1; }
	done
	[ $bad = 1 ] || echo "ok manpages: groff and man render the 3 pages without a warning"
fi

# The version.
v=$($SR --version | sed 's/^swapreplay //')
bad=0
for p in $PAGES; do
	grep '^\.TH ' "$p" | grep -qF "\"swapreplay $v\"" ||
		{ echo "FAIL manpages: $(basename "$p")'s .TH does not say swapreplay $v: $(grep '^\.TH ' "$p")"; bad=1; }
done
[ $bad = 1 ] || echo "ok manpages: the pages are of swapreplay $v"

# Commands and their options.
cmds=$($SR --help | awk '/^Commands:/ { f = 1; next } f && /^$/ { exit } f { print $1 }')
bad=0
nopt=0
for c in $cmds; do
	section "$c" >"$W/sec"
	if [ ! -s "$W/sec" ]; then
		echo "FAIL manpages: swapreplay(1) has no section .SS $c"
		bad=1
		continue
	fi
	[ "$c" = help ] && continue
	$SR help "$c" >"$W/help.txt"
	tags <"$W/sec" >"$W/tags"
	for o in $(help_opts "$W/help.txt"); do
		nopt=$((nopt + 1))
		word "$o" <"$W/tags" || { echo "FAIL manpages: swapreplay help $c shows $o; swapreplay(1) has no .TP entry of it under $c"; bad=1; }
	done
	for o in $(grep -oE -- '--[a-z][a-z0-9-]*' "$W/help.txt" | sort -u); do
		word "$o" <"$W/sec" || { echo "FAIL manpages: swapreplay help $c names $o; swapreplay(1) does not, under $c"; bad=1; }
	done
	# Short options paired with a long one (-p, --policy) are in its tag.
	for p in $(grep '^  -[A-Za-z], --' "$W/help.txt" | sed 's/^  //; s/  .*//; s/[=[].*//; s/, /,/'); do
		grep -- "${p#*,}" "$W/tags" | word "${p%,*}" ||
			{ echo "FAIL manpages: swapreplay help $c pairs ${p%,*} with ${p#*,}; swapreplay(1)'s tag does not"; bad=1; }
	done
done
for o in -h --help -V --version; do
	plain "$M/swapreplay.1" | awk '/^\.SH SYNOPSIS/ { f = 1; next } f && /^\.SH / { exit } f' | word "$o" ||
		{ echo "FAIL manpages: the main option $o is not in swapreplay(1)'s synopsis"; bad=1; }
done
[ $bad = 1 ] || echo "ok manpages: swapreplay(1) has a section for each of the $(echo $cmds | wc -w) commands, with the $nopt options their help shows"

# Policies and presets.
bad=0
plain "$M/swapreplay.1" | awk '/^\.SH POLICIES/ { f = 1; next } f && /^\.SH / { exit } f' | tags >"$W/ptags"
for p in $($SR policies | awk '{ print $1 }'); do
	word "$p" <"$W/ptags" || { echo "FAIL manpages: the policy $p is not under POLICIES in swapreplay(1)"; bad=1; }
done
plain "$M/swapreplay-machine.5" | awk '/^\.SH PRESETS/ { f = 1; next } f && /^\.SH / { exit } f' | tags >"$W/mtags"
for p in $($SR machines | awk '/^$/ { exit } { print $1 }'); do
	grep -qx -- "$p" "$W/mtags" || { echo "FAIL manpages: the preset $p is not under PRESETS in swapreplay-machine(5)"; bad=1; }
done
[ $bad = 1 ] || echo "ok manpages: every built-in policy and machine preset is described"

# Trace fields and machine keys, as the code spells them.
bad=0
plain "$M/swapreplay-trace.5" | awk '/^\.SH THE EVENT/ { f = 1; next } f && /^\.S[SH] / { exit } f' | tags >"$W/ftags"
for f in $(sed -n '/sr_field_names\[SR_F_COUNT\]/,/^};/p' "$R/src/trace/event.c" | grep -oE '= "[a-z_]+"' | tr -d '="'); do
	awk '{ print $1 }' "$W/ftags" | grep -qx -- "$f" || { echo "FAIL manpages: the trace field $f is not under THE EVENT in swapreplay-trace(5)"; bad=1; }
done
plain "$M/swapreplay-machine.5" | awk '/^\.SH FORMAT/ { f = 1; next } f && /^\.SH / { exit } f' | tags >"$W/ktags"
keys=$( {
	grep -oE 'DF\("[a-z_]+"' "$R/src/machine/machine.c" | sed 's/DF("//; s/"//'
	awk '/static const char \*const (top|ikeys|mkeys|ckeys|nkeys|common)\[\]/ { f = 1 } f { print } f && /NULL/ { f = 0 }' \
		"$R/src/machine/machine.c" | grep -oE '"[a-z_]+"' | tr -d '"'
} | sort -u)
nk=0
for k in $keys; do
	nk=$((nk + 1))
	word "$k" <"$W/ktags" || { echo "FAIL manpages: the machine key $k is not in swapreplay-machine(5)'s FORMAT"; bad=1; }
done
[ "$nk" -ge 40 ] || { echo "FAIL manpages: found only $nk machine keys in src/machine/machine.c (has its layout changed?)"; bad=1; }
[ $bad = 1 ] || echo "ok manpages: every trace field and the $nk machine keys the code knows are described"

# The examples: lines between .EX and .EE after a '.\" example: NAME' mark.
example() {
	awk -v m="$2" '$0 == ".\\\" example: " m { f = 1; next } f && /^\.EX/ { p = 1; next } p && /^\.EE/ { exit } p' "$1" |
		sed -e 's/\\-/-/g' -e 's/\\e/\\/g'
}
bad=0
for x in csv:2 jsonl:1 tasks:2 vmstat:12288; do
	example "$M/swapreplay-trace.5" "${x%:*}" >"$W/ex.${x%:*}"
	got=$($SR stat "$W/ex.${x%:*}" 2>"$W/ex.err" | sed -n 's/^events: *\([0-9]*\).*/\1/p')
	[ "$got" = "${x#*:}" ] || { echo "FAIL manpages: swapreplay-trace(5)'s ${x%:*} example reads as $got events, not ${x#*:}: $(head -1 "$W/ex.err")"; bad=1; }
done
example "$M/swapreplay-machine.5" machine >"$W/ex.json"
$SR machines "$W/ex.json" >/dev/null 2>"$W/ex.err" ||
	{ echo "FAIL manpages: swapreplay-machine(5)'s example does not load: $(head -1 "$W/ex.err")"; bad=1; }
[ $bad = 1 ] || echo "ok manpages: the pages' trace and machine examples read and load"
