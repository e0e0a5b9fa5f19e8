#!/bin/sh
# The bash completion, src/cli/completion/swapreplay.bash, driven as bash
# drives it: bash sources it, a line is split into COMP_WORDS as bash splits
# it (at blanks, and at '=' and ':' of COMP_WORDBREAKS), _swapreplay runs and
# COMPREPLY is checked.  Its option lists are checked against the --help
# texts, read here with a parser of this test's own: every option of a
# command's option lines and usage lines is offered, and nothing else; its
# value lists against the binary: every value offered is accepted, and every
# value of the binary's own "--OPT takes A, B or C" message that it accepts
# is offered.  bash is needed for bash's completion (it is on every Debian
# machine); the rest is POSIX sh.
R=$(cd "$T/.." && pwd)
COMP=$R/src/cli/completion/swapreplay.bash
if ! command -v bash >/dev/null 2>&1; then
	echo "FAIL completion: bash is not installed (it is Essential on Debian: apt-get install bash)"
	exit 0
fi
mkdir -p "$W/bin" "$W/empty"
ln -sf "$SR_BIN" "$W/bin/swapreplay"
PATH=$W/bin:$PATH
export PATH COMP

# The options a command's help declares: "LONG=" (takes a value), "LONG"
# (none, or an optional one after '=' only) and short ones, one a line;
# from its option lines (two spaces, a dash) and usage lines.
help_opts() {
	swapreplay help "$1" >"$W/help.txt"
	{
		grep '^  -' "$W/help.txt" | sed 's/^  //; s/  .*//' | tr ',' '\n' | sed 's/^ *//; s/ *$//'
		grep -E '^(Usage:|       swapreplay )' "$W/help.txt" | tr ' |' '\n\n' | sed 's/^\[*//; s/\]*$//'
	} | grep -E '^--?[A-Za-z]' | sed -E 's/\[=.*//; s/=.*/=/' | sort -u
}

