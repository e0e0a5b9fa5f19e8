# bash completion for swapreplay(1)                       -*- shell-script -*-
# SPDX-License-Identifier: MIT
#
# Installed as PREFIX/share/bash-completion/completions/swapreplay, or
# sourced by hand: `. src/cli/completion/swapreplay.bash`.
#
# The commands and each command's options are read from the binary being
# completed at completion time (`swapreplay --help`, `swapreplay help CMD`),
# so that they cannot drift from the help texts; so are the machine presets
# (`swapreplay machines`), the policies (`swapreplay policies`) and gen's
# workloads.  The values of the options that take a fixed set are the help
# term's own (`--plug=on|off`) or the table in _swapreplay_values below,
# which tests/cli/completion.sh checks against what the binary accepts.
# Needs no bash-completion package: only bash's compgen and complete.

# The binary the line runs: its first word (a path or a name in PATH).
_swapreplay_bin()
{
	local b=${COMP_WORDS[0]}

	case $b in
	\~/*) b=$HOME/${b#\~/} ;;
	esac
	if [[ $b == */* ]]; then
		[[ -x $b ]] && { printf '%s\n' "$b"; return; }
	elif type -P -- "$b" >/dev/null 2>&1; then
		printf '%s\n' "$b"
		return
	fi
	printf '%s\n' swapreplay
}

# The commands of `swapreplay --help`, one a line.
_swapreplay_commands()
{
	"$1" --help 2>/dev/null | awk '/^Commands:/ { f = 1; next } f && /^$/ { exit } f { print $1 }'
}

# The options of `swapreplay help CMD`, one a line: LONG SHORT ARG VALUES,
# "-" for none.  ARG is "=" (a value), "[=" (an optional one, after = only)
# or "-" (none); VALUES the help term's own set (on|off), if any.  From the
# option lines (two spaces and a dash) and the usage lines.
_swapreplay_options()
{
	"$1" help "$2" 2>/dev/null | awk '
	# An option seen again (the usage line names it, then its own line)
	# is printed again only to pair it with its short name.
	function add(long, short, arg, vals) {
		key = long != "-" ? long : short
		if (key in seen && (short == "-" || (key in paired)))
			return
		seen[key] = 1
		if (short != "-")
			paired[key] = 1
		print long, short, arg, vals
	}
	# One option word such as --policy=LIST, --zstd[=LEVEL], --plug=on|off;
	# short is its short name when the help pairs them (-p, --policy).
	function word(w, short,   name, arg, vals, v) {
		name = w
		arg = "-"
		vals = "-"
		if (index(w, "[=")) {
			name = substr(w, 1, index(w, "[=") - 1)
			arg = "[="
		} else if (index(w, "=")) {
			name = substr(w, 1, index(w, "=") - 1)
			arg = "="
			v = substr(w, index(w, "=") + 1)
			if (v ~ /^[a-z0-9]+(\|[a-z0-9]+)+$/)
				vals = v
		}
		add(name, short, arg, vals)
	}
	/^  -/ {
		term = substr($0, 3)
		if (index(term, "  "))
			term = substr(term, 1, index(term, "  ") - 1)
		n = split(term, p, /, */)
		short = "-"
		for (i = 1; i <= n; i++) {
			if (p[i] ~ /^-[A-Za-z]$/)
				short = p[i]
			else if (p[i] ~ /^--[a-z]/) {
				word(p[i], short)
				short = "-"
			}
		}
		if (short != "-")
			add("-", short, "-", "-")
		next
	}
	/^Usage:/ || /^       swapreplay / {
		n = split($0, w, / +/)
		for (i = 1; i <= n; i++) {
			t = w[i]
			gsub(/^\[+|\]+$/, "", t)
			if (t !~ /^-/)
				continue
			# --run-index=I|--shard=I/N, -h|--help; a value set stays whole.
			m = split(t, q, /\|/)
			cur = q[1]
			for (j = 2; j <= m + 1; j++) {
				if (j <= m && q[j] !~ /^-/) {
					cur = cur "|" q[j]
					continue
				}
				if (cur ~ /^--[a-z]/)
					word(cur, "-")
				else if (cur ~ /^-[A-Za-z]$/) {
					nx = w[i + 1]
					gsub(/\]+$/, "", nx)
					add("-", cur, nx ~ /^[A-Z][A-Z]*$/ ? "=" : "-", "-")
				}
				if (j <= m)
					cur = q[j]
			}
		}
	}'
}

