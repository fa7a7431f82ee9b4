#!/bin/sh
# The rooms of the house (ARCHITECTURE.md): every module of src/ lives in
# the folder of its room, every include of a local header names its
# folder ("engine/round.h"), and a room includes only its own headers and
# those of the rooms below it, in this order, lowest first:
#
#	base machine nfs backend target settings record engine report
#	page verbs run
#
# largedir.c, above them all, includes any.  ARCHITECTURE.md names every
# module (as src/ROOM/NAME.c) and every room.  make lint runs this too.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
order="base machine nfs backend target settings record engine report page verbs run"
cd "$top" || exit 2

# Nothing of the program outside a room.
for f in src/*.c src/*.h; do
	[ -e "$f" ] || continue
	fail "$f is in no room: move it into src/ROOM/"
done
for d in src/*/; do
	r=${d#src/}
	r=${r%/}
	case " $order " in
	*" $r "*) ;;
	*) fail "src/$r: not a room of the order in $0" ;;
	esac
done

# rank ROOM: its place in the order, from 1 (0: none).
rank() {
	rk_i=0
	for rk_r in $order; do
		rk_i=$((rk_i + 1))
		[ "$rk_r" != "$1" ] || { echo "$rk_i"; return; }
	done
	echo 0
}

for f in src/*/*.c src/*/*.h largedir.c; do
	case $f in
	largedir.c) me=99 ;;
	*)
		r=${f#src/}
		me=$(rank "${r%%/*}")
		;;
	esac
	# Each local include: "room/name.h", or gitid.h (made by make).
	grep -n '^#include "' "$f" | sed 's/^\([0-9]*\):#include "\([^"]*\)".*/\1 \2/' |
	    while read -r line h; do
		case $h in
		gitid.h) continue ;;
		*/*.h) ;;
		*) echo "$f:$line: \"$h\" names no room"; continue ;;
		esac
		[ -f "src/$h" ] || { echo "$f:$line: no src/$h"; continue; }
		hr=$(rank "${h%%/*}")
		r=${f#src/}
		r=${r%%/*}
		if [ "$hr" -gt "$me" ] || { [ "$hr" -eq "$me" ] &&
		    [ "${h%%/*}" != "$r" ]; }; then
			echo "$f:$line: includes $h: ${h%%/*} is not below ${r}"
		fi
	done >>"$T/bad"
done
if [ -s "$T/bad" ]; then
	cat "$T/bad" >&2
	fail "$(lines "$T/bad") includes go up or sideways (see above)"
fi

# ARCHITECTURE.md names every module and every room.
for f in src/*/*.c; do
	grep -qF "$f" ARCHITECTURE.md ||
	    fail "ARCHITECTURE.md does not name $f"
done
for r in $order; do
	grep -q "src/$r/" ARCHITECTURE.md ||
	    fail "ARCHITECTURE.md does not name the room src/$r/"
done
set -- src/*/*.c
nmod=$#
echo "ok: $nmod modules in $(echo "$order" | wc -w | tr -d ' ') rooms"
