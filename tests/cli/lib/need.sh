# Sourced by tests/cli/*.sh (not a test itself: tests/run.sh runs only
# tests/cli/*.sh).  Needs R, the source tree.
#
# need TOOL PACKAGE TEST: TOOL is there, or `make deps` installs it (the
# project's own install of its packages: TOOL_PKGS and DOC_PKGS); else a FAIL
# line of TEST naming PACKAGE, and status 1.
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "# $1 is missing: make deps" >&2
	(unset MAKEFLAGS MAKELEVEL MFLAGS; make -s -C "$R" deps >&2)
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "FAIL $3: $1 is not installed and make deps did not install it (Debian package $2; see the Makefile's TOOL_PKGS and DOC_PKGS)"
	return 1
}
