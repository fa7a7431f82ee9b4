#!/bin/sh
# The progress line: on stderr when stderr is a terminal, never in a file,
# never with -q; -q also silences stdout.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd script

mkdir "$T/d"

# quote WORD: WORD in single quotes, for the command string of script(1).
quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# noprogress FILE WHAT: fail unless FILE (WHAT) is free of progress text.
noprogress() {
	[ "$(tr -cd '\r\033' <"$1" | wc -c)" -eq 0 ] ||
	    fail "$2: carriage returns or escapes in $1"
	! grep -q 'ETA' "$1" || fail "$2: ETA in $1"
}

# nowarnings FILE: FILE without largedir's warnings (a busy machine may
# cause one; they are diagnostics, not progress).
nowarnings() {
	tr -d '\r' <"$1" | grep -v '^largedir: warning: ' || true
}

# On a pty, with stdout to a file: what the pty shows is stderr, and it
# has the progress line (3 s is enough for several 250 ms refreshes).
script -qfec "$(quote "$LD") -b 3s -o $(quote "$T/res") --label tty \
$(quote "$T/d") >$(quote "$T/tty.stdout")" /dev/null >"$T/tty.pty" \
    </dev/null || fail "the run on a pty failed (exit $?)"
grep -q 'ETA' "$T/tty.pty" || fail "no progress line on a terminal"
grep -Eq 'round [0-9]+ +n=' "$T/tty.pty" ||
    fail "the progress line does not say the round"
# Redrawn in place: carriage return, erase to the end of the line.
grep -q "$(printf '\r\033')\\[Kround [0-9]" "$T/tty.pty" ||
    fail "the progress line is not redrawn in place (CR, ESC [K)"
noprogress "$T/tty.stdout" "stdout with a terminal stderr"
grep -q '^round ' "$T/tty.stdout" || fail "no round lines on stdout"

# Without a terminal: no progress at all, though the run is as long.
expect_exit 0 "$LD" -b 3s -o "$T/res" --label file "$T/d" \
    >"$T/file.stdout" 2>"$T/file.stderr"
noprogress "$T/file.stderr" "stderr to a file"
noprogress "$T/file.stdout" "stdout to a file"
grep -q '^round ' "$T/file.stdout" || fail "no round lines on stdout"

# -q: nothing on stdout or stderr, to files or to a terminal.
expect_exit 0 "$LD" -q --start 1000 --max-files 2250 -o "$T/res" \
    --label quiet "$T/d" >"$T/q.stdout" 2>"$T/q.stderr"
[ ! -s "$T/q.stdout" ] || fail "-q: stdout: $(head -n 3 "$T/q.stdout")"
[ -z "$(nowarnings "$T/q.stderr")" ] ||
    fail "-q: stderr: $(nowarnings "$T/q.stderr" | head -n 3)"
[ -s "$T/res/quiet.json" ] || fail "-q: no results"
script -qfec "$(quote "$LD") -q -b 2s -o $(quote "$T/res") --label qtty \
$(quote "$T/d")" /dev/null >"$T/qtty.pty" </dev/null ||
    fail "-q on a pty failed (exit $?)"
[ -z "$(nowarnings "$T/qtty.pty")" ] ||
    fail "-q on a terminal: $(nowarnings "$T/qtty.pty" | head -c 300)"
[ -s "$T/res/qtty.json" ] || fail "-q on a pty: no results"

[ -z "$(ls -A "$T/d")" ] || fail "left behind: $(ls -A "$T/d")"
exit 0
