# README.md's validation table ("How far to trust it") is the validation
# suite's current output: runs the suite (a few seconds) and compares
# (tests/validation/readme.sh --check).  $SR_BIN, not $SR: the suite's
# replays are too slow under valgrind.
set -u
: "${SR_BIN:?}" "${T:?}"
SWAPREPLAY=$SR_BIN sh "$T/validation/readme.sh" --check