# The values of option OPT (a long name) of command CMD that take a fixed
# set and whose help term does not spell it out.
_swapreplay_values()
{
	case $1:$2 in
	replay:--format) echo text table json csv markdown ;;
	compare:--format) echo text json csv ;;
	sweep:--format) echo jsonl csv ;;
	replay:--input-format | sweep:--input-format) echo auto csv jsonl swt ;;
	convert:--input-format | stat:--input-format) echo auto csv jsonl swt vmstat ;;
	convert:--to | gen:--to | capture-fixup:--to) echo csv jsonl swt ;;
	replay:--readahead | sweep:--readahead) echo auto off cluster vma ;;
	*:--readahead-window) echo adaptive fixed ;;
	*:--readahead-holes) echo skip stop ;;
	gen:--thp-swapin) echo whole split ;;
	gen:--reclaim) echo memcg global ;;
	esac
}

_swapreplay_presets()
{
	"$1" machines 2>/dev/null | awk '/^$/ { exit } { print $1 }'
}

_swapreplay_policies()
{
	echo all
	"$1" policies 2>/dev/null | awk '{ print $1 }'
}

_swapreplay_workloads()
{
	"$1" help gen 2>/dev/null | awk '/^Workloads/ { f = 1; next } f && /^$/ { exit } f && /^  [a-z]/ { print $1 }'
}

# Words: list WORD...: the words that start with $1, each with $2 before it.
_swapreplay_add()
{
	local pre=$1 want=$2 w
	shift 2
	for w in "$@"; do
		[[ $pre$w == "$want"* ]] && _swapreplay_out+=("$pre$w")
	done
}

# Files and directories under $2, each with $1 before it; $3 "-d" for
# directories only.
_swapreplay_files()
{
	local pre=$1 part=$2 f
	local -a found
	if [[ ${3-} == -d ]]; then
		mapfile -t found < <(compgen -d -- "$part")
	else
		mapfile -t found < <(compgen -f -- "$part")
	fi
	for f in "${found[@]}"; do
		_swapreplay_out+=("$pre$f")
	done
	_swapreplay_isfile=1
}

