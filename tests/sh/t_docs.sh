#!/bin/sh
# The documentation matches the program: the manual is lint-clean and
# names every option largedir -h lists, every option of its SYNOPSIS is
# one largedir accepts, every subcommand answers --help, and the two
# READMEs point at each other and say how to run the demo and the tests.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
man=$top/largedir.1

# The READMEs: each links to the other on its first line.
for f in README.md README.de.md; do
	[ -s "$top/$f" ] || fail "$f is missing"
	for s in 'make demo' 'make check'; do
		grep -qF "$s" "$top/$f" || fail "$f does not mention '$s'"
	done
done
head -n 1 "$top/README.md" |
    grep -Eq '\]\(README\.de\.md\)|href="README\.de\.md"' ||
    fail "README.md: no link to README.de.md on line 1"
head -n 1 "$top/README.de.md" |
    grep -Eq '\]\(README\.md\)|href="README\.md"' ||
    fail "README.de.md: no link to README.md on line 1"

# The manual is part of the project, and mandoc is a test dependency.
[ -s "$man" ] || fail "largedir.1 is missing or empty"
need_dep mandoc mandoc

# mandoc -Tlint: not a word at level warning or above.
mandoc -Tlint -Wwarning "$man" >"$T/lint" 2>&1 || true
[ ! -s "$T/lint" ] || fail "mandoc -Tlint: $(head -n 5 "$T/lint")"

# Every long option of largedir -h is in the manual, as "Fl -name" in
# the source or "--name" in the rendered text.
expect_exit 0 "$LD" -h >"$T/help"
grep -Eo -- '--[a-z][a-z0-9-]*' "$T/help" | sort -u >"$T/longopts"
[ "$(lines "$T/longopts")" -ge 10 ] ||
    fail "largedir -h lists only $(lines "$T/longopts") long options"
mandoc -Tascii "$man" | col -bx >"$T/man.txt"
while read -r o; do
	name=${o#--}
	grep -Eq "Fl -$name([^a-z0-9-]|\$)" "$man" ||
	    grep -Eq -- "--$name([^a-z0-9-]|\$)" "$T/man.txt" ||
	    fail "largedir.1 does not document $o"
done <"$T/longopts"

# Every option of the SYNOPSIS: "Fl hqV" is three short options, "Fl -x"
# the long option --x; an Ar or Cm right after gives a value to pass.  A
# ".Cm verb" right after ".Nm largedir" makes the options that follow the
# verb's ("-" for none).
awk '
/^\.Sh / { insyn = $2 == "SYNOPSIS"; next }
!insyn { next }
/^\.Nm/ { verb = "-"; first = 1; next }
/^\.Cm / && first { verb = $2; first = 0; next }
{ first = 0 }
{
	for (i = 1; i <= NF; i++) {
		if (($i != "Fl" && $i != ".Fl") || i == NF)
			continue
		f = $(i + 1)
		gsub(/[^A-Za-z0-9-]/, "", f)
		v = ""
		if (i + 3 <= NF && ($(i + 2) == "Ar" || $(i + 2) == "Cm"))
			v = $(i + 3)
		if (f ~ /^-/)
			print verb, "-" f, v
		else
			for (j = 1; j <= length(f); j++)
				print verb, "-" substr(f, j, 1), v
	}
}' "$man" | sort -u >"$T/synopsis"
[ -s "$T/synopsis" ] || fail "no options found in the SYNOPSIS"

# accepted VERB OPT [VALUE]: largedir VERB ("-": none) recognises OPT (it
# may still refuse the value or the missing directory, but not the
# option).
accepted() {
	ac_verb=$1
	shift
	[ "$ac_verb" = - ] || set -- "$ac_verb" "$@"
	set +e
	"$LD" "$@" "$T/no-such-dir" >/dev/null 2>"$T/err"
	rc=$?
	set -e
	! grep -qi 'unknown option\|unrecognized option\|invalid option' \
	    "$T/err" && [ "$rc" -ne 1 ] && [ "$rc" -lt 128 ]
}
! accepted - --no-such-option || fail "the check accepts anything"
! accepted - -Z || fail "the check accepts anything"
! accepted nfsstat --no-such-option || fail "the check accepts anything"
while read -r verb o v; do
	if [ -n "$v" ]; then
		accepted "$verb" "$o" "$v" ||
		    fail "SYNOPSIS has $verb $o $v, largedir says: $(cat "$T/err")"
	else
		accepted "$verb" "$o" ||
		    fail "SYNOPSIS has $verb $o, largedir says: $(cat "$T/err")"
	fi
done <"$T/synopsis"

# The usage line of -h and the SYNOPSIS of the manual name the same
# options of a run.
"$LD" -h | sed -n '1,/^ *largedir -c/p' | sed '$d' |
    grep -o -- '--[a-z-]*\|\[-[a-zA-Z]\b' | tr -d '[' | sort -u >"$T/h-syn"
awk '/^\.Sh SYNOPSIS/ { f = 1 } f && /^\.Nm largedir$/ && n++ == 1 { f = 0 } f' \
    "$man" | grep -o 'Fl -[a-z-]*\|Fl [a-zA-Z]\b' |
    sed 's/^Fl -/--/; s/^Fl /-/' | sort -u >"$T/m-syn"
cmp -s "$T/h-syn" "$T/m-syn" || {
	diff "$T/h-syn" "$T/m-syn" >&2 || true
	fail "largedir -h and the SYNOPSIS of largedir.1 name other options"
}

# Every subcommand answers --help: exit 0, its usage on stdout, nothing
# on stderr.
for verb in suite compare plot page cleanup nfsstat table; do
	set +e
	"$LD" "$verb" --help >"$T/help" 2>"$T/err"
	rc=$?
	set -e
	[ "$rc" = 0 ] || fail "largedir $verb --help: exit $rc: $(cat "$T/err")"
	[ ! -s "$T/err" ] || fail "largedir $verb --help: $(cat "$T/err")"
	grep -q "usage: .*largedir $verb\|^ *largedir $verb " "$T/help" ||
	    fail "largedir $verb --help: no usage of $verb: $(head -n 2 "$T/help")"
	# More than the usage: what the verb does.
	[ "$(wc -l <"$T/help")" -gt 3 ] ||
	    fail "largedir $verb --help: only $(wc -l <"$T/help") lines"
	# largedir help VERB says the same.
	"$LD" help "$verb" >"$T/help2" 2>&1 ||
	    fail "largedir help $verb: exit $?"
	cmp -s "$T/help" "$T/help2" || fail "largedir help $verb differs"
done
# largedir help: what -h prints; an unknown verb is refused in one line.
"$LD" help >"$T/help" 2>&1 || fail "largedir help: exit $?"
"$LD" -h >"$T/h" 2>&1
cmp -s "$T/help" "$T/h" || fail "largedir help is not largedir -h"
expect_exit 2 "$LD" help bogus 2>"$T/err"
if [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q "no verb 'bogus'" "$T/err"
then
	fail "largedir help bogus: $(cat "$T/err")"
fi
# A config named without its directory: where the shipped ones are.
(cd "$T" && expect_exit 2 "$LD" -c ext4.conf 2>"$T/err")
grep -q "ext4.conf: No such file or directory (the configs largedir ships are in configs/" \
    "$T/err" || fail "-c ext4.conf: $(cat "$T/err")"
exit 0