# Every --option the help text names anywhere (prose included).
help_mentions() {
	swapreplay help "$1" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

cat >"$W/drive.bash" <<'EOF'
set -u
COMPOPT=
. "$COMP" || { echo "FAIL completion: $COMP does not source"; exit 1; }
compopt() { COMPOPT="$COMPOPT $*"; }
# comp LINE: complete at the end of LINE (COMPREPLY and COMPOPT).
comp() {
	local line=$1 rest
	COMP_WORDS=()
	rest=$line
	while [[ -n $rest ]]; do
		if [[ $rest =~ ^[[:space:]]+ ]]; then
			:
		elif [[ $COMP_WORDBREAKS == *=* && $rest =~ ^[=:]+ ]] ||
			[[ $COMP_WORDBREAKS == *=* && $rest =~ ^[^[:space:]=:]+ ]] ||
			[[ $COMP_WORDBREAKS != *=* && $rest =~ ^[^[:space:]]+ ]]; then
			COMP_WORDS+=("${BASH_REMATCH[0]}")
		fi
		rest=${rest:${#BASH_REMATCH[0]}}
	done
	[[ $line =~ [[:space:]]$ ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPOPT=
	COMPREPLY=()
	_swapreplay
}
# expect NAME LINE WANT...: COMPREPLY is exactly WANT (in any order).
expect() {
	local name=$1 line=$2 got want
	shift 2
	comp "$line"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	if [[ $got == "$want" ]]; then
		echo "ok completion: $name"
	else
		echo "FAIL completion: $name: '$line<TAB>' gave [$got], expected [$want]"
	fi
}
# has NAME LINE WANT...: COMPREPLY holds every WANT.
has() {
	local name=$1 line=$2 got w miss=
	shift 2
	comp "$line"
	got=$(printf '%s\n' "${COMPREPLY[@]}")
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$got" || miss="$miss $w"
	done
	if [[ -z $miss ]]; then
		echo "ok completion: $name"
	else
		echo "FAIL completion: $name: '$line<TAB>' lacks$miss (gave: $(tr '\n' ' ' <<<"$got"))"
	fi
}
cd "$W/empty"
expect command 'swapreplay st' stat
expect main-options 'swapreplay --v' --version
cmds=$(swapreplay --help | awk '/^Commands:/ { f = 1; next } f && /^$/ { exit } f { print $1 }')
expect commands-all 'swapreplay help ' $cmds
expect long-option 'swapreplay replay --form' --format=
[[ $COMPOPT == *nospace* ]] && echo "ok completion: --format= takes no space" ||
	echo "FAIL completion: --form<TAB> does not set nospace (compopt:$COMPOPT)"
expect format-values 'swapreplay replay --format=' text table json csv markdown
expect format-values-started 'swapreplay replay --format=ma' markdown
expect format-separate 'swapreplay replay --format ' text table json csv markdown
expect format-short 'swapreplay replay -f c' csv
expect default-command 'swapreplay trace.csv --plug=' on off
expect stat-format 'swapreplay stat --format=' text json
expect merge-format 'swapreplay merge --format=' jsonl csv
presets=$(swapreplay machines | awk '/^$/ { exit } { print $1 }')
has presets 'swapreplay replay -m ' 2s-nvme2 $presets
has presets-long 'swapreplay replay --machine=2s-' 2s-nvme2 2s-pmem2
expect presets-list 'swapreplay sweep -m 2s-nvme0,2s-pm' 2s-nvme0,2s-pmem2 2s-nvme0,2s-pmem-nvme
policies=$(swapreplay policies | awk '{ print $1 }')
has policies 'swapreplay replay -p ' hybrid all $policies
expect policies-list 'swapreplay replay --policy=hybrid,page-nid-' hybrid,page-nid-strict
has baseline 'swapreplay replay --baseline=' reclaimer-nid
expect machines-arg 'swapreplay machines 1s' 1s-zram
workloads=$(swapreplay gen @x@ 2>&1 | sed -n 's/.*the workloads are //p' | sed 's/, / /g; s/ and / /')
expect workloads 'swapreplay gen ' $workloads
expect gen-after-workload 'swapreplay gen swapin '
expect gen-readahead 'swapreplay gen swapin -o x.csv --readahead=' off cluster vma
expect double-dash 'swapreplay replay t.csv -- --fo'
# The same lines with '=' and ':' not word breaks: whole words come back.
COMP_WORDBREAKS=$' \t\n"'"'"'><;|&('
expect unsplit-values 'swapreplay replay --format=' --format=text --format=table --format=json --format=csv --format=markdown
expect unsplit-policy 'swapreplay replay --policy=hyb' --policy=hybrid
COMP_WORDBREAKS=$' \t\n"'"'"'><=;|&(:'
# Files.
mkdir -p "$W/files/sub" && cd "$W/files" && : >trace.csv && : >trace.swt
expect files 'swapreplay stat tr' trace.csv trace.swt
[[ $COMPOPT == *filenames* ]] && echo "ok completion: files are completed as file names" ||
	echo "FAIL completion: file arguments do not set -o filenames (compopt:$COMPOPT)"
expect files-default-command 'swapreplay s' stat sub sweep
expect files-output 'swapreplay replay t.csv -o tr' trace.csv trace.swt
expect files-list 'swapreplay sweep @tr' @trace.csv @trace.swt
expect dirs 'swapreplay machine --probe --sysfs-root=' sub
EOF
bash "$W/drive.bash" 2>"$W/drive.err"
[ -s "$W/drive.err" ] && { echo "FAIL completion: the completion wrote to standard error:"; sed 's/^/    /' "$W/drive.err"; }

# Options: for each command, what "swapreplay CMD -<TAB>" offers against
# the help.
cat >"$W/offer.bash" <<'EOF'
. "$COMP"
compopt() { :; }
COMP_WORDS=(swapreplay "$1" "$2"); COMP_CWORD=2; COMP_LINE="swapreplay $1 $2"; COMP_POINT=${#COMP_LINE}
_swapreplay
printf '%s\n' "${COMPREPLY[@]}"
EOF
cmds=$(swapreplay --help | awk '/^Commands:/ { f = 1; next } f && /^$/ { exit } f && $1 != "help" { print $1 }')
bad=0
n=0
for c in $cmds; do
	help_opts "$c" >"$W/want"
	help_mentions "$c" >"$W/mentions"
	(cd "$W/empty" && bash "$W/offer.bash" "$c" -) | sort -u >"$W/got"
	for o in $(cat "$W/want"); do
		grep -qxF -- "$o" "$W/got" || { echo "FAIL completion: swapreplay $c -<TAB> does not offer $o, which its help shows"; bad=1; }
	done
	for o in $(cat "$W/got"); do
		[ "$o" = --help ] && continue
		grep -qxF -- "$o" "$W/want" || { echo "FAIL completion: swapreplay $c -<TAB> offers $o, which its help does not show"; bad=1; }
		n=$((n + 1))
	done
done
[ $bad = 1 ] || echo "ok completion: the $n options offered are the help texts' options, command by command"

# Values: for each command's option that takes one, what "--OPT=<TAB>"
# offers against what the binary accepts.
bad=0
n=0
for c in $cmds; do
	swapreplay "$c" </dev/null 2>&1 | head -1 >"$W/base"
	for o in $(help_opts "$c" | grep '^--.*=$'); do
		(cd "$W/empty" && bash "$W/offer.bash" "$c" "$o") >"$W/vals"
		for v in $(cat "$W/vals"); do
			n=$((n + 1))
			swapreplay "$c" "$v" </dev/null 2>&1 | head -1 | cmp -s - "$W/base" ||
				{ echo "FAIL completion: swapreplay $c $v<TAB> is offered but refused: $(swapreplay "$c" "$v" </dev/null 2>&1 | head -1)"; bad=1; }
		done
		# The binary's own list of values, if the refusal gives one.
		list=$(swapreplay "$c" "$o@x@" </dev/null 2>&1 | head -1 | sed -n "s/.* takes \(.*\), not '@x@'.*/\1/p" |
			sed 's/ or /, /' | awk -F', ' '{ for (i = 1; i <= NF; i++) print $i }')
		printf '%s\n' "$list" | grep -qvE '^[a-z][a-z0-9-]*$' && continue
		for v in $list; do
			swapreplay "$c" "$o$v" </dev/null 2>&1 | head -1 | cmp -s - "$W/base" || continue
			grep -qxF -- "$o$v" "$W/vals" || { echo "FAIL completion: swapreplay $c $o<TAB> does not offer $v, which the binary takes"; bad=1; }
		done
	done
done
[ $bad = 1 ] || echo "ok completion: the $n option values offered are taken, and every value a command lists is offered"