# The value of option OPT of command CMD: $1 CMD, $2 OPT (long, or a short
# one without a long name), $3 the value so far, $4 what comes before it
# in the word, $5 the binary, $6 the help term's values.
_swapreplay_value()
{
	local cmd=$1 opt=$2 val=$3 pre=$4 bin=$5 tvals=$6 head=
	local -a set

	case $opt in
	--policy | --baseline | --machine)
		# Lists: complete the last item.
		if [[ $opt != --baseline && $val == *,* ]] && [[ $opt == --policy || $cmd == sweep ]]; then
			head=${val%,*},
			val=${val##*,}
		fi
		if [[ $opt == --machine ]]; then
			mapfile -t set < <(_swapreplay_presets "$bin")
		elif [[ $opt == --baseline ]]; then
			mapfile -t set < <(_swapreplay_policies "$bin" | grep -vx all)
		else
			mapfile -t set < <(_swapreplay_policies "$bin")
		fi
		_swapreplay_add "$pre$head" "$pre$head$val" "${set[@]}"
		_swapreplay_files "$pre$head" "$val"
		return
		;;
	--output | --plan | --plot | -o)
		_swapreplay_files "$pre" "$val"
		return
		;;
	--sysfs-root | --cgroup-root)
		_swapreplay_files "$pre" "$val" -d
		return
		;;
	esac
	if [[ $tvals != - ]]; then
		set=(${tvals//|/ })
	else
		set=($(_swapreplay_values "$cmd" "$opt"))
	fi
	_swapreplay_add "$pre" "$pre$val" "${set[@]}"
}

_swapreplay()
{
	local bin cmd cur i n brk=${COMP_WORDBREAKS:-=:} rl
	local -a words opts cmds set
	local -A argof longof valsof
	_swapreplay_out=()
	_swapreplay_isfile=
	COMPREPLY=()

	# Join the words bash split at '=' and ':' (COMP_WORDBREAKS) back into
	# the words swapreplay sees: --format = te -> --format=te.
	for ((i = 0; i <= COMP_CWORD && i < ${#COMP_WORDS[@]}; i++)); do
		local w=${COMP_WORDS[i]}
		if ((i > 0)) && [[ -n $w && -z ${w//[=:]/} ]]; then
			words[${#words[@]} - 1]+=$w
		elif ((i > 0)) && [[ -n ${COMP_WORDS[i - 1]} && -z ${COMP_WORDS[i - 1]//[=:]/} ]] &&
			! [[ -z $w && ${COMP_LINE-} && ${COMP_LINE:${COMP_POINT:-0}-1:1} == [[:space:]] ]]; then
			words[${#words[@]} - 1]+=$w
		else
			words+=("$w")
		fi
	done
	((COMP_CWORD >= ${#COMP_WORDS[@]})) && words+=("")
	n=$((${#words[@]} - 1))
	cur=${words[n]}
	# What readline replaces: the text after the last '=' or ':' bash split at.
	rl=${COMP_WORDS[COMP_CWORD]-}
	[[ -n $rl && -z ${rl//[=:]/} ]] && rl=
	local pre=${cur%"$rl"}

	bin=$(_swapreplay_bin)
	mapfile -t cmds < <(_swapreplay_commands "$bin")

	if ((n == 1)); then
		if [[ $cur == -* ]]; then
			_swapreplay_add "" "$cur" -h --help -V --version
		else
			_swapreplay_add "" "$cur" "${cmds[@]}"
			_swapreplay_files "" "$cur"
		fi
	else
		cmd=replay
		for i in "${cmds[@]}"; do
			[[ ${words[1]} == "$i" ]] && cmd=$i
		done
		local first=2
		[[ $cmd == replay && ${words[1]} != replay ]] && first=1

		if [[ $cmd == help ]]; then
			((n == 2)) && _swapreplay_add "" "$cur" "${cmds[@]}"
		else
			local long short arg vals
			while read -r long short arg vals; do
				if [[ $long != - ]]; then
					[[ -z ${argof[$long]+x} ]] && opts+=("$long")
					argof[$long]=$arg
					[[ $vals != - || -z ${valsof[$long]-} ]] && valsof[$long]=$vals
					[[ $short != - ]] && longof[$short]=$long
				fi
				if [[ $short != - && -z ${argof[$short]-} ]]; then
					opts+=("$short")
					argof[$short]=$arg
				fi
			done < <(_swapreplay_options "$bin" "$cmd")

			# Where options end ("--"), and the positional words so far.
			local dashdash= prev= npos=0 o
			for ((i = first; i < n; i++)); do
				o=${words[i]}
				if [[ -n $dashdash ]]; then
					((npos++))
				elif [[ -n $prev ]]; then
					prev=
				elif [[ $o == -- ]]; then
					dashdash=1
				elif [[ $o == --*=* || $o == - ]]; then
					[[ $o == - ]] && ((npos++))
				elif [[ $o == -* ]]; then
					[[ -n ${longof[$o]-} ]] && o=${longof[$o]}
					[[ ${argof[$o]-} == "=" ]] && prev=$o
				else
					((npos++))
				fi
			done

			if [[ -n $prev ]]; then
				# The word after an option that takes a value.
				_swapreplay_value "$cmd" "$prev" "$cur" "" "$bin" "${valsof[$prev]:--}"
			elif [[ -z $dashdash && $cur == --*=* ]]; then
				o=${cur%%=*}
				[[ ${argof[$o]-} == "=" || ${argof[$o]-} == "[=" ]] &&
					_swapreplay_value "$cmd" "$o" "${cur#*=}" "$o=" "$bin" "${valsof[$o]:--}"
			elif [[ -z $dashdash && $cur == -* ]]; then
				set=()
				for o in "${opts[@]}"; do
					[[ ${argof[$o]} == "=" && $o == --* ]] && set+=("$o=") || set+=("$o")
				done
				_swapreplay_add "" "$cur" "${set[@]}" --help
			else
				case $cmd in
				gen) ((npos == 0)) && mapfile -t set < <(_swapreplay_workloads "$bin") &&
					_swapreplay_add "" "$cur" "${set[@]}" ;;
				machines)
					if ((npos == 0)); then
						mapfile -t set < <(_swapreplay_presets "$bin")
						_swapreplay_add "" "$cur" "${set[@]}"
						_swapreplay_files "" "$cur"
					fi ;;
				policies | machine) ;;
				sweep)
					if [[ $cur == @* ]]; then
						_swapreplay_files "@" "${cur#@}"
					else
						_swapreplay_files "" "$cur"
					fi ;;
				*) _swapreplay_files "" "$cur" ;;
				esac
			fi
		fi
	fi

	# Hand readline its own part of each word.
	for i in "${_swapreplay_out[@]}"; do
		COMPREPLY+=("${i#"$pre"}")
	done
	for i in "${_swapreplay_out[@]}"; do
		if [[ $i == *= ]]; then
			compopt -o nospace 2>/dev/null
			break
		fi
	done
	[[ -n $_swapreplay_isfile ]] && compopt -o filenames 2>/dev/null
	return 0
}

complete -F _swapreplay swapreplay
