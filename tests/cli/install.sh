#!/bin/sh
# make install and make uninstall, into scratch folders, with the build of
# the binary under test (B is its folder): every file in its place (the
# binary, the library and headers, libswapreplay.pc, the manual pages, the
# bash completion), the .pc naming PREFIX and not DESTDIR, man finding the
# pages by name, uninstall leaving no file; then, against an install with
# no DESTDIR, policies/README.md's example policy and policies/fixed_node.c
# built with the README's pkg-config lines and replayed by the installed
# binary, and a program linked with `pkg-config --libs`.  pkg-config and man
# come from the project's deps (pkgconf, man-db): when missing, `make deps`
# installs them, as for every other package, or this test fails saying so.
R=$(cd "$T/.." && pwd)
CC=${CC:-cc}

. "$T/cli/lib/need.sh"
need pkg-config pkgconf install || exit 0
need man man-db install || exit 0

# The build folder of the binary under test, relative to the tree if in it.
B=$(dirname "$SR_BIN")
case $B in
"$R"/*) B=${B#"$R"/} ;;
esac
if [ ! -f "$R/$B/libswapreplay.a" ] && [ ! -f "$B/libswapreplay.a" ]; then
	echo "FAIL install: no libswapreplay.a beside $SR_BIN: this test installs that build (make B=DIR)"
	exit 0
fi

# mk TARGET VAR=VALUE...: make in the tree, quietly, as a fresh make.
mk() {
	(unset MAKEFLAGS MAKELEVEL MFLAGS; make -s -C "$R" B="$B" "$@") >"$W/make.out" 2>&1 ||
		{ echo "FAIL install: make $*: $(tail -5 "$W/make.out")"; return 1; }
}

FILES="bin/swapreplay lib/libswapreplay.a include/swapreplay/policy.h lib/pkgconfig/libswapreplay.pc
share/man/man1/swapreplay.1 share/man/man5/swapreplay-trace.5 share/man/man5/swapreplay-machine.5
share/bash-completion/completions/swapreplay"

# 1. DESTDIR and PREFIX.
D=$W/dest
P=/opt/swapreplay-test
if mk install DESTDIR="$D" PREFIX="$P"; then
	bad=0
	for f in $FILES; do
		[ -f "$D$P/$f" ] || { echo "FAIL install: make install DESTDIR=... PREFIX=... did not install $P/$f"; bad=1; }
	done
	for h in "$R"/include/swapreplay/*.h; do
		cmp -s "$h" "$D$P/include/swapreplay/$(basename "$h")" || { echo "FAIL install: $(basename "$h") not installed as it is"; bad=1; }
	done
	for m in swapreplay.1:man1 swapreplay-trace.5:man5 swapreplay-machine.5:man5; do
		cmp -s "$R/docs/man/${m%:*}" "$D$P/share/man/${m#*:}/${m%:*}" || { echo "FAIL install: ${m%:*} not installed as it is"; bad=1; }
	done
	cmp -s "$R/src/cli/completion/swapreplay.bash" "$D$P/share/bash-completion/completions/swapreplay" ||
		{ echo "FAIL install: the bash completion not installed as it is"; bad=1; }
	[ -x "$D$P/bin/swapreplay" ] || { echo "FAIL install: the binary is not executable"; bad=1; }
	[ $bad = 1 ] || echo "ok install: make install DESTDIR=... PREFIX=... puts the binary, library, headers, .pc, manual pages and bash completion in place"

	pc=$D$P/lib/pkgconfig/libswapreplay.pc
	grep -q "^prefix=$P\$" "$pc" && ! grep -qF "$D" "$pc" &&
		echo "ok install: libswapreplay.pc names PREFIX, not DESTDIR" ||
		echo "FAIL install: libswapreplay.pc: $(grep -E '^(prefix|libdir|includedir)=' "$pc" | tr '\n' ' ')"
	got=$(PKG_CONFIG_SYSROOT_DIR=$D PKG_CONFIG_PATH=$D$P/lib/pkgconfig pkg-config --cflags libswapreplay | sed 's/ *$//')
	want="-I$D$P/include"
	[ "$got" = "$want" ] && echo "ok install: pkg-config --cflags libswapreplay under DESTDIR (PKG_CONFIG_SYSROOT_DIR) gives $want" ||
		echo "FAIL install: pkg-config --cflags libswapreplay gave '$got', not '$want'"
	v=$($SR --version | sed 's/^swapreplay //')
	got=$(PKG_CONFIG_PATH=$D$P/lib/pkgconfig pkg-config --modversion libswapreplay)
	[ "$got" = "$v" ] && echo "ok install: libswapreplay.pc is version $v, the binary's" ||
		echo "FAIL install: libswapreplay.pc says version '$got', the binary $v"
	bad=0
	for m in swapreplay swapreplay-trace swapreplay-machine; do
		got=$(MANPATH=$D$P/share/man man -w "$m" 2>&1)
		case $got in
		"$D$P"/share/man/man[15]/"$m".[15]) ;;
		*) echo "FAIL install: man -w $m with MANPATH=PREFIX/share/man gave: $got"; bad=1 ;;
		esac
	done
	[ $bad = 1 ] || echo "ok install: man finds the 3 installed pages by name"

	if mk uninstall DESTDIR="$D" PREFIX="$P"; then
		left=$(find "$D" ! -type d)
		[ -z "$left" ] && echo "ok install: make uninstall removes every file make install put there" ||
			echo "FAIL install: make uninstall left: $(echo $left)"
	fi
fi

# 2. PREFIX alone: the README's policy builds against it and replays.
P=$W/prefix
if mk install PREFIX="$P"; then
	export PKG_CONFIG_PATH="$P/lib/pkgconfig"
	mkdir -p "$W/pol" && cd "$W/pol" || exit 1
	# The README's example and its build line, as written there.
	awk '/^## Writing one/ { f = 1 } f && /^```c$/ { p = 1; next } p && /^```$/ { exit } p' "$R/policies/README.md" >my_policy.c
	line=$(grep '^cc -shared -fPIC \$(pkg-config --cflags libswapreplay) my_policy.c -o my_policy.so$' "$R/policies/README.md")
	if [ ! -s my_policy.c ] || [ -z "$line" ]; then
		echo "FAIL install: policies/README.md has no example policy or no pkg-config build line for it"
	elif ! sh -c "$line" >build.out 2>&1 || [ ! -f my_policy.so ]; then
		echo "FAIL install: the README's line ($line) does not build its example: $(head -5 build.out)"
	else
		echo "ok install: policies/README.md's example builds with its pkg-config line"
	fi
	line=$(grep '^cc -shared -fPIC -DSR_POLICY_SHARED \$(pkg-config --cflags libswapreplay) fixed_node.c -o fixed_node.so$' "$R/policies/README.md")
	cp "$R/policies/fixed_node.c" .
	if [ -z "$line" ]; then
		echo "FAIL install: policies/README.md has no pkg-config build line for fixed_node.c"
	elif ! sh -c "$line" >build.out 2>&1 || [ ! -f fixed_node.so ]; then
		echo "FAIL install: the README's line ($line) does not build fixed_node.c: $(head -5 build.out)"
	else
		echo "ok install: policies/fixed_node.c builds out of tree with the README's pkg-config line"
	fi
	if [ -f my_policy.so ] && [ -f fixed_node.so ]; then
		"$P/bin/swapreplay" "$T/data/three.csv" -p ./fixed_node.so:1 -p ./my_policy.so -p fixed-node:1 \
			--format=csv >report.csv 2>report.err
		rc=$?
		if [ $rc != 0 ]; then
			echo "FAIL install: the installed swapreplay with the two policies: exit status $rc: $(head -3 report.err)"
		elif ! grep -q '^dma-by-page,' report.csv || ! grep -q '^\./fixed_node\.so:1,' report.csv; then
			echo "FAIL install: the report lacks the loaded policies: $(cut -d, -f1 report.csv | tr '\n' ' ')"
		elif [ "$(grep '^\./fixed_node\.so:1,' report.csv | cut -d, -f2-)" != "$(grep '^fixed-node:1,' report.csv | cut -d, -f2-)" ]; then
			echo "FAIL install: ./fixed_node.so:1 and the built-in fixed-node:1 give other figures: $(grep 'fixed' report.csv)"
		else
			echo "ok install: the installed swapreplay replays tests/data/three.csv with the two policies built against the install (fixed_node.so:1 as the built-in)"
		fi
	fi
	# A program linked with pkg-config --libs against the installed library.
	cat >prog.c <<'EOF'
#include <stdio.h>
#include "swapreplay/policy.h"
#include "swapreplay/version.h"

int main(void)
{
	const struct sr_policy_ops *const *b = sr_policy_builtins();
	int i;

	for (i = 0; b[i]; i++)
		printf("%s\n", b[i]->name);
	return 0;
}
EOF
	# A library built with sanitizers (make asan-test) links with them.
	syms=$(nm "$P/lib/libswapreplay.a" 2>/dev/null)
	san=
	case $syms in *__asan_*) san=address ;; esac
	case $syms in *__ubsan_*) san=${san:+$san,}undefined ;; esac
	[ -n "$san" ] && san=-fsanitize=$san
	# shellcheck disable=SC2046
	if $CC -std=c11 $san -o prog prog.c $(pkg-config --cflags --libs libswapreplay) >build.out 2>&1 &&
		./prog >got && $SR policies | awk '{ print $1 }' | cmp -s - got; then
		echo "ok install: a program links against the installed library with pkg-config --cflags --libs"
	else
		echo "FAIL install: a program built with pkg-config --cflags --libs libswapreplay: $(head -5 build.out)"
	fi
	cd "$W" && mk uninstall PREFIX="$P"
fi
